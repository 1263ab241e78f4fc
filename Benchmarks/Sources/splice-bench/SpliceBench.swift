import Foundation
import Splice
@_spi(Benchmarks) import Export

/// The Splice side of `Benchmarks/run`: builds one benchmark workload with the public API, exports it (or renders
/// its pictures) and prints one line of facts. The harness times the whole process (`/usr/bin/time`), checks the
/// output with ffprobe and compares it with the `ffmpeg` CLI doing the same work.
///
/// ```
/// splice-bench canonical  --inputs DIR --out FILE [--repeat N] [--without fade,watermark,music,mix,audio] [--hdr]
///                         [--custom-compositor]
///                                                                 W1 (N = 1) and W3 (N = 10): the canonical edit;
///                                                                 --hdr (W1h): from the HLG clips, 10-bit HDR out;
///                                                                 --lut FILE (W1c): saturation 1.3 + that .cube
///                                                                 --custom-compositor (W1v): the fade drawn by a
///                                                                 Swift VideoCompositing (FadeCompositor)
///                         [--effect-ramp [--graph-per-frame]]     W1r: brightness + blur ramps on both clips,
///                                                                 optionally by the graph-per-frame path
///                         [--concurrent N]                        N segments rendered at once in this process (W5)
///                         [--fragment-interval SECONDS]           a fragmented MP4, a fragment every SECONDS (S2)
/// splice-bench segment    --inputs DIR --repeat N --segments S --parts DIR (--index I | --join FILE)
///                                                                 W5: one step of the segmented export of the edit
/// splice-bench plain      --inputs DIR --out FILE                 clip A then clip B, no effects (the floor's work)
/// splice-bench dissolves  --inputs DIR --out FILE [--clips 50] [--clip-seconds 2] [--dissolve-seconds 0.5]   W2
///                         [--transition wipeleft]   W2w: an xfade transition instead of the cross-dissolves
/// splice-bench frames     --clip FILE --out-dir DIR [--count 100] [--one-by-one]
///                                                                 W4: RGBA8 pictures at sorted times, one batch;
///                                                                 --one-by-one (W4s): one request per picture
/// splice-bench smart     --source FILE --out FILE [--full]      W6s: 10 ranges removed, a 5 s title, smart-rendered
///                                                                 (--full: the same edit re-encoded whole)
///                         [--cut-every S]                         W6b: a cut every S seconds instead (break-even)
/// splice-bench read      --source FILE [--copies]              R1: every picture decoded to BGRA by an AssetReader,
///                                                                 lent (alwaysCopiesSampleData false) or --copies
/// splice-bench write      --out FILE [--size WxH] (--frames N | --for-seconds S) [--reuse-picture]
///                                                                 R2: generated BGRA pictures appended to an H.264
///                                                                 AssetWriter; R3: --reuse-picture (16 ready
///                                                                 pictures in turn) for S seconds
/// splice-bench ladder     --inputs DIR --out DIR --heights H,H,H   A1: clip A then clip B as an HLS ladder of three
///                                                                 H.264 renditions + AAC, 4 s segments
/// splice-bench raw-frames [--size WxH] --frames N                R2's CLI feed: the same pictures, raw BGRA on stdout
/// splice-bench many-exports --clip FILE --out-dir DIR [--count 200] [--concurrent 2] [--sample-after 20,200]
///                         [--seconds 1] [--size 320x180]    M1: many short exports in this process, N at a time;
///                                                                 RSS, open files and threads after the counts given
/// splice-bench compare-rgba FILE FILE                              mean and max absolute byte difference
/// ```
/// `DIR` holds `clipA.mp4`, `clipB.mp4` (10 s, H.264 + AAC), `music.mp3` (20 s) and `watermark.png` (200×80).
@main
struct SpliceBench {
    static func main() async {
        // As the `splice` tool does (ProcessHeap): the figures are an executable's, not the allocator's defaults.
        ProcessHeap.fixMmapThreshold()
        ProcessHeap.limitArenas()
        ProcessHeap.disableTransparentHugePages()
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            fail("usage: splice-bench canonical|segment|plain|dissolves|scale|frames|smart|read|write|ladder|raw-frames|many-exports|scan|record|compare-rgba …")
        }
        let options = Options(Array(arguments.dropFirst()))
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let summary: String
            switch command {
            case "canonical":
                let hdr = options.flag("hdr")
                var edit = try await Workloads.canonical(
                    inputs: options.directory("inputs"), repeats: options.int("repeat", 1), without: options.list("without"),
                    hdr: hdr, lookupTable: options.optionalPath("lut"))
                if options.flag("effect-ramp") { try Workloads.addEffectRamps(to: &edit) }
                summary = try await export(edit, to: options.path("out"), bitDepth: hdr ? 10 : nil,
                                           preset: options.optionalString("preset") ?? "medium",
                                           concurrentSegments: options.optionalInt("concurrent"),
                                           movieFragmentInterval: options.has("fragment-interval")
                                               ? options.decimal("fragment-interval", "2") : .invalid,
                                           compositor: options.flag("custom-compositor") ? FadeCompositor() : nil,
                                           graphPerFrame: options.flag("graph-per-frame"))
            case "segment":
                let edit = try await Workloads.canonical(inputs: options.directory("inputs"), repeats: options.int("repeat", 1))
                summary = try await segmentStep(edit, segments: options.int("segments", 2), parts: options.directory("parts"),
                                                index: options.optionalInt("index", minimum: 0), join: options.optionalPath("join"))
            case "plain":
                let edit = try await Workloads.plain(inputs: options.directory("inputs"))
                summary = try await export(edit, to: options.path("out"))
            case "dissolves":
                let edit = try await Workloads.dissolves(
                    inputs: options.directory("inputs"), clips: options.int("clips", 50),
                    clipSeconds: options.decimal("clip-seconds", "2"), dissolveSeconds: options.decimal("dissolve-seconds", "0.5"),
                    transition: options.transition())
                summary = try await export(edit, to: options.path("out"))
            case "scale":
                summary = try await Scaling.stages(inputs: options.directory("inputs"), clips: options.int("clips", 100))
            case "frames":
                summary = try await Workloads.frames(clip: options.path("clip"), outputDirectory: options.directory("out-dir"),
                                                     count: options.int("count", 100), oneByOne: options.flag("one-by-one"))
            case "smart":
                let source = options.path("source")
                let edit = if options.has("cut-every") {
                    try await Workloads.breakEvenEdit(source: source, cutEvery: options.decimal("cut-every", "4").seconds)
                } else {
                    try await Workloads.smartEdit(source: source)
                }
                summary = try await smartExport(edit, to: options.path("out"), full: options.flag("full"))
            case "read":
                summary = try await SampleLevel.read(source: options.path("source"), copies: options.flag("copies"))
            case "write":
                summary = try await SampleLevel.write(
                    to: options.path("out"), size: options.size(Size(width: 1920, height: 1080)),
                    frames: options.has("frames") ? options.int("frames", 1) : nil, forSeconds: options.optionalSeconds("for-seconds"),
                    reusePicture: options.flag("reuse-picture"))
            case "ladder":
                let edit = try await Workloads.plain(inputs: options.directory("inputs"))
                let heights = options.list("heights").compactMap { Int($0) }.sorted(by: >)
                summary = try await Ladder.package(edit, heights: heights.isEmpty ? [1080, 720, 480] : heights,
                                                   to: options.path("out"))
            case "raw-frames":
                // Standard output carries the pictures: nothing else may be printed there.
                SampleLevel.rawFrames(size: options.size(Size(width: 1920, height: 1080)), frames: options.int("frames", 1))
                return
            case "many-exports":
                summary = try await ExportLoop.bench(
                    clip: options.path("clip"), folder: options.directory("out-dir"), count: options.int("count", 200),
                    concurrency: options.int("concurrent", 2),
                    points: options.list("sample-after").compactMap { Int($0) }.sorted(),
                    seconds: Int64(options.int("seconds", 1)), size: options.size(Size(width: 320, height: 180)))
            case "scan":
                summary = try await CodeScanningBench.scan(source: options.path("source"), every: options.optionalSeconds("every"))
            case "record":
                summary = try await CodeScanningBench.record(image: options.path("image"), seconds: options.int("seconds", 10),
                                                             to: options.path("out"), scanning: options.flag("scan"))
            case "compare-rgba":
                summary = try compareRGBA(options.positional)
            default:
                fail("unknown command '\(command)'")
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("splice-bench \(command): \(summary) in-process=\(String(format: "%.3f", seconds))s")
        } catch {
            fail("splice-bench \(command) failed: \(error)")
        }
    }

    /// Exports `edit` with the benchmark's encoder settings: H.264 (libx264, preset medium, CRF 23, 2 s GOP) + AAC
    /// 128 kb/s 48 kHz stereo, MP4 with the index first. `bitDepth` 10 writes H.264 High 10 (HDR when every source
    /// is HDR).
    /// `concurrentSegments` renders the video as that many segments at once (``AssetExportSession/concurrentSegments``).
    /// With `compositor`, every frame's picture is the compositor's (W1v).
    /// `graphPerFrame` renders effect ramps with a graph per frame (W1r's reference).
    /// `preset` is libx264's (`medium` unless S2's long exports ask for `ultrafast`).
    /// A valid `movieFragmentInterval` writes a fragmented MP4 (``AssetExportSession/movieFragmentInterval``; S2).
    static func export(_ edit: Workloads.Edit, to url: URL, bitDepth: Int? = nil, preset: String = "medium", concurrentSegments: Int? = nil,
                       movieFragmentInterval: MediaTime = .invalid, compositor: (any VideoCompositing)? = nil, graphPerFrame: Bool = false) async throws -> String {
        try? FileManager.default.removeItem(at: url)
        let session = AssetExportSession(asset: edit.composition, settings: settings(bitDepth: bitDepth, preset: preset))
        session.outputURL = url
        session.outputFileType = .mp4
        session.shouldOptimizeForNetworkUse = true
        session.videoComposition = edit.video
        session.audioMix = edit.audio
        session.concurrentSegments = concurrentSegments
        session.movieFragmentInterval = movieFragmentInterval
        session.customVideoCompositor = compositor
        session._rebuildsEffectGraphPerFrame = graphPerFrame
        try await session.export()
        let duration = edit.composition.duration
        let frames = edit.video.map { duration.seconds / $0.frameDuration.seconds } ?? 0
        return "duration=\(String(format: "%.3f", duration.seconds))s frames=\(Int(frames.rounded()))"
    }

    /// The benchmark's encoder settings: H.264 (libx264, `preset`, CRF 23) + AAC 128 kb/s 48 kHz stereo.
    static func settings(bitDepth: Int? = nil, preset: String = "medium") -> ExportSettings {
        ExportSettings(
            video: VideoSettings(codec: .h264, rateControl: .constantQuality(23), encoderPreset: preset, bitDepth: bitDepth),
            audio: AudioSettings(codec: .aac, bitRate: 128_000, sampleRate: 48_000, channelCount: 2))
    }

    /// One step of W5's segmented export of `edit` into `segments` parts in `parts` (the plan is made again each time:
    /// it is deterministic): render part `index`, or (`join`) render the audio, check the parts and join them.
    static func segmentStep(_ edit: Workloads.Edit, segments: Int, parts: URL, index: Int?, join: URL?) async throws -> String {
        let export = SegmentedExport(composition: edit.composition, videoComposition: edit.video, audioMix: edit.audio,
                                     settings: settings())
        let plan = try export.makePlan(segmentCount: segments, fileType: .mp4, documentPath: parts.path, partsDirectory: parts)
        if let index {
            let segment = plan.segments[index]
            try await export.renderSegment(index, of: plan)
            return "segment=\(index)/\(plan.segments.count) frames=\(segment.frameCount)"
        }
        guard let join else { fail("segment needs --index I or --join FILE") }
        try? FileManager.default.removeItem(at: join)
        try await export.join(plan, to: join)
        return "joined=\(plan.segments.count) frames=\(plan.frameCount)"
    }

    static func compareRGBA(_ paths: [String]) throws -> String {
        guard paths.count == 2 else { fail("compare-rgba needs two files") }
        let a = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        let b = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        guard a.count == b.count, !a.isEmpty else { return "sizes differ: \(a.count) vs \(b.count) bytes" }
        var total = 0, largest = 0
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for i in 0..<pa.count {
                    let d = abs(Int(pa[i]) - Int(pb[i]))
                    total += d
                    largest = max(largest, d)
                }
            }
        }
        return "bytes=\(a.count) mean-abs-diff=\(String(format: "%.3f", Double(total) / Double(a.count))) max-abs-diff=\(largest)"
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}

