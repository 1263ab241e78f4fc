import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia

/// Joins the parts of a ``SegmentPlan`` and its audio into one file without re-encoding, on the calling (worker)
/// thread: first checks every part, then copies the parts' packets back to back (part i shifted by its first frame's
/// time) interleaved with the audio's, into a ``TemporaryOutputFile`` named only when complete. The whole export's
/// subtitle tracks are encoded beside them (``SubtitleWriter``), its chapters added and its streams tagged.
struct SegmentJoiner {
    let plan: SegmentPlan
    let outputURL: URL
    let overwrite: Bool
    /// The whole export's subtitle tracks, on the output's clock.
    var subtitles: [SubtitleTrackPlan] = []
    /// The whole export's chapters.
    var chapters = ChapterPlan()
    /// The whole export's video and audio stream tags (``ExportPlan/videoStreamMetadata``, ``ExportPlan/audioStreamMetadata``).
    var streamMetadata: (video: [MetadataItem], audio: [MetadataItem]) = ([], [])
    let cancellation: CancellationFlag

    func run() throws {
        if FileManager.default.fileExists(atPath: outputURL.path) && !overwrite {
            throw ExportError.outputFileExists(outputURL)
        }
        guard !plan.segments.isEmpty else { throw SegmentError.invalidPlan("it has no segments") }
        var timeBases: [AVRational] = []
        for segment in plan.segments {
            timeBases.append(try check(segment))
        }
        let temporary = TemporaryOutputFile(for: outputURL)
        do {
            try write(to: temporary.path, timeBases: timeBases)
            if cancellation.isCancelled { throw CancellationError() }
        } catch {
            temporary.discard()
            throw error
        }
        try temporary.commit(to: outputURL, replacing: overwrite)
    }

    // MARK: Checks

    private func damaged(_ segment: SegmentPlan.Segment) -> (String) -> any Error {
        { SegmentError.partDamaged(index: segment.index, plan.partURL(segment.index), reason: $0) }
    }

    /// Checks part `segment`: present, readable to the end, the codec parameters of part 0, a key frame first, and
    /// exactly one picture on each frame of its grid `0 ..< frameCount` (no frame missing, duplicated or off-grid).
    /// - Returns: the part's video time base.
    func check(_ segment: SegmentPlan.Segment) throws -> AVRational {
        let url = plan.partURL(segment.index)
        guard FileManager.default.fileExists(atPath: url.path) else { throw SegmentError.partMissing(index: segment.index, url) }
        let describe = damaged(segment)
        let part = try SegmentPartReader(url: url, type: AVMEDIA_TYPE_VIDEO, describe: describe)
        if segment.index != plan.segments[0].index {
            // The join checks segment 0 itself first; here it is only the reference (absent: nothing to compare).
            if let first = try? SegmentPartReader(url: plan.partURL(plan.segments[0].index), type: AVMEDIA_TYPE_VIDEO, describe: damaged(plan.segments[0])),
               let difference = first.withCodecParameters({ a in part.withCodecParameters { b in SegmentPartReader.difference(a, b) } }) {
                throw describe("its codec parameters differ from segment \(plan.segments[0].index)'s (\(difference))")
            }
        }
        let timeBase = part.timeBase
        var seen = [Bool](repeating: false, count: segment.frameCount)
        var count = 0
        while try part.next(describe: describe) {
            if cancellation.isCancelled { throw CancellationError() }
            if count == 0 && !part.packet.isKeyFrame { throw describe("it does not start with a key frame") }
            guard let pts = part.packet.presentationTimestamp, let frame = frameIndex(pts: pts, timeBase: timeBase),
                  frame >= 0, frame < segment.frameCount, !seen[frame] else {
                throw describe("picture \(count) has timestamp \(part.packet.presentationTimestamp.map(String.init) ?? "none") "
                    + "(time base \(timeBase.num)/\(timeBase.den)), not a new frame of 0..<\(segment.frameCount)")
            }
            seen[frame] = true
            count += 1
        }
        guard count == segment.frameCount else {
            throw describe("it holds \(count) frames, the plan says \(segment.frameCount); it is incomplete")
        }
        return timeBase
    }

    /// The frame index `pts` (in `timeBase`) falls on exactly, or nil when it is off the frame grid.
    private func frameIndex(pts: Int64, timeBase: AVRational) -> Int? {
        let fd = plan.frameDuration
        let numerator = Int128(pts) * Int128(timeBase.num) * Int128(fd.timescale)
        let denominator = Int128(timeBase.den) * Int128(fd.value)
        guard denominator != 0, numerator % denominator == 0 else { return nil }
        return Int(numerator / denominator)
    }

    // MARK: Copy

