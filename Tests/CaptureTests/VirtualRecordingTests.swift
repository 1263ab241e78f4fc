import Capture
import Composition
import Foundation
import SpliceTestSupport
import Testing

/// Recordings of the virtual camera and microphone (real time, flash and beep every second).
@Suite("Recording virtual devices", .serialized)
struct VirtualRecordingTests {
    @Test("maxRecordedDuration 5 s: 150 frames, 5 s of sound to an AAC frame, every flash within a frame of its beep")
    func fiveSecondRecording() async throws {
        let scratch = try ScratchDirectory("capture")
        defer { scratch.remove() }
        let url = scratch.file("five.mp4")
        let result = try await record([.virtualCamera(), .virtualMicrophone()], to: url) { output in
            output.maxRecordedDuration = MediaTime(seconds: 5)
        }
        #expect(result.error == .maximumDurationReached)
        #expect(result.recordingSuccessfullyFinished)
        #expect(result.recordedDuration == MediaTime(seconds: 5))
        // A clean end leaves a regular movie: one moov, no fragments.
        let boxes = try topLevelBoxes(url)
        #expect(boxes.contains("moov") && !boxes.contains("moof"), "boxes: \(boxes)")

        let movie = try decodeMovie(url)
        #expect(movie.frames.count == 150)
        #expect(abs(movie.frames.last!.time - 149.0 / 30) < 0.001)
        #expect(movie.sampleRate == 48_000)
        #expect(abs(movie.samples.count - 240_000) <= 1024, "sound: \(movie.samples.count) samples")
        let flashes = movie.flashTimes(), beeps = movie.beepTimes()
        #expect(flashes.count == 5, "flashes at \(flashes)")
        #expect(beeps.count == 5, "beeps at \(beeps)")
        for (flash, beep) in zip(flashes, beeps) {
            #expect(abs(flash - beep) <= 1.0 / 30, "flash at \(flash) s, beep at \(beep) s")
        }
    }

    @Test("stopRecording after about 2 s ends cleanly on a whole frame, the file decodes to its reported duration")
    func stopRecording() async throws {
        let scratch = try ScratchDirectory("capture")
        defer { scratch.remove() }
        let url = scratch.file("stop.mov")
        let result = try await record([.virtualCamera(markerInterval: nil), .virtualMicrophone(markerInterval: nil)],
                                      to: url, stopAfter: 2)
        #expect(result.error == nil)
        // The stop is asked for after 2 s of wall time; a starved machine (the parallel suite on 2 cores) can deliver
        // it seconds later, so only a gross miss fails here. What matters is below: whole frames, decoded = reported.
        #expect(result.recordedDuration.seconds > 1 && result.recordedDuration.seconds < 45, "\(result.recordedDuration)")
        let movie = try decodeMovie(url)
        #expect(Double(movie.frames.count) == (result.recordedDuration.seconds * 30).rounded())
        #expect(abs(Double(movie.samples.count) / 48_000 - result.recordedDuration.seconds) <= 1024.0 / 48_000)
    }

    @Test("an existing file is never overwritten: the recording reports fileAlreadyExists and the bytes stay")
    func neverOverwrites() async throws {
        let scratch = try ScratchDirectory("capture")
        defer { scratch.remove() }
        let url = try scratch.write("taken.mp4", Data("keep me".utf8))
        let result = try await record([.virtualCamera()], to: url) { $0.maxRecordedDuration = MediaTime(seconds: 1) }
        #expect(result.error == .fileAlreadyExists(url.path))
        #expect(!result.recordingSuccessfullyFinished)
        #expect(try BinaryFile.read(url) == Data("keep me".utf8))
    }

    @Test("maxRecordedFileSize: ends with maximumFileSizeReached, no larger than the limit, playable")
    func fileSizeLimit() async throws {
        let scratch = try ScratchDirectory("capture")
        defer { scratch.remove() }
        let url = scratch.file("size.mp4")
        let limit: Int64 = 400_000
        let result = try await record([.virtualCamera(), .virtualMicrophone()], to: url) { output in
            output.maxRecordedFileSize = limit
            output.maxRecordedDuration = MediaTime(seconds: 20)
            output.movieFragmentInterval = MediaTime(seconds: 1)
        }
        #expect(result.error == .maximumFileSizeReached)
        #expect(result.recordingSuccessfullyFinished)
        #expect(result.fileSize > 0 && result.fileSize <= limit, "\(result.fileSize) bytes")
        let movie = try decodeMovie(url)
        #expect(Double(movie.frames.count) == (result.recordedDuration.seconds * 30).rounded())
        #expect(movie.frames.count > 10)
    }

    @Test("minFreeDiskSpaceLimit above the free space: ends with diskFull at once, the file plays")
    func freeSpaceLimit() async throws {
        let scratch = try ScratchDirectory("capture")
        defer { scratch.remove() }
        let url = scratch.file("disk.mp4")
        let result = try await record([.virtualCamera(), .virtualMicrophone()], to: url) { output in
            output.minFreeDiskSpaceLimit = Int64.max / 2
            output.maxRecordedDuration = MediaTime(seconds: 20)
        }
        #expect(result.error == .diskFull)
        #expect(result.recordingSuccessfullyFinished)
        #expect(result.recordedDuration.seconds < 1, "\(result.recordedDuration)")
        let movie = try decodeMovie(url)
        #expect(movie.frames.count >= 1)
        #expect(Double(movie.frames.count) == (result.recordedDuration.seconds * 30).rounded())
    }
}
