import Foundation
import Splice

/// The code-scanning workloads of `Benchmarks/run` (C1, C2): libzbar over decoded pictures, and beside a recording.
enum CodeScanningBench {
    /// C1: every picture of `source`'s first video track scanned for every type the linked libzbar reads
    /// (``AssetCodeScanner``); the run measures it on one core (`taskset`). With `every` (seconds) only one picture
    /// per that long is scanned, every picture still decoded: `--every 1000` is the decoding alone (C1d).
    static func scan(source: URL, every: Double?) async throws -> String {
        let scanner = try AssetCodeScanner(metadataObjectTypes: CaptureMetadataOutput().availableMetadataObjectTypes,
                                           minimumScanInterval: every.map { MediaTime(seconds: $0, preferredTimescale: 1000) } ?? .zero)
        var scanned = 0, codes = 0
        for try await picture in scanner.pictures(in: try await Asset.load(from: source)) {
            scanned += 1
            codes += picture.codes.count
        }
        return "scanned=\(scanned) codes=\(codes)"
    }

    /// C2: a virtual camera showing `image` (its own size, 30 fps) recorded for `seconds` into `out`, with a metadata
    /// output scanning beside it for every type when `scanning`: what scanning adds to a recording's CPU time.
    static func record(image: URL, seconds: Int, to out: URL, scanning: Bool) async throws -> String {
        try? FileManager.default.removeItem(at: out)
        let session = CaptureSession()
        session.addInput(try CaptureDeviceInput(device: try .virtualCamera(showingImageAt: image)))
        let movie = CaptureMovieFileOutput()
        movie.maxRecordedDuration = MediaTime(seconds: Int64(seconds))
        session.addOutput(movie)
        let codes = CaptureMetadataOutput()
        var found: Task<Int, Never>?
        if scanning {
            try codes.setMetadataObjectTypes(codes.availableMetadataObjectTypes)
            session.addOutput(codes)
            let stream = codes.metadataObjects()
            found = Task {
                var count = 0
                for await batch in stream { count += batch.count }
                return count
            }
        }
        session.startRunning()
        var result: CaptureRecordingResult?
        for await event in movie.startRecording(to: out) {
            if case .finished(let finished) = event { result = finished }
        }
        session.stopRunning()
        let codeCount = await found?.value ?? 0
        guard let result, result.recordingSuccessfullyFinished || result.error == .maximumDurationReached else {
            SpliceBench.fail("the recording failed: \(String(describing: result?.error))")
        }
        return "recorded=\(result.recordedDuration.seconds)s dropped=\(result.droppedFrameCount) scanned=\(codes.scannedFrameCount) "
            + "skipped=\(codes.droppedFrameCount) codes=\(codeCount)"
    }
}
