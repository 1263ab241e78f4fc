import Foundation
import Splice
import SpliceFFmpeg

/// `splice batch JOBS.jsonl [--jobs N]`: one export or package (or both) per line of a JSON Lines file, N at a time
/// in this process, one JSON result line per job on standard output (in the order jobs end). Jobs whose outputs
/// collide (one file or folder, or one inside another's package folder) are refused before any job runs (each result
/// names the other lines). A failing job never stops the others; an output that already exists and reads as media,
/// and a package folder with its manifests, are skipped, so a rerun after a crash finishes the rest; SIGINT/SIGTERM
/// cancel every running export and package (each removes its temporary file or folder) and start no more.
enum BatchCommand {
    /// One job's outcome, printed as one JSON line.
    struct Result: Encodable, Sendable {
        /// The job's line in the batch file (from 1).
        var line: Int
        /// `completed`, `skipped` (the output was already there), `failed` or `cancelled`.
        var status: String
        var document: String?
        var output: String?
        /// The package folder (a job with `hls`/`dash`).
        var package: String?
        /// The output's media duration in seconds (completed and skipped jobs; for a job that only packages, the
        /// programme's duration once packaged, or the existing package's as its manifest reads when it was skipped).
        var duration: Double?
        /// Seconds the job took.
        var elapsed: Double?
        /// What went wrong, in words.
        var error: String?
        /// Where: `FILE:LINE:COLUMN` of the batch line or of the document, with the JSON path when there is one.
        var place: String?
    }

    /// The exports and packages running now, cancelled together on a signal.
    final class RunningSessions: Sendable {
        private let state = Locked((cancelled: false, cancels: [UUID: @Sendable () -> Void]()))

        /// Registers the way to cancel one export or package; nil (and `cancel` called) when the batch is already
        /// cancelled, else the key to ``remove(_:)`` it with.
        func add(cancel: @escaping @Sendable () -> Void) -> UUID? {
            let key = UUID()
            let cancelled = state.withLock { state -> Bool in
                if !state.cancelled { state.cancels[key] = cancel }
                return state.cancelled
            }
            if cancelled { cancel() }
            return cancelled ? nil : key
        }

        func remove(_ key: UUID) {
            _ = state.withLock { $0.cancels.removeValue(forKey: key) }
        }

        func cancelAll() {
            let cancels = state.withLock { state -> [@Sendable () -> Void] in
                state.cancelled = true
                return Array(state.cancels.values)
            }
            for cancel in cancels { cancel() }
        }

