import SpliceFFmpeg
import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// Logs: FFmpeg's log goes through `MediaLibrary.setLogHandler` (levels; nothing by default) and the library writes
    /// nothing to stderr — checked by capturing file descriptor 2 in a child process (``ChildTest``), where no other
    /// test can write to it, while 49 damaged inputs are loaded and damaged sources are exported and pictured.
    @Suite("Logs: nothing printed to stderr by the library")
    struct LogSilenceTests {
        @Test func nothingReachesStandardErrorWhileDamagedMediaIsProcessed() async throws {
            let result = try await onWorkerThread {
                try ChildTest.run(filter: "LogSilenceTests/captureChild", role: "stderr", timeout: 180)
            }
            let reports = result.reports
            for key in reports.keys.sorted() { print("logs: \(key) = \(reports[key] ?? "")") }
            #expect(result.status == 0 && !result.timedOut, "child: \(result.output.suffix(4000))")
            #expect(reports["stderr without a handler"] == "0 bytes besides the marker")
            #expect(reports["stderr with a handler"] == "0 bytes besides the marker")
        }

        /// The damaged work: every sample input loaded, two damaged but loadable files exported, a picture of one.
        static func damagedWork(_ inputs: [DamagedInput], output: URL) async {
            for input in inputs { _ = try? await Asset.load(from: input.url) }
            for name in ["clipA.flip-payload-256.mp4", "size-change.flip-payload-512.mkv"] {
                guard let input = inputs.first(where: { $0.name == name }), let asset = try? await Asset.load(from: input.url)
                else { continue }
                var composition = MutableComposition()
                guard (try? composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)) != nil
                else { continue }
                let session = AssetExportSession(asset: composition, settings: FastSettings.make(maximumSize: Size(width: 160, height: 120)))
                session.outputURL = output
                session.overwritesExistingFile = true
                try? await session.export()
                _ = try? await AssetImageGenerator(asset: composition).image(at: MediaTime(seconds: 1))
            }
        }

        @Test(.enabled(if: ChildTest.is("stderr")))
        func captureChild() async throws {
            let scratch = try ScratchDirectory("stderr")
            defer { scratch.remove() }
            let inputs = try DamagedSample.make(in: scratch.url)
            let output = scratch.file("out.mp4")
            let marker = "splice-reliability: stderr is captured\n"

            // Default: no handler, so FFmpeg's messages are dropped.
            let capture = try StandardErrorCapture()
            await Self.damagedWork(inputs, output: output)
            capture.write(marker)
            let withoutHandler = capture.finish()
            ChildTest.report("stderr without a handler", withoutHandler == marker ? "0 bytes besides the marker" : "\(withoutHandler.utf8.count) bytes")
            #expect(withoutHandler == marker, "written to stderr: \(withoutHandler.prefix(2000))")

            // With a handler: the messages arrive there, with levels, and still nothing on stderr.
            final class Messages: Sendable { let list = Locked<[(LogLevel, String)]>([]) }
            let messages = Messages()
            MediaLibrary.setLogHandler(level: .warning) { level, text in messages.list.withLock { $0.append((level, text)) } }
            defer { MediaLibrary.setLogHandler(nil) }
            let second = try StandardErrorCapture()
            await Self.damagedWork(inputs, output: output)
            second.write(marker)
            let withHandler = second.finish()
            MediaLibrary.setLogHandler(nil)
            ChildTest.report("stderr with a handler", withHandler == marker ? "0 bytes besides the marker" : "\(withHandler.utf8.count) bytes")
            #expect(withHandler == marker, "written to stderr: \(withHandler.prefix(2000))")
            let received = messages.list.withLock { $0 }
            var byLevel: [LogLevel: Int] = [:]
            for (level, _) in received { byLevel[level, default: 0] += 1 }
            ChildTest.report("messages routed to the handler", byLevel.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
            if let first = received.first { ChildTest.report("first message", first.1) }
            #expect(!received.isEmpty)
            #expect(received.allSatisfy { $0.0 <= .warning })
        }
    }
}

/// Redirects file descriptor 2 into a pipe until ``finish()``; a thread drains the pipe meanwhile, so a chatty
/// writer can never block on a full pipe.
final class StandardErrorCapture: Sendable {
    private let saved: Int32
    private let readEnd: Int32
    private let collected = Locked(Data())
    private let drained = DispatchSemaphore(value: 0)

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        fflush(nil)
        saved = dup(STDERR_FILENO)
        dup2(ends[1], STDERR_FILENO)
        close(ends[1])
        readEnd = ends[0]
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count <= 0 { break }
                collected.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            drained.signal()
        }
        thread.start()
    }

    /// Writes `text` to fd 2 (to prove the capture sees what is written there).
    func write(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }

    /// Restores fd 2 and returns everything written to it meanwhile.
    func finish() -> String {
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        // Bounded: a child spawned meanwhile by code outside the tests could hold a copy of the pipe's write end.
        _ = drained.wait(timeout: .now() + 10)
        close(readEnd)
        return collected.withLock { String(decoding: $0, as: UTF8.self) }
    }
}
