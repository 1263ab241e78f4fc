import Foundation
import Splice
import SpliceTesting
import Testing

/// The Swift samples of README.md and docs/*.md, kept here verbatim so they are compiled with the tests and run by
/// ``DocumentationSampleTests``: each sample sits between a `// sample: NAME` line and a `// end sample` line, and
/// every ```` ```swift ```` block in the docs must equal one of them (its leading `import` lines aside, which this
/// file has at the top). Edit a sample here and paste it into the doc, never the other way round.
///
/// The samples name their files relative to the current directory, as a user's would; the tests run them in a
/// scratch folder holding the canonical fixtures under those names.
enum DocumentationSamples {
    /// README.md, "Quick start".
    static func readmeEdit() async throws {
        // sample: readme-edit
        let clipA = try await Asset.load(from: URL(fileURLWithPath: "a.mov"))
        let clipB = try await Asset.load(from: URL(fileURLWithPath: "b.mov"))
        let music = try await Asset.load(from: URL(fileURLWithPath: "music.m4a"))

        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: clipA.duration), of: clipA, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: clipB.duration), of: clipB, at: clipA.duration)
        let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: composition.duration),
                                         of: music.tracks(withMediaType: .audio)[0], at: .zero, intoTrackWithID: musicTrack)

        var video = MutableVideoComposition(propertiesOf: composition)      // upright, aspect-fitted, one instruction per span
        video.instructions[0].layerInstructions[0].setOpacityRamp(
            fromStartOpacity: 1, toEndOpacity: 0,
            timeRange: TimeRange(start: clipA.duration - MediaTime(seconds: 1), duration: MediaTime(seconds: 1)))
        video.instructions[0].layerInstructions[0].setOpacity(1, at: clipA.duration)   // clip B: opaque again

        var mix = MutableAudioMix()
        var fade = AudioMixInputParameters(trackID: musicTrack)
        fade.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0,
                           timeRange: TimeRange(start: composition.duration - MediaTime(seconds: 3), duration: MediaTime(seconds: 3)))
        mix.inputParameters = [fade]

        let session = AssetExportSession(asset: composition, preset: .preset1920x1080)
        session.outputURL = URL(fileURLWithPath: "out.mp4")
        session.videoComposition = video
        session.audioMix = mix
        try await session.export()                     // progress: session.progressUpdates; cancel: session.cancelExport()
        // end sample
    }

    /// README.md, "Testing your own compositions": a golden-frame check of a composition's picture at 2 s.
    static func readmeGolden(composition: MutableComposition) async throws {
        // sample: readme-golden
        let generator = AssetImageGenerator(asset: composition)
        let goldens = GoldenFrames(directory: URL(fileURLWithPath: "Goldens"))
        let (frame, _) = try await generator.image(at: MediaTime(seconds: 2))
        goldens.expect(frame, matchesGolden: "title-card", tolerance: .psnr(atLeast: 40))
        // end sample
    }

    /// docs/README.md: a document rendered from Swift.
    static func documentExport() async throws {
        // sample: document-export
        let document = try await CompositionDocument.load(from: URL(fileURLWithPath: "Examples/canonical-edit.json"))
        let session = document.makeExportSession(outputURL: URL(fileURLWithPath: "canonical.mp4"))
        try await session.export()
        // end sample
    }

    /// docs/porting.md: the canonical edit (`Examples/canonical-edit.json`) in Swift.
    static func portingCanonicalEdit() async throws {
        // sample: porting-canonical-edit
        let clipA = try await Asset.load(from: URL(fileURLWithPath: "clipA.mp4"))
        let clipB = try await Asset.load(from: URL(fileURLWithPath: "clipB.mp4"))
        let music = try await Asset.load(from: URL(fileURLWithPath: "music.m4a"))
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: clipA.duration), of: clipA, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: clipB.duration), of: clipB, at: clipA.duration)
        let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: composition.duration),
                                        of: music.tracks(withMediaType: .audio)[0], at: .zero, intoTrackWithID: musicTrack)

        var video = MutableVideoComposition(propertiesOf: composition)
        // Clip A fades out over its last second; clip B shares its track (and instruction 0): opaque again at 4 s.
        video.instructions[0].layerInstructions[0].setOpacityRamp(
            fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: MediaTime(seconds: 3), duration: MediaTime(seconds: 1)))
        video.instructions[0].layerInstructions[0].setOpacity(1, at: MediaTime(seconds: 4))
        // The watermark, 160 × 48 pixels, 16 pixels in from the bottom-right corner of the 640 × 360 picture.
        video.overlays = [OverlayLayer(content: .image(URL(fileURLWithPath: "watermark.png")),
                                       frame: Rect(x: 640 - 160 - 16, y: 360 - 48 - 16, width: 160, height: 48),
                                       timeRange: TimeRange(start: .zero, duration: composition.duration))]
        var fade = AudioMixInputParameters(trackID: musicTrack)
        fade.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: MediaTime(seconds: 5), duration: MediaTime(seconds: 3)))

        let session = try AssetExportSession(asset: composition, presetName: "AVAssetExportPresetHighestQuality")
        session.outputURL = URL(fileURLWithPath: "canonical-swift.mp4")
        session.videoComposition = video
        session.audioMix = MutableAudioMix(inputParameters: [fade])
        try await session.export()
        // end sample
    }

    /// docs/porting.md, "Editing one track": one track edited in place through the composition.
    static func portingModifyTrack(
        composition: inout MutableComposition, clipRange: TimeRange, clipVideo: AssetTrack
    ) throws -> Int32 {
        // sample: porting-modify-track
        let videoID = try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0)
        try composition.modifyTrack(withID: videoID) { track in
            try track.insertTimeRange(clipRange, of: clipVideo, at: .zero)
            track.preferredTransform = clipVideo.preferredTransform
        }
        // end sample
        return videoID
    }

    /// docs/porting.md, "Custom compositors": an inverting compositor set on an export session.
    static func portingCustomCompositor(session: AssetExportSession) {
        // sample: porting-custom-compositor
        struct Invert: VideoCompositing {
            struct NothingToDraw: Error {}

            func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
                guard let id = request.sourceTrackIDs.first, let source = request.sourceFrame(byTrackID: id) else {
                    throw NothingToDraw()
                }
                var pixels = source.pixels                      // RGBA8: height × bytesPerRow bytes
                for i in stride(from: 0, to: pixels.count, by: 4) {
                    pixels[i] = 255 - pixels[i]; pixels[i + 1] = 255 - pixels[i + 1]; pixels[i + 2] = 255 - pixels[i + 2]
                }
                guard let frame = VideoFrame(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow,
                                             pixels: pixels) else { throw NothingToDraw() }
                return frame
            }
        }
        session.customVideoCompositor = Invert()
        // end sample
    }

    /// docs/porting.md, "Nested compositions": a composition pre-composed and inserted into another at 5 s.
    static func portingNested(
        titles: MutableComposition, titlesVideo: MutableVideoComposition?, titlesMix: MutableAudioMix?,
        outer: inout MutableComposition
    ) async throws -> Asset {
        // sample: porting-nested
        let inner = NestedComposition(composition: titles, videoComposition: titlesVideo, audioMix: titlesMix)
        let precomposed = try await inner.precompose(in: FileManager.default.temporaryDirectory)
        try outer.insertTimeRange(TimeRange(start: .zero, duration: precomposed.duration), of: precomposed, at: MediaTime(seconds: 5))
        // end sample
        return precomposed
    }
}
