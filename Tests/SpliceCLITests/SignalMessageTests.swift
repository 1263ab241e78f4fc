import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM (a service stopping the export) is not told to "press Ctrl-C again", and a plain log (stderr not a
/// terminal) carries no terminal escape codes, also when a signal arrives.
@Suite("signals in logs")
struct SignalMessageTests {
    /// `splice export` of 80 s of clips at x264 veryslow into `out.mp4` with plain progress: long enough to stop.
    static func startLongExport(in scratch: ScratchDirectory) throws -> SpliceTool.Started {
        let clips = Array(repeating: #"{ "source": "clipA.mp4" }, { "source": "clipB.mp4" }"#, count: 10).joined(separator: ", ")
        try scratch.write("long.json", """
            { "version": 1, "clips": [ \(clips) ],
              "export": { "settings": { "video": { "encoderPreset": "veryslow" } } } }
            """)
        return try SpliceTool.start(["export", "long.json", "-o", "out.mp4", "--progress", "plain"], in: scratch.url)
    }

    /// Starts ``startLongExport(in:)``, calls `stop` with it (from a plain thread: a polling task can resume after the
    /// export has finished, see whenCondition) once its progress shows, and waits for its end.
    static func exportStopped(in scratch: ScratchDirectory, by stop: @escaping @Sendable (SpliceTool.Started) -> Void)
        async throws -> SpliceTool.Run {
        let started = try startLongExport(in: scratch)
        let stoppedWhileRunning = await whenCondition(timeout: 60, {
            started.stderrSoFar.contains("progress ") || !started.process.isRunning
        }) { () -> Bool in
            guard started.process.isRunning else { return false }
            stop(started)
            return true
        }
        #expect(stoppedWhileRunning == true, "the export must still be running when stopped")
        return try await SpliceTool.finish(started, arguments: ["export"], timeout: 30)
    }

    @Test func sigtermInAPlainLogIsNamedWithoutEscapeCodes() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let run = try await Self.exportStopped(in: scratch) { $0.process.send(SIGTERM) }
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("splice: received SIGTERM: cancelling"), "\(run.stderr)")
        #expect(!run.stderr.contains("Ctrl-C"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"), "escape codes in a plain log: \(run.stderr.debugDescription)")
        #expect(!run.stderr.contains("\r"), "carriage returns in a plain log: \(run.stderr.debugDescription)")
    }

    /// One request delivered twice at once (GNU `timeout` signals the process and then its group) is one request:
    /// the export cancels cleanly instead of quitting at once.
    @Test func aSignalDeliveredTwiceAtOnceCancelsCleanly() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let run = try await Self.exportStopped(in: scratch) { started in
            // Two deliveries 5 ms apart: back to back, the kernel would merge them into one.
            started.process.send(SIGTERM)
            usleep(5_000)
            started.process.send(SIGTERM)
        }
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("export cancelled; no file was written"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".") || $0 == "out.mp4" } == [])
    }

    /// A signal repeated back to back until the process is gone — some land while it cancels, some after it has
    /// restored the default actions on its way out — ends the run with 130 whichever lands when: never with the
    /// signal's own status (15), and nothing is left behind.
    @Test func aSignalRepeatedUntilTheProcessEndsExitsWith130() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let run = try await Self.exportStopped(in: scratch) { started in
            // Back to back: one is pending at every moment, the one after restore() included.
            while started.process.isRunning { started.process.send(SIGTERM) }
        }
        #expect(run.status == 130, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0 == "out.mp4" } == [])
    }
}
