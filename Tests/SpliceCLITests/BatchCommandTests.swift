import Foundation
import SpliceFFmpeg
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
    static func folder() throws -> ScratchDirectory {
        let scratch = try TestDocument.folder()
        try FileManager.default.createSymbolicLink(at: scratch.file("red.mkv"), withDestinationURL: Fixture.url("solid/red-2s-ffv1.mkv"))
        try FileManager.default.createSymbolicLink(at: scratch.file("truncated.mp4"), withDestinationURL: Fixture.url("broken/truncated.mp4"))
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

    /// ffprobe's video frame count and video stream duration (seconds) of `url`.
    static func videoStream(of url: URL) async throws -> (frames: Int?, duration: Double?) {
        let run = try await MediaTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                      "stream=nb_frames,duration", "-of", "csv=p=0", url.path])
        let fields = run.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard fields.count == 2 else { return (nil, nil) }
        return (Int(fields[1]), Double(fields[0]))
    }

    @Test func jobsWritingOneOutputAreRefusedBeforeAnyRuns() async throws {
        let scratch = try Self.folder()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(at: scratch.file("linked"), withDestinationURL: scratch.file("out"))
        let jobs = [
            #"{"document": "good.json", "output": "out/a.mp4"}"#,
            #"{"document": "good.json", "output": "out/b.mp4"}"#,
            #"{"document": "good.json", "output": "./out/../out/a.mp4"}"#,   // 3: line 1's file
            #"{"document": "good.json", "output": "linked/a.mp4"}"#,         // 4: line 1's file through a link
            #"{"document": "good.json", "output": "out/c.mp4"}"#,
        ]
        _ = try scratch.write("jobs.jsonl", jobs.joined(separator: "\n"))
        let run = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        #expect(run.status == 1, "\(run.stderr)")
        // The refusals come first: before any job ran.
        let order = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["line"] as? Int
        }
        #expect(order.prefix(3).compactMap { $0 }.sorted() == [1, 3, 4], "\(run.stdout)")
        let results = try Self.results(run.stdout)
        for (line, others) in [(1, "lines 3, 4"), (3, "lines 1, 4"), (4, "lines 1, 3")] {
            let error = try #require(results[line]?["error"] as? String)
            #expect(error.hasPrefix("line \(line) writes the same output as \(others) (/"), "\(error)")
            #expect(error.hasSuffix("/a.mp4): give every job its own output"), "\(error)")
        }
        #expect((results[4]?["place"] as? String)?.hasSuffix("jobs.jsonl:4") == true, "\(results[4] ?? [:])")
        for line in [1, 3, 4] { #expect(results[line]?["status"] as? String == "failed", "line \(line)") }
        for line in [2, 5] { #expect(results[line]?["status"] as? String == "completed", "line \(line): \(results[line] ?? [:])") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).sorted() == ["b.mp4", "c.mp4"])
        #expect(run.stderr.contains("5 jobs: 2 completed, 0 skipped, 3 failed, 0 cancelled"))
    }

    /// The issue's check at scale: 50 jobs, 5 of them bad, killed with SIGKILL part-way and run again: 45 complete
    /// outputs with the frame counts and durations of their documents, 5 typed errors at their lines, no partial
    /// file at any time.
    @Test func fiftyJobsWithFiveBadOnesSurviveAKillAndARerun() async throws {
        let scratch = try Self.folder()
        defer { scratch.remove() }
        // Four cuts of the 30 fps clip at 160x90: 12, 18, 24 and 30 frames, from 0, 1, 2 and 3 s in.
        let frames = [12, 18, 24, 30]
        for (index, count) in frames.enumerated() {
            _ = try scratch.write("cut\(index).json", #"{ "version": 1, "renderSize": [160, 90], "clips": [ { "source": "clipA.mp4", "start": "\#(index)s", "duration": "\#(count)f" } ], "export": \#(fastExport) }"#)
        }
        let bad = [7: #"{"document": "nope.json", "output": "out/7.mp4"}"#,              // no such document
                   15: #"{"document": "missing-source.json", "output": "out/15.mp4"}"#,  // a source that does not exist
                   23: #"{"document": "damaged.json", "output": "out/23.mp4"}"#,         // a damaged source
                   31: #"{"document": "invalid.json", "output": "out/31.mp4"}"#,         // a document that does not parse
                   44: #"{"document": "cut0.json", "output": "out/44.mp4", "speed": 2}"#]  // not a job: unknown field
        let lines = (1...50).map { bad[$0] ?? #"{"document": "cut\#($0 % 4).json", "output": "out/\#($0).mp4"}"# }
        let good = (1...50).filter { bad[$0] == nil }
        _ = try scratch.write("jobs.jsonl", lines.joined(separator: "\n") + "\n")

        let started = try SpliceTool.start(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url)
        let killed = await started.send(SIGKILL) { $0.stdoutSoFar.components(separatedBy: "\"completed\"").count > 10 }
        #expect(killed, "ten jobs never completed, or the batch ended before it was killed")
        _ = try await SpliceTool.finish(started, arguments: ["batch"], timeout: 60)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path)
        #expect(left.count >= 10 && left.count < good.count, "\(left.count) outputs when killed")
        #expect(left.allSatisfy { !$0.hasPrefix(".") }, "a temporary file was left: \(left)")

        let rerun = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        #expect(rerun.status == 1, "\(rerun.stderr)")
        let results = try Self.results(rerun.stdout)
        #expect(results.count == 50)
        #expect(rerun.stderr.contains("50 jobs: \(good.count - left.count) completed, \(left.count) skipped, 5 failed, 0 cancelled"),
                "\(rerun.stderr)")
        for line in good {
            let expected = left.contains("\(line).mp4") ? "skipped" : "completed"
            #expect(results[line]?["status"] as? String == expected, "line \(line): \(results[line] ?? [:])")
            let count = frames[line % 4]
            let stream = try await Self.videoStream(of: scratch.file("out/\(line).mp4"))
            #expect(stream.frames == count && stream.duration == Double(count) / 30, "out/\(line).mp4: \(stream)")
        }
        for line in bad.keys { #expect(results[line]?["status"] as? String == "failed", "line \(line): \(results[line] ?? [:])") }
        #expect((results[7]?["error"] as? String)?.contains("no such file") == true, "\(results[7] ?? [:])")
        #expect((results[15]?["error"] as? String)?.contains("gone.mp4") == true, "\(results[15] ?? [:])")
        #expect((results[23]?["error"] as? String)?.contains("is corrupt or truncated") == true, "\(results[23] ?? [:])")
        #expect((results[31]?["place"] as? String)?.contains("invalid.json:2:") == true, "\(results[31] ?? [:])")
        #expect((results[44]?["error"] as? String)?.hasPrefix("unknown field 'speed'") == true, "\(results[44] ?? [:])")
        #expect((results[44]?["place"] as? String)?.hasSuffix("jobs.jsonl:44:60 speed") == true, "\(results[44] ?? [:])")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).sorted()
                == good.map { "\($0).mp4" }.sorted())
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
        // The batch catches SIGINT before it starts its first jobs; sent once an export is rendering (its worker
        // thread is there), whatever the load on the machine: the first jobs are at work and at least four wait.
        // Or, should no export thread be seen, once the first result line is out (at most the first two are done).
        let seen = Locked((catches: false, threads: 0, results: false))
        let sent = await started.send(SIGINT) { process in
            let state = (catches: process.catches(SIGINT), threads: process.threads(named: "splice.export"),
                         results: process.stdoutSoFar.contains("\"status\""))
            seen.withLock { $0 = (catches: $0.catches || state.catches, threads: max($0.threads, state.threads), results: state.results) }
            return state.catches && (state.threads > 0 || state.results)
        }
        #expect(sent, "the batch never caught SIGINT, or ended before it was sent: \(seen.withLock { $0 })")
        let run = try await SpliceTool.finish(started, arguments: ["batch"], timeout: 60)
        #expect(run.status == 130, "\(run.stderr)")
        let results = try Self.results(run.stdout)
        #expect(results.count == count, "every job has a result line: \(run.stdout)")
        let cancelled = results.values.filter { $0["status"] as? String == "cancelled" }.count
        let completed = results.values.filter { $0["status"] as? String == "completed" }.count
        #expect(cancelled >= count - 2 && cancelled + completed == count, "\(results)")
        // A job that was running when the signal came reports how long it ran (checked when an export was seen at
        // work as the signal went); one never started does not.
        let sentWhileRendering = seen.withLock { $0.threads > 0 }
        if sentWhileRendering {
            #expect(results.values.contains { $0["status"] as? String == "cancelled" && $0["elapsed"] != nil }, "\(results)")
        }
        for (line, result) in results where result["status"] as? String == "cancelled" && result["elapsed"] == nil {
            #expect(result["duration"] == nil, "line \(line) never started, so it has no duration: \(result)")
        }
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
        let run = try await Executable.run(name, arguments)
        return (run.output, run.errors)
    }
}
