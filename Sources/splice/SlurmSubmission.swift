import Foundation
import Splice

/// Runs a plan on Slurm: an array job rendering the segments still missing (one task per segment,
/// `$SLURM_ARRAY_TASK_ID`), a join job after it (`--dependency=afterok`), then waits by polling `squeue` and checks
/// every job's final state with `scontrol` itself — `sbatch --wait` returns 0 even when the join was cancelled
/// because a task failed. Needs `sbatch`, `squeue`, `scontrol` on the PATH (and `SLURM_CONF` where it is not the
/// default) and a file system every node shares.
struct SlurmSubmission {
    /// A failed submission, naming the jobs or segments at fault.
    enum Failure: Error, CustomStringConvertible {
        /// A Slurm client (`sbatch`, `scontrol`, …) could not run or failed: its name, exit status and message.
        case command(String, status: Int32, message: String)
        /// Array tasks that did not complete (the join job then never runs).
        case segmentsFailed([FailedTask])
        /// The join job did not complete although every segment did: its ID, state, reason and log.
        case joinFailed(job: String, state: String, reason: String, log: String)

        var description: String {
            let again = " Run splice submit again to render only what is missing."
            switch self {
            case .command(let name, let status, let message):
                return "\(name) failed (exit \(status)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
            case .segmentsFailed(let tasks):
                return tasks.map(\.description).joined(separator: "; ") + "; the join did not run." + again
            case .joinFailed(let job, let state, let reason, let log):
                return "join job \(job) \(state) (\(reason); log \(log))." + again
            }
        }
    }

    /// One array task that did not complete: the segment it rendered, its Slurm state and exit code, its log, and the
    /// last error line `splice render-segment` wrote there.
    struct FailedTask: CustomStringConvertible {
        var segment: Int
        var state: String
        var exitCode: String
        var log: String
        var error: String?

        var description: String {
            "segment \(segment) \(state) (exit \(exitCode); log \(log))" + (error.map { ": \($0)" } ?? "")
        }
    }

    var plan: SegmentPlan
    var planPath: String
    var outputPath: String
    var overwrite: Bool
    /// The `splice` executable the jobs run.
    var splice: String
    /// Seconds between two `squeue` polls.
    var pollInterval = 0.5

    func run() async throws {
        let missing = plan.missingSegments()
        var arrayJob: String?
        if missing.isEmpty {
            Console.out("slurm: all \(plan.segments.count) segments are already rendered")
        } else {
            arrayJob = try submit([
                "--job-name=splice-segments", "--array=\(missing.map(String.init).joined(separator: ","))",
                "--output=\(plan.partsDirectory)/slurm-%A_%a.log",
                "--wrap=\(quote(splice)) render-segment \(quote(planPath))",
            ])
            Console.out("slurm: job \(arrayJob ?? "") renders segments \(missing.map(String.init).joined(separator: ", "))")
        }
        var joinArguments = ["--job-name=splice-join", "--output=\(plan.partsDirectory)/slurm-join-%j.log"]
        if let arrayJob { joinArguments.append("--dependency=afterok:\(arrayJob)") }
        joinArguments.append("--wrap=\(quote(splice)) join \(quote(planPath)) -o \(quote(outputPath))\(overwrite ? " --overwrite" : "")")
        let joinJob = try submit(joinArguments)
        Console.out("slurm: job \(joinJob) joins into \(outputPath)")

        let jobs = [arrayJob, joinJob].compactMap { $0 }
        while true {
            let queue = try Self.command("squeue", ["-h", "-j", jobs.joined(separator: ","), "-o", "%i %T %r"])
            let lines = queue.output.split(separator: "\n").filter { !$0.isEmpty }
            if queue.status != 0 || lines.isEmpty { break }
            // A join whose dependency can never be met may stay pending: cancel it, its state is then checked below.
            if lines.contains(where: { $0.contains("DependencyNeverSatisfied") }) {
                _ = try Self.command("scancel", [joinJob])
            }
            try await Task.sleep(for: .seconds(pollInterval))
        }

        if let arrayJob {
            let failed = try Self.records(of: arrayJob).filter { $0["JobState"] != "COMPLETED" }.map { record in
                let task = record["ArrayTaskId"] ?? "?"
                let log = "\(plan.partsDirectory)/slurm-\(arrayJob)_\(task).log"
                return FailedTask(segment: Int(task) ?? -1, state: record["JobState"] ?? "?",
                                  exitCode: record["ExitCode"] ?? "?", log: log, error: Self.lastError(in: log))
            }
            guard failed.isEmpty else { throw Failure.segmentsFailed(failed.sorted { $0.segment < $1.segment }) }
        }
        for record in try Self.records(of: joinJob) where record["JobState"] != "COMPLETED" {
            throw Failure.joinFailed(job: joinJob, state: record["JobState"] ?? "?", reason: record["Reason"] ?? "no reason",
                                     log: "\(plan.partsDirectory)/slurm-join-\(joinJob).log")
        }
        Console.out("slurm: done: \(outputPath)")
    }

    /// `sbatch --parsable ARGUMENTS`; the job ID.
    private func submit(_ arguments: [String]) throws -> String {
        let result = try Self.command("sbatch", ["--parsable"] + arguments)
        let id = result.output.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard result.status == 0, !id.isEmpty else {
            throw Failure.command("sbatch", status: result.status, message: result.error)
        }
        return id
    }

    /// The records of `scontrol -o show job ID` (one per array task), as `Key=Value` fields.
    static func records(of job: String) throws -> [[String: String]] {
        let result = try command("scontrol", ["-o", "show", "job", job])
        guard result.status == 0 else {
            throw Failure.command("scontrol show job \(job)", status: result.status, message: result.error + " (the job may have aged out)")
        }
        return result.output.split(separator: "\n").map { line in
            var fields: [String: String] = [:]
            for word in line.split(separator: " ") {
                let pair = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
            }
            return fields
        }
    }

    /// Runs `name` (found on the PATH) and collects its exit status and output.
    static func command(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            throw Failure.command(name, status: -1, message: "cannot run it: \(error)")
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// The last line of a task's log that starts with `splice` (the step's own error message), if any.
    static func lastError(in log: String) -> String? {
        guard let text = try? FileContents.utf8Text(of: URL(fileURLWithPath: log)) else { return nil }
        return text.split(separator: "\n").last(where: { $0.hasPrefix("splice") }).map(String.init)
    }

    /// `text` single-quoted for the shell.
    private func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
