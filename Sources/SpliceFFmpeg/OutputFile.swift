import Foundation
package import CMedia

/// Owns a muxing `AVFormatContext` and its `AVIOContext` (`avformat_alloc_output_context2`, `avio_open2`;
/// freed with `avio_closep` and `avformat_free_context` in `deinit`), or writes into an ``OutputBuffer`` it keeps
/// alive (`AVFMT_FLAG_CUSTOM_IO`; the buffer's owner frees that context).
///
/// Writes to exactly the path given (the export session hands it a temporary file beside the target and renames it
/// on success). Blocking writes poll the cancellation flag through FFmpeg's interrupt callback.
package final class OutputFile {
    package let pointer: UnsafeMutablePointer<AVFormatContext>
    package let path: String
    package let cancellation: CancellationFlag
    private var ioOpen = false
    private(set) var headerWritten = false
    /// Whether ``writeMovieFragment(waitingFor:)`` has written the `moov` of a `delay_moov` fragmented movie.
    private var movieBoxWritten = false
    /// The in-memory output of a file made by ``init(formatName:writingTo:)``; released after the format context.
    private let buffer: OutputBuffer?

    /// Creates the muxer for `formatName` (`mp4`, `mov`, `ipod` for .m4a, `matroska`, `webm`; `flv`, `mpegts`
    /// for a network URL such as `rtmp://…`; `hls`, which opens its own playlist and segments: `AVFMT_NOFILE`) and
    /// opens `path` for writing, with the protocol's `options` (`avio_open2`).
    /// - Throws: `FFmpegError` from allocation or `avio_open2` (e.g. EACCES, ENOENT for a missing directory,
    ///   ECONNREFUSED for a server not listening).
    package init(path: String, formatName: String, cancellation: CancellationFlag, options: [String: String] = [:]) throws {
        MediaLibrary.installLogRouting()
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        try FFmpegError.check(avformat_alloc_output_context2(&context, nil, formatName, path), in: "avformat_alloc_output_context2")
        guard let allocated = context else { throw FFmpegError.posix(ENOMEM) }
        pointer = allocated
        self.path = path
        self.cancellation = cancellation
        buffer = nil
        var callback = AVIOInterruptCB(
            callback: outputFileInterruptCallback, opaque: Unmanaged.passUnretained(cancellation).toOpaque())
        pointer.pointee.interrupt_callback = callback
        guard (pointer.pointee.oformat.pointee.flags & AVFMT_NOFILE) == 0 else { return }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        try FFmpegError.check(avio_open2(&pointer.pointee.pb, path, AVIO_FLAG_WRITE, &callback, &dictionary), in: "avio_open2")
        ioOpen = true
    }

    /// Creates the muxer for `formatName` writing into `buffer` instead of a file (`pb` set to the buffer's context,
    /// `AVFMT_FLAG_CUSTOM_IO`): the bytes are taken with ``OutputBuffer/takeBytes()``. ``path`` is empty.
    /// - Throws: ``FFmpegError`` from `avformat_alloc_output_context2` (EINVAL for an unknown format).
    package init(formatName: String, writingTo buffer: OutputBuffer) throws {
        MediaLibrary.installLogRouting()
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        try FFmpegError.check(avformat_alloc_output_context2(&context, nil, formatName, nil), in: "avformat_alloc_output_context2")
        guard let allocated = context else { throw FFmpegError.posix(ENOMEM) }
        pointer = allocated
        path = ""
        cancellation = CancellationFlag()
        self.buffer = buffer
        pointer.pointee.pb = buffer.pointer
        pointer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    }

    deinit {
        if ioOpen { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }

    /// True when the container wants codec extradata out of band (`AVFMT_GLOBALHEADER`): set
    /// `AV_CODEC_FLAG_GLOBAL_HEADER` on encoders before opening them.
    package var wantsGlobalHeader: Bool { (pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 }

    /// True when the container can hold `codec` without re-encoding (`avformat_query_codec`, normal compliance).
    package func canHold(_ codec: AVCodecID) -> Bool {
        avformat_query_codec(pointer.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// True when the muxer `formatName` (`mp4`, `webm`, …) can hold `codec` without re-encoding
    /// (`av_guess_format` then `avformat_query_codec`, normal compliance), asked before any file is opened.
    package static func muxer(named formatName: String, canHold codec: AVCodecID) -> Bool {
        guard let format = av_guess_format(formatName, nil, nil) else { return false }
        return avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// Adds a stream for packets copied from a source with codec parameters `parameters` (copied; the codec tag is
    /// left for the muxer to choose), in `timeBase` until the header is written (`avcodec_parameters_copy`).
    /// - Returns: the stream index.
    /// - Throws: ``FFmpegError`` (ENOMEM).
    package func addStream(copying parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws -> Int {
        guard let stream = avformat_new_stream(pointer, nil) else { throw FFmpegError.posix(ENOMEM) }
        try FFmpegError.check(avcodec_parameters_copy(stream.pointee.codecpar, parameters), in: "avcodec_parameters_copy")
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
        return Int(stream.pointee.index)
    }

    /// Adds a stream for packets copied from elsewhere whose codec parameters `describe` writes into the new
    /// stream's (e.g. from a value copy a sample carried across threads), in `timeBase` until the header is written
    /// (`avformat_new_stream`).
    /// - Returns: the stream index.
    /// - Throws: ``FFmpegError`` (ENOMEM), or what `describe` throws.
    package func addStream(timeBase: AVRational,
                           describe: (UnsafeMutablePointer<AVCodecParameters>) throws -> Void) throws -> Int {
        guard let stream = avformat_new_stream(pointer, nil), let parameters = stream.pointee.codecpar else {
            throw FFmpegError.posix(ENOMEM)
        }
        try describe(parameters)
        stream.pointee.time_base = timeBase
        return Int(stream.pointee.index)
    }

    /// Sets the four-character codec tag (sample entry) the muxer writes for stream `index`, e.g. `avc3` or `hev1`
    /// (parameter sets may also travel in-band) rather than the muxer's default; call before ``writeHeader(options:)``,
    /// which refuses a tag the container cannot hold.
    package func setCodecTag(_ tag: String, ofStream index: Int) {
        guard index >= 0, index < Int(pointer.pointee.nb_streams), let stream = pointer.pointee.streams[index] else { return }
        stream.pointee.codecpar.pointee.codec_tag = tag.utf8.prefix(4).enumerated()
            .reduce(0) { $0 | (UInt32($1.element) << (8 * UInt32($1.offset))) }
    }

    /// Adds a stream carrying `encoder`'s output (`avformat_new_stream`, `avcodec_parameters_from_context`), with
    /// the encoder's HDR10 metadata as stream side data (movenc writes it as `mdcv`/`clli` boxes).
    /// - Returns: the stream index.
    package func addStream(for encoder: Encoder) throws -> Int {
        guard let stream = avformat_new_stream(pointer, nil) else { throw FFmpegError.posix(ENOMEM) }
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.pointer), in: "avcodec_parameters_from_context")
        if var display = encoder.masteringDisplay?.ffmpegValue {
            try FFmpegError.check(cmedia_av_stream_add_side_data(
                stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &display, MemoryLayout<AVMasteringDisplayMetadata>.size), in: "av_stream_add_side_data")
        }
        if var level = encoder.contentLightLevel?.ffmpegValue {
            try FFmpegError.check(cmedia_av_stream_add_side_data(
                stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &level, MemoryLayout<AVContentLightMetadata>.size), in: "av_stream_add_side_data")
        }
        stream.pointee.time_base = encoder.pointer.pointee.time_base
        return Int(stream.pointee.index)
    }

    /// The stream's time base after the header was written (muxers may change it).
    ///
    /// - Parameter index: a stream index returned by ``addStream(for:)`` on this file; such a stream exists for the
    ///   file's lifetime (libavformat never removes streams). Any other index (a programming error) gives 0/1, which
    ///   `av_packet_rescale_ts` turns into unset timestamps (`AV_NOPTS_VALUE`) — never a read outside the stream
    ///   table or a crash.
    package func timeBase(ofStream index: Int) -> AVRational {
        guard index >= 0, index < Int(pointer.pointee.nb_streams), let stream = pointer.pointee.streams[index] else {
            return AVRational(num: 0, den: 1)
        }
        return stream.pointee.time_base
    }

    /// The sample rate of the file's first audio stream (its codec parameters), nil without one: an MP4/MOV's
    /// `movie_timescale` that keeps its edit lists and track durations exact to the sample, where the muxer's default
    /// (1000) rounds them to the millisecond (an empty edit before sound that starts late, off by up to 1 ms).
    package var firstAudioSampleRate: Int32? {
        (0..<Int(pointer.pointee.nb_streams)).lazy.compactMap { index -> Int32? in
            guard let parameters = self.pointer.pointee.streams[index]?.pointee.codecpar,
                  parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO, parameters.pointee.sample_rate > 0 else { return nil }
            return parameters.pointee.sample_rate
        }.first
    }

    /// Each stream's codec parameters (copied) and time base, in stream order: how a live-stream sender describes
    /// this file's streams to its own muxer.
    package var streamDescriptions: [LiveStreamSender.StreamDescription] {
        (0..<Int(pointer.pointee.nb_streams)).compactMap { index in
            guard let stream = pointer.pointee.streams[index], let parameters = stream.pointee.codecpar else { return nil }
            return LiveStreamSender.StreamDescription(parameters: CodecParameters(parameters), timeBase: stream.pointee.time_base)
        }
    }

    /// Sets container metadata (`av_dict_set` on the format context).
    package func setMetadata(_ items: [(String, String)]) {
        for (key, value) in items { av_dict_set(&pointer.pointee.metadata, key, value, 0) }
    }

    /// Gives stream `index` a display matrix (`AV_PKT_DATA_DISPLAYMATRIX` stream side data: 9 values, a b u c d v x y
    /// w, 16.16 fixed point except u v w in 2.30), which movenc writes as the track's `tkhd` matrix. Call before
    /// ``writeHeader(options:)``.
    /// - Throws: ``FFmpegError`` (ENOMEM; EINVAL for a matrix of other than 9 values or an unknown stream).
    package func setDisplayMatrix(_ matrix: [Int32], onStream index: Int) throws {
        guard matrix.count == 9, index >= 0, index < Int(pointer.pointee.nb_streams), let stream = pointer.pointee.streams[index]
        else { throw FFmpegError.posix(EINVAL) }
        var values = matrix
        try FFmpegError.check(cmedia_av_stream_add_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &values, 9 * MemoryLayout<Int32>.size), in: "av_stream_add_side_data")
    }

    /// Writes the header (`avformat_write_header`) with muxer options such as `movflags=+faststart`.
    package func writeHeader(options: [String: String]) throws {
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        try FFmpegError.check(avformat_write_header(pointer, &dictionary), in: "avformat_write_header")
        headerWritten = true
    }

    /// Writes one packet (`av_interleaved_write_frame`; takes ownership of the packet's reference).
    package func write(_ packet: Packet) throws {
        try FFmpegError.check(av_interleaved_write_frame(pointer, packet.pointer), in: "av_interleaved_write_frame")
    }

    /// Hands every packet waiting in libavformat's interleaving queue to the muxer (`av_interleaved_write_frame`
    /// without a packet, which FFmpeg allows at any time, not only at the end), so that a movie fragment written
    /// next holds them.
    /// - Throws: ``FFmpegError`` from the muxer.
    package func flushInterleavingQueue() throws {
        try FFmpegError.check(av_interleaved_write_frame(pointer, nil), in: "av_interleaved_write_frame")
    }

    /// How many packets of stream `index` the muxer has taken (`AVStream.nb_frames`, which libavformat counts as
    /// each packet leaves the interleaving queue).
    package func packetsWritten(toStream index: Int) -> Int64 {
        pointer.pointee.streams[index]?.pointee.nb_frames ?? 0
    }

    /// Writes one packet straight to the muxer, without libavformat's interleaving queue (`av_write_frame`): for a
    /// caller that orders the streams' packets itself. The packet's reference is released afterwards.
    package func writeWithoutInterleaving(_ packet: Packet) throws {
        defer { packet.unref() }
        try FFmpegError.check(av_write_frame(pointer, packet.pointer), in: "av_write_frame")
    }

    /// Current size of the written file in bytes (`avio_size`), for file length limits.
    package var bytesWritten: Int64 { ioOpen ? avio_tell(pointer.pointee.pb) : 0 }

    /// Pushes what the muxer has written so far out of the I/O buffer into the file (`avio_flush`), so that a crash
    /// after this call loses nothing already written.
    package func flush() {
        if ioOpen { avio_flush(pointer.pointee.pb) }
    }

    /// Ends the current movie fragment now and flushes it to the file (`av_write_frame(s, NULL)`, which the `mov`
    /// muxer takes as "write the fragment" under `movflags=frag_custom`, then `avio_flush`).
    /// - Throws: ``FFmpegError`` from the write.
    package func writeFragment() throws {
        try FFmpegError.check(av_write_frame(pointer, nil), in: "av_write_frame")
        flush()
    }

    /// The header options of a crash-safe fragmented MP4/MOV whose fragments ``writeMovieFragment(waitingFor:)``
    /// ends, with the file's streams added: `movflags` — fragments cut by the caller (`frag_custom`), each
    /// self-contained (`default_base_moof`), the `moov` held back until the first fragment (`delay_moov`) so each
    /// track's edit list is made from its first packets, and `use_metadata_tags` when `metadataKeySpace` (QuickTime
    /// `mdta` keys) — and `movie_timescale` = the first audio stream's sample rate (``firstAudioSampleRate``), so the
    /// edit lists are exact to the sample rather than to the millisecond.
    package func delayedMovieBoxFragmentOptions(metadataKeySpace: Bool) -> [String: String] {
        var options = ["movflags": "+frag_custom+delay_moov+default_base_moof" + (metadataKeySpace ? "+use_metadata_tags" : "")]
        if let rate = firstAudioSampleRate { options["movie_timescale"] = "\(rate)" }
        return options
    }

    /// Ends the current movie fragment of a file whose header was written with
    /// ``delayedMovieBoxFragmentOptions(metadataKeySpace:)`` and flushes it to disk, with every packet still waiting in
    /// the interleaving queue. The first time, the `moov` is
    /// written first (with `delay_moov` the first flush writes the `moov` alone; the fragment is the next one): each
    /// track's edit list is then made from its first packets, so an AAC encoder's priming and a B-frame stream's
    /// reordering delay are hidden as in a regular movie. Until each of `streams` has had a packet (an encoder holds
    /// the first pictures or sound a while; a device may start late) nothing is written and the fragment grows in
    /// memory until a later call.
    ///
    /// A caller that stops waiting (a device that delivers nothing must not hold the whole recording in memory)
    /// passes fewer streams: the `moov` then goes out with an empty track for each stream that has had no packet, and
    /// the muxer is told that the next packets are a discontinuity (`movflags=+frag_discont`), so such a track's first
    /// packet keeps its own time (its fragment's decode time is the packet's presentation time) instead of being
    /// placed at 0. Its edit list cannot hide its priming then: an AAC track starts 1024 samples of encoder delay
    /// early, at their own time.
    /// - Parameter streams: the streams whose first packet the `moov` waits for (those still expecting packets).
    /// - Returns: whether the fragment was written.
    /// - Throws: ``FFmpegError`` from the muxer.
    package func writeMovieFragment(waitingFor streams: [Int]) throws -> Bool {
        try flushInterleavingQueue()
        if !movieBoxWritten {
            guard streams.allSatisfy({ packetsWritten(toStream: $0) > 0 }) else { return false }
            try writeFragment()
            movieBoxWritten = true
            if (0..<Int(pointer.pointee.nb_streams)).contains(where: { packetsWritten(toStream: $0) == 0 }),
               let options = pointer.pointee.priv_data {
                try FFmpegError.check(av_opt_set(options, "movflags", "+frag_discont", 0), in: "av_opt_set(movflags)")
            }
        }
        try writeFragment()
        return true
    }

    /// Flushes interleaving queues and writes the trailer (`av_write_trailer`), then closes the file.
    package func finish() throws {
        try FFmpegError.check(av_write_trailer(pointer), in: "av_write_trailer")
        if ioOpen {
            try FFmpegError.check(avio_closep(&pointer.pointee.pb), in: "avio_closep")
            ioOpen = false
        }
    }
}

/// FFmpeg's interrupt callback for the output: non-zero stops blocking writes with `AVERROR_EXIT`.
private func outputFileInterruptCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<CancellationFlag>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
}
