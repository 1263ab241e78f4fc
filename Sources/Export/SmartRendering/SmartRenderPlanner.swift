import Composition

/// Splits an export's video into spans to copy and spans to re-encode (smart rendering), from the render plan and
/// the sources' groups of pictures alone: plain data in, plain data out, no file opened.
///
/// Each output frame k (composition time k·frameDuration) is first classified: it can be copied only when exactly one
/// layer with a source picture is visible, with an identity transform, opacity 1 that does not ramp, no crop, no
/// overlay drawn, its segment at speed 1 and not a still image, and the source's pictures match the output (H.264 or
/// HEVC as the output, size, pixel format, colour tags, square pixels, constant frame rate equal to the output's — ``formatMismatch(of:)``).
/// Runs of such frames from one segment are then cut to the whole groups of pictures that lie inside them: a run of
/// consecutive groups is copied from the key frame of the first one a decoder can start at (an IDR picture, or an
/// HEVC CRA picture without its leading pictures, which are re-encoded); the frames around it are re-encoded (``SmartRenderReason/partialGroup(cut:)``, ``SmartRenderReason/openGroup(at:)``). Every other
/// frame is re-encoded with the reason that failed first. Adjacent re-encoded frames with the same reason form one span.
struct SmartRenderPlanner {
    let video: VideoPlan
    let outputCodec: VideoSettings.Codec
    /// The sources by ``AssetTrack/sourceStreamKey``; a source missing here is re-encoded.
    let sources: [String: SmartRenderSource]

    /// A span together with what a writer needs to copy it.
    struct PlannedSpan: Sendable, Hashable {
        var span: SmartRenderReport.Span
        /// Copied spans: the source stream key and the indices of the copied groups in its ``SmartRenderSource/groups``.
        var sourceKey: String?
        var groups: Range<Int> = 0..<0
    }

    /// What one output frame can be.
    private enum FrameClass: Hashable {
        case candidate(trackID: Int32, segment: Int)
        case reencode(SmartRenderReason)
    }

    /// The spans, in output order, back to back over `0..<video.frameCount`.
    func plan() -> [PlannedSpan] {
        let count = video.frameCount
        guard count > 0 else { return [] }
        var classes: [FrameClass] = []
        classes.reserveCapacity(count)
        var hints: [Int32: Int] = [:]
        var instructionHint = 0
        for index in 0..<count {
            classes.append(classify(video.time(ofFrame: index), hints: &hints, instructionHint: &instructionHint))
        }
        var spans: [PlannedSpan] = []
        var start = 0
        while start < count {
            var end = start + 1
            while end < count, classes[end] == classes[start] { end += 1 }
            switch classes[start] {
            case .reencode(let reason): append(reencode: start..<end, reason: reason, to: &spans)
            case .candidate(let trackID, let segment): appendCandidate(start..<end, trackID: trackID, segment: segment, to: &spans)
            }
            start = end
        }
        return spans
    }

    // MARK: Per frame

