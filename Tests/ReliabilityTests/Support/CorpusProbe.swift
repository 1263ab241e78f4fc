import Foundation
import Splice
import SpliceTestSupport

/// What happened to one damaged input: probed with `Asset.load`, then (when it loads) its first seconds exported
/// small and fast and the result read back.
struct ProbeResult: Sendable {
    enum Stage: String, Sendable { case load, compose, export, verify }

    var name: String
    /// The last stage reached.
    var stage: Stage
    /// `"loaded"`, `"exported"`, or the error's kind (`"AssetLoadingError.corruptOrTruncated"`, …), or `"hang"`.
    var outcome: String
    /// Why the input counts as a failure (a hang, an untyped error, a wrong result, a file left behind); nil when
    /// it behaved.
    var problem: String?
    var milliseconds: Int
    /// The error's description, on one line.
    var detail = ""
}

/// Probes and exports damaged inputs one at a time with a per-step timeout (a hang is a failure).
enum CorpusProbe {
    /// The longest stretch of a damaged input exported, in seconds (still images: 1 s).
    static let exportedSeconds: Int64 = 2
    /// The largest picture exported, in pixels (the canvas is the source's size; the encoder gets at most this).
    static let exportSize = Size(width: 128, height: 96)

    static func run(_ input: DamagedInput, scratch: ScratchDirectory, timeout: Double) async -> ProbeResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result = await probe(input, scratch: scratch, timeout: timeout)
        let elapsed = clock.now - start
        result.milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        return result
    }

    private static func probe(_ input: DamagedInput, scratch: ScratchDirectory, timeout: Double) async -> ProbeResult {
        func result(_ stage: ProbeResult.Stage, _ outcome: String, _ problem: String? = nil) -> ProbeResult {
            ProbeResult(name: input.name, stage: stage, outcome: outcome, problem: problem, milliseconds: 0)
        }
        func failure(_ stage: ProbeResult.Stage, _ error: any Error) -> ProbeResult {
            let kind = ErrorKind.name(error)
            var failed = result(stage, kind, ErrorKind.isTyped(error) ? nil : "untyped error \(kind): \(error)")
            failed.detail = String(describing: error).replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\t", with: " ")
            return failed
        }
        let url = input.url
        let asset: Asset
        switch await withTimeout(seconds: timeout, { try await Asset.load(from: url) }) {
        case .timedOut: return result(.load, "hang", "Asset.load did not return within \(timeout) s")
        case .error(let error): return failure(.load, error)
        case .value(let loaded): asset = loaded
        }

        // The first seconds of every composable track.
        var composition = MutableComposition()
        let duration = asset.duration
        let length: MediaTime = duration.isPositiveInfinity ? MediaTime(seconds: 1) : min(duration, MediaTime(seconds: exportedSeconds))
        guard length.isNumeric, length > .zero else { return result(.load, "loaded (nothing to export: duration \(duration))") }
        do {
            try composition.insertTimeRange(TimeRange(start: .zero, duration: length), of: asset, at: .zero)
        } catch {
            return failure(.compose, error)
        }

        let output = scratch.file("out.mp4")
        let session = AssetExportSession(asset: composition, settings: FastSettings.make(maximumSize: exportSize))
        session.outputURL = output
        switch await withTimeout(seconds: timeout, { try await session.export() }) {
        case .timedOut:
            session.cancelExport()
            return result(.export, "hang", "export did not return within \(timeout) s")
        case .error(let error):
            var failed = failure(.export, error)
            if !scratch.contents.isEmpty, failed.problem == nil {
                failed.problem = "left behind after a failed export: \(scratch.contents)"
            }
            return failed
        case .value: break
        }
        defer { try? FileManager.default.removeItem(at: output) }
        if scratch.contents != ["out.mp4"] {
            return result(.export, "exported", "directory holds \(scratch.contents), expected only out.mp4")
        }
        let problem = await verify(output, composition: composition, timeout: timeout)
        return result(.verify, "exported", problem)
    }

    /// A best-effort result must still be a correct file: it loads, and each track lasts the exported duration
    /// (video: exactly, frame count = ceil(duration / frame duration); audio: within one 48 kHz sample).
    /// - Returns: what is wrong with the output, or nil.
    private static func verify(_ output: URL, composition: MutableComposition, timeout: Double) async -> String? {
        func wrong(_ problem: String) -> String { problem }
        let exported: Asset
        switch await withTimeout(seconds: timeout, { try await Asset.load(from: output) }) {
        case .timedOut: return wrong("reading the output back hung")
        case .error(let error): return wrong("the output does not load: \(error)")
        case .value(let asset): exported = asset
        }
        let duration = composition.duration
        let hasVideo = composition.tracks(withMediaType: .video).contains { $0.segments.contains { !$0.isEmpty } }
        let hasAudio = composition.tracks(withMediaType: .audio).contains { $0.segments.contains { !$0.isEmpty } }
        let video = exported.tracks(withMediaType: .video).first
        let audio = exported.tracks(withMediaType: .audio).first
        if hasVideo != (video != nil) || hasAudio != (audio != nil) {
            return wrong("tracks: expected video \(hasVideo) audio \(hasAudio), got \(exported.tracks.map(\.mediaType))")
        }
        if let video {
            let frameDuration = MutableVideoComposition(propertiesOf: composition).frameDuration
            let frames = Int(((Int128(duration.value) * Int128(frameDuration.timescale)
                + Int128(duration.timescale) * Int128(frameDuration.value) - 1)
                / (Int128(duration.timescale) * Int128(frameDuration.value))))
            if video.timeRange.duration != duration {
                return wrong("video lasts \(video.timeRange.duration), expected \(duration)")
            }
            if let count = video.video?.frameCount, count != frames {
                return wrong("video has \(count) frames, expected \(frames) at \(frameDuration)")
            }
        }
        if let audio {
            let samples = (audio.timeRange.duration - duration).convertScale(48_000, method: .towardZero).value
            if abs(samples) > 1 {
                return wrong("audio lasts \(audio.timeRange.duration), expected \(duration)")
            }
        }
        return nil
    }
}
