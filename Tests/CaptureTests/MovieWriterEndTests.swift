@testable import Capture
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
internal import CMedia

/// Where a clean stop ends a movie: never before what the encoders already hold. On a loaded machine the engine can
/// have read pictures past the session time a stop was asked at; the end must then be after the last of them, or
/// the sound (cut at the end) would stop a frame before the pictures.
@Suite("Movie writer: the end of a clean stop")
struct MovieWriterEndTests {
    @Test func aStopAskedBeforeTheLastPictureWrittenEndsAfterIt() throws {
        let scratch = try ScratchDirectory("movie-writer-end")
        defer { scratch.remove() }
        let settings = MovieWriterSettings(
            url: scratch.file("end.mp4"), video: (width: 64, height: 48, frameRate: 30), audioSampleRate: 48_000,
            fragmentInterval: 1_000_000, initialFragmentInterval: 1_000_000)
        let writer = try MovieWriter(settings: settings, requestedStart: 0)
        let frame = try Frame()
        for slot in 0...120 {
            try frame.allocatePicture(width: 64, height: 48, pixelFormat: AV_PIX_FMT_YUV420P)
            for plane in 0..<3 {
                if let data = frame.plane(plane) { memset(data, 128, frame.bytesPerRow(ofPlane: plane) * (plane == 0 ? 48 : 24)) }
            }
            try writer.appendVideo(frame, at: Int64(slot) * 1_000_000 / 30)
        }
        #expect(writer.lastVideoSlot == 120)
        // A stop asked at 4.0 s (slot 120 is already written): the movie ends after slot 120, at 121 frames.
        writer.end(at: 4_000_000, reason: nil)
        #expect(writer.endTime == Optional(Int64(4_033_333)), "end at \(writer.endTime ?? -1) µs")
        #expect(!writer.isComplete, "the sound must still reach 121 frames' worth")
        // A limit (here the file size) still ends where it is reached, whatever was written.
        let limited = try MovieWriter(settings: MovieWriterSettings(
            url: scratch.file("limit.mp4"), video: (width: 64, height: 48, frameRate: 30), audioSampleRate: nil,
            fragmentInterval: 1_000_000, initialFragmentInterval: 1_000_000), requestedStart: 0)
        try limited.appendVideo(frame, at: 0)
        try limited.appendVideo(frame, at: 1_000_000 / 30)
        limited.end(at: 1_000_000 / 30, reason: .maximumFileSizeReached)
        #expect(limited.endTime == Optional(Int64(33_333)))
        try writer.finish()
        try limited.finish()
    }
}
