import Foundation
import Splice
import SpliceFFmpeg

/// `splice batch JOBS.jsonl [--jobs N]`: one export per line of a JSON Lines file, N at a time in this process,
/// one JSON result line per job on standard output (in the order jobs end). Jobs that write the same output are
/// refused before any job runs (each result names the other lines). A failing job never stops the others;
/// a job whose output already exists and reads as media is skipped, so a rerun after a crash finishes the rest;
/// SIGINT/SIGTERM cancel every running export (each removes its temporary file) and start no more.
enum BatchCommand {
    /// One job's outcome, printed as one JSON line.
    struct Result: Encodable, Sendable {
        /// The job's line in the batch file (from 1).
        var line: Int
        /// `completed`, `skipped` (the output was already there), `failed` or `cancelled`.
        var status: String
        var document: String?
        var output: String?
        /// The output's media duration in seconds (completed and skipped jobs).
        var duration: Double?
        /// Seconds the job took.
        var elapsed: Double?
        /// What went wrong, in words.
        var error: String?
        /// Where: `FILE:LINE:COLUMN` of the batch line or of the document, with the JSON path when there is one.
        var place: String?
    }

    /// The sessions running now, cancelled together on a signal.
    final class RunningSessions: Sendable {
        private let state = Locked((cancelled: false, sessions: [ObjectIdentifier: AssetExportSession]()))

        /// Registers `session`; false (and the session cancelled) when the batch is already cancelled.
        func add(_ session: AssetExportSession) -> Bool {
            let cancelled = state.withLock { state -> Bool in
                if !state.cancelled { state.sessions[ObjectIdentifier(session)] = session }
                return state.cancelled
            }
            if cancelled { session.cancelExport() }
            return !cancelled
        }

        func remove(_ session: AssetExportSession) {
            _ = state.withLock { $0.sessions.removeValue(forKey: ObjectIdentifier(session)) }
        }

        func cancelAll() {
            let sessions = state.withLock { state -> [AssetExportSession] in
                state.cancelled = true
                return Array(state.sessions.values)
            }
            for session in sessions { session.cancelExport() }
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
            text = try String(contentsOf: batchFile, encoding: .utf8)
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
        // Jobs that share an output are refused before any job runs: which one would win is a race, and a rerun
        // would skip the loser as done.
        let shared = BatchJob.sharedOutputs(in: lines)
        for line in lines {
            guard let others = shared[line.number], case .success(let job) = line.job else { continue }
            let names = others.count == 1 ? "line \(others[0])" : "lines " + others.map(String.init).joined(separator: ", ")
            report(Result(line: line.number, status: "failed", document: job.document.path, output: job.output.path,
                          error: "line \(line.number) writes the same output as \(names) (\(job.output.standardizedFileURL.path)): give every job its own output",
                          place: "\(path):\(line.number)"))
        }
        await withTaskGroup(of: Result.self) { group in
            var pending = lines.filter { shared[$0.number] == nil }.makeIterator()
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
                report(Result(line: line.number, status: "cancelled", document: try? line.job.get().document.path,
                              output: try? line.job.get().output.path))
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
        var result = Result(line: line.number, status: "failed", document: job.document.path, output: job.output.path)
        func failed(_ message: String, place: String? = nil) -> Result {
            var failure = result
            failure.error = message
            failure.place = place ?? job.document.path
            failure.elapsed = elapsed()
            return failure
        }

        // An output already in place was linked there complete (exports write a temporary file and name it only at
        // the end): the job is done. One that does not read as media was not written by Splice: left alone.
        if !job.overwrite, FileManager.default.fileExists(atPath: job.output.path) {
            do {
                let existing = try await Asset.load(from: job.output)
                result.status = "skipped"
                result.duration = existing.duration.seconds
                result.elapsed = elapsed()
                return result
            } catch {
                return failed("\(job.output.path) exists but is not a complete media file (\(error)); remove it or set \"overwrite\": true",
                              place: "\(batchPath):\(line.number)")
            }
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
        let session = loaded.makeExportSession(outputURL: job.output, overwrite: job.overwrite)
        if let smart = job.smartRendering { session.smartRendering = smart }
        guard running.add(session) else {
            result.status = "cancelled"
            return result
        }
        defer { running.remove(session) }
        do {
            try await loaded.checkExport(session)
            if let loudness = job.loudness ?? loaded.export.loudness {
                try await session.export(normalizingLoudness: loudness)
            } else {
                try await session.export()
            }
        } catch {
            if error is CancellationError || session.status == .cancelled || running.isCancelled {
                result.status = "cancelled"
                result.elapsed = elapsed()
                return result
            }
            if let error = error as? DocumentError, let problem = error.problems.first {
                return failed(problem.message, place: place(of: problem, in: job.document.path))
            }
            return failed(ExportMessages.text(error))
        }
        let whole = TimeRange(start: .zero, duration: loaded.composition.duration)
        result.status = "completed"
        result.duration = (loaded.export.timeRange.map { $0.intersection(whole) } ?? whole).duration.seconds
        result.elapsed = elapsed()
        return result
    }

    /// `FILE:LINE:COLUMN json.path` (what is known of it).
    static func place(of problem: DocumentProblem, in file: String) -> String {
        file + (problem.line.map { ":\($0)" } ?? "") + (problem.column.map { ":\($0)" } ?? "")
            + (problem.path.isEmpty ? "" : " \(problem.path)")
    }
}
