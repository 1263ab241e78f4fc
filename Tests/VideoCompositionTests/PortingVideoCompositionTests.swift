import Testing
import Composition
import VideoComposition

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: s(start), end: s(end)) }

/// The AVFoundation habits a port brings along, for the video composition: each test is a line of a tutorial's code,
/// written as AVFoundation code is.
@Suite("Porting from AVFoundation: video composition")
struct PortingVideoCompositionTests {
    /// The tutorial makes an empty video composition and sets its render size after building the instructions.
    @Test func emptyVideoCompositionIsFilledInLater() throws {
        var video = MutableVideoComposition()
        #expect(video.renderSize == .zero && !video.frameDuration.isValid && video.instructions.isEmpty)
        #expect(video.backgroundColor == .black && video.overlays.isEmpty)
        let summary = CompositionSummary(tracks: [CompositionSummary.Track(
            trackID: 1, mediaType: .video, timeRange: r(0, 4), segments: [.init(target: r(0, 4))],
            naturalSize: Size(width: 1280, height: 720), minFrameDuration: s(1, 30))])
        let unset = Set(video.validate(for: summary).map(\.kind))
        #expect(unset.isSuperset(of: [.invalidRenderSize, .invalidFrameDuration]))
        var instruction = VideoCompositionInstruction(timeRange: r(0, 4))
        instruction.layerInstructions = [VideoCompositionLayerInstruction(trackID: 1)]
        video.instructions = [instruction]
        video.renderSize = Size(width: 1280, height: 720)
        video.frameDuration = s(1, 30)
        #expect(video.validate(for: summary).isEmpty)
    }

    @Test func namedColours() {
        #expect(Color.red.hexString == "#FF0000FF")
        #expect(Color.green.hexString == "#00FF00FF")
        #expect(Color.blue.hexString == "#0000FFFF")
        #expect(Color.yellow.hexString == "#FFFF00FF")
        #expect(Color.cyan.hexString == "#00FFFFFF")
        #expect(Color.magenta.hexString == "#FF00FFFF")
        #expect(Color.orange.hexString == "#FF8000FF")
        #expect(Color.gray.hexString == "#808080FF")
        #expect(Color.white.hexString == "#FFFFFFFF" && Color.black.hexString == "#000000FF")
        #expect(Color(white: 0, alpha: 0.5).hexString == "#00000080")
    }
}
