import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia

/// Joins the parts of a ``SegmentPlan`` and its audio into one file without re-encoding, on the calling (worker)
/// thread: first checks every part, then copies the parts' packets back to back (part i shifted by its first frame's
/// time) interleaved with the audio's, into a ``TemporaryOutputFile`` named only when complete. The whole export's
/// subtitle tracks are encoded beside them (``SubtitleWriter``), its timed metadata tracks written
/// (``TimedMetadataWriter``), its chapters added and its streams tagged.
struct SegmentJoiner {
    let plan: SegmentPlan
    let outputURL: URL
    let overwrite: Bool
    /// The whole export's subtitle tracks, on the output's clock.
    var subtitles: [SubtitleTrackPlan] = []
    /// The whole export's chapters.
    var chapters = ChapterPlan()
    /// The whole export's timed metadata tracks.
    var timedMetadata = TimedMetadataPlan()
    /// The whole export's video and audio stream tags (``ExportPlan/videoStreamMetadata``, ``ExportPlan/audioStreamMetadata``).
    var streamMetadata: (video: [MetadataItem], audio: [MetadataItem]) = ([], [])
    /// Set for a fragmented movie (checked for the container): written under ``outputURL`` from the start, a
    /// fragment every interval on the parts' key frames.
    var movieFragmentInterval: MediaTime?
    let cancellation: CancellationFlag