    private func classify(_ time: MediaTime, hints: inout [Int32: Int], instructionHint: inout Int) -> FrameClass {
        if instructionHint >= video.instructions.count || !video.instructions[instructionHint].timeRange.contains(time) {
            instructionHint = video.instructions.firstIndex { $0.timeRange.contains(time) } ?? instructionHint
        }
        guard instructionHint < video.instructions.count, video.instructions[instructionHint].timeRange.contains(time) else {
            return .reencode(.noSource)
        }
        let instruction = video.instructions[instructionHint]
        var visible: [(layer: LayerPlan, segmentIndex: Int, segment: RenderSegment)] = []
        for layer in instruction.layers {
            guard let track = video.tracks.first(where: { $0.trackID == layer.trackID }) else { continue }
            guard let index = track.segmentIndex(containing: time, from: hints[layer.trackID] ?? 0) else { continue }
            hints[layer.trackID] = index
            guard track.segments[index].source != nil, layer.opacity(time) > 0 else { continue }
            visible.append((layer, index, track.segments[index]))
        }
        guard let top = visible.first else { return .reencode(.noSource) }
        if visible.count > 1 { return .reencode(.multipleLayers) }
        if instruction.drawsOverlays {
            let overlays = video.imageOverlays.map(\.timeRange) + video.textOverlays.map(\.timeRange)
            if let overlay = overlays.first(where: { $0.contains(time) }) { return .reencode(.overlay(overlay)) }
        }
        if top.layer.opacity(time) != 1 || !top.layer.isOpacityConstant(at: time) { return .reencode(.opacity) }
        if top.layer.transform(time) != .identity { return .reencode(.transform) }
        if !top.layer.effects(time).isEmpty { return .reencode(.effects) }
        if let crop = top.layer.crop(time), let size = top.segment.source?.video?.naturalSize,
           crop != Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)) {
            return .reencode(.crop)
        }
        guard let source = top.segment.source else { return .reencode(.noSource) }
        if source.video?.isStillImage == true { return .reencode(.stillImage) }
        if top.segment.mapping.source.duration != top.segment.mapping.target.duration || top.segment.effect != nil {
            return .reencode(.speed)  // a time effect (reverse, freeze, ramp) retimes the pictures too
        }
        if let mismatch = formatMismatch(of: source) { return .reencode(mismatch) }
        return .candidate(trackID: top.layer.trackID, segment: top.segmentIndex)
    }

    /// The first way `source` differs from the output so that its packets cannot be copied, or nil.
    func formatMismatch(of source: AssetTrack) -> SmartRenderReason? {
        let codec: VideoSettings.Codec
        switch source.codecName {
        case "h264": codec = .h264
        case "hevc": codec = .hevc
        default: return .formatMismatch("codec \(source.codecName); only H.264 and HEVC sources are copied")
        }
        guard outputCodec == codec else { return .formatMismatch("codec \(source.codecName) vs output \(outputCodec.rawValue)") }
        guard let facts = sources[source.sourceStreamKey], let format = source.video else {
            return .formatMismatch("its groups of pictures are unknown (the file cannot be read by packets)")
        }
        let size = format.naturalSize
        if size != video.outputSize || video.renderSize != video.outputSize {
            return .formatMismatch("size \(size.width)x\(size.height) vs output \(video.outputSize.width)x\(video.outputSize.height) pixels")
        }
        let canvas = video.color
        let pixelFormat = video.outputPixelFormat ?? canvas.pixelFormatName(alpha: false)
        if format.pixelFormat != pixelFormat { return .formatMismatch("pixel format \(format.pixelFormat) vs output \(pixelFormat)") }
        let color = format.color
        // Untagged HD is BT.709 by the players' convention (the renderer's too: ``PictureFormat``), so its pictures
        // look the same copied; untagged SD is BT.601 and does not match.
        func matches(_ tag: String, _ canvasTag: String) -> Bool {
            tag == canvasTag || (tag == "unknown" && !canvas.isHDR && size.height >= 720)
        }
        if color.range == .full || !matches(color.primaries, canvas.primariesName)
            || !matches(color.transfer, canvas.transferName) || !matches(color.matrix, canvas.matrixName) {
            return .formatMismatch(
                "colour tags \(color.range.rawValue) \(color.primaries)/\(color.transfer)/\(color.matrix) vs output limited "
                    + "\(canvas.primariesName)/\(canvas.transferName)/\(canvas.matrixName)")
        }
        if format.pixelAspectRatio.horizontalSpacing != format.pixelAspectRatio.verticalSpacing {
            return .formatMismatch(
                "pixel aspect ratio \(format.pixelAspectRatio.horizontalSpacing):\(format.pixelAspectRatio.verticalSpacing) vs output 1:1")
        }
        if format.hasVariableFrameRate { return .formatMismatch("variable frame rate") }
        if format.minFrameDuration != video.frameDuration {
            func fraction(_ time: MediaTime) -> String { "\(time.value)/\(time.timescale) s" }
            return .formatMismatch("frame duration \(fraction(format.minFrameDuration)) vs output \(fraction(video.frameDuration))")
        }
        if facts.groups.isEmpty { return .formatMismatch("no key frame found") }
        return nil
    }

    // MARK: Spans

    /// The output frame shown first at `time` when `time` lies exactly on the output frame grid, else nil.
    func exactFrameIndex(of time: MediaTime) -> Int? {
        let frame = video.frameDuration
        guard time.isNumeric, frame.isNumeric, frame.value > 0, time >= .zero else { return nil }
        let numerator = Int128(time.value) * Int128(frame.timescale)
        let denominator = Int128(time.timescale) * Int128(frame.value)
        guard numerator % denominator == 0 else { return nil }
        return Int(numerator / denominator)
    }

    private func range(_ frames: Range<Int>) -> TimeRange {
        TimeRange(start: video.time(ofFrame: frames.lowerBound), end: video.time(ofFrame: frames.upperBound))
    }

    private func append(reencode frames: Range<Int>, reason: SmartRenderReason, to spans: inout [PlannedSpan]) {
        guard !frames.isEmpty else { return }
        if let last = spans.last, last.span.action == .reencode, last.span.reason == reason {
            let merged = last.span.timeRange.start
            spans[spans.count - 1].span.timeRange = TimeRange(start: merged, end: video.time(ofFrame: frames.upperBound))
            spans[spans.count - 1].span.frameCount += frames.count
            return
        }
        spans.append(PlannedSpan(span: SmartRenderReport.Span(
            timeRange: range(frames), action: .reencode, reason: reason, copiedGroupCount: 0, frameCount: frames.count)))
    }

    /// Cuts a run of copyable frames from one segment into whole closed-started runs of groups and the rest.
    private func appendCandidate(_ frames: Range<Int>, trackID: Int32, segment: Int, to spans: inout [PlannedSpan]) {
        guard let track = video.tracks.first(where: { $0.trackID == trackID }), segment < track.segments.count,
              let asset = track.segments[segment].source, let facts = sources[asset.sourceStreamKey] else {
            append(reencode: frames, reason: .noSource, to: &spans)
            return
        }
        let mapping = track.segments[segment].mapping
        // Source times of the run: its first frame's time to its last frame's end.
        let runStart = video.time(ofFrame: frames.lowerBound), runEnd = video.time(ofFrame: frames.upperBound)
        let sourceStart = mapping.source.start + (runStart - mapping.target.start)
        let sourceEnd = mapping.source.start + (runEnd - mapping.target.start)
        func outputTime(_ source: MediaTime) -> MediaTime { mapping.target.start + (source - mapping.source.start) }
        func frameIndex(_ time: MediaTime) -> Int? { exactFrameIndex(of: time) }
        var cursor = frames.lowerBound
        var index = facts.groups.firstIndex { $0.keyFrameTime >= sourceStart } ?? facts.groups.count
        while index < facts.groups.count, facts.groups[index].end <= sourceEnd {
            // Skip groups a decoder cannot start at; each is re-encoded with its reason. A run starts at its key
            // frame: a closed group's first picture, or a CRA picture whose leading pictures are re-encoded before it.
            let group = facts.groups[index]
            guard group.isRandomAccessStart, let first = frameIndex(outputTime(group.keyFrameTime)), first >= cursor else {
                index += 1
                continue
            }
            var last = index
            while last + 1 < facts.groups.count, facts.groups[last + 1].end <= sourceEnd,
                  facts.groups[last + 1].start == facts.groups[last].end {
                last += 1
            }
            guard let end = frameIndex(outputTime(facts.groups[last].end)), end <= frames.upperBound else {
                index += 1
                continue
            }
            let head = cursor..<first
            appendHead(head, before: index, facts: facts, cut: cursor == frames.lowerBound ? runStart : nil,
                       outputTime: outputTime, to: &spans)
            spans.append(PlannedSpan(
                span: SmartRenderReport.Span(
                    timeRange: range(first..<end), action: .copy, reason: nil, copiedGroupCount: last - index + 1,
                    frameCount: end - first),
                sourceKey: asset.sourceStreamKey, groups: index..<(last + 1)))
            cursor = end
            index = last + 1
        }
        guard cursor == frames.lowerBound else {
            append(reencode: cursor..<frames.upperBound, reason: .partialGroup(cut: runEnd), to: &spans)
            return
        }
        // Nothing copied: an open group in the run is the reason, else the run holds no whole group (named by its
        // cut: its start, or its end for a run at the start of the export).
        let open = facts.groups.first {
            !$0.isRandomAccessStart && $0.keyFrameTime >= sourceStart && $0.keyFrameTime < sourceEnd
        }
        append(reencode: frames, reason: open.map { .openGroup(at: outputTime($0.keyFrameTime)) } ?? .partialGroup(cut: runStart == .zero ? runEnd : runStart),
               to: &spans)
    }

    /// The frames before a copied run: the leading pictures of its first key frame (a CRA picture) as such, an open
    /// group before them as such, otherwise they are a partial group at the run's cut.
    private func appendHead(
        _ frames: Range<Int>, before groupIndex: Int, facts: SmartRenderSource, cut: MediaTime?,
        outputTime: (MediaTime) -> MediaTime, to spans: inout [PlannedSpan]
    ) {
        let split = max(frames.lowerBound, frames.upperBound - facts.groups[groupIndex].leadingFrameCount)
        let rest = frames.lowerBound..<split
        if !rest.isEmpty {
            let openGroup = facts.groups[..<groupIndex].last {
                !$0.isRandomAccessStart && outputTime($0.keyFrameTime) >= video.time(ofFrame: rest.lowerBound)
            }
            if let openGroup {
                append(reencode: rest, reason: .openGroup(at: outputTime(openGroup.keyFrameTime)), to: &spans)
            } else {
                append(reencode: rest, reason: .partialGroup(cut: cut ?? video.time(ofFrame: rest.lowerBound)), to: &spans)
            }
        }
        append(reencode: split..<frames.upperBound,
               reason: .leadingPictures(at: outputTime(facts.groups[groupIndex].keyFrameTime)), to: &spans)
    }
}
