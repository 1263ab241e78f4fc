import Foundation
import Splice

extension RecordCommand {
    /// `--stream URL`: an `rtmp://`, `rtmps://` or `srt://` URL, or a live HLS playlist (`live/index.m3u8`, a path or
    /// a `file://` URL); nil without the option.
    /// - Throws: a usage exit naming a destination the live-stream output cannot send to.
    static func streamDestination(_ arguments: CommandLineArguments) throws(CommandExit) -> URL? {
        guard let text = arguments.value("stream") else { return nil }
        let url: URL
        if let parsed = URL(string: text), parsed.scheme != nil { url = parsed } else { url = URL(fileURLWithPath: text) }
        do { try CaptureLiveStreamOutput.checkDestination(url) } catch {
            throw Usage.fail("--stream: \(error)", command: .record)
        }
        return url
    }

    /// Starts `live` streaming to `url` once the running session has made its connections (waiting at most 10 s)
    /// and returns the task that prints its events to stderr until the stream ends: true when it finished, false when
    /// it failed (its error printed). Nil without a stream.
    static func startStreaming(_ live: CaptureLiveStreamOutput?, to url: URL?) async -> Task<Bool, Never>? {
        guard let live, let url else { return nil }
        let deadline = Date().addingTimeInterval(10)
        while live.connections.isEmpty, Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        let events: AsyncStream<CaptureLiveStreamOutput.Event>
        do { events = try live.startStreaming(to: url) } catch {
            Console.error("splice: \(error)")
            return Task { false }
        }
        let name = url.isFileURL ? url.path : url.absoluteString
        return Task {
            for await event in events {
                switch event {
                case .connecting: Console.error("splice: connecting to \(name)")
                case .streaming: Console.error("splice: streaming to \(name)")
                case .reconnecting(_, let attempt): Console.error("splice: connection to \(name) lost; reconnecting (attempt \(attempt))")
                case .dropped(_, let pictures, let duration):
                    Console.error("splice: \(name) is slower than the stream: \(pictures) pictures (\(Console.number(duration.seconds)) s) not sent")
                case .finished(_, let duration):
                    Console.out("\(name): streamed \(Console.number(duration.seconds)) s")
                    return true
                case .failed(let error):
                    Console.error("splice: \(error)")
                    return false
                }
            }
            return false
        }
    }
}
