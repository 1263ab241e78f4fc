// swift-tools-version:6.0
// Splice: AVFoundation-style composition editing for Linux, rendered through FFmpeg's C libraries.
// Layout and semantics: see README.md ("Architecture"). Swift 6 language mode (the tools-version default).
import PackageDescription

let package = Package(
    name: "Splice",
    products: [
        .library(name: "Splice", targets: ["Splice"]),
        .library(name: "Composition", targets: ["Composition"]),
        .library(name: "VideoComposition", targets: ["VideoComposition"]),
        .library(name: "AudioMix", targets: ["AudioMix"]),
        // FFmpeg's owners; public only for MediaLibrary (linked versions, licence, log routing, CPU flags).
        .library(name: "SpliceFFmpeg", targets: ["SpliceFFmpeg"]),
        .library(name: "Export", targets: ["Export"]),
        .library(name: "SpliceDocument", targets: ["SpliceDocument"]),
        .library(name: "TimelineInterchange", targets: ["TimelineInterchange"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "AssetIO", targets: ["AssetIO"]),
        .library(name: "CodeScanning", targets: ["CodeScanning"]),
        .library(name: "Delivery", targets: ["Delivery"]),
        .library(name: "SpliceTesting", targets: ["SpliceTesting"]),
        .executable(name: "splice", targets: ["splice"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMedia",
            pkgConfig: "libavformat libavcodec libavfilter libavdevice libavutil libswscale libswresample",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libavdevice-dev", "libswscale-dev", "libswresample-dev", "pkg-config"]),
            ]
        ),
        // fontconfig, for text overlays' font fallback (the font that has every character of a text).
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // FreeType and libfribidi, for text that needs several fonts: runs measured and shaped as drawtext does.
        .systemLibrary(name: "CTextLayout", pkgConfig: "freetype2 fribidi", providers: [.apt(["libfreetype-dev", "libfribidi-dev"])]),
        // libzbar, for capture's machine-readable codes (QR, EAN, UPC, Code 39/93/128, Interleaved 2 of 5).
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .target(name: "Composition"),
        .target(name: "VideoComposition", dependencies: ["Composition"]),
        .target(name: "AudioMix", dependencies: ["Composition"]),
        // The FFmpeg owner types (one Swift owner per allocation) shared by the engines through `package` access.
        .target(name: "SpliceFFmpeg", dependencies: ["CMedia", "Composition"]),
        .target(name: "Export", dependencies: ["CMedia", "CFontconfig", "CTextLayout", "SpliceFFmpeg", "Composition", "VideoComposition", "AudioMix"]),
        // The capture engine: devices (V4L2, PulseAudio, X11, virtual), sessions, crash-safe movie file output.
        .target(name: "Capture", dependencies: ["CMedia", "CZBar", "SpliceFFmpeg", "Composition"]),
        // The sample level (AVAssetReader / AVAssetWriter) over the FFmpeg owners and Export's settings and output rule.
        .target(name: "AssetIO", dependencies: ["CMedia", "SpliceFFmpeg", "Composition", "VideoComposition", "AudioMix", "Export"]),
        // Capture's code detector (libzbar) over files and compositions, read through AssetIO.
        .target(name: "CodeScanning", dependencies: ["Capture", "AssetIO", "Composition", "VideoComposition", "Export"]),
        // What a delivery service ships beside the export: loudness (EBU R128) and storyboards, over Export.
        .target(name: "Delivery", dependencies: ["CMedia", "SpliceFFmpeg", "Composition", "VideoComposition", "AudioMix", "Export", "AssetIO"]),
        // The JSON document format (and the package's only JSON code), over Export's public API.
        .target(name: "SpliceDocument", dependencies: ["Composition", "VideoComposition", "AudioMix", "Export", "Delivery"]),
        // OpenTimelineIO (.otio) timelines read into documents and written from them, over SpliceDocument's JSON parser.
        .target(name: "TimelineInterchange", dependencies: ["Composition", "VideoComposition", "AudioMix", "Export", "SpliceDocument"]),
        .target(name: "Splice", dependencies: ["Composition", "VideoComposition", "AudioMix", "SpliceFFmpeg", "Export", "SpliceDocument", "TimelineInterchange", "Capture", "AssetIO", "CodeScanning", "Delivery"]),
        // Golden frames, synthetic media and digests for test suites, over the engine it tests (not the umbrella).
        .target(name: "SpliceTesting", dependencies: ["Composition", "VideoComposition", "Export", "SpliceFFmpeg", "CMedia"]),
        .executableTarget(name: "splice", dependencies: ["Splice"]),
        // Benchmarks/run's Splice side (not part of `swift test`): the benchmark edits through the public API.
        .executableTarget(name: "splice-bench", dependencies: ["Splice", "Export"], path: "Benchmarks/Sources/splice-bench"),
        // The helpers every engine test target shares (fixture paths, scratch directories, `.ms`, chattr); not a product.
        .target(name: "SpliceTestSupport", dependencies: ["Splice"], path: "Tests/SpliceTestSupport"),
        // One test target per model module; a test goes with the highest module it needs.
        .testTarget(name: "CompositionTests", dependencies: ["Composition"]),
        .testTarget(name: "VideoCompositionTests", dependencies: ["Composition", "VideoComposition"]),
        .testTarget(name: "AudioMixTests", dependencies: ["Composition", "AudioMix"]),
        .testTarget(name: "ExportTests", dependencies: ["Splice", "CMedia", "SpliceFFmpeg", "SpliceTesting", "SpliceTestSupport"]),
        // Goldens are read from Fixtures/goldens through SpliceTestSupport's #filePath (no bundled resources).
        .testTarget(name: "GoldenFrameTests", dependencies: ["Splice", "SpliceFFmpeg", "SpliceTesting", "SpliceTestSupport"]),
        // The SpliceTesting library's own tests: golden assertions, synthetic media, reading and digesting pictures.
        .testTarget(name: "SpliceTestingTests", dependencies: ["Composition", "VideoComposition", "Export", "SpliceFFmpeg", "SpliceTesting", "SpliceTestSupport"]),
        // Runs the built `splice` executable.
        .testTarget(name: "SpliceCLITests", dependencies: ["Splice", "CMedia", "SpliceFFmpeg", "SpliceTestSupport"]),
        .testTarget(name: "SpliceDocumentTests", dependencies: ["SpliceDocument", "Composition", "VideoComposition", "AudioMix", "Export", "SpliceTestSupport"]),
        // Records from virtual devices and from PulseAudio and Xvfb started in user space; V4L2 against recorded replies.
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Splice", "SpliceFFmpeg", "CMedia", "SpliceTesting", "SpliceTestSupport"]),
        // Reads and writes samples; the `ffmpeg`/`ffprobe` CLI is the second reader of every file.
        .testTarget(name: "AssetIOTests", dependencies: ["AssetIO", "Splice", "SpliceFFmpeg", "SpliceTestSupport"]),
        // Timelines built by OpenTimelineIO's own Python package, read and rendered; what Splice writes, read back by it.
        .testTarget(name: "TimelineInterchangeTests", dependencies: ["TimelineInterchange", "Splice", "SpliceTesting", "SpliceTestSupport"]),
        // Loudness and storyboards; pyloudnorm, ffmpeg's ebur128 and ffprobe are the second readers.
        .testTarget(name: "DeliveryTests", dependencies: ["Delivery", "Splice", "SpliceFFmpeg", "SpliceTesting", "SpliceTestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["Splice", "SpliceDocument", "SpliceFFmpeg", "SpliceTestSupport"]),
        // Reads Sources/ as text: Export's folders are layers that point one way (README, "Architecture").
        .testTarget(name: "ArchitectureTests", dependencies: ["SpliceTestSupport"]),
    ]
)
