import Foundation
import Splice

/// The benchmark edits, built with the public API only (what an application would write). The `ffmpeg` CLI
/// commands in `Benchmarks/run` do the same work; the rules here and there must stay in step.
enum Workloads {
    /// A composition with its video composition and audio mix.
    struct Edit {
        var composition: MutableComposition
        var video: MutableVideoComposition?
        var audio: MutableAudioMix?
    }

    static let watermarkSize = Size(width: 200, height: 80)
    /// Gap between the watermark and the bottom-right corner, pixels.
    static let watermarkMargin = 16

    struct Inputs {
        var clipA: Asset
        var clipB: Asset
        var music: Asset?
        var watermark: URL

        /// `hdr`: the 10-bit HLG copies of the clips (`clipA-hlg.mp4`, `clipB-hlg.mp4`) instead of the 8-bit ones.
        init(_ directory: URL, music wantsMusic: Bool, hdr: Bool = false) async throws {
            let suffix = hdr ? "-hlg" : ""
            clipA = try await Asset.load(from: directory.appendingPathComponent("clipA\(suffix).mp4"))
            clipB = try await Asset.load(from: directory.appendingPathComponent("clipB\(suffix).mp4"))
            music = wantsMusic ? try await Asset.load(from: directory.appendingPathComponent("music.mp3")) : nil
            watermark = directory.appendingPathComponent("watermark.png")
        }
    }

    static let ten = MediaTime(seconds: 10)

