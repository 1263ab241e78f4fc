import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splice batch`: jobs run N at a time, one JSON result line each; bad jobs fail alone with their place; a rerun
/// skips finished outputs; a kill -9 leaves no partial output and a rerun finishes the rest.
@Suite struct BatchCommandTests {
    /// The result lines of a batch run, by job line number.
    static func results(_ stdout: String) throws -> [Int: [String: Any]] {
        var byLine: [Int: [String: Any]] = [:]
        for line in stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            byLine[try #require(object["line"] as? Int)] = object
        }
        return byLine
    }

    /// ffprobe's format duration of `url` in seconds.
    static func duration(of url: URL) async throws -> Double? {
        let run = try await MediaTool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
        return Double(run.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A folder with a good document (`good.json`: the 2 s red FFV1 clip, H.264 ultrafast) and bad ones.
    static func folder() throws -> Scratch {
        let scratch = try TestDocument.folder()
        try FileManager.default.createSymbolicLink(at: scratch.file("red.mkv"), withDestinationURL: Package.fixture("solid/red-2s-ffv1.mkv"))
        try FileManager.default.createSymbolicLink(at: scratch.file("truncated.mp4"), withDestinationURL: Package.fixture("broken/truncated.mp4"))
        _ = try scratch.write("good.json", #"{ "version": 1, "clips": [ { "source": "red.mkv" } ], "export": \#(fastExport) }"#)
        _ = try scratch.write("clipA.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4" } ], "export": \#(fastExport) }"#)
        _ = try scratch.write("missing-source.json", #"{ "version": 1, "clips": [ { "source": "gone.mp4" } ] }"#)
        _ = try scratch.write("damaged.json", #"{ "version": 1, "clips": [ { "source": "truncated.mp4" } ], "export": \#(fastExport) }"#)
        _ = try scratch.write("invalid.json", "{ \"version\": 1,\n  \"clips\": [ } ")
        try FileManager.default.createDirectory(at: scratch.file("out"), withIntermediateDirectories: true)
        return scratch
    }

    @Test func badJobsFailAloneAndARerunSkipsWhatIsDone() async throws {
        let scratch = try Self.folder()
        defer { scratch.remove() }
        let jobs = [
            #"{"document": "good.json", "output": "out/1.mp4"}"#,
            #"{"document": "nope.json", "output": "out/nope.mp4"}"#,          // 2: no such document
            #"{"document": "good.json", "output": "out/3.mp4"}"#,
            #"{"document": "missing-source.json", "output": "out/4.mp4"}"#,   // 4: a source that does not exist
            "",
            #"{"document": "damaged.json", "output": "out/6.mp4"}"#,          // 6: a damaged source
            #"{"document": "good.json", "output": "out/7.mp4"}"#,
            #"{"document": "invalid.json", "output": "out/8.mp4"}"#,          // 8: a document that does not parse
            #"{"document": "good.json", "outptu": "out/9.mp4"}"#,             // 9: not a job
            #"{"document": "good.json", "output": "out/10.mp4"}"#,
            #"{"document": "good.json", "output": "out/11.mp4"}"#,
        ]
        _ = try scratch.write("jobs.jsonl", jobs.joined(separator: "\n") + "\n")
        let run = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        #expect(run.status == 1, "\(run.stderr)")
        let results = try Self.results(run.stdout)
        #expect(results.keys.sorted() == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11])
        let good = [1, 3, 7, 10, 11]
        for line in good {
            #expect(results[line]?["status"] as? String == "completed", "line \(line): \(results[line] ?? [:])")
            #expect(results[line]?["duration"] as? Double == 2)
            let output = scratch.file("out/\(line).mp4")
            #expect(try await Self.duration(of: output) == 2, "out/\(line).mp4")
        }
        for line in [2, 4, 6, 8, 9] {
            #expect(results[line]?["status"] as? String == "failed", "line \(line): \(results[line] ?? [:])")
            #expect((results[line]?["error"] as? String)?.isEmpty == false)
        }
        #expect((results[2]?["place"] as? String)?.hasSuffix("nope.json") == true)
        #expect((results[2]?["error"] as? String)?.contains("no such file") == true)
        #expect((results[4]?["error"] as? String)?.contains("gone.mp4") == true)
        #expect((results[6]?["place"] as? String)?.hasSuffix("damaged.json:1:40 clips[0].source") == true, "\(results[6] ?? [:])")
        #expect((results[6]?["error"] as? String)?.contains("is corrupt or truncated") == true)
        #expect((results[8]?["place"] as? String)?.contains("invalid.json:2:") == true, "\(results[8] ?? [:])")
        #expect((results[9]?["place"] as? String)?.hasPrefix("jobs.jsonl:9") == true, "\(results[9] ?? [:])")
        #expect((results[9]?["error"] as? String)?.contains("output") == true)
        #expect(run.stderr.contains("10 jobs: 5 completed, 0 skipped, 5 failed, 0 cancelled"))
        // Nothing but complete outputs: no temporary or partial file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).sorted()
                == good.map { "\($0).mp4" }.sorted())

        let rerun = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        let again = try Self.results(rerun.stdout)
        for line in good { #expect(again[line]?["status"] as? String == "skipped", "line \(line)") }
        #expect(rerun.stderr.contains("5 completed") == false)
        #expect(rerun.stderr.contains("0 completed, 5 skipped, 5 failed"))
    }

    /// A job's document may be an OpenTimelineIO timeline, as for every command that reads documents.
    @Test func aTimelineJobRendersLikeItsDocument() async throws {
        let scratch = try Self.folder()
        defer { scratch.remove() }
        let converted = try await SpliceTool.run(["convert", "good.json", "-o", "good.otio"], in: scratch.url)
        #expect(converted.status == 0, "\(converted.stderr)")
        _ = try scratch.write("jobs.jsonl", #"{"document": "good.otio", "output": "out/otio.mp4"}"#)
        let run = try await SpliceTool.run(["batch", "jobs.jsonl"], in: scratch.url, timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        let results = try Self.results(run.stdout)
        #expect(results[1]?["status"] as? String == "completed", "\(results)")
        #expect(try await Self.duration(of: scratch.file("out/otio.mp4")) == 2)
    }

    @Test func ctrlCCancelsEveryRunningExportAndLeavesNoPartialOutput() async throws {
        let scratch = try Self.folder()
        defer { scratch.remove() }
        let count = 6
        _ = try scratch.write("jobs.jsonl", (1...count).map { #"{"document": "clipA.json", "output": "out/\#($0).mp4"}"# }.joined(separator: "\n"))
        let started = try SpliceTool.start(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url)
        // The batch catches SIGINT before it starts its first jobs; two 4 s exports at once take several seconds, so
        // half a second after the handler is in place the first two are rendering and four wait.
        let sent = await started.sendOnceCaught(SIGINT, after: 0.5)
        #expect(sent, "the batch never caught SIGINT, or ended before it was sent")
        let run = try await SpliceTool.finish(started, arguments: ["batch"], timeout: 60)
        #expect(run.status == 130, "\(run.stderr)")
        let results = try Self.results(run.stdout)
        #expect(results.count == count, "every job has a result line: \(run.stdout)")
        let cancelled = results.values.filter { $0["status"] as? String == "cancelled" }.count
        let completed = results.values.filter { $0["status"] as? String == "completed" }.count
        #expect(cancelled >= count - 2 && cancelled + completed == count, "\(results)")
        // A job that was running when the signal came reports how long it ran; one never started does not.
        #expect(results.values.contains { $0["status"] as? String == "cancelled" && $0["elapsed"] != nil }, "\(results)")
        #expect(run.stderr.contains("cancelling"))
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path)
        #expect(left.count == completed, "only complete outputs are left: \(left)")
        for name in left { #expect(try await Self.duration(of: scratch.file("out/\(name)")) == 4) }
    }

    @Test func aKilledBatchLeavesNoPartialOutputAndARerunFinishesTheRest() async throws {
        let scratch = try Self.folder()
        defer { scratch.remove() }
        let count = 8
        let jobs = (1...count).map { #"{"document": "clipA.json", "output": "out/\#($0).mp4"}"# }
        _ = try scratch.write("jobs.jsonl", jobs.joined(separator: "\n"))
        let started = try SpliceTool.start(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url)
        // Killed as soon as the first result line appears, whatever else the test process is busy with.
        let killed = await started.send(SIGKILL) { $0.stdoutSoFar.contains("\"completed\"") }
        #expect(killed, "no job completed, or the batch ended before it was killed")
        _ = try await SpliceTool.finish(started, arguments: ["batch"], timeout: 30)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).sorted()
        #expect(!left.isEmpty && left.count < count, "\(left.count) outputs when killed")
        for name in left {
            #expect(!name.hasPrefix("."), "a temporary file was left: \(name)")
            #expect(try await Self.duration(of: scratch.file("out/\(name)")) == 4, "\(name) is not complete")
        }

        let rerun = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let results = try Self.results(rerun.stdout)
        #expect(results.values.filter { $0["status"] as? String == "skipped" }.count == left.count)
        #expect(results.values.filter { $0["status"] as? String == "completed" }.count == count - left.count)
        for index in 1...count { #expect(try await Self.duration(of: scratch.file("out/\(index).mp4")) == 4) }
    }
}

/// `ffmpeg` and `ffprobe`, found on `PATH`: the second readers of what the batch and loudness commands write.
enum MediaTool {
    /// Runs `name` with `arguments` (at most 120 s); returns its standard output and standard error.
    static func run(_ name: String, _ arguments: [String]) async throws -> (output: String, errors: String) {
        let scratch = try ScratchDirectory(name)
        defer { scratch.remove() }
        let output = scratch.file("out"), errors = scratch.file("err")
        let child = try ChildProcess(executable: Executable.find(name) ?? "/usr/bin/\(name)", arguments: arguments,
                                     standardOutput: output, standardError: errors)
        if !(await child.wait(seconds: 120)) { child.stop() }
        return ((try? String(contentsOf: output, encoding: .utf8)) ?? "", (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }
}
