internal import CMedia

/// Writes what encoders produce into one file: opens each encoder for the container (with
/// `AV_CODEC_FLAG_GLOBAL_HEADER` where the muxer wants out-of-band headers), adds its stream, and moves every packet
/// an encoder gives into the muxer, its timestamps rescaled from the encoder's time base to the stream's
/// (`avcodec_send_frame` / `avcodec_receive_packet`, `av_packet_rescale_ts`, `av_interleaved_write_frame`).
///
/// The writer of lossless test media (``SyntheticMediaWriter``) and tests that write media of their own share it.
/// Owns the ``OutputFile``, the encoders handed to ``addStream(_:options:)`` and one ``Packet``; each is freed by
/// its own `deinit`. Confined to the thread that uses it; not `Sendable`.
package final class EncodingMuxer {
    /// Which step failed, so that callers can name it in their own errors.
    package enum Failure: Error {
        /// The encoder refused a frame (`avcodec_send_frame`).
        case encoding(FFmpegError)
        /// Taking a packet from the encoder or writing it failed (`avcodec_receive_packet`,
        /// `av_interleaved_write_frame`).
        case writing(FFmpegError)
    }

    /// The file being written.
    package let output: OutputFile
    /// Set when the output is cut into segments: packets go through it instead of straight to ``output``.
    private let segmenter: FragmentedMP4Segmenter?
    private var encoders: [Int: Encoder] = [:]
    private let packet: Packet
    /// Encoders get `AV_CODEC_FLAG_GLOBAL_HEADER` (their setup out of band, in the stream's extradata).
    private let globalHeaders: Bool
    /// Where every packet written is also sent (``mirror(to:)``).
    private var mirrors: [LiveStreamSender] = []

    /// Creates the muxer `formatName` (`mov`, `mp4`, `matroska`, `flv`, …) writing to `path` (a file or a network
    /// URL, opened with the protocol's `options`).
    /// - Throws: ``FFmpegError`` from ``OutputFile/init(path:formatName:cancellation:options:)`` or the packet
    ///   allocation.
    package init(path: String, formatName: String, cancellation: CancellationFlag = CancellationFlag(),
                 options: [String: String] = [:]) throws {
        output = try OutputFile(path: path, formatName: formatName, cancellation: cancellation, options: options)
        segmenter = nil
        packet = try Packet()
        globalHeaders = output.wantsGlobalHeader
    }

    /// A muxer that writes nowhere (FFmpeg's `null` muxer) for encoders whose packets only go to a live stream
    /// (``mirror(to:)``): every encoder gets its setup out of band, as the live containers (FLV, fragmented MP4)
    /// need it.
    /// - Throws: ``FFmpegError`` from the muxer's or the packet's allocation.
    package static func discardingOutput() throws -> EncodingMuxer {
        try EncodingMuxer(path: "", formatName: "null", globalHeaders: true)
    }

    private init(path: String, formatName: String, globalHeaders: Bool) throws {
        output = try OutputFile(path: path, formatName: formatName, cancellation: CancellationFlag())
        segmenter = nil
        packet = try Packet()
        self.globalHeaders = globalHeaders
    }

    /// Writes encoded streams into `output`, a file another writer has opened and fills with copied packets (a
    /// stream-copy export's subtitle streams beside its copied picture and sound). Shares the file with that writer.
    /// - Throws: ``FFmpegError`` (ENOMEM) from the packet allocation.
    package init(output: OutputFile) throws {
        self.output = output
        segmenter = nil
        packet = try Packet()
        globalHeaders = output.wantsGlobalHeader
    }

    /// Writes into `segmenter`'s output: every packet (encoded here or given to ``write(_:)``) goes through it, and
    /// ``writeHeader(options:)``, ``endStream(_:)`` and ``finish()`` are its own.
    /// - Throws: ``FFmpegError`` (ENOMEM) from the packet allocation.
    package init(segmenter: FragmentedMP4Segmenter) throws {
        output = segmenter.output
        self.segmenter = segmenter
        packet = try Packet()
        globalHeaders = output.wantsGlobalHeader
    }

    /// Opens `encoder` (configured by the caller, not yet opened) with its configuration's private options plus
    /// `options` (these win; see ``Encoder/open(options:)``) and adds a stream
    /// carrying its output, in the encoder's time base until ``writeHeader(options:)`` (the muxer may change it).
    /// - Returns: the stream index.
    /// - Throws: ``FFmpegError`` from `avcodec_open2` (or `EINVAL` for an option the encoder does not know) or from
    ///   adding the stream.
    package func addStream(_ encoder: Encoder, options: [String: String] = [:]) throws -> Int {
        if globalHeaders { encoder.pointer.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try encoder.open(options: options)
        let index = try output.addStream(for: encoder)
        encoders[index] = encoder
        return index
    }

    /// Writes the file header (`avformat_write_header`) with muxer options such as `movflags=+faststart`.
    /// - Throws: ``FFmpegError``.
    package func writeHeader(options: [String: String] = [:]) throws {
        if let segmenter { try segmenter.writeHeader(options: options) } else { try output.writeHeader(options: options) }
    }

    /// Writes one packet already in the stream's time base with its stream index set (a copied stream's): to the
    /// segmenter when there is one, else `av_interleaved_write_frame` (the reference moves to the muxer).
    /// - Throws: ``FFmpegError``.
    package func write(_ packet: Packet) throws {
        if !mirrors.isEmpty {
            let copy = LiveStreamSender.StreamPacket(packet)
            for sender in mirrors { sender.send(copy) }
        }
        if let segmenter { try segmenter.write(packet) } else { try output.write(packet) }
    }

    /// The streams as a live-stream sender describes its source: each stream's codec parameters and time base (after
    /// ``writeHeader(options:)``, which may change the time bases).
    package var streamDescriptions: [LiveStreamSender.StreamDescription] { output.streamDescriptions }

    /// From the next packet on, also sends a copy of every packet written (encoded here or given to ``write(_:)``,
    /// timestamps in its stream's time base) to `sender`, which must have been made with, or switched to,
    /// ``streamDescriptions``; several senders may take the same packets. Call after ``writeHeader(options:)``.
    package func mirror(to sender: LiveStreamSender) {
        if !mirrors.contains(where: { $0 === sender }) { mirrors.append(sender) }
    }

    /// Stops sending packets to `sender`.
    package func stopMirroring(to sender: LiveStreamSender) {
        mirrors.removeAll { $0 === sender }
    }

    /// No more packets will come for stream `index` (its encoder was drained): a segmenter no longer waits for it.
    /// - Throws: ``FFmpegError``, or what the segmenter's delivery throws.
    package func endStream(_ index: Int) throws {
        try segmenter?.endStream(index)
    }

    /// Encodes `frame` on stream `index` (nil: flushes that stream's encoder) and writes every packet the encoder
    /// gives meanwhile.
    ///
    /// - Parameters:
    ///   - frame: a frame with `pts` in the encoder's time base; nil drains the encoder.
    ///   - index: a stream index returned by ``addStream(_:options:)``.
    ///   - adjust: called with each packet before it is rescaled and written, timestamps still in the encoder's time
    ///     base (e.g. to set a duration the encoder left 0).
    /// - Throws: ``Failure``; nothing is thrown for an index without an encoder (nothing is written).
    package func encode(_ frame: Frame?, stream index: Int, adjust: (Packet) -> Void = { _ in }) throws {
        guard let encoder = encoders[index] else { return }
        while true {
            let accepted: Bool
            do {
                accepted = try encoder.send(frame)
            } catch let error as FFmpegError {
                throw Failure.encoding(error)
            }
            do {
                while try encoder.receive(into: packet) == .packet {
                    adjust(packet)
                    packet.pointer.pointee.stream_index = Int32(index)
                    av_packet_rescale_ts(
                        packet.pointer, encoder.pointer.pointee.time_base, output.timeBase(ofStream: index))
                    try write(packet)
                }
            } catch let error as FFmpegError {
                throw Failure.writing(error)
            }
            if accepted { return }
        }
    }

    /// Writes the trailer (`av_write_trailer`) and closes the file; flush every stream first
    /// (``encode(_:stream:adjust:)`` with a nil frame).
    /// - Throws: ``FFmpegError``.
    package func finish() throws {
        if let segmenter { try segmenter.finish() } else { try output.finish() }
    }
}
