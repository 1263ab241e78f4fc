import Foundation
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// A subtitle track drawn into the picture by libass: text pixels inside the caption box on the cue's frames only.
@Suite struct SubtitleBurnInTests {
    /// Bright pixels (each channel above 180, the white caption over black) in rows `rows` of `frame`.
    static func brightPixels(in frame: VideoFrame, rows: Range<Int>) -> Int {
        var count = 0
        for y in rows {
            for x in 0..<frame.width {
                if let p = frame.pixel(x: x, y: y), p.red > 180, p.green > 180, p.blue > 180 { count += 1 }
            }
        }
        return count
    }

    @Test func aBurntInCueShowsInTheCaptionBoxOnExactlyItsFramesAfterACut() async throws {
        let scratch = try ScratchDirectory("burn-in")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(
            video: .colorField(Color(red: 0, green: 0, blue: 0)), duration: .ms(2000), in: scratch.url, name: "black")
        // One cue 0.700–1.500 s; cutting [0.2, 0.4) moves it to 0.500–1.300 s: frames 15 ... 38 at 30 fps.
        let captions = try await Asset.load(from: try scratch.write("captions.srt", """
            1
            00:00:00,700 --> 00:00:01,500
            HELLO HELLO

            """))
        var composition = try MutableComposition(asset: video)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(captions.tracks[0].timeRange, of: captions.tracks[0], at: .zero, intoTrackWithID: text)
        try composition.removeTimeRange(TimeRange(start: .ms(200), duration: .ms(200)))
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.subtitleBurnIn = SubtitleBurnIn(trackID: text)

        let url = scratch.file("burnt.mp4")
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = url
        session.videoComposition = videoComposition
        try await session.export()

        let indices = [14, 15, 38, 39]
        let frames = try await Readback.frames(of: url, at: indices.map { MediaTime(value: Int64($0), timescale: 30) })
        for (index, frame) in zip(indices, frames) {
            let captionBox = Self.brightPixels(in: frame, rows: (frame.height * 2 / 3)..<frame.height)
            let above = Self.brightPixels(in: frame, rows: 0..<(frame.height * 2 / 3))
            #expect(above == 0, "frame \(index): \(above) bright pixels above the caption box")
            if (15...38).contains(index) {
                #expect(captionBox > 100, "frame \(index): \(captionBox) bright pixels in the caption box")
            } else {
                #expect(captionBox == 0, "frame \(index): \(captionBox) bright pixels outside the cue's time")
            }
        }
    }

    @Test func burningInATrackThatIsNotSubtitlesIsRefusedByName() async throws {
        let scratch = try ScratchDirectory("burn-in")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(500), in: scratch.url, name: "clip")
        let composition = try MutableComposition(asset: video)
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.subtitleBurnIn = SubtitleBurnIn(trackID: 1)
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = scratch.file("refused.mp4")
        session.videoComposition = videoComposition
        await #expect(throws: ExportError.invalidComposition(
            "subtitleBurnIn names track 1, a video track; only a subtitle track can be burnt in")) {
            try await session.export()
        }
    }
}
