package import CMedia
import Foundation

/// Owns one opened media file: an `AVFormatContext` after `avformat_open_input` and `avformat_find_stream_info`.
///
/// `deinit` closes it (`avformat_close_input`). Streams handed out by ``stream(at:)`` are borrowed views into the
/// context, valid while the `InputFile` lives. Blocking reads poll ``cancellation`` through FFmpeg's interrupt
/// callback, so another thread can stop an open, a stream-info probe or a read by cancelling the flag.
/// Confined to one worker thread; not `Sendable`.
///
/// Only local files are opened: libavformat's protocol whitelist is set to `file`, so a playlist or reference file
/// cannot make it reach the network.
package final class InputFile {
    /// The file, as given.
    package let url: URL
    /// The demuxer context. Non-nil for the owner's lifetime; closed only by `deinit`.
    package let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The flag FFmpeg's interrupt callback reads; retained here because the callback holds it unretained.
    package let cancellation: CancellationFlag

    /// Opens `url` and reads its stream information.
    ///
    /// Wraps `avformat_open_input` and `avformat_find_stream_info`. Before FFmpeg sees the path, the file system is
    /// checked with a non-blocking `open` + `fstat`, so a missing file, an unreadable file, a directory, a FIFO or a
    /// device, and an empty file are reported precisely (and a FIFO can never block the open).
    ///
    /// - Parameters:
    ///   - url: a `file:` URL.
    ///   - cancellation: polled during blocking I/O; a fresh, never-cancelled flag when nil.
    /// - Throws: ``InputFileError`` with the cause (the file system's, or FFmpeg's with a content sniff telling "not a
    ///   media file" from "a damaged one"); `CancellationError` when `cancellation` was cancelled before or during
    ///   the open.
    package init(url: URL, cancellation: CancellationFlag? = nil) throws {
        MediaLibrary.installLogRouting()
        self.url = url
        let flag = cancellation ?? CancellationFlag()
        self.cancellation = flag
        guard url.isFileURL else { throw InputFileError.notAFileURL }
        let path = url.path
        try FilePreflight.check(path: path)
        if flag.isCancelled { throw CancellationError() }

        guard let allocated = avformat_alloc_context() else {
            throw InputFileError.readFailed("out of memory allocating the demuxer context")
        }
        allocated.pointee.interrupt_callback = AVIOInterruptCB(
            callback: inputFileInterruptCallback, opaque: Unmanaged.passUnretained(flag).toOpaque())
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        // The image2 demuxer would read "%d" or glob characters in a file name as an image-sequence pattern.
        av_dict_set(&options, "pattern_type", "none", 0)
        // On failure avformat_open_input frees the context and sets it to NULL.
        let openCode = avformat_open_input(&context, path, nil, &options)
        av_dict_free(&options)
        guard openCode >= 0, let opened = context else {
            throw InputFile.openError(FFmpegError(rawValue: openCode), path: path, cancelled: flag.isCancelled)
        }
        pointer = opened
        // From here on `self` is fully initialised: a throw runs deinit, which closes the context.
        let infoCode = avformat_find_stream_info(pointer, nil)
        if infoCode < 0 {
            if flag.isCancelled || infoCode == cmedia_AVERROR_EXIT() { throw CancellationError() }
            throw InputFileError.unreadableStreamInformation(FFmpegError(rawValue: infoCode))
        }
    }

    /// Opens the capture device `device` through libavdevice's input format `formatName` (`lavfi`, `pulse`,
    /// `x11grab`, `v4l2`, …) with the device options `options` (e.g. `video_size`, `framerate`, `sample_rate`), and
    /// reads its stream information.
    ///
    /// Wraps `avdevice_register_all`, `av_find_input_format`, `avformat_open_input` and `avformat_find_stream_info`.
    /// Unlike ``init(url:cancellation:)`` no file-system preflight runs (a device name is not a path) and no protocol
    /// whitelist applies. ``url`` is a `file:` URL of `device`, for messages only.
    ///
    /// - Parameters:
    ///   - device: what the input format opens: a filter graph for `lavfi`, a source name for `pulse`, a display
    ///     (`:99.0+0,0`) for `x11grab`, a node (`/dev/video0`) for `v4l2`.
    ///   - formatName: the libavdevice (or libavformat) input format's short name.
    ///   - options: device private options; every one must be recognised.
    ///   - cancellation: polled during blocking reads; a fresh flag when nil.
    /// - Throws: ``InputFileError/readFailed(_:)`` when FFmpeg has no such input format or an option is not
    ///   recognised; ``InputFileError/unreadableHeader(_:format:)`` with FFmpeg's error when the device cannot be
    ///   opened (EIO for a PulseAudio server that is not there, …); `CancellationError` when cancelled.
    package init(device: String, formatName: String, options: [String: String], cancellation: CancellationFlag? = nil) throws {
        MediaLibrary.installLogRouting()
        MediaLibrary.registerDevices()
        url = URL(fileURLWithPath: device)
        let flag = cancellation ?? CancellationFlag()
        self.cancellation = flag
        guard let format = av_find_input_format(formatName) else {
            throw InputFileError.readFailed("FFmpeg has no input format named \(formatName)")
        }
        guard let allocated = avformat_alloc_context() else {
            throw InputFileError.readFailed("out of memory allocating the demuxer context")
        }
        allocated.pointee.interrupt_callback = AVIOInterruptCB(
            callback: inputFileInterruptCallback, opaque: Unmanaged.passUnretained(flag).toOpaque())
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        let openCode = avformat_open_input(&context, device, format, &dictionary)
        let unrecognised = av_dict_count(dictionary)
        av_dict_free(&dictionary)
        guard openCode >= 0, let opened = context else {
            if flag.isCancelled || openCode == cmedia_AVERROR_EXIT() { throw CancellationError() }
            throw InputFileError.unreadableHeader(FFmpegError(rawValue: openCode), format: formatName)
        }
        pointer = opened
        if unrecognised > 0 { throw InputFileError.readFailed("\(formatName) did not recognise \(unrecognised) option(s)") }
        let infoCode = avformat_find_stream_info(pointer, nil)
        if infoCode < 0 {
            if flag.isCancelled || infoCode == cmedia_AVERROR_EXIT() { throw CancellationError() }
            throw InputFileError.unreadableStreamInformation(FFmpegError(rawValue: infoCode))
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    /// The number of streams (`nb_streams`).
    package var streamCount: Int { Int(pointer.pointee.nb_streams) }

    /// The display matrix of stream `index` (`AV_PKT_DATA_DISPLAYMATRIX`: 9 values, 16.16 fixed point except the
    /// third column in 2.30; the `tkhd` matrix of a movie), nil when it has none.
    package func displayMatrix(ofStream index: Int) -> [Int32]? {
        guard let values = cmedia_av_stream_get_display_matrix(stream(at: index)) else { return nil }
        return Array(UnsafeBufferPointer(start: values, count: 9))
    }

    /// The stream at `index` (0 ..< ``streamCount``): a borrowed view, valid while `self` lives.
    package func stream(at index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < streamCount, "stream index \(index) out of 0..<\(streamCount)")
        guard let stream = pointer.pointee.streams[index] else {
            preconditionFailure("libavformat returned a NULL stream \(index) of \(streamCount)")
        }
        return stream
    }

    /// The demuxer's short name (`iformat->name`, e.g. `"mov,mp4,m4a,3gp,3g2,mj2"`), or `"unknown"`.
    package var formatName: String { pointer.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown" }

    /// True when libavformat recognised the content itself, not only the file name (`probe_score` above
    /// `AVPROBE_SCORE_EXTENSION`).
    package var formatRecognisedByContent: Bool { pointer.pointee.probe_score > AVPROBE_SCORE_EXTENSION }

    /// The container's metadata (`AVFormatContext.metadata`) as key/value pairs in FFmpeg's order.
    package var metadata: [(key: String, value: String)] {
        MetadataDictionary.entries(pointer.pointee.metadata)
    }

    /// The index of the stream libavformat deems best of `type` (wraps `av_find_best_stream`), or nil when the file
    /// has none.
    package func bestStreamIndex(of type: AVMediaType) -> Int? {
        let index = av_find_best_stream(pointer, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Reads the next packet of any stream into `packet` (wraps `av_read_frame`).
    ///
    /// The packet is unreferenced first, so the caller need not. On success the packet holds a reference the caller
    /// owns until the next read or ``Packet/unref()``.
    ///
    /// A file cut short is not taken for a shorter one: when the read reaches the end of the file, fails on a
    /// damaged tail (`AVERROR_INVALIDDATA`, libavformat's "partial file"), or returns a sample the file ends inside
    /// (`AV_PKT_FLAG_CORRUPT`), the index of every stream being read (not `AVDISCARD_ALL`) is checked against the
    /// file's size now (``truncation()``), and a stream whose indexed samples lie beyond it is reported.
    ///
    /// - Returns: true when a packet was read, false at the end of the file.
    /// - Throws: ``SourceTruncation`` when the file ends before the samples its index lists; ``FFmpegError`` for a
    ///   read or parse failure; `AVERROR_EXIT` (``FFmpegError/exit``) when ``cancellation`` stopped the read.
    package func readPacket(into packet: Packet) throws -> Bool {
        packet.unref()
        let code = av_read_frame(pointer, packet.pointer)
        if code == cmedia_AVERROR_EOF() || code == cmedia_AVERROR_INVALIDDATA() {
            if let truncation = truncation() { throw truncation }
            if code == cmedia_AVERROR_EOF() { return false }
        }
        try FFmpegError.check(code, in: "av_read_frame")
        if packet.isCorrupt, let truncation = truncation(ofStream: packet.streamIndex) {
            packet.unref()
            throw truncation
        }
        return true
    }

    /// Marks the priming of an audio stream whose demuxer states it only as the stream's `initial_padding`, or only
    /// as a start before 0: when `packet` is the stream's first (its pts is the stream's `start_time`), the stream
    /// has `initial_padding` samples of priming — or, in an MP4/MOV, starts before 0 — and the packet carries no
    /// `AV_PKT_DATA_SKIP_SAMPLES` side data, that side data is added, asking the decoder to drop the priming from the
    /// start of the packet's sound.
    ///
    /// A fragmented MP4 states an encoder's priming in its edit list as a regular one does, but FFmpeg 5.1's demuxer
    /// applies that edit list to a fragmented track only by moving its timestamps back (its first packet starts
    /// before 0), without marking samples to skip as it does for a regular movie: the samples before 0 are the
    /// priming.
    ///
    /// Matroska states an encoder's priming as the track's `CodecDelay` (RFC 9559), which FFmpeg 5.1's demuxer
    /// gives as `initial_padding` while moving the track's timestamps back by it, but it marks no samples to skip,
    /// as the MP4 demuxer does from an edit list. Opus's decoder drops its pre-skip by itself; any other codec
    /// (AAC) would decode its priming as sound. With the side data every decoder drops exactly the stated priming,
    /// and libavcodec moves the frame's timestamp past it, as for MP4 (a value the decoder already drops replaces
    /// it, so Opus's pre-skip is not dropped twice).
    ///
    /// - Throws: ``FFmpegError`` `ENOMEM` when the side data cannot be allocated.
    package func markPriming(of packet: Packet) throws {
        let index = packet.streamIndex
        guard index >= 0, index < streamCount else { return }
        let stream = self.stream(at: index)
        guard let parameters = stream.pointee.codecpar, parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO,
              stream.pointee.start_time != cmedia_AV_NOPTS_VALUE(),
              packet.presentationTimestamp == stream.pointee.start_time, packet.skipSamples == nil else { return }
        var priming = Int64(parameters.pointee.initial_padding)
        if priming <= 0, stream.pointee.start_time < 0, parameters.pointee.sample_rate > 0,
           formatName.hasPrefix("mov,") {
            priming = av_rescale_q(-stream.pointee.start_time, stream.pointee.time_base,
                                   AVRational(num: 1, den: parameters.pointee.sample_rate))
        }
        guard priming > 0, priming <= Int64(UInt32.max) else { return }
        guard let side = av_packet_new_side_data(packet.pointer, AV_PKT_DATA_SKIP_SAMPLES, 10) else {
            throw FFmpegError.posix(ENOMEM)
        }
        let skip = UInt32(priming)
        for byte in 0..<10 {
            side[byte] = byte < 4 ? UInt8(truncatingIfNeeded: skip >> (8 * UInt32(byte))) : 0
        }
    }

    /// Seeks so that the next read returns the key frame at or before `timestamp` (wraps `av_seek_frame` with
    /// `AVSEEK_FLAG_BACKWARD`).
    ///
    /// - Parameters:
    ///   - streamIndex: the stream whose time base `timestamp` is in.
    ///   - timestamp: a presentation timestamp in that stream's time base.
    /// - Throws: ``FFmpegError`` when the demuxer cannot seek there.
    package func seek(streamIndex: Int, toTimestamp timestamp: Int64) throws {
        try FFmpegError.check(av_seek_frame(pointer, Int32(streamIndex), timestamp, AVSEEK_FLAG_BACKWARD), in: "av_seek_frame")
    }

    /// Classifies a failed `avformat_open_input`.
    private static func openError(_ error: FFmpegError, path: String, cancelled: Bool) -> Error {
        if FFmpegError.isCancellation(error, cancelled: cancelled) { return CancellationError() }
        switch error.posixCode {
        case ENOENT?: return InputFileError.fileNotFound
        // FilePreflight has just opened the file itself, so what was refused is a file it refers to: the concat and
        // playlist demuxers may only open files named safely (ffconcat `file /etc/passwd` gives EPERM).
        case EACCES?, EPERM?: return InputFileError.refersToOtherFiles(error)
        case EISDIR?: return InputFileError.isADirectory
        case .some: return InputFileError.readFailed(error.description)
        case nil: break
        }
        if error == .invalidData {
            // libavformat found no demuxer, or the one it chose could not read the header. Tell the two apart by
            // sniffing the content: a confident match (e.g. an MP4 `ftyp` cut off before `moov`) is a damaged file.
            if let guess = FormatSniffer.guess(path: path), guess.score > AVPROBE_SCORE_EXTENSION {
                return InputFileError.unreadableHeader(error, format: guess.name)
            }
            return InputFileError.notAMediaFile(error)
        }
        return InputFileError.unreadableHeader(error, format: nil)
    }
}

/// FFmpeg's interrupt callback (`AVIOInterruptCB.callback`): non-zero stops blocking I/O with `AVERROR_EXIT`.
/// `opaque` is an unretained ``CancellationFlag`` kept alive by the ``InputFile`` that installed it.
private func inputFileInterruptCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<CancellationFlag>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
}
