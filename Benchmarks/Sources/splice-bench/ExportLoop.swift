import Splice
import Foundation

/// Many exports in one process, a few at a time — the way a batch service or `splice batch` runs them — with the
/// process's resources sampled at chosen points, each taken once the exports started so far have all ended (so two
/// samples compare the same resting state, not two moments of different exports).
///
/// ```swift
/// let samples = try await ExportLoop.run(count: 200, concurrency: 2, samplingAfter: [20, 200]) { index in
///     let session = AssetExportSession(asset: composition, settings: settings)
///     session.outputURL = folder.appendingPathComponent("\(index).mp4")
///     return session
/// }
/// // samples[0].resources vs samples[1].resources: flat when nothing leaks.
/// ```
enum ExportLoop {
    /// The process's resources after a number of exports.
    struct Sample: Sendable, Hashable {
        /// How many exports had ended (all of them complete).
        var exports: Int
        /// What the process held then.
        var resources: ProcessResources
    }

    /// The resources once the threads of the exports that just ended have exited: read every 100 ms until three
    /// reads in a row agree on the thread count (at most 3 s). An export's caller resumes while its worker thread is
    /// still returning, and a thread pool may hold an extra idle thread for a moment: neither is left behind, and a
    /// thread that is stays in every read.
    static func settled() async -> ProcessResources {
        var reads = [ProcessResources.current()]
        for _ in 0..<30 {
            if reads.count >= 3, Set(reads.suffix(3).map(\.threads)).count == 1 { break }
            try? await Task.sleep(for: .milliseconds(100))
            reads.append(.current())
        }
        var last = reads[reads.count - 1]
        last.trimmedResidentBytes = ProcessResources.trimmedResidentBytes()
        return last
    }

    /// Runs exports `1 ... count`, `concurrency` at a time, and samples ``ProcessResources`` after the numbers in
    /// `points`: starting stops there until the running exports end, the sample is taken, and the loop goes on.
    /// - Parameters:
    ///   - count: how many exports, at least 1.
    ///   - concurrency: how many run at once, at least 1.
    ///   - points: export counts to sample after (those outside `1...count` are ignored), e.g. `[20, 200]`.
    ///   - makeSession: the session of export `index` (from 1), its output set; each must write its own file.
    /// - Returns: one sample per point, in ascending order.
    /// - Throws: the first export's error (the running ones are waited for first); `CancellationError`.
    static func run(count: Int, concurrency: Int, samplingAfter points: [Int],
                    makeSession: @escaping @Sendable (Int) throws -> AssetExportSession) async throws -> [Sample] {
        precondition(count >= 1 && concurrency >= 1, "ExportLoop.run: count and concurrency are at least 1")
        var samples: [Sample] = []
        var done = 0
        for point in Set(points.filter { (1...count).contains($0) } + [count]).sorted() {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = done + 1
                while next <= point || !group.isEmpty {
                    if next <= point, next - done - 1 < concurrency {
                        let index = next
                        group.addTask { try await makeSession(index).export() }
                        next += 1
                        continue
                    }
                    _ = try await group.next()
                    done += 1
                }
            }
            if points.contains(point) { samples.append(Sample(exports: point, resources: await settled())) }
        }
        return samples
    }
}

extension ExportLoop {
    /// `splice-bench many-exports`: `count` exports of the first `seconds` of `clip` (a 30 fps clip, picture and
    /// sound), at most `size` (aspect kept), x264 `ultrafast` + AAC, index first — short jobs, the cost of one
    /// export's set-up and tear-down dominating —, `concurrency` at a time, into `folder/1.mp4 …`; the resources
    /// after each of `points`.
    /// - Returns: `exports=N concurrent=C frames=F after=20 rss-kib=… trimmed-kib=… fds=… threads=… after=200 …`.
    static func bench(clip: URL, folder: URL, count: Int, concurrency: Int, points: [Int], seconds: Int64,
                      size: Size) async throws -> String {
        let source = try await Asset.load(from: clip)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: seconds)), of: source, at: .zero)
        let settings = ExportSettings(video: VideoSettings(codec: .h264, encoderPreset: "ultrafast", maximumSize: size),
                                      audio: AudioSettings(codec: .aac, sampleRate: 48_000, channelCount: 2))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let samples = try await run(count: count, concurrency: concurrency, samplingAfter: points) { [composition] index in
            let output = folder.appendingPathComponent("\(index).mp4")
            try? FileManager.default.removeItem(at: output)
            let session = AssetExportSession(asset: composition, settings: settings)
            session.outputURL = output
            session.outputFileType = .mp4
            session.shouldOptimizeForNetworkUse = true
            return session
        }
        let figures = samples.map {
            "after=\($0.exports) rss-kib=\($0.resources.residentBytes / 1024) trimmed-kib=\(($0.resources.trimmedResidentBytes ?? -1024) / 1024) "
                + "fds=\($0.resources.openFiles) threads=\($0.resources.threads)"
        }
        return (["exports=\(count) concurrent=\(concurrency) frames=\(seconds * 30)"] + figures).joined(separator: " ")
    }
}
