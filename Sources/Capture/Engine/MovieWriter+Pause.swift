import Foundation
import SpliceFFmpeg

extension MovieWriter {
    /// Where a pause cut the movie, and when the resume was asked for.
    struct Pause {
        /// The first frame slot not recorded (the movie resumes on this slot).
        var slot: Int64
        /// The first movie sample not recorded: the sound of `slot` frames exactly (`slot` × rate / fps).
        var sample: Int64
        /// Session time (µs) of ``MovieWriter/resume(at:)``, nil while paused.
        var resumeRequest: Int64?
    }

    /// Pauses the recording at session time `now` µs: the cut is at the next whole frame after everything already
    /// written (sound already handed to the encoder cannot be taken back), and the sound at that frame's exact
    /// sample. Nothing after it is written until ``resume(at:)``. Ignored while paused or before the movie started.
    func pause(at now: Int64) {
        guard !isPaused else { return }
        isPaused = true
        guard pause == nil else { pause?.resumeRequest = nil; return }  // paused again before the resume point
        let rate = settings.audioSampleRate.map(Int64.init)
        if let video = settings.video {
            let fps = Int64(video.frameRate)
            var slot = lastVideoSlot + 1
            if let rate { slot = max(slot, (audioCursor * fps + rate - 1) / rate) }
            pause = Pause(slot: slot, sample: rate.map { slot * $0 / fps } ?? 0)
        } else if let rate {
            let reached = movieStart.map { ((now - $0) * rate + 500_000) / 1_000_000 - excludedSamples } ?? 0
            pause = Pause(slot: 0, sample: max(audioCursor, reached))
        }
    }

    /// Resumes at session time `now` µs: the movie goes on from the pause's cut with the next picture taken at or
    /// after `now` (with sound only, the sample taken at `now`), without a gap. The session time in between, a whole
    /// number of frames, is left out of picture and sound alike, so they stay in sync.
    func resume(at now: Int64) {
        guard isPaused else { return }
        isPaused = false
        pause?.resumeRequest = now
    }

    /// Movie time (µs) of session time `now` µs: the pauses' time left out; a paused movie is at its cut.
    func movieTime(ofSessionTime now: Int64) -> Int64 {
        guard let movieStart else { return 0 }
        let rate = settings.audioSampleRate.map(Int64.init)
        if let pause {
            if let video = settings.video { return pause.slot * 1_000_000 / Int64(video.frameRate) }
            return pause.sample * 1_000_000 / (rate ?? 1)
        }
        if let video = settings.video { return now - movieStart - excludedSlots * 1_000_000 / Int64(video.frameRate) }
        return now - movieStart - excludedSamples * 1_000_000 / (rate ?? 1)
    }

    /// Ends the pause: `slots` frame slots and `samples` samples are now left out in all, and the sound read since
    /// the pause is written from the cut on.
    func endPause(excludedSlots slots: Int64, excludedSamples samples: Int64) throws(CaptureRecordingError) {
        excludedSlots = max(excludedSlots, slots)
        excludedSamples = max(excludedSamples, samples)
        pause = nil
        let held = heldAudio
        heldAudio = []
        for (frame, raw) in held { try writeAudio(frame, at: raw - excludedSamples) }
    }

    /// Keeps a copy of sound read during a pause (the last 48 buffers, about a second).
    func hold(_ frame: Frame, raw: Int64) {
        guard let copy = try? frame.clone() else { return }
        heldAudio.append((copy, raw))
        if heldAudio.count > 48 { heldAudio.removeFirst() }
    }
}
