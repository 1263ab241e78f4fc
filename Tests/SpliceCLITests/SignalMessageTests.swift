import Foundation
import SpliceTestSupport
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
        // Watched from a plain thread: a polling task can resume after the export has finished (see whenCondition).
        let stoppedWhileRunning = await whenCondition(timeout: 60, {
            started.stderrSoFar.contains("progress ") || !started.process.isRunning
        }) { () -> Bool in
            guard started.process.isRunning else { return false }
            started.process.send(SIGTERM)
            return true
        }
        #expect(stoppedWhileRunning == true, "the export must still be running when stopped")
        let run = try await SpliceTool.finish(started, arguments: ["export"], timeout: 30)
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("splice: received SIGTERM: cancelling"), "\(run.stderr)")
        #expect(!run.stderr.contains("Ctrl-C"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"), "escape codes in a plain log: \(run.stderr.debugDescription)")
        #expect(!run.stderr.contains("\r"), "carriage returns in a plain log: \(run.stderr.debugDescription)")
    }
}
