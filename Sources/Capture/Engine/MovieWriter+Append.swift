import Foundation
import SpliceFFmpeg
internal import CMedia

extension MovieWriter {
    /// Adds a picture taken at session time `time` µs.
    /// - Throws: ``CaptureRecordingError/writeFailed(path:reason:)``.
    func appendVideo(_ frame: Frame, at time: Int64) throws(CaptureRecordingError) {
        guard let video = settings.video, let stream = videoStream else { return }
        if movieStart == nil {
            guard time >= requestedStart - 500_000 / Int64(video.frameRate) else { return }
            movieStart = time
            try flushPendingAudio()
        }
        guard let movieStart else { return }
        let rawSlot = ((time - movieStart) * Int64(video.frameRate) + 500_000) / 1_000_000
        if let pause, let request = pause.resumeRequest, time >= request {
            // The first picture after the resume goes on the pause's cut: the frames between are left out, and
            // the sound of as many frames.
            let slots = rawSlot - pause.slot
            let samples = settings.audioSampleRate.map { (slots * Int64($0) + Int64(video.frameRate) / 2) / Int64(video.frameRate) } ?? 0
            try endPause(excludedSlots: slots, excludedSamples: samples)
        }
        var slot = rawSlot - excludedSlots
        if let endTime, slot >= Self.slots(endTime, video.frameRate) {
            // The sound runs to the end; when the device skipped the last picture before it (a loaded machine), the
            // first picture at or after the end fills that slot, so picture and sound last equally long.
            let last = Self.slots(endTime, video.frameRate) - 1
            guard lastVideoSlot < last, pause == nil else {
                videoReachedEnd = true
                return
            }
            slot = last
        }
        if let pause, slot >= pause.slot { return }  // paused: not recorded (and not a dropped frame)
        guard slot > lastVideoSlot else { droppedFrames += 1; return }
        do {
            if videoGraph == nil {
                videoGraph = try FilterGraph(
                    description: "[in]scale=\(video.width):\(video.height):out_color_matrix=bt709:out_range=tv,format=yuv420p[out]",
                    sources: [.video(.init(label: "in", width: frame.width, height: frame.height, pixelFormat: frame.format,
                                           timeBase: AVRational(num: 1, den: video.frameRate)))],
                    sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
            }
            guard let graph = videoGraph else { return }
            frame.pts = slot
            frame.resetPictureType()
            try graph.push(frame, to: 0, keepReference: true)
            while try graph.pull(from: 0, into: filtered) == .frame {
                try encode(filtered, stream: stream)
            }
            lastVideoSlot = slot
            try afterWrite(movieTime: (slot + 1) * 1_000_000 / Int64(video.frameRate))
        } catch let error as CaptureRecordingError {
            throw error
        } catch {
            throw .writeFailed(path: settings.url.path, reason: FailureReason.words(for: error))
        }
    }

    /// Adds sound whose first sample was taken at session time `time` µs.
    /// - Throws: ``CaptureRecordingError/writeFailed(path:reason:)``.
    func appendAudio(_ frame: Frame, at time: Int64) throws(CaptureRecordingError) {
        guard settings.audioSampleRate != nil else { return }
        if movieStart == nil {
            if settings.video == nil {
                guard time + Int64(frame.sampleCount) * 1_000_000 / Int64(settings.audioSampleRate ?? 1) > requestedStart else { return }
                // The movie starts with the first sample at or after the request (a device opened late starts late).
                movieStart = max(requestedStart, time)
            } else {
                // Held until the first picture fixes the movie's time zero.
                if let copy = try? frame.clone() { pendingAudio.append((copy, time)) }
                if pendingAudio.count > 200 { pendingAudio.removeFirst() }
                return
            }
        }
        try pushAudio(frame, at: time)
    }

    private func flushPendingAudio() throws(CaptureRecordingError) {
        let pending = pendingAudio
        pendingAudio = []
        for (frame, time) in pending { try pushAudio(frame, at: time) }
    }

    private func pushAudio(_ frame: Frame, at time: Int64) throws(CaptureRecordingError) {
        guard let sampleRate = settings.audioSampleRate, audioStream != nil, let movieStart else { return }
        let rate = Int64(sampleRate)
        let raw = nextRawSample ?? ((time - movieStart) * rate + 500_000) / 1_000_000
        nextRawSample = raw + Int64(frame.sampleCount)
        guard let pause else {
            try writeAudio(frame, at: raw - excludedSamples)
            return
        }
        hold(frame, raw: raw)
        // Sound up to the cut is still written (it may come after the pause was asked for).
        if raw - excludedSamples < pause.sample { try writeAudio(frame, at: raw - excludedSamples) }
        if settings.video == nil, let request = pause.resumeRequest,
           time + Int64(frame.sampleCount) * 1_000_000 / rate > request {
            let resumeSample = ((request - movieStart) * rate + 500_000) / 1_000_000
            try endPause(excludedSlots: 0, excludedSamples: resumeSample - pause.sample)
        }
    }

    /// Writes the samples of `frame` from movie sample `pts` on, cut to what the movie takes: none before
    /// ``audioCursor`` (written already, or left out by a pause), none at or after the end or the pause's cut.
    func writeAudio(_ frame: Frame, at pts: Int64) throws(CaptureRecordingError) {
        guard let sampleRate = settings.audioSampleRate, let stream = audioStream else { return }
        let rate = Int64(sampleRate)
        var frame = frame, pts = pts
        var stop = pause?.sample
        if let endTime { stop = min(stop ?? Int64.max, endTime * rate / 1_000_000) }
        do {
            if pts < audioCursor {
                let skip = audioCursor - pts
                guard skip < Int64(frame.sampleCount) else { return }
                frame = try frame.samples(from: Int(skip))
                pts = audioCursor
            }
            if let stop {
                if pts >= stop { return }
                frame.truncateSamples(to: Int(stop - pts))
            }
            audioCursor = pts + Int64(frame.sampleCount)
            if audioGraph == nil {
                let graph = try FilterGraph(
                    description: "[in]aformat=sample_fmts=fltp:channel_layouts=stereo[out]",
                    sources: [.audio(.init(label: "in", sampleRate: frame.sampleRate, sampleFormat: frame.format,
                                           channelLayout: "stereo", timeBase: AVRational(num: 1, den: Int32(sampleRate))))],
                    sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
                graph.setFrameSize(1024, forSink: 0)
                audioGraph = graph
            }
            guard let graph = audioGraph else { return }
            frame.pts = pts
            try graph.push(frame, to: 0, keepReference: true)
            try drainAudio(graph, stream: stream)
            try afterWrite(movieTime: writtenAudioSamples * 1_000_000 / rate)
        } catch let error as CaptureRecordingError {
            throw error
        } catch {
            throw .writeFailed(path: settings.url.path, reason: FailureReason.words(for: error))
        }
    }

    private func drainAudio(_ graph: FilterGraph, stream: Int) throws {
        while try graph.pull(from: 0, into: filtered) == .frame {
            writtenAudioSamples = filtered.pts + Int64(filtered.sampleCount)
            if !settings.audioChannels.isEmpty { try filtered.scaleSamples(by: settings.audioChannels.map(\.volume)) }
            try encode(filtered, stream: stream)
        }
    }

    private func encode(_ frame: Frame?, stream: Int) throws {
        try muxer.encode(frame, stream: stream) { packet in
            if stream == self.videoStream, packet.duration == 0 { packet.duration = 1 }
            self.pendingBytes += Int64(packet.size)
            self.largestPacket = max(self.largestPacket, Int64(packet.size))
        }
    }

    /// Writes a fragment at each boundary (the first with the `moov`, once every stream has a packet, or at
    /// ``movieBoxDeadline`` without a stream whose device has delivered nothing) and checks the size and disk-space
    /// limits.
    private func afterWrite(movieTime: Int64) throws {
        let waiting = movieTime >= movieBoxDeadline ? [] : [videoStream, audioStream].compactMap { $0 }
        if case .movieFile = settings.destination, movieTime >= nextFragment,
           try muxer.output.writeMovieFragment(waitingFor: waiting) {
            pendingBytes = 0
            while nextFragment <= movieTime { nextFragment += settings.fragmentInterval }
        }
        // The next frame may be a key frame, and packets queued for interleaving are not counted yet: keep room for
        // two of the largest packets seen, plus the regular movie's sample tables.
        if let maxFileSize = settings.maxFileSize, recordedFileSize + 2 * largestPacket + 16_384 >= maxFileSize {
            end(at: movieTime, reason: .maximumFileSizeReached)
        }
        if let minimum = settings.minFreeDiskSpace, movieTime - lastDiskCheck >= 250_000 {
            lastDiskCheck = movieTime
            if let free = Self.freeBytes(near: settings.url), free < minimum { end(at: movieTime, reason: .diskFull) }
        }
    }

    /// Free bytes for unprivileged users on the file system holding `url`'s directory (`statvfs`).
    static func freeBytes(near url: URL) -> Int64? {
        var info = statvfs()
        guard statvfs(url.deletingLastPathComponent().path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Drains the encoders, writes the last fragment and the trailer, then rewrites the file as a regular movie
    /// (``MovieFinisher``). When the rewrite fails the fragmented file stays: it plays as it is.
    /// - Throws: ``CaptureRecordingError/writeFailed(path:reason:)`` when the trailer cannot be written.
    func finish() throws(CaptureRecordingError) {
        do {
            if let graph = audioGraph, let stream = audioStream {
                try graph.push(nil, to: 0)
                try drainAudio(graph, stream: stream)
            }
            if let stream = videoStream { try muxer.encode(nil, stream: stream) }
            if let stream = audioStream { try muxer.encode(nil, stream: stream) }
            try muxer.finish()
        } catch {
            throw .writeFailed(path: settings.url.path, reason: FailureReason.words(for: error))
        }
        guard case .movieFile = settings.destination else { return }
        try? MovieFinisher.rewriteAsRegularMovie(at: settings.url, metadata: settings.metadata)
    }
}
