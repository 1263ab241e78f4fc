import Capture
import Composition
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing

/// `pauseRecording()` / `resumeRecording()` on the virtual devices with a flash and a beep every second.
@Suite("Pausing a recording", .serialized)
struct PauseResumeTests {
    /// What the test saw while the recording ran.
    struct Observed: Sendable {
        var events: [String] = []
        var pausedFlag = false
        var durationsWhilePaused: [MediaTime] = []
    }

    @Test("record ≥ 2 s, pause ≥ 2 s, record 2 s more: every frame on the grid without a gap, sound to the frame, markers in sync on both sides")
    func pauseAndResume() async throws {
        let scratch = try ScratchDirectory("capture-pause")
        defer { scratch.remove() }
        let url = scratch.file("paused.mp4")
        let session = CaptureSession()
        session.addInput(try CaptureDeviceInput(device: .virtualCamera()))
        session.addInput(try CaptureDeviceInput(device: .virtualMicrophone()))
        let output = CaptureMovieFileOutput()
        output.maxRecordedDuration = MediaTime(seconds: 60)  // a bound only: the driver stops the recording
        session.addOutput(output)
        // The session clock as the camera's pictures show it, for resuming at a chosen moment of the beep cycle.
        let clock = CaptureVideoDataOutput()
        clock.videoSettings = CaptureVideoSettings(pixelFormat: .gray8, width: 16, height: 12)
        session.addOutput(clock)
        let latestPicture = Locked(0.0)
        let pictures = clock.frames()
        let clockReader = Task {
            for await picture in pictures { latestPicture.withLock { $0 = picture.presentationTime.seconds } }
        }
        defer { clockReader.cancel() }
        let events = session.events
        session.startRunning()
        let recording = output.startRecording(to: url)
        // Driven from a plain thread started here, not from a task: beside the whole parallel suite a task can resume
        // seconds late. A loaded machine also writes behind the devices, so the pause's cut (the session time of the
        // request) can lie past what is written when it is asked for: the driver waits, paused, until the recorded
        // duration has stood still for 0.5 s (the backlog up to the cut is written), checks it stays still for 1.5 s
        // more, resumes, and stops 2 s of recorded time later. The resume is asked for when the session clock is
        // 0.90–0.97 s past a whole second: the cut (just after the beep of 2 s) is then followed within 0.2 s by the
        // next flash and beep, which a beep detector must not merge with the beep before the cut.
        let seenBox = Locked<Observed?>(nil)
        let driver = Thread {
            var seen = Observed()
            defer { seenBox.withLock { $0 = seen } }
            let deadline = Date().addingTimeInterval(120)
            // Past the beep of 2 s (frame 60 written): the cut follows that beep.
            while output.recordedDuration < MediaTime(value: 61, timescale: 30), Date() < deadline { usleep(5_000) }
            output.pauseRecording()
            seen.pausedFlag = output.isRecordingPaused
            var last = output.recordedDuration, stillSince = Date()
            while Date().timeIntervalSince(stillSince) < 0.5, Date() < deadline {
                usleep(50_000)
                let now = output.recordedDuration
                if now != last { last = now; stillSince = Date() }
            }
            seen.durationsWhilePaused.append(output.recordedDuration)
            usleep(1_500_000)
            seen.durationsWhilePaused.append(output.recordedDuration)
            // At most 3 s: the clock is read by a task, which the whole parallel suite can hold up for minutes; the
            // resume then comes at any phase (the sync checks below hold at every phase).
            let phaseDeadline = min(deadline, Date().addingTimeInterval(3))
            while Date() < phaseDeadline {
                let phase = latestPicture.withLock { $0 }.truncatingRemainder(dividingBy: 1)
                if phase >= 0.9 && phase < 0.97 { break }
                usleep(2_000)
            }
            output.resumeRecording()
            let resumedAt = seen.durationsWhilePaused[0]
            while output.recordedDuration < resumedAt + MediaTime(seconds: 2), Date() < deadline { usleep(5_000) }
            output.stopRecording()
        }
        driver.start()
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 180_000_000_000)
            output.resumeRecording()
            output.stopRecording()
            session.stopRunning()
        }
        defer { watchdog.cancel() }
        var observed = Observed()
        var result: CaptureRecordingResult?
        for await event in recording {
            switch event {
            case .started: observed.events.append("started")
            case .paused: observed.events.append("paused")
            case .resumed: observed.events.append("resumed")
            case .finished(let finished): result = finished
            }
        }
        // The driver thread publishes what it saw as it ends (after its stopRecording()).
        let seen = await whenCondition(timeout: 10, { seenBox.withLock { $0 } != nil }) { seenBox.withLock { $0 } } ?? nil
        session.stopRunning()
        _ = try await withDeadline(60, "the session's .stopped event") {
            for await event in events {
                if case .stopped = event { return true }
            }
            return false
        }

        let finished = try #require(result)
        #expect(observed.events == ["started", "paused", "resumed"])
        #expect(seen?.pausedFlag == true)
        #expect(!output.isRecordingPaused)
        #expect(finished.error == nil)
        // Nothing was recorded while paused: the duration stood still for 1.5 s.
        let cut = try #require(seen?.durationsWhilePaused.first)
        #expect(seen?.durationsWhilePaused.count == 2 && seen?.durationsWhilePaused.last == cut, "\(seen?.durationsWhilePaused ?? [])")
        #expect(cut >= MediaTime(seconds: 2) && cut < MediaTime(seconds: 30), "paused at \(cut.seconds) s")
        #expect(finished.recordedDuration >= cut + MediaTime(seconds: 2), "\(finished.recordedDuration.seconds) s recorded, cut at \(cut.seconds) s")

        // The file: every frame on the grid (no gap at the cut), as many as the reported duration, the sound as long
        // as the pictures.
        let movie = try decodeMovie(url)
        let frameCount = Int((finished.recordedDuration.seconds * 30).rounded())
        #expect(movie.frames.count == frameCount)
        for (index, frame) in movie.frames.enumerated() where abs(frame.time - Double(index) / 30) > 0.001 {
            Issue.record("frame \(index) at \(frame.time) s, not \(Double(index) / 30) s")
            break
        }
        #expect(abs(movie.samples.count - frameCount * 1600) <= 1024, "sound: \(movie.samples.count) samples")

        // Sync on both sides of the cut: every flash has its beep within a frame, and the offset after the cut is
        // the offset before it within a frame.
        let flashes = movie.flashTimes(), beeps = movie.beepTimes(cuts: [cut.seconds])
        var before: [Double] = [], after: [Double] = []
        for flash in flashes {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) <= 1.0 / 30 else {
                Issue.record("no beep within a frame of the flash at \(flash) s; beeps at \(beeps)")
                continue
            }
            if flash < cut.seconds { before.append(flash - beep) } else { after.append(flash - beep) }
        }
        print("pause: cut at \(cut.seconds) s, first flash after it at \(flashes.first { $0 >= cut.seconds } ?? -1) s; "
              + "A/V offsets before \(before), after \(after)")
        #expect(!before.isEmpty && !after.isEmpty, "flashes \(flashes), beeps \(beeps), cut at \(cut.seconds) s")
        if let first = before.first, let resumed = after.first {
            #expect(abs(resumed - first) <= 1.0 / 30 + 0.0005, "offset \(first) s before the pause, \(resumed) s after")
        }
    }
}