        var isCancelled: Bool { state.withLock { $0.cancelled } }
    }

    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let path = arguments.operands[0]
        var concurrency = 1
        if let text = arguments.value("jobs") {
            guard let count = Int(text), (1...64).contains(count) else {
                throw Usage.fail("--jobs N is a whole number from 1 to 64 (exports at once)", command: .batch)
            }
            concurrency = count
        }
        let batchFile = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try FileContents.utf8Text(of: batchFile)
        } catch {
            Console.error("splice: cannot read the batch file \(path): \(error.localizedDescription)")
            throw CommandExit(status: .invalidInput)
        }
        let lines = BatchJob.parse(text, batchFile: batchFile)
        let running = RunningSessions()
        let signals = SignalCancellation { running.cancelAll() }
        defer { signals.restore() }

        var counts: [String: Int] = [:]
        func report(_ result: Result) {
            counts[result.status, default: 0] += 1
            Console.out((try? JSONText.compact(result)) ?? "{\"line\":\(result.line),\"status\":\"\(result.status)\"}")
        }
        // Jobs whose outputs collide are refused before any job runs: which one would win is a race, and a rerun
        // would skip the loser as done.
        let conflicts = BatchJob.outputConflicts(in: lines)
        for line in lines {
            guard let found = conflicts[line.number], case .success(let job) = line.job else { continue }
            report(Result(line: line.number, status: "failed", document: job.document.path, output: job.output?.path,
                          package: job.package?.folder.path, error: conflictMessage(line: line.number, found),
                          place: "\(path):\(line.number)"))
        }
        await withTaskGroup(of: Result.self) { group in
            var pending = lines.filter { conflicts[$0.number] == nil }.makeIterator()
            var active = 0
            func startNext() -> Bool {
                guard !running.isCancelled, let line = pending.next() else { return false }
                group.addTask { await runJob(line, batchPath: path, running: running) }
                active += 1
                return true
            }
            while active < concurrency, startNext() {}
            while let result = await group.next() {
                active -= 1
                report(result)
                _ = startNext()
            }
            while let line = pending.next() {  // not started: the batch was cancelled
                let job = try? line.job.get()
                report(Result(line: line.number, status: "cancelled", document: job?.document.path, output: job?.output?.path,
                              package: job?.package?.folder.path))
            }
        }
        let summary = ["completed", "skipped", "failed", "cancelled"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
        Console.error("splice batch: \(lines.count) job\(lines.count == 1 ? "" : "s"): \(summary)")
        if running.isCancelled { throw CommandExit(status: .cancelled) }
        if (counts["failed"] ?? 0) > 0 { throw CommandExit(status: .invalidInput) }
    }

    /// Runs one line's job to its result; never throws.
    static func runJob(_ line: BatchJob.Line, batchPath: String, running: RunningSessions) async -> Result {
        let started = DispatchTime.now()
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9 }
        let job: BatchJob
        switch line.job {
        case .failure(let error):
            var problem = error.problem
            problem.line = line.number  // the line's own parser counts from 1 on every line
            return Result(line: line.number, status: "failed", error: problem.message, place: place(of: problem, in: batchPath))
        case .success(let parsed): job = parsed
        }
        var result = Result(line: line.number, status: "failed", document: job.document.path, output: job.output?.path,
                            package: job.package?.folder.path)
        func failed(_ message: String, place: String? = nil) -> Result {
            var failure = result
            failure.error = message
            failure.place = place ?? job.document.path
            failure.elapsed = elapsed()
            return failure
        }
        func cancelled() -> Result {
            var cancelled = result
            cancelled.status = "cancelled"
            cancelled.elapsed = elapsed()
            return cancelled
        }

        // An output already in place was linked there complete (exports write a temporary file and name it only at
        // the end): done. One that does not read as media was not written by Splice: left alone.
        var exportsFile = job.output != nil
        if let output = job.output, !job.overwrite, FileManager.default.fileExists(atPath: output.path) {
            do {
                let existing = try await Asset.load(from: output)
                result.duration = existing.duration.seconds
                exportsFile = false
            } catch {
                return failed("\(output.path) exists but is not a complete media file (\(error)); remove it or set \"overwrite\": true",
                              place: "\(batchPath):\(line.number)")
            }
        }
        // A package folder is renamed into place complete, its manifests written last: one with every manifest the
        // job asks for is done; one with only some of them is redone; one with none was not written by Splice.
        var packages = job.package != nil
        var replacesPackage = job.overwrite
        if let package = job.package, !job.overwrite, FileManager.default.fileExists(atPath: package.folder.path) {
            let present = package.manifestNames.filter {
                FileManager.default.fileExists(atPath: package.folder.appendingPathComponent($0).path)
            }
            if present.count == package.manifestNames.count {
                packages = false
                // A job that only packages reports the package's duration, read back through its first manifest
                // (libavformat's HLS or DASH demuxer), as a skipped export reports its file's.
                if job.output == nil, let manifest = present.first {
                    let url = package.folder.appendingPathComponent(manifest)
                    do {
                        result.duration = try await Asset.load(from: url).duration.seconds
                    } catch {
                        return failed("\(url.path) exists but does not read as a package (\(error)); remove \(package.folder.path) or set \"overwrite\": true",
                                      place: "\(batchPath):\(line.number)")
                    }
                }
            } else if present.isEmpty {
                return failed("\(package.folder.path) exists but is not a package (no \(package.manifestNames.joined(separator: " or "))); remove it or set \"overwrite\": true",
                              place: "\(batchPath):\(line.number)")
            } else {
                replacesPackage = true
            }
        }
        guard exportsFile || packages else {
            result.status = "skipped"
            result.elapsed = elapsed()
            return result
        }

        let loaded: LoadedDocument
        do {
            loaded = try await DocumentLoading.document(at: job.document.path)  // a document or an .otio timeline
        } catch let error as DocumentError {
            return failed(error.problems.map(\.message).joined(separator: "; "), place: error.problems.first.map { place(of: $0, in: job.document.path) })
        } catch is CancellationError {
            result.status = "cancelled"
            return result
        } catch {
            return failed("\(error)")
        }
        if exportsFile, let output = job.output {
            let session = loaded.makeExportSession(outputURL: output, overwrite: job.overwrite)
            if let smart = job.smartRendering { session.smartRendering = smart }
            guard let key = running.add(cancel: { session.cancelExport() }) else {
                result.status = "cancelled"
                return result
            }
            defer { running.remove(key) }
            do {
                try await loaded.checkExport(session)
                if let loudness = job.loudness ?? loaded.export.loudness {
                    try await session.export(normalizingLoudness: loudness)
                } else {
                    try await session.export()
                }
            } catch {
                if error is CancellationError || session.status == .cancelled || running.isCancelled { return cancelled() }
                if let error = error as? DocumentError, let problem = error.problems.first {
                    return failed(problem.message, place: place(of: problem, in: job.document.path))
                }
                return failed(ExportMessages.text(error))
            }
            let whole = TimeRange(start: .zero, duration: loaded.composition.duration)
            result.duration = (loaded.export.timeRange.map { $0.intersection(whole) } ?? whole).duration.seconds
        }
        if packages, let package = job.package {
            let packager = loaded.makePackager(overwrite: replacesPackage)
            packager.manifestFormats = package.manifestFormats
            if let ladder = package.ladder { packager.ladder = ladder }
            if let duration = package.segmentDuration { packager.segmentDuration = duration }
            guard let key = running.add(cancel: { packager.cancelPackaging() }) else { return cancelled() }
            defer { running.remove(key) }
            do {
                _ = try await packager.write(to: package.folder)
            } catch {
                if error is CancellationError || running.isCancelled { return cancelled() }
                return failed("cannot package: \(error is PackagingError ? "\(error)" : ExportMessages.text(error))")
            }
            if job.output == nil { result.duration = loaded.composition.duration.seconds }
        }
        result.status = "completed"
        result.elapsed = elapsed()
        return result
    }

    /// The refusal of a job whose outputs collide with other jobs': `line 3 writes the same output as line 7
    /// (PATH)`, `line 4 writes inside the package folder of line 2 (PATH)`, `line 2's package folder (PATH) holds
    /// the output of line 4`.
    static func conflictMessage(line: Int, _ conflicts: [BatchJob.OutputConflict]) -> String {
        func lines(_ numbers: [Int]) -> String {
            numbers.count == 1 ? "line \(numbers[0])" : "lines " + numbers.map(String.init).joined(separator: ", ")
        }
        var parts: [String] = []
        for kind in [BatchJob.OutputConflict.Kind.same, .insideOtherPackage, .holdsOther] {
            let matching = conflicts.filter { $0.kind == kind }
            guard let first = matching.first else { continue }
            let others = lines(matching.map(\.line))
            switch kind {
            case .same: parts.append("line \(line) writes the same output as \(others) (\(first.path.path))")
            case .insideOtherPackage: parts.append("line \(line) writes inside the package folder of \(others) (\(first.path.path))")
            case .holdsOther: parts.append("line \(line)'s package folder (\(first.path.path)) holds the output of \(others)")
            }
        }
        return parts.joined(separator: "; ") + ": give every job its own output"
    }

    /// `FILE:LINE:COLUMN json.path` (what is known of it).
    static func place(of problem: DocumentProblem, in file: String) -> String {
        file + (problem.line.map { ":\($0)" } ?? "") + (problem.column.map { ":\($0)" } ?? "")
            + (problem.path.isEmpty ? "" : " \(problem.path)")
    }
}
