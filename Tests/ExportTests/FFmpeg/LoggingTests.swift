import SpliceFFmpeg
import Foundation
import Testing
import Splice
import SpliceTestSupport

@Suite("FFmpeg log routing")
struct LoggingTests {
    @Test func ffmpegMessagesReachTheHandlerNotStderr() async throws {
        let lines = Locked<[(LogLevel, String)]>([])
        MediaLibrary.setLogHandler(level: .warning) { level, line in lines.withLock { $0.append((level, line)) } }
        defer { MediaLibrary.setLogHandler(nil) }
        // A file cut short: libavformat logs while reading it.
        _ = try? await Asset.load(from: Fixture.url("broken/truncated.mp4"))
        let captured = lines.withLock { $0 }
        #expect(!captured.isEmpty, "a truncated MP4 makes FFmpeg log at least one warning or error")
        #expect(captured.allSatisfy { $0.0 <= .warning })
        #expect(captured.allSatisfy { !$0.1.hasSuffix("\n") && !$0.1.isEmpty })
    }

    @Test func levelsOrderBySeverity() {
        #expect(LogLevel.error < LogLevel.warning && LogLevel.warning < LogLevel.info)
    }
}