    /// W1 (`repeats` = 1) and W3 (`repeats` = 10): clip A then clip B, `repeats` times, on one video track; A's
    /// opacity ramps 1 → 0 over its last second, over the black background; A's and B's own audio at 0.5; the
    /// 20 s music under each A+B pair, its volume ramping 1 → 0 over the last 3 s of the timeline; the watermark
    /// bottom-right throughout.
    ///
    /// `without` leaves parts out, for finding which one costs time or memory: `fade`, `watermark`, `music`,
    /// `mix` (the clips' 0.5 and the music's ramp), `audio` (no audio at all). `hdr` (W1h) uses the 10-bit HLG
    /// copies of the clips: the same edit composited in HDR (BT.2020 HLG, 10 bits) when exported at 10 bits.
    /// `lookupTable` (W1c) gives both clips' layer a colour effect: saturation 1.3, then that `.cube` file.
    static func canonical(inputs directory: URL, repeats: Int, without: Set<String> = [], hdr: Bool = false,
                          lookupTable: URL? = nil) async throws -> Edit {
        let inputs = try await Inputs(directory, music: true, hdr: hdr)
        var composition = MutableComposition()
        let clipRange = TimeRange(start: .zero, duration: ten)
        for r in 0..<Int64(repeats) {
            try composition.insertTimeRange(clipRange, of: inputs.clipA, at: MediaTime(seconds: 20 * r))
            try composition.insertTimeRange(clipRange, of: inputs.clipB, at: MediaTime(seconds: 20 * r + 10))
        }
        guard let clipAudio = composition.tracks(withMediaType: .audio).first?.trackID,
              let musicSource = inputs.music?.tracks(withMediaType: .audio).first else {
            throw BenchError.input("clip A or the music has no audio track")
        }
        let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
        let musicLength = min(MediaTime(seconds: 20), musicSource.timeRange.duration)
        for r in 0..<Int64(repeats) {
            try composition.insertTimeRange(TimeRange(start: .zero, duration: musicLength), of: musicSource,
                                            at: MediaTime(seconds: 20 * r), intoTrackWithID: musicTrack)
        }
        if without.contains("music") || without.contains("audio") { try composition.removeTrack(withTrackID: musicTrack) }
        if without.contains("audio") {
            for track in composition.tracks(withMediaType: .audio) { try composition.removeTrack(withTrackID: track.trackID) }
        }
        let duration = composition.duration

        var video = MutableVideoComposition(propertiesOf: composition)
        let videoTrack = composition.tracks(withMediaType: .video)[0].trackID
        for i in video.instructions.indices {
            for j in video.instructions[i].layerInstructions.indices
            where video.instructions[i].layerInstructions[j].trackID == videoTrack && !without.contains("fade") {
                for r in 0..<Int64(repeats) {
                    video.instructions[i].layerInstructions[j].setOpacityRamp(
                        fromStartOpacity: 1, toEndOpacity: 0,
                        timeRange: TimeRange(start: MediaTime(seconds: 20 * r + 9), duration: MediaTime(seconds: 1)))
                    video.instructions[i].layerInstructions[j].setOpacity(1, at: MediaTime(seconds: 20 * r + 10))
                }
            }
        }
        if let lookupTable {
            for i in video.instructions.indices {
                for j in video.instructions[i].layerInstructions.indices
                where video.instructions[i].layerInstructions[j].trackID == videoTrack {
                    video.instructions[i].layerInstructions[j].setEffect(.saturation, 1.3, at: .zero)
                    video.instructions[i].layerInstructions[j].addLookupTable(lookupTable)
                }
            }
        }
        let render = video.renderSize
        if !without.contains("watermark") { video.overlays = [OverlayLayer(
            content: .image(inputs.watermark),
            frame: Rect(x: Double(render.width - watermarkSize.width - watermarkMargin),
                        y: Double(render.height - watermarkSize.height - watermarkMargin),
                        width: Double(watermarkSize.width), height: Double(watermarkSize.height)),
            timeRange: TimeRange(start: .zero, duration: duration))] }
        if without.contains("audio") { return Edit(composition: composition, video: video, audio: nil) }

        var mix = MutableAudioMix()
        var clips = AudioMixInputParameters(trackID: clipAudio)
        clips.setVolume(0.5, at: .zero)
        var music = AudioMixInputParameters(trackID: musicTrack)
        music.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0,
                            timeRange: TimeRange(start: duration - MediaTime(seconds: 3), duration: MediaTime(seconds: 3)))
        mix.inputParameters = without.contains("music") ? [clips] : [clips, music]
        return Edit(composition: composition, video: video, audio: without.contains("mix") ? nil : mix)
    }

    /// The floor's work: clip A then clip B, nothing else (default video composition, every track at unity).
    static func plain(inputs directory: URL) async throws -> Edit {
        let inputs = try await Inputs(directory, music: false)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: ten), of: inputs.clipA, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: ten), of: inputs.clipB, at: ten)
        return Edit(composition: composition, video: MutableVideoComposition(propertiesOf: composition), audio: nil)
    }

    /// W2: `clips` clips of `clipSeconds`, alternately from A (even) and B (odd), clip i from source offset
    /// ((i / 2) mod slots) · clipSeconds (slots = how many whole clips fit in the source), placed at
    /// i · (clipSeconds − dissolveSeconds) on alternating tracks; each overlap is a cross-dissolve (the top track's
    /// opacity ramps) and a cross-fade of the clips' own audio (opposite linear volume ramps).
    ///
    /// With `transition` (W2w) each overlap is that catalogue transition instead (e.g. `.wipeLeft`: an `xfade`
    /// instruction from the outgoing clip's track to the incoming one's), the sound unchanged.
    static func dissolves(inputs directory: URL, clips: Int, clipSeconds: MediaTime, dissolveSeconds: MediaTime,
                          transition: VideoTransitionStyle? = nil) async throws -> Edit {
        let inputs = try await Inputs(directory, music: false)
        let sources = [inputs.clipA, inputs.clipB]
        var composition = MutableComposition()
        let videoTracks = [try composition.addMutableTrack(withMediaType: .video), try composition.addMutableTrack(withMediaType: .video)]
        let audioTracks = [try composition.addMutableTrack(withMediaType: .audio), try composition.addMutableTrack(withMediaType: .audio)]
        let step = clipSeconds - dissolveSeconds
        guard step > .zero else { throw BenchError.input("the dissolve must be shorter than the clip") }
        let slots = Int64(ten.seconds / clipSeconds.seconds)
        guard slots > 0 else { throw BenchError.input("clips longer than the 10 s sources") }
        var overlaps: [TimeRange] = []
        for i in 0..<Int64(clips) {
            let source = sources[Int(i % 2)]
            guard let video = source.tracks(withMediaType: .video).first, let audio = source.tracks(withMediaType: .audio).first else {
                throw BenchError.input("\(source.url.lastPathComponent) lacks video or audio")
            }
            let range = TimeRange(start: clipSeconds * ((i / 2) % slots), duration: clipSeconds)
            let start = step * i
            try composition.insertTimeRange(range, of: video, at: start, intoTrackWithID: videoTracks[Int(i % 2)])
            try composition.insertTimeRange(range, of: audio, at: start, intoTrackWithID: audioTracks[Int(i % 2)])
            if i > 0 { overlaps.append(TimeRange(start: start, duration: dissolveSeconds)) }
        }

        // Overlap k joins clip k (outgoing) and clip k + 1 (incoming). Track 0 is top-most: it fades out when it
        // holds the outgoing clip (k even) and in when it holds the incoming one.
        var video = MutableVideoComposition(propertiesOf: composition)
        let overlapIndex = Dictionary(overlaps.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for i in video.instructions.indices where video.instructions[i].layerInstructions.count == 2 {
            let range = video.instructions[i].timeRange
            guard let k = overlapIndex[range] else {
                throw BenchError.input("unexpected two-layer instruction \(range)")
            }
            if let transition {
                let outgoing = videoTracks[k % 2], incoming = videoTracks[(k + 1) % 2]
                video.instructions[i] = .transition(transition, from: outgoing, to: incoming, timeRange: range)
                continue
            }
            for j in video.instructions[i].layerInstructions.indices
            where video.instructions[i].layerInstructions[j].trackID == videoTracks[0] {
                let outgoing = k % 2 == 0
                video.instructions[i].layerInstructions[j].setOpacityRamp(
                    fromStartOpacity: outgoing ? 1 : 0, toEndOpacity: outgoing ? 0 : 1, timeRange: range)
            }
        }
        var parameters = audioTracks.map { AudioMixInputParameters(trackID: $0) }
        for (k, range) in overlaps.enumerated() {
            parameters[k % 2].setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: range)
            parameters[(k + 1) % 2].setVolumeRamp(fromStartVolume: 0, toEndVolume: 1, timeRange: range)
        }
        var mix = MutableAudioMix()
        mix.inputParameters = parameters
        return Edit(composition: composition, video: video, audio: mix)
    }

    /// W4: `count` RGBA8 pictures of `clip` at sorted times (i + 1/2) · duration / count, rendered by one
    /// ``AssetImageGenerator`` batch, each written raw to `frame_NNN.rgba` (width × height × 4 bytes, rows packed).
    /// `oneByOne` (W4s) asks for the same times one request each instead of one batch: the same pictures, each
    /// found again from its key frame.
    static func frames(clip: URL, outputDirectory: URL, count: Int, oneByOne: Bool = false) async throws -> String {
        let asset = try await Asset.load(from: clip)
        guard let track = asset.tracks(withMediaType: .video).first else { throw BenchError.input("\(clip.path) has no video") }
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: track.timeRange.duration), of: track, at: .zero,
                                        intoTrackWithID: try composition.addMutableTrack(withMediaType: .video))
        let times = frameTimes(duration: track.timeRange.duration, count: count)
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        var index = 0
        var size = Size.zero
        func write(_ image: VideoFrame) throws {
            size = Size(width: image.width, height: image.height)
            guard image.bytesPerRow == image.width * 4 else {
                throw BenchError.input("picture \(index) has padded rows (\(image.bytesPerRow) bytes per row)")
            }
            // The rows are packed: the pixels go to the file as they are, without a second copy of the picture.
            let url = outputDirectory.appendingPathComponent(String(format: "frame_%03d.rgba", index))
            try image.pixels.withUnsafeBytes { bytes in
                try Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count,
                         deallocator: .none).write(to: url)
            }
            index += 1
        }
        if oneByOne {
            for time in times { try write(try await generator.image(at: time).image) }
        } else {
            for try await item in generator.images(for: times) { try write(item.image) }
        }
        guard index == count else { throw BenchError.input("rendered \(index) pictures, wanted \(count)") }
        return "pictures=\(index) size=\(size.width)x\(size.height)"
    }

    /// Times (i + 1/2) · duration / count for i in 0 ..< count, on a millisecond grid (the CLI gets the same
    /// decimal times).
    static func frameTimes(duration: MediaTime, count: Int) -> [MediaTime] {
        let milliseconds = duration.convertScale(1000, method: .towardZero).value
        return (0..<Int64(count)).map { i in MediaTime(value: (2 * i + 1) * milliseconds / (2 * Int64(count)), timescale: 1000) }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case input(String)
    var description: String {
        switch self {
        case .input(let message): return message
        }
    }
}
