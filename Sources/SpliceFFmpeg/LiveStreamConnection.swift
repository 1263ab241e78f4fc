import Dispatch
import Foundation
internal import CMedia

/// The sender's thread: one connection at a time, its muxer, and the reconnection plan.
struct LiveStreamConnection {
    let sender: LiveStreamSender
    var source: [LiveStreamSender.StreamDescription] = []
    var muxer: OutputFile?
    var parameters: [CodecParameters] = []
    /// µs to take off a packet's source time (its stream's time base, then µs) for the connection's time; nil until
    /// the connection's (or a new source's) first key picture fixes it.
    var shift: Int64?
    var lastDecodingTimestamps: [Int64?] = []
    /// Packets of the other streams that came before the first key picture fixed ``shift``.
    var held: [LiveStreamSender.StreamPacket] = []
    /// The connection's stream time written so far, µs.
    var end: Int64 = 0
    /// Stream time sent over earlier connections, µs.
    var sentBefore: Int64 = 0
    var retry: (attempt: Int, at: Date)?
    let packet: Packet?
    let watchdog: WriteWatchdog

    init(sender: LiveStreamSender) {
        self.sender = sender
        packet = try? Packet()
        watchdog = WriteWatchdog(limit: max(sender.settings.writeTimeout, 0.1))
    }

    mutating func run(source initial: [LiveStreamSender.StreamDescription]) {
        defer { watchdog.stop() }
        source = initial
        guard packet != nil else {
            sender.report(.failed(.connectionFailed(FailureReason.words(for: FFmpegError.posix(ENOMEM)))))
            return
        }
        do { try connect() } catch {
            sender.report(.failed(.connectionFailed(error.reason)))
            return
        }
        sender.report(.streaming)
        while true {
            if muxer == nil, let retry, Date() >= retry.at {
                do {
                    try connect()
                    self.retry = nil
                    sender.report(.streaming)
                } catch {
                    guard scheduleRetry(after: error.reason) else { return }
                }
            }
            guard let item = sender.take(waiting: 0.05) else { continue }
            switch item {
            case .end:
                let sent = sentBefore + end
                do { try close() } catch {
                    sender.report(.failed(.connectionLost(error.reason)))
                    return
                }
                sender.report(.finished(sent: sent))
                return
            case .source(let next):
                let same = next.map(\.parameters) == parameters
                source = next
                if muxer != nil, same {
                    shift = nil  // the new source's first key picture continues the connection's time
                    held = []
                } else if muxer != nil {
                    try? close()
                    do { try connect() } catch {
                        guard scheduleRetry(after: error.reason) else { return }
                    }
                }
            case .packet(let packet):
                guard muxer != nil else { continue }  // between connections: not sent
                do { try write(packet) } catch {
                    guard scheduleRetry(after: error.reason) else { return }
                }
            }
        }
    }

    /// Opens a connection with the current source's streams and writes the header, within the connection timeout.
    mutating func connect() throws(SenderError) {
        let destination = sender.destination, settings = sender.settings
        let cancellation = CancellationFlag()
        let connecting = Locked(true)
        let timeout = max(settings.connectionTimeout, 0.1)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if connecting.withLock({ $0 }) { cancellation.cancel() }
        }
        defer { connecting.withLock { $0 = false } }
        do {
            let file = try OutputFile(path: destination.target, formatName: destination.format, cancellation: cancellation,
                                      options: destination.ioOptions(connectionTimeout: timeout))
            for stream in source {
                _ = try file.addStream(timeBase: stream.timeBase) { try stream.parameters.apply(to: $0) }
            }
            try file.writeHeader(options: destination.muxerOptions(segmentDuration: settings.segmentDuration,
                                                                   playlistLength: settings.playlistLength))
            muxer = file
            watchdog.watch(cancellation)
        } catch {
            throw SenderError(reason: cancellation.isCancelled ? "no answer within \(String(format: "%g", timeout)) s"
                              : FailureReason.words(for: error))
        }
        parameters = source.map(\.parameters)
        shift = nil
        held = []
        lastDecodingTimestamps = Array(repeating: nil, count: source.count)
        end = 0
    }

    /// Writes the trailer and closes the connection (under the write watchdog); nothing when there is none.
    mutating func close() throws(SenderError) {
        guard let muxer else { return }
        self.muxer = nil
        sentBefore += end
        end = 0
        try watchdog.run { try muxer.finish() }
    }

    /// Plans the next attempt after a broken connection: false (the failure reported) when none is left.
    mutating func scheduleRetry(after reason: String) -> Bool {
        if muxer != nil { try? close() }
        sentBefore += end
        end = 0
        let attempt = (retry?.attempt ?? 0) + 1
        guard attempt <= sender.settings.maximumReconnectAttempts else {
            sender.report(.failed(.connectionLost(reason)))
            return false
        }
        retry = (attempt, Date().addingTimeInterval(min(8, pow(2, Double(attempt - 1)))))
        sender.report(.reconnecting(attempt: attempt))
        return true
    }

    /// Writes one packet on the connection's time line: before the first key picture (of the connection or of a new
    /// source) nothing is written; a packet not after its stream's last one is left out.
    mutating func write(_ item: LiveStreamSender.StreamPacket) throws(SenderError) {
        guard let muxer, let packet, item.stream < source.count else { return }
        let description = source[item.stream]
        let micros = AVRational(num: 1, den: 1_000_000)
        if shift == nil {
            let paced = source.contains(where: \.isVideo) ? description.isVideo : item.stream == 0
            guard paced, item.isKeyFrame else {
                // Sound ahead of the first key picture (a video encoder's delay) waits for it; pictures are dropped.
                if !paced {
                    held.append(item)
                    if held.count > 256 { held.removeFirst() }
                }
                return
            }
            shift = av_rescale_q(item.presentationTimestamp, description.timeBase, micros) - end
            let waiting = held
            held = []
            for packet in waiting { try write(packet) }
        }
        guard let shift else { return }
        let output = muxer.timeBase(ofStream: item.stream)
        let offset = av_rescale_q(shift, micros, output)
        let pts = av_rescale_q(item.presentationTimestamp, description.timeBase, output) - offset
        let dts = av_rescale_q(item.decodingTimestamp, description.timeBase, output) - offset
        let duration = av_rescale_q(item.duration, description.timeBase, output)
        // Sound from before the connection's first picture is left out, except the packet just before it: a
        // decoder needs it to decode the first one whole (AAC's overlapping windows; the encoder's priming).
        if pts + 2 * duration <= 0 { return }
        if let last = lastDecodingTimestamps[item.stream], dts <= last { return }
        lastDecodingTimestamps[item.stream] = dts
        packet.unref()
        do {
            try packet.prepend(item.bytes)
            packet.setTiming(presentation: pts, decoding: dts, duration: duration)
            packet.pointer.pointee.flags = item.isKeyFrame ? AV_PKT_FLAG_KEY : 0
            packet.prepareForMuxing(stream: item.stream)
            try watchdog.run { try muxer.write(packet) }
        } catch let error as SenderError {
            throw error
        } catch {
            throw SenderError(reason: FailureReason.words(for: error))
        }
        end = max(end, av_rescale_q(pts + duration, output, micros))
    }
}

/// A sender's failure, in words.
struct SenderError: Error {
    var reason: String
}

extension Error {
    /// The error in words: a ``SenderError``'s own, else FFmpeg's or the system's.
    fileprivate var reason: String { (self as? SenderError)?.reason ?? FailureReason.words(for: self) }
}
