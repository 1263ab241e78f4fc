import Foundation
import Testing

/// SIGTERM (a service stopping the export) is not told to "press Ctrl-C again", and a plain log (stderr not a
/// terminal) carries no terminal escape codes, also when a signal arrives.
@Suite("signals in logs")
struct SignalMessageTests {
    @Test func sigtermInAPlainLogIsNamedWithoutEscapeCodes() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let clips = Array(repeating: #"{ "source": "clipA.mp4" }, { "source": "clipB.mp4" }"#, count: 10).joined(separator: ", ")
        try scratch.write("long.json", """
            { "version": 1, "clips": [ \(clips) ],
              "export": { "settings": { "video": { "encoderPreset": "veryslow" } } } }
            """)
        let started = try SpliceTool.start(["export", "long.json", "-o", "out.mp4", "--progress", "plain"], in: scratch.url)
        let deadline = Date().addingTimeInterval(60)
        func stderrSoFar() -> String { (try? String(contentsOf: started.stderrURL, encoding: .utf8)) ?? "" }
        while !stderrSoFar().contains("progress "), started.process.isRunning, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(started.process.isRunning, "the export must still be running when stopped")
        started.process.send(SIGTERM)  // SIGTERM
        let run = try await SpliceTool.finish(started, arguments: ["export"], timeout: 30)
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("splice: received SIGTERM: cancelling"), "\(run.stderr)")
        #expect(!run.stderr.contains("Ctrl-C"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"), "escape codes in a plain log: \(run.stderr.debugDescription)")
        #expect(!run.stderr.contains("\r"), "carriage returns in a plain log: \(run.stderr.debugDescription)")
    }
}