/// `--name value` options, `--flag` switches (``flags``) and positional arguments.
struct Options {
    /// The options that take no value.
    static let flags: Set<String> = ["hdr", "custom-compositor", "full", "effect-ramp", "graph-per-frame", "one-by-one", "copies", "reuse-picture", "scan"]
    private(set) var values: [String: String] = [:]
    private var setFlags: Set<String> = []
    private(set) var positional: [String] = []

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), Self.flags.contains(String(argument.dropFirst(2))) {
                setFlags.insert(String(argument.dropFirst(2)))
                index += 1
            } else if argument.hasPrefix("--"), index + 1 < arguments.count {
                values[String(argument.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                positional.append(argument)
                index += 1
            }
        }
    }

    func path(_ name: String) -> URL {
        guard let value = values[name] else { SpliceBench.fail("missing --\(name)") }
        return URL(fileURLWithPath: value)
    }

    /// `--name FILE` as a file URL, nil when absent.
    func optionalPath(_ name: String) -> URL? { values[name].map { URL(fileURLWithPath: $0) } }

    /// `--name VALUE` as given, nil when absent.
    func optionalString(_ name: String) -> String? { values[name] }

    func directory(_ name: String) -> URL {
        guard let value = values[name] else { SpliceBench.fail("missing --\(name)") }
        return URL(fileURLWithPath: value, isDirectory: true)
    }

    /// Whether `--name VALUE` was given.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// Whether the switch `--name` was given.
    func flag(_ name: String) -> Bool { setFlags.contains(name) }

    /// A comma-separated list (`--without fade,music`); empty when absent.
    func list(_ name: String) -> Set<String> {
        Set((values[name] ?? "").split(separator: ",").map(String.init))
    }

    /// `--name N` as an integer ≥ `minimum` (a segment index may be 0), nil when absent.
    func optionalInt(_ name: String, minimum: Int = 1) -> Int? {
        guard let value = values[name] else { return nil }
        guard let number = Int(value), number >= minimum else { SpliceBench.fail("--\(name) wants an integer ≥ \(minimum), got '\(value)'") }
        return number
    }

    func int(_ name: String, _ fallback: Int) -> Int {
        guard let value = values[name] else { return fallback }
        guard let number = Int(value), number > 0 else { SpliceBench.fail("--\(name) wants a positive integer, got '\(value)'") }
        return number
    }

    /// `--transition NAME`: a transition style by its document name (`wipeleft`), nil when absent.
    func transition() -> VideoTransitionStyle? {
        guard let value = values["transition"] else { return nil }
        guard let style = VideoTransitionStyle(rawValue: value) else { SpliceBench.fail("--transition: unknown style '\(value)'") }
        return style
    }

    /// A decimal number of seconds as an exact time (`"0.5"` → 1/2 s, via milliseconds).
    func decimal(_ name: String, _ fallback: String) -> MediaTime {
        let text = values[name] ?? fallback
        guard let number = Decimal(string: text), number > 0 else { SpliceBench.fail("--\(name) wants seconds > 0, got '\(text)'") }
        let milliseconds = NSDecimalNumber(decimal: number * 1000).int64Value
        return MediaTime(value: milliseconds, timescale: 1000)
    }
}
