import Foundation
import Splice

/// Runs a plan on Slurm: an array job rendering the segments still missing (one task per segment,
/// `$SLURM_ARRAY_TASK_ID`), a join job after it (`--dependency=afterok`), then waits by polling `squeue` and checks
/// every job's final state with `scontrol` itself — `sbatch --wait` returns 0 even when the join was cancelled
/// because a task failed. Needs `sbatch`, `squeue`, `scontrol` on the PATH (and `SLURM_CONF` where it is not the
/// default) and a file system every node shares.
struct SlurmSubmission {
    /// A failed submission, naming the jobs or segments at fault.
    struct Failure: Error, CustomStringConvertible {
        var description: String
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

        var failures: [String] = []
        if let arrayJob {
            for record in try Self.records(of: arrayJob) where record["JobState"] != "COMPLETED" {
                let task = record["ArrayTaskId"] ?? "?"
                failures.append("segment \(task) \(record["JobState"] ?? "?") (exit \(record["ExitCode"] ?? "?"); "
                    + "log \(plan.partsDirectory)/slurm-\(arrayJob)_\(task).log)")
            }
        }
        for record in try Self.records(of: joinJob) where record["JobState"] != "COMPLETED" {
            failures.append("join job \(joinJob) \(record["JobState"] ?? "?") (\(record["Reason"] ?? "no reason"); "
                + "log \(plan.partsDirectory)/slurm-join-\(joinJob).log)")
        }
        guard failures.isEmpty else {
            throw Failure(description: failures.joined(separator: "; ") + ". Run splice submit again to render only what is missing.")
        }
        Console.out("slurm: done: \(outputPath)")
    }

    /// `sbatch --parsable ARGUMENTS`; the job ID.
    private func submit(_ arguments: [String]) throws -> String {
        let result = try Self.command("sbatch", ["--parsable"] + arguments)
        let id = result.output.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard result.status == 0, !id.isEmpty else {
            throw Failure(description: "sbatch failed (exit \(result.status)): \(result.error.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return id
    }

    /// The records of `scontrol -o show job ID` (one per array task), as `Key=Value` fields.
    static func records(of job: String) throws -> [[String: String]] {
        let result = try command("scontrol", ["-o", "show", "job", job])
        guard result.status == 0 else {
            throw Failure(description: "scontrol cannot show job \(job) (it may have aged out): \(result.error)")
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
            throw Failure(description: "cannot run \(name): \(error)")
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// `text` single-quoted for the shell.
    private func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