    private func write(to path: String, timeBases: [AVRational]) throws {
        let output = try OutputFile.export(path: path, fileType: plan.fileType, for: outputURL, cancellation: cancellation)
        let first = plan.segments[0]
        let reference = try SegmentPartReader(url: plan.partURL(first.index), type: AVMEDIA_TYPE_VIDEO, describe: damaged(first))
        let videoTimeBase = AVRational.commonTimeBase(timeBases)
        let videoIndex = try reference.withCodecParameters { try output.addStream(copying: $0, timeBase: videoTimeBase) }
        output.setTrackMetadata(streamMetadata.video, onStream: videoIndex)
        let audioFailure: (String) -> any Error = { [plan] in SegmentError.audioDamaged(plan.audioURL, reason: $0) }
        var audio: SegmentPartReader?
        var audioIndex = -1
        if plan.hasAudio {
            let reader = try SegmentPartReader(url: plan.audioURL, type: AVMEDIA_TYPE_AUDIO, describe: audioFailure)
            audioIndex = try reader.withCodecParameters { try output.addStream(copying: $0, timeBase: reader.timeBase) }
            output.setTrackMetadata(streamMetadata.audio, onStream: audioIndex)
            audio = reader
        }
        let cues = subtitles.isEmpty ? nil
            : try SubtitleWriter(plans: subtitles, muxer: EncodingMuxer(output: output), cancellation: cancellation)
        try writing { try output.addChapters(chapters, cancellation: cancellation) }
        let sampleRate = audio?.withCodecParameters { $0.pointee.sample_rate } ?? 0
        let options = plan.fileType.muxerOptions(
            optimizeForNetworkUse: true, movieTimescale: sampleRate > 0 ? sampleRate : videoTimeBase.den)
        try writing { try output.writeHeader(options: options) }
        let videoOut = output.timeBase(ofStream: videoIndex)
        let audioOut = audioIndex >= 0 ? output.timeBase(ofStream: audioIndex) : AVRational(num: 1, den: 1)

        let frameTicks = plan.frameDuration.timestamp(in: videoOut) ?? 0
        var segmentPosition = 0
        var part: SegmentPartReader? = nil
        var videoWaiting = false
        var videoTime = MediaTime.positiveInfinity
        /// Moves to the next video packet (across parts), restamped into the output; false when all are copied.
        func advanceVideo() throws -> Bool {
            while segmentPosition < plan.segments.count {
                let segment = plan.segments[segmentPosition]
                if part == nil {
                    part = try SegmentPartReader(url: plan.partURL(segment.index), type: AVMEDIA_TYPE_VIDEO, describe: damaged(segment))
                }
                if let reader = part, try reader.next(describe: damaged(segment)) {
                    let shift = (plan.frameDuration * Int64(segment.firstFrame)).timestamp(in: videoOut) ?? 0
                    let packet = reader.packet
                    let pts = av_rescale_q(packet.presentationTimestamp ?? 0, reader.timeBase, videoOut) + shift
                    let dts = av_rescale_q(packet.decodingTimestamp ?? packet.presentationTimestamp ?? 0, reader.timeBase, videoOut) + shift
                    // Every part holds one picture per output frame (checked), so a picture lasts one frame; the parts'
                    // packets may come without a duration, and the muxer would then end the track a frame early.
                    let duration = packet.duration > 0 ? av_rescale_q(packet.duration, reader.timeBase, videoOut) : frameTicks
                    packet.setTiming(presentation: pts, decoding: dts, duration: duration)
                    packet.prepareForMuxing(stream: videoIndex)
                    videoTime = MediaTime(pts: dts, timeBase: videoOut) ?? .zero
                    return true
                }
                part = nil
                segmentPosition += 1
            }
            return false
        }
        var audioWaiting = false
        var audioTime = MediaTime.positiveInfinity
        func advanceAudio() throws -> Bool {
            guard let audio, try audio.next(describe: audioFailure) else { return false }
            let packet = audio.packet
            packet.prepareForMuxing(stream: audioIndex, from: audio.timeBase, to: audioOut)
            audioTime = MediaTime(pts: packet.decodingTimestamp ?? 0, timeBase: audioOut) ?? .zero
            return true
        }
        videoWaiting = try advanceVideo()
        audioWaiting = try advanceAudio()
        while videoWaiting || audioWaiting {
            if cancellation.isCancelled { throw CancellationError() }
            try cues?.write(through: videoWaiting && (!audioWaiting || videoTime <= audioTime) ? videoTime : audioTime,
                            into: outputURL, cancellation: cancellation)
            if videoWaiting && (!audioWaiting || videoTime <= audioTime), let reader = part {
                try writing { try output.write(reader.packet) }
                videoWaiting = try advanceVideo()
            } else if let audio {
                try writing { try output.write(audio.packet) }
                audioWaiting = try advanceAudio()
            }
        }
        try cues?.write(through: .positiveInfinity, into: outputURL, cancellation: cancellation)
        try writing { try output.finish() }
    }

    private func writing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw ExportError.writing(error, to: outputURL, cancelled: cancellation.isCancelled)
        }
    }
}
