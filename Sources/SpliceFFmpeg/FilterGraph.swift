import Foundation
package import CMedia

/// Owns an `AVFilterGraph` (`avfilter_graph_alloc` / `avfilter_graph_free`) built from a filter-graph description
/// with named buffer sources and sinks.
///
/// The description uses FFmpeg's `-filter_complex` syntax; each source is referred to by its label (`[v0]`) and each
/// sink by its label (`[out]`). Sources and sinks are created here; the filters between them by
/// `avfilter_graph_parse_ptr`. The graph's format at each sink must be fixed by the description (end it with
/// `format=…` / `aformat=…`), so it never depends on negotiation.
package final class FilterGraph {
    /// A video buffer source (`buffer`): the frames pushed must have this size and pixel format.
    package struct VideoSource {
        package var label: String
        package var width: Int
        package var height: Int
        package var pixelFormat: Int32
        package var timeBase: AVRational
        package var sampleAspectRatio = AVRational(num: 1, den: 1)
        /// The constant frame rate (frames per second) the source declares (`buffer`'s `frame_rate`), or nil for
        /// none (0/1). Filters such as `xfade` refuse inputs without one.
        package var frameRate: AVRational?

        /// A source `width` × `height` pixels of pixel format `pixelFormat` (an `AVPixelFormat` raw value), frames
        /// stamped in `timeBase`, with square pixels unless `sampleAspectRatio` says otherwise, declaring
        /// `frameRate` (frames per second) when given.
        package init(label: String, width: Int, height: Int, pixelFormat: Int32, timeBase: AVRational,
                     sampleAspectRatio: AVRational = AVRational(num: 1, den: 1), frameRate: AVRational? = nil) {
            self.label = label
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.timeBase = timeBase
            self.sampleAspectRatio = sampleAspectRatio
            self.frameRate = frameRate
        }

        package var arguments: String {
            "video_size=\(width)x\(height):pix_fmt=\(pixelFormat):time_base=\(timeBase.num)/\(timeBase.den)"
                + ":pixel_aspect=\(max(sampleAspectRatio.num, 1))/\(max(sampleAspectRatio.den, 1))"
                + (frameRate.map { ":frame_rate=\($0.num)/\($0.den)" } ?? "")
        }
    }

    /// An audio buffer source (`abuffer`).
    package struct AudioSource {
        package var label: String
        package var sampleRate: Int
        package var sampleFormat: Int32
        package var channelLayout: String
        package var timeBase: AVRational

        /// A source of `sampleRate` Hz samples in `sampleFormat` (an `AVSampleFormat` raw value) with the layout
        /// named `channelLayout` (e.g. `"stereo"`), frames stamped in `timeBase`.
        package init(label: String, sampleRate: Int, sampleFormat: Int32, channelLayout: String, timeBase: AVRational) {
            self.label = label
            self.sampleRate = sampleRate
            self.sampleFormat = sampleFormat
            self.channelLayout = channelLayout
            self.timeBase = timeBase
        }

        package var arguments: String {
            let format = av_get_sample_fmt_name(AVSampleFormat(rawValue: sampleFormat)).map { String(cString: $0) } ?? "fltp"
            return "time_base=\(timeBase.num)/\(timeBase.den):sample_rate=\(sampleRate):sample_fmt=\(format)"
                + ":channel_layout=\(channelLayout)"
        }
    }

    package enum Source {
        case video(VideoSource)
        case audio(AudioSource)
        package var label: String {
            switch self {
            case .video(let v): return v.label
            case .audio(let a): return a.label
            }
        }
    }

    package enum Output { case frame, needsInput, endOfStream }

    package let pointer: UnsafeMutablePointer<AVFilterGraph>
    /// The description the graph was parsed from (for `filterGraphDescription` and error messages).
    package let description: String
    private var sources: [UnsafeMutablePointer<AVFilterContext>] = []
    private var sinks: [UnsafeMutablePointer<AVFilterContext>] = []

    /// Builds and configures the graph.
    ///
    /// - Parameters:
    ///   - description: filters between the sources and sinks, in `-filter_complex` syntax.
    ///   - sources: the buffer sources, referred to by label in `description`.
    ///   - sinkLabels: labels of the outputs; each gets a `buffersink` (video) or `abuffersink` (audio).
    ///   - sinkIsAudio: per sink, true for audio.
    ///   - threads: filter threads (slice threading); 0 lets FFmpeg choose.
    /// - Throws: `FFmpegError` from parsing or configuring (e.g. EINVAL for a malformed description).
    package init(description: String, sources sourceSpecs: [Source], sinkLabels: [String], sinkIsAudio: [Bool], threads: Int32 = 0) throws {
        MediaLibrary.installLogRouting()
        guard let graph = avfilter_graph_alloc() else { throw FFmpegError.posix(ENOMEM) }
        pointer = graph
        self.description = description
        graph.pointee.nb_threads = threads

        var outputs: UnsafeMutablePointer<AVFilterInOut>? = nil  // our sources, as the parser sees them
        var inputs: UnsafeMutablePointer<AVFilterInOut>? = nil   // our sinks
        defer {
            avfilter_inout_free(&outputs)
            avfilter_inout_free(&inputs)
        }
        for spec in sourceSpecs.reversed() {
            let context: UnsafeMutablePointer<AVFilterContext>
            switch spec {
            case .video(let video):
                context = try Self.createFilter(graph, "buffer", name: video.label, arguments: video.arguments)
            case .audio(let audio):
                context = try Self.createFilter(graph, "abuffer", name: audio.label, arguments: audio.arguments)
            }
            sources.insert(context, at: 0)
            outputs = try Self.link(outputs, label: spec.label, context: context)
        }
        for (index, label) in sinkLabels.enumerated().reversed() {
            let context = try Self.createFilter(graph, sinkIsAudio[index] ? "abuffersink" : "buffersink", name: label, arguments: nil)
            sinks.insert(context, at: 0)
            inputs = try Self.link(inputs, label: label, context: context)
        }
        try FFmpegError.check(avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil), in: "avfilter_graph_parse_ptr")
        try FFmpegError.check(avfilter_graph_config(graph, nil), in: "avfilter_graph_config")
    }

    deinit {
        var graph: UnsafeMutablePointer<AVFilterGraph>? = pointer
        avfilter_graph_free(&graph)
    }

    private static func createFilter(
        _ graph: UnsafeMutablePointer<AVFilterGraph>, _ filterName: String, name: String, arguments: String?
    ) throws -> UnsafeMutablePointer<AVFilterContext> {
        guard let filter = avfilter_get_by_name(filterName) else {
            throw FFmpegError(rawValue: cmedia_AVERROR(ENOSYS))
        }
        var context: UnsafeMutablePointer<AVFilterContext>? = nil
        try FFmpegError.check(avfilter_graph_create_filter(&context, filter, "\(filterName)@\(name)", arguments, nil, graph), in: "avfilter_graph_create_filter")
        guard let created = context else { throw FFmpegError.posix(ENOMEM) }
        return created
    }

    private static func link(
        _ list: UnsafeMutablePointer<AVFilterInOut>?, label: String, context: UnsafeMutablePointer<AVFilterContext>
    ) throws -> UnsafeMutablePointer<AVFilterInOut> {
        guard let entry = avfilter_inout_alloc() else { throw FFmpegError.posix(ENOMEM) }
        entry.pointee.name = av_strdup(label)
        entry.pointee.filter_ctx = context
        entry.pointee.pad_idx = 0
        entry.pointee.next = list
        return entry
    }

    /// Pushes a frame into source `index` (`av_buffersrc_add_frame_flags` with `PUSH`, so it is processed now);
    /// nil signals end of stream. With `keepReference` the caller's frame stays valid (FFmpeg takes a new reference);
    /// otherwise the frame's buffers are moved into the graph and `frame` is left empty.
    package func push(_ frame: Frame?, to index: Int, keepReference: Bool = false) throws {
        var flags = Int32(AV_BUFFERSRC_FLAG_PUSH)
        if keepReference { flags |= Int32(AV_BUFFERSRC_FLAG_KEEP_REF) }
        try FFmpegError.check(av_buffersrc_add_frame_flags(sources[index], frame?.pointer, flags), in: "av_buffersrc_add_frame_flags")
    }

    /// Pulls the next frame from sink `index` (`av_buffersink_get_frame`). Whatever `frame` held is released first:
    /// the sink moves its frame in without unreferencing the destination, so pulling into a filled frame would leak
    /// its buffers.
    package func pull(from index: Int, into frame: Frame) throws -> Output {
        frame.unref()
        let code = av_buffersink_get_frame(sinks[index], frame.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return .needsInput }
        if code == cmedia_AVERROR_EOF() { return .endOfStream }
        try FFmpegError.check(code, in: "av_buffersink_get_frame")
        return .frame
    }

    /// Makes an audio sink return frames of exactly `samples` samples (the last may be shorter), as AAC needs
    /// (`av_buffersink_set_frame_size`).
    package func setFrameSize(_ samples: Int, forSink index: Int) {
        av_buffersink_set_frame_size(sinks[index], UInt32(samples))
    }

    /// The time base of sink `index` (`av_buffersink_get_time_base`).
    package func timeBase(ofSink index: Int) -> AVRational { av_buffersink_get_time_base(sinks[index]) }

    /// The picture sink `index` delivers after configuration (`av_buffersink_get_w`, `_h`, `_format`,
    /// `_frame_rate`): size in pixels, `AVPixelFormat` raw value, frames per second (0/1 when unknown).
    package func videoProperties(ofSink index: Int) -> (width: Int, height: Int, pixelFormat: Int32, frameRate: AVRational) {
        let sink = sinks[index]
        return (Int(av_buffersink_get_w(sink)), Int(av_buffersink_get_h(sink)), av_buffersink_get_format(sink),
                av_buffersink_get_frame_rate(sink))
    }

    /// The sound sink `index` delivers after configuration (`av_buffersink_get_sample_rate`, `_format`): samples per
    /// second and `AVSampleFormat` raw value.
    package func audioProperties(ofSink index: Int) -> (sampleRate: Int, sampleFormat: Int32) {
        let sink = sinks[index]
        return (Int(av_buffersink_get_sample_rate(sink)), av_buffersink_get_format(sink))
    }

    /// Copies the channel layout of audio sink `index` into `layout` (`av_buffersink_get_ch_layout`; the caller
    /// owns the copy and uninitialises it, e.g. as part of a codec context).
    package func copyChannelLayout(ofSink index: Int, into layout: UnsafeMutablePointer<AVChannelLayout>) throws {
        av_channel_layout_uninit(layout)
        try FFmpegError.check(av_buffersink_get_ch_layout(sinks[index], layout), in: "av_buffersink_get_ch_layout")
    }

    /// Sets several runtime options of one filter instance, which then reconfigures once: every option but the last
    /// is stored with `av_opt_set` (as a command stores its one option), the last is sent as a command, whose handling
    /// reconfigures the filter with all of them. `lut` rebuilds its tables (65,536 entries a component) on each
    /// command: one rebuild instead of one per option.
    /// - Throws: `FFmpegError` (EINVAL when the graph has no filter instance `target`, or it has no such option), or
    ///   the filter's refusal of the command.
    package func sendCommands(target: String, options: [(name: String, argument: String)]) throws {
        guard let last = options.last else { return }
        if options.count > 1 {
            guard let filter = avfilter_graph_get_filter(pointer, target) else { throw FFmpegError.posix(EINVAL) }
            for option in options.dropLast() {
                try FFmpegError.check(av_opt_set(UnsafeMutableRawPointer(filter), option.name, option.argument, AV_OPT_SEARCH_CHILDREN),
                                      in: "av_opt_set(\(target) \(option.name))")
            }
        }
        try sendCommand(target: target, command: last.name, argument: last.argument)
    }

    /// Sends a runtime command to one filter instance (`avfilter_graph_send_command`), e.g. target `lut@L0`,
    /// command `a`, argument `val*0.5`.
    package func sendCommand(target: String, command: String, argument: String) throws {
        var response = [CChar](repeating: 0, count: 256)
        let code = response.withUnsafeMutableBufferPointer {
            avfilter_graph_send_command(pointer, target, command, argument, $0.baseAddress, Int32($0.count), 0)
        }
        commandsSent += 1
        try FFmpegError.check(code, in: "avfilter_graph_send_command")
    }

    /// The commands sent so far (``sendCommand(target:command:argument:)``), each one reconfiguration of its filter.
    package private(set) var commandsSent = 0
}
