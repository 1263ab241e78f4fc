import Capture
import Composition
import Foundation
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

    @Test("record ≥ 2 s, pause 2 s, record to 4 s: 120 frames without a gap, sound to the frame, markers in sync on both sides")
    func pauseAndResume() async throws {
        let scratch = try ScratchDirectory("capture-pause")
        defer { scratch.remove() }
        let url = scratch.file("paused.mp4")
        let session = CaptureSession()
        session.addInput(try CaptureDeviceInput(device: .virtualCamera()))
        session.addInput(try CaptureDeviceInput(device: .virtualMicrophone()))
        let output = CaptureMovieFileOutput()
        output.maxRecordedDuration = MediaTime(seconds: 4)
        session.addOutput(output)
        let events = session.events
        session.startRunning()
        let recording = output.startRecording(to: url)
        // A device that stops delivering must fail the test, not hang it.
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 180_000_000_000)
            output.resumeRecording()
            output.stopRecording()
            session.stopRunning()
        }
        defer { watchdog.cancel() }
        var observed = Observed()
        var result: CaptureRecordingResult?
        // Paused and resumed from a plain thread: a task polling beside the whole parallel suite can resume after the
        // recording has reached its 4 s limit (whenCondition).
        let driver = Task {
            await whenCondition(timeout: 120, { output.recordedDuration >= MediaTime(seconds: 2) }) { () -> Observed in
                var seen = Observed()
                output.pauseRecording()
                seen.pausedFlag = output.isRecordingPaused
                usleep(500_000)
                seen.durationsWhilePaused.append(output.recordedDuration)
                usleep(1_500_000)
                seen.durationsWhilePaused.append(output.recordedDuration)
                output.resumeRecording()
                return seen
            }
        }
        for await event in recording {
            switch event {
            case .started: observed.events.append("started")
            case .paused: observed.events.append("paused")
            case .resumed: observed.events.append("resumed")
            case .finished(let finished): result = finished
            }
        }
        let seen = await driver.value
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
        #expect(finished.error == .maximumDurationReached)
        #expect(finished.recordedDuration == MediaTime(seconds: 4))
        // Nothing was recorded while paused: the duration stood still for 1.5 s.
        let cut = try #require(seen?.durationsWhilePaused.first)
        #expect(seen?.durationsWhilePaused.count == 2 && seen?.durationsWhilePaused.last == cut, "\(seen?.durationsWhilePaused ?? [])")
        #expect(cut >= MediaTime(seconds: 2) && cut < MediaTime(seconds: 4), "paused at \(cut.seconds) s")

        // The file: 4 s, every frame on the grid (no gap at the cut), the sound as long as the pictures.
        let movie = try decodeMovie(url)
        #expect(movie.frames.count == 120)
        for (index, frame) in movie.frames.enumerated() where abs(frame.time - Double(index) / 30) > 0.001 {
            Issue.record("frame \(index) at \(frame.time) s, not \(Double(index) / 30) s")
            break
        }
        #expect(abs(movie.samples.count - 192_000) <= 1024, "sound: \(movie.samples.count) samples")

        // Sync on both sides of the cut: every flash has its beep within a frame, and the offset after the cut is
        // the offset before it within a frame.
        let flashes = movie.flashTimes(), beeps = movie.beepTimes()
        var before: [Double] = [], after: [Double] = []
        for flash in flashes {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) <= 1.0 / 30 else {
                Issue.record("no beep within a frame of the flash at \(flash) s; beeps at \(beeps)")
                continue
            }
            if flash < cut.seconds { before.append(flash - beep) } else { after.append(flash - beep) }
        }
        print("pause: cut at \(cut.seconds) s; A/V offsets before \(before), after \(after)")
        #expect(!before.isEmpty && !after.isEmpty, "flashes \(flashes), beeps \(beeps), cut at \(cut.seconds) s")
        if let first = before.first, let resumed = after.first {
            #expect(abs(resumed - first) <= 1.0 / 30 + 0.0005, "offset \(first) s before the pause, \(resumed) s after")
        }
    }
}
