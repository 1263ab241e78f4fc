import Foundation
import Testing
@testable import Export
import Splice

/// The smart-rendering planner on plain data (no file): a 10 s timeline at 10 frames per second over 640 × 360
/// H.264 sources with 1 s groups of pictures. Untouched, everything is copied; each failed precondition between 4 s
/// and 6 s re-encodes exactly that span, with its reason, and the rest is still copied (the refusal table).
@Suite("Smart rendering: planner")
struct SmartRenderPlannerTests {
    static let frame = MediaTime(value: 1, timescale: 10)
    static let size = Size(width: 640, height: 360)
    static let bt709 = ColorProperties(range: .limited, primaries: "bt709", transfer: "bt709", matrix: "bt709")

    static func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value, preferredTimescale: 10) }

    /// A described (not real) H.264 source; `change` alters its format.
    static func source(_ name: String, codec: String = "h264", change: (inout VideoTrackFormat) -> Void = { _ in })
        -> AssetTrack
    {
        var format = VideoTrackFormat(
            naturalSize: size, nominalFrameRate: 10, minFrameDuration: frame, pixelFormat: "yuv420p", color: bt709)
        change(&format)
        return AssetTrack(
            assetURL: URL(fileURLWithPath: "/synthetic/\(name).mp4"), trackID: 1, mediaType: .video,
            timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 10)), naturalTimeScale: 10,
            codecName: codec, streamIndex: 0, video: format)
    }

    /// Ten 1 s groups of ten pictures; `open` lists the groups whose key frame is not an IDR picture, `leading` those
    /// with two pictures shown before their key frame (the previous group then ends 0.2 s early).
    static func facts(_ track: AssetTrack, open: Set<Int> = [], leading: Set<Int> = []) -> SmartRenderSource {
        let groups = (0..<10).map { index in
            let start = leading.contains(index) ? seconds(Double(index) - 0.2) : seconds(Double(index))
            let end = leading.contains(index + 1) ? seconds(Double(index) + 0.8) : seconds(Double(index + 1))
            return SmartRenderSource.Group(
                keyFrameTime: seconds(Double(index)), start: start, end: end, frameCount: 10,
                startsWithIDR: !open.contains(index))
        }
        return SmartRenderSource(codecName: track.codecName, format: track.video!, groups: groups)
    }

    /// Ten seconds of `source` on track 1, drawn untouched by one instruction.
    static func wholeClipPlan(_ source: AssetTrack) -> VideoPlan {
        VideoPlan(
            renderSize: size, outputSize: size, frameDuration: frame, duration: MediaTime(seconds: 10),
            tracks: [RenderTrack(trackID: 1, segments: [segment(source, 0, 10, at: 0)])],
            instructions: [InstructionPlan(
                timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 10)), background: .black,
                layers: [layer(1)], drawsOverlays: true)])
    }

    static func segment(_ source: AssetTrack?, _ from: Double, _ to: Double, at target: Double, speed: Double = 1)
        -> RenderSegment
    {
        let targetRange = TimeRange(start: seconds(target), end: seconds(target + (to - from) / speed))
        guard let source else { return RenderSegment(source: nil, mapping: TimeMapping(emptyTarget: targetRange)) }
        return RenderSegment(
            source: source, mapping: TimeMapping(source: TimeRange(start: seconds(from), end: seconds(to)), target: targetRange))
    }

    static let middle = TimeRange(start: seconds(4), end: seconds(6))

    static func layer(
        _ trackID: Int32, transform: AffineTransform2D = .identity, opacity: Double = 1, crop: Rect? = nil
    ) -> LayerPlan {
        LayerPlan(
            trackID: trackID,
            transform: { middle.contains($0) ? transform : .identity },
            opacity: { middle.contains($0) ? opacity : 1 },
            crop: { middle.contains($0) ? crop : nil },
            opacityRamps: [])
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var reason: String
        var description: String { name }
    }

    /// Plans one case of the table: main source "a" over 0–10 s unless the case replaces segments.
    static func plan(_ name: String) -> [SmartRenderReport.Span] {
        let a = source("a")
        var sources = [a.sourceStreamKey: facts(a)]
        var segments = [segment(a, 0, 10, at: 0)]
        var layers = [layer(1)]
        var tracks: [RenderTrack] = []
        var images: [ImageOverlayPlan] = []
        func other(_ b: AssetTrack) {
            sources[b.sourceStreamKey] = facts(b)
            segments = [segment(a, 0, 4, at: 0), segment(b, 0, 2, at: 4), segment(a, 6, 10, at: 6)]
        }
        switch name {
        case "untouched": break
        case "overlay":
            images = [ImageOverlayPlan(
                url: URL(fileURLWithPath: "/synthetic/logo.png"), timeRange: middle,
                frame: { _ in Rect(x: 0, y: 0, width: 64, height: 64) }, rotation: { _ in 0 }, opacity: { _ in 1 })]
        case "transform": layers = [layer(1, transform: AffineTransform2D(translationX: 10, y: 0))]
        case "opacity": layers = [layer(1, opacity: 0.5)]
        case "crop": layers = [layer(1, crop: Rect(x: 0, y: 0, width: 320, height: 180))]
        case "two layers":
            let c = source("c")
            sources[c.sourceStreamKey] = facts(c)
            tracks.append(RenderTrack(trackID: 2, segments: [segment(nil, 0, 4, at: 0), segment(c, 0, 2, at: 4)]))
            layers = [layer(2), layer(1)]
        case "gap": segments = [segment(a, 0, 4, at: 0), segment(nil, 0, 2, at: 4), segment(a, 6, 10, at: 6)]
        case "speed": segments = [segment(a, 0, 4, at: 0), segment(a, 4, 5, at: 4, speed: 0.5), segment(a, 5, 9, at: 6)]
        case "size": other(source("b") { $0.naturalSize = Size(width: 320, height: 180) })
        case "pixel format": other(source("b") { $0.pixelFormat = "yuv422p" })
        case "colour": other(source("b") { $0.color = ColorProperties(range: .limited, primaries: "bt470bg", transfer: "bt709", matrix: "bt470bg") })
        case "full range": other(source("b") { $0.color.range = .full })
        case "aspect": other(source("b") { $0.pixelAspectRatio = PixelAspectRatio(horizontalSpacing: 4, verticalSpacing: 3) })
        case "frame rate": other(source("b") { $0.minFrameDuration = MediaTime(value: 1, timescale: 25) })
        case "vfr": other(source("b") { $0.hasVariableFrameRate = true })
        case "still": other(source("b") { $0.isStillImage = true })
        case "hevc": other(source("b", codec: "hevc"))
        case "vp9": other(source("b", codec: "vp9"))
        case "open GOP at cut":
            // Cut 4–6 s out: the piece after the cut starts at a non-IDR key frame (source 6 s, output 4 s).
            sources[a.sourceStreamKey] = facts(a, open: [6])
            segments = [segment(a, 0, 4, at: 0), segment(a, 6, 10, at: 4)]
        case "partial GOP at cut":
            segments = [segment(a, 0, 4.5, at: 0), segment(a, 6.5, 10, at: 4.5)]
        default: Issue.record("unknown case \(name)")
        }
        tracks.insert(RenderTrack(trackID: 1, segments: segments), at: 0)
        let duration = segments.map(\.mapping.target.end).max() ?? .zero
        let video = VideoPlan(
            renderSize: size, outputSize: size, frameDuration: frame, duration: duration, tracks: tracks,
            instructions: [InstructionPlan(
                timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 10)), background: .black, layers: layers,
                drawsOverlays: true)],
            imageOverlays: images)
        return SmartRenderPlanner(video: video, outputCodec: .h264, sources: sources).plan().map(\.span)
    }

    /// "copy 0–4 s ×4" / "re-encode 4–6 s: reason", one per span.
    static func summary(_ spans: [SmartRenderReport.Span]) -> [String] {
        spans.map { span in
            let range = "\(span.timeRange.start.seconds)–\(span.timeRange.end.seconds) s"
            return span.action == .copy ? "copy \(range) ×\(span.copiedGroupCount)" : "re-encode \(range): \(span.reason!)"
        }
    }

    @Test func anUntouchedTimelineIsCopiedWhole() {
        let spans = Self.plan("untouched")
        #expect(Self.summary(spans) == ["copy 0.0–10.0 s ×10"])
        #expect(spans.first?.frameCount == 100)
    }

    static let refusals: [Case] = [
        Case(name: "overlay", reason: "overlay from 4.000 s to 6.000 s"),
        Case(name: "transform", reason: "the layer is transformed"),
        Case(name: "opacity", reason: "the layer's opacity is not 1"),
        Case(name: "crop", reason: "the layer is cropped"),
        Case(name: "two layers", reason: "more than one layer is visible"),
        Case(name: "gap", reason: "no source picture (gap)"),
        Case(name: "speed", reason: "the segment plays at a changed speed"),
        Case(name: "size", reason: "the source does not match the output: size 320x180 vs output 640x360 pixels"),
        Case(name: "pixel format", reason: "the source does not match the output: pixel format yuv422p vs output yuv420p"),
        Case(name: "colour", reason: "the source does not match the output: colour tags limited bt470bg/bt709/bt470bg vs output limited bt709/bt709/bt709"),
        Case(name: "full range", reason: "the source does not match the output: colour tags full bt709/bt709/bt709 vs output limited bt709/bt709/bt709"),
        Case(name: "aspect", reason: "the source does not match the output: pixel aspect ratio 4:3 vs output 1:1"),
        Case(name: "frame rate", reason: "the source does not match the output: frame duration 1/25 s vs output 1/10 s"),
        Case(name: "vfr", reason: "the source does not match the output: variable frame rate"),
        Case(name: "still", reason: "the segment shows a still image"),
        Case(name: "hevc", reason: "the source does not match the output: codec hevc vs output h264"),
        Case(name: "vp9", reason: "the source does not match the output: codec vp9; only H.264 and HEVC sources are copied"),
    ]

    @Test(arguments: refusals)
    func eachFailedPreconditionReencodesExactlyItsSpan(_ refusal: Case) {
        let spans = Self.plan(refusal.name)
        #expect(Self.summary(spans) == ["copy 0.0–4.0 s ×4", "re-encode 4.0–6.0 s: \(refusal.reason)", "copy 6.0–10.0 s ×4"])
        #expect(spans.map(\.frameCount) == [40, 20, 40])
    }

    /// After a cut the next piece starts at a non-IDR key frame: that group is re-encoded as an open GOP, the next
    /// (IDR) group on is copied.
    @Test func anOpenGroupAtACutIsReencoded() {
        #expect(Self.summary(Self.plan("open GOP at cut")) == [
            "copy 0.0–4.0 s ×4", "re-encode 4.0–5.0 s: open GOP at 4.000 s", "copy 5.0–8.0 s ×3",
        ])
    }

    /// Cuts at 4.5 s and 6.5 s of the source: the half groups on both sides of the join are one re-encoded span.
    @Test func partialGroupsAtACutAreReencoded() {
        #expect(Self.summary(Self.plan("partial GOP at cut")) == [
            "copy 0.0–4.0 s ×4", "re-encode 4.0–5.0 s: partial group of pictures at the cut at 4.500 s", "copy 5.0–8.0 s ×3",
        ])
    }

    /// An open group inside a copied run is copied: the group before it, which it references, is copied too.
    /// Leading pictures (shown before their key frame) are copied with their group.
    @Test func openGroupsInsideACopiedRunAreCopied() {
        let a = Self.source("a")
        let video = Self.wholeClipPlan(a)
        let sources = [a.sourceStreamKey: Self.facts(a, open: [3, 7], leading: [3, 7])]
        let spans = SmartRenderPlanner(video: video, outputCodec: .h264, sources: sources).plan().map(\.span)
        #expect(Self.summary(spans) == ["copy 0.0–10.0 s ×10"])
    }

    /// Output other than H.264: nothing is copied, with the reason.
    @Test func anotherOutputCodecCopiesNothing() {
        let a = Self.source("a")
        let video = Self.wholeClipPlan(a)
        let spans = SmartRenderPlanner(video: video, outputCodec: .vp9, sources: [a.sourceStreamKey: Self.facts(a)]).plan()
        #expect(Self.summary(spans.map(\.span)) == ["re-encode 0.0–10.0 s: the source does not match the output: codec h264 vs output vp9"])
    }

    /// NAL unit types from length-prefixed and start-code access units.
    @Test func idrPicturesAreFoundInBothPacketLayouts() {
        let avcc: [UInt8] = [0, 0, 0, 2, 0x09, 0xF0, 0, 0, 0, 3, 0x65, 0x88, 0x84]  // AUD, IDR slice
        #expect(GroupOfPicturesScan.nalUnitTypes(avcc, lengthSize: 4) == [9, 5])
        #expect(GroupOfPicturesScan.containsIDR(avcc, lengthSize: 4))
        let annexB: [UInt8] = [0, 0, 0, 1, 0x06, 0x05, 0, 0, 1, 0x41, 0x9A]  // SEI, non-IDR slice
        #expect(GroupOfPicturesScan.nalUnitTypes(annexB, lengthSize: nil) == [6, 1])
        #expect(!GroupOfPicturesScan.containsIDR(annexB, lengthSize: nil))
    }
}
