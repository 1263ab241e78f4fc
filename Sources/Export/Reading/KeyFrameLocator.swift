import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Finds the key frames of source video tracks near a time by reading packets only (no decoding): the image
/// generator's tolerance snapping, which — as AVFoundation's with a non-zero tolerance — returns the picture of a
/// nearby key frame because it decodes in one step.
///
/// For each query it seeks to the key frame at or before the time and reads forward until the next key frame after
/// it (at most one group of pictures), or until no later key frame could be nearer. What it read is remembered, so
/// sorted nearby queries read each stretch of the file once. Confined to one worker.
final class KeyFrameLocator {
    private struct Source {
        let stream: SourceStream
        var timeBase: AVRational { stream.timeBase }
        /// Stretches of source time whose key frames are all known: `[start, end]` with `start` a key frame.
        var scanned: [(range: ClosedRange<MediaTime>, keyFrames: [MediaTime])] = []
    }

    private let cancellation: CancellationFlag
    private var sources: [String: Source] = [:]
    private let packet: Packet
    /// The most packets one query reads (a safety bound for files with very long groups of pictures).
    private let packetLimit = 4096

    init(cancellation: CancellationFlag) throws {
        self.cancellation = cancellation
        packet = try Packet()
    }

    /// The source time of the key frame of `track` nearest to `time` within `earliest…latest` (source times; ties go
    /// to the earlier), or nil when there is none, the file cannot seek, or the track is a still image.
    func nearestKeyFrame(of track: AssetTrack, to time: MediaTime, earliest: MediaTime, latest: MediaTime) throws -> MediaTime? {
        guard track.video?.isStillImage != true, earliest <= time, time <= latest else { return nil }
        let key = track.sourceStreamKey
        if sources[key] == nil {
            guard let opened = try open(track) else { return nil }
            sources[key] = opened
        }
        guard var source = sources[key] else { return nil }
        let keyFrames: [MediaTime]
        if let known = source.scanned.first(where: { $0.range.contains(time) && ($0.range.upperBound >= latest || $0.keyFrames.last.map { $0 > time } == true) }) {
            keyFrames = known.keyFrames
        } else {
            guard let scan = try scan(&source, track: track, around: time, latest: latest) else { return nil }
            source.scanned.append(scan)
            sources[key] = source
            keyFrames = scan.keyFrames
        }
        return keyFrames
            .filter { $0 >= earliest && $0 <= latest }
            .min { a, b in
                let da = a > time ? a - time : time - a, db = b > time ? b - time : time - b
                return da < db || (da == db && a < b)
            }
    }

    private func open(_ track: AssetTrack) throws -> Source? {
        let input: InputFile
        do {
            input = try InputFile.open(track.assetURL, cancellation: cancellation)
        } catch {
            throw ExportError.reading(error, source: track.assetURL)
        }
        guard track.streamIndex >= 0, track.streamIndex < input.streamCount else { return nil }
        return Source(stream: try SourceStream(input: input, index: track.streamIndex))
    }

    /// Seeks to the key frame at or before `time` and reads packets until a key frame after `time` (or past
    /// `latest`): every key frame in the stretch, in source time.
    private func scan(_ source: inout Source, track: AssetTrack, around time: MediaTime, latest: MediaTime)
        throws -> (range: ClosedRange<MediaTime>, keyFrames: [MediaTime])?
    {
        guard let target = (time + track.startTimeOffset).timestamp(in: source.timeBase, method: .towardNegativeInfinity) else {
            return nil
        }
        do {
            try source.stream.seek(toTimestamp: target)
        } catch {
            return nil  // not seekable: no key frame snapping
        }
        var keyFrames: [MediaTime] = []
        var first: MediaTime?
        var reached = time
        for _ in 0..<packetLimit {
            if cancellation.isCancelled { throw CancellationError() }
            let more: Bool
            do {
                more = try source.stream.readPacket(into: packet)
            } catch where FFmpegError.isCancellation(error) {
                throw CancellationError()
            } catch {
                break  // a damaged stretch: use what was read
            }
            guard more else {
                reached = .positiveInfinity
                break
            }
            let stamp = packet.decodingTimestamp ?? packet.presentationTimestamp
            if let stamp, let streamTime = MediaTime(pts: stamp, timeBase: source.timeBase) {
                reached = max(reached, streamTime - track.startTimeOffset)
            }
            if packet.isKeyFrame, !packet.isDiscarded, let pts = packet.presentationTimestamp,
               let streamTime = MediaTime(pts: pts, timeBase: source.timeBase) {
                let sourceTime = streamTime - track.startTimeOffset
                keyFrames.append(sourceTime)
                if first == nil { first = sourceTime }
                if sourceTime > time { break }  // later key frames are further away
            }
            // Decoding order never shows a frame before its decoding time: nothing later can be a nearer key frame.
            if reached > latest { break }
        }
        guard let start = first, start <= time else { return keyFrames.isEmpty ? nil : (time...time, keyFrames) }
        return (start...max(reached, keyFrames.last ?? start), keyFrames.sorted())
    }
}