    func run() throws {
        if FileManager.default.fileExists(atPath: outputURL.path) && !overwrite {
            throw ExportError.outputFileExists(outputURL)
        }
        guard !plan.segments.isEmpty else { throw SegmentError.invalidPlan("it has no segments") }
        let parts = try plan.segments.map { try check($0) }
        let temporary = try TemporaryOutputFile.make(for: outputURL, inPlace: movieFragmentInterval != nil, replacing: overwrite)
        do {
            try write(to: temporary.path, parts: parts)
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

    /// What the check of a part found.
    struct CheckedPart {
        /// The part's video time base.
        var timeBase: AVRational
        /// The largest number of frames a picture is decoded before its presentation frame would allow at one
        /// picture per frame: max(i − frame of the i-th picture in decoding order) over the part, 0 without reordering.
        var reorderDelay: Int
    }

    /// Checks part `segment`: present, readable to the end, the codec parameters of part 0, a key frame first, and
    /// exactly one picture on each frame of its grid `0 ..< frameCount` (no frame missing, duplicated or off-grid; in
    /// a container whose time base cannot hold the frame grid, such as Matroska's milliseconds, a picture is on its
    /// frame when its time is the frame's rounded to that time base: ``frameIndex(pts:timeBase:)``).
    func check(_ segment: SegmentPlan.Segment) throws -> CheckedPart {
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
        var reorderDelay = 0
        while try part.next(describe: describe) {
            if cancellation.isCancelled { throw CancellationError() }
            if count == 0 && !part.packet.isKeyFrame { throw describe("it does not start with a key frame") }
            guard let pts = part.packet.presentationTimestamp, let frame = frameIndex(pts: pts, timeBase: timeBase),
                  frame >= 0, frame < segment.frameCount, !seen[frame] else {
                throw describe("picture \(count) has timestamp \(part.packet.presentationTimestamp.map(String.init) ?? "none") "
                    + "(time base \(timeBase.num)/\(timeBase.den)), not a new frame of 0..<\(segment.frameCount)")
            }
            seen[frame] = true
            reorderDelay = max(reorderDelay, count - frame)
            count += 1
        }
        guard count == segment.frameCount else {
            throw describe("it holds \(count) frames, the plan says \(segment.frameCount); it is incomplete")
        }
        return CheckedPart(timeBase: timeBase, reorderDelay: reorderDelay)
    }

    /// The frame `pts` (in `timeBase`) shows: the frame whose time, rounded to `timeBase` as libavformat rounds a
    /// timestamp into a stream's time base (to the nearest tick, halves away from zero: `av_rescale_q`), is `pts`;
    /// nil when `pts` is no frame's. Where `timeBase` holds the frame grid exactly (MP4, MOV) that is the frame `pts`
    /// falls on exactly.
    private func frameIndex(pts: Int64, timeBase: AVRational) -> Int? {
        let fd = plan.frameDuration
        let ticksPerFrame = (numerator: Int128(fd.value) * Int128(timeBase.den), denominator: Int128(fd.timescale) * Int128(timeBase.num))
        guard ticksPerFrame.numerator > 0, ticksPerFrame.denominator > 0 else { return nil }
        let frame = Self.rounded(Int128(pts) * ticksPerFrame.denominator, over: ticksPerFrame.numerator)
        guard Self.rounded(frame * ticksPerFrame.numerator, over: ticksPerFrame.denominator) == Int128(pts),
              let index = Int(exactly: frame) else { return nil }
        return index
    }

    /// Frame `frame`'s time (``SegmentPlan/frameDuration`` × `frame`) in `timeBase`, rounded as
    /// ``frameIndex(pts:timeBase:)`` rounds: the timestamp an export writes for that frame.
    private func timestamp(ofFrame frame: Int, in timeBase: AVRational) -> Int64 {
        let fd = plan.frameDuration
        let ticks = Self.rounded(Int128(frame) * Int128(fd.value) * Int128(timeBase.den),
                                 over: Int128(fd.timescale) * Int128(timeBase.num))
        return Int64(clamping: ticks)
    }

    /// `numerator / denominator` (denominator > 0) to the nearest integer, halves away from zero.
    private static func rounded(_ numerator: Int128, over denominator: Int128) -> Int128 {
        numerator >= 0 ? (2 * numerator + denominator) / (2 * denominator) : -((-2 * numerator + denominator) / (2 * denominator))
    }

    // MARK: Copy

    private func write(to path: String, parts: [CheckedPart]) throws {
        let output = try OutputFile.export(path: path, fileType: plan.fileType, for: outputURL, cancellation: cancellation)
        let first = plan.segments[0]
        let reference = try SegmentPartReader(url: plan.partURL(first.index), type: AVMEDIA_TYPE_VIDEO, describe: damaged(first))
        let videoTimeBase = AVRational.commonTimeBase(parts.map(\.timeBase))
        // Decoding times for parts whose container stores presentation times only, rounded (Matroska): the i-th picture
        // of every part decodes `delay` frames before frame i, the same delay throughout, so they rise across joins.
        let delay = parts.map(\.reorderDelay).max() ?? 0
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
        let groups = try writing { try TimedMetadataWriter(plan: timedMetadata, output: output, cancellation: cancellation) }
        let sampleRate = audio?.withCodecParameters { $0.pointee.sample_rate } ?? 0
        let options = plan.fileType.muxerOptions(
            optimizeForNetworkUse: true, movieFragmentInterval: movieFragmentInterval,
            movieTimescale: sampleRate > 0 ? sampleRate : videoTimeBase.den)
        try writing { try output.writeHeader(options: options) }
        try writing { try groups.write() }
        let videoOut = output.timeBase(ofStream: videoIndex)
        let audioOut = audioIndex >= 0 ? output.timeBase(ofStream: audioIndex) : AVRational(num: 1, den: 1)

        let frameTicks = plan.frameDuration.timestamp(in: videoOut) ?? 0
        // The export's end: the last picture is shortened to end there, as a single export's encoder clock does.
        let endTicks = plan.timeRange.duration.timestamp(in: videoOut, method: .towardNegativeInfinity)
        var segmentPosition = 0
        var part: SegmentPartReader? = nil
        var decodingIndex = 0
        var videoWaiting = false
        var videoTime = MediaTime.positiveInfinity
        /// Moves to the next video packet (across parts), restamped into the output; false when all are copied.
        func advanceVideo() throws -> Bool {
            while segmentPosition < plan.segments.count {
                let segment = plan.segments[segmentPosition]
                if part == nil {
                    part = try SegmentPartReader(url: plan.partURL(segment.index), type: AVMEDIA_TYPE_VIDEO, describe: damaged(segment))
                    decodingIndex = 0
                }
                if let reader = part, try reader.next(describe: damaged(segment)) {
                    let packet = reader.packet
                    let pts: Int64, dts: Int64
                    if Self.holdsFrameGrid(reader.timeBase, frameDuration: plan.frameDuration) {
                        let shift = (plan.frameDuration * Int64(segment.firstFrame)).timestamp(in: videoOut) ?? 0
                        pts = av_rescale_q(packet.presentationTimestamp ?? 0, reader.timeBase, videoOut) + shift
                        dts = av_rescale_q(packet.decodingTimestamp ?? packet.presentationTimestamp ?? 0, reader.timeBase, videoOut) + shift
                    } else {
                        // Rounded times (Matroska: milliseconds, and decoding times the demuxer can only guess): the
                        // check found each picture on its frame, which is written at that frame's time rounded once,
                        // as a single export writes it — never the part's rounded time plus a rounded shift, which
                        // can be a tick off.
                        guard let frame = packet.presentationTimestamp.flatMap({ frameIndex(pts: $0, timeBase: reader.timeBase) }) else {
                            throw damaged(segment)("picture \(decodingIndex) has no time on the frame grid")
                        }
                        pts = timestamp(ofFrame: segment.firstFrame + frame, in: videoOut)
                        dts = timestamp(ofFrame: segment.firstFrame + decodingIndex - delay, in: videoOut)
                    }
                    decodingIndex += 1
                    // Every part holds one picture per output frame (checked), so a picture lasts one frame; the parts'
                    // packets may come without a duration, and the muxer would then end the track a frame early.
                    var duration = packet.duration > 0 ? av_rescale_q(packet.duration, reader.timeBase, videoOut) : frameTicks
                    if let endTicks, endTicks > pts { duration = min(duration, endTicks - pts) }
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

    /// Whether `timeBase` holds every frame time of `frameDuration` exactly (MP4, MOV: the parts' times are copied
    /// as they are); Matroska's milliseconds do not hold 1/30 s.
    private static func holdsFrameGrid(_ timeBase: AVRational, frameDuration: MediaTime) -> Bool {
        let numerator = Int128(frameDuration.value) * Int128(timeBase.den)
        let denominator = Int128(frameDuration.timescale) * Int128(timeBase.num)
        return denominator > 0 && numerator % denominator == 0
    }

    private func writing<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw ExportError.writing(error, to: outputURL, cancelled: cancellation.isCancelled)
        }
    }
}
