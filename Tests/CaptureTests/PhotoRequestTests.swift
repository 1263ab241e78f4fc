@testable import Capture
import Composition
import Foundation
import SpliceTestSupport
import Testing

/// Photo requests that no frame will answer end with a typed error, never a hang.
///
/// To keep every frame away from the photo output, the session also feeds a video data output whose queue (one
/// frame, no discarding) nobody reads: once it is full the session's thread waits there, before it looks at photo
/// requests, until the session stops.
@Suite("Photo requests cancelled or left pending", .serialized)
struct PhotoRequestTests {
    /// The error `request` ended with (nil for a photo), within `seconds`.
    private func outcome(_ what: String, within seconds: Double = 30,
                         _ request: Task<CapturePhoto, any Error>) async throws -> CapturePhotoError? {
        try await withDeadline(seconds, what) {
            switch await request.result {
            case .success: return nil
            case .failure(let error): return error as? CapturePhotoError
            }
        }
    }

    @Test("a cancelled request fails with .cancelled (filed or not yet), one pending at stopRunning with .sessionNotRunning")
    func cancelledAndPending() async throws {
        let photos = CapturePhotoOutput()
        let frames = CaptureVideoDataOutput()
        frames.alwaysDiscardsLateVideoFrames = false
        frames.maxQueuedFrameCount = 1
        let session = CaptureSession()
        session.addInput(try CaptureDeviceInput(device: .virtualColorChart()))
        session.addOutput(frames)
        session.addOutput(photos)
        let blocked = frames.frames()  // never read
        let events = session.events
        session.startRunning()
        defer { session.stopRunning() }

        // The queue holds its one frame; the next frame keeps the session's thread waiting.
        let deadline = Date().addingTimeInterval(120)
        while frames.peakQueuedFrameCount < 1, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        try #require(frames.peakQueuedFrameCount == 1, "the session delivered no frame within 120 s")
        try await Task.sleep(nanoseconds: 500_000_000)

        let early = Task { try await photos.capturePhoto() }
        early.cancel()
        #expect(try await outcome("a request cancelled at once", early) == .cancelled)

        let filed = Task { try await photos.capturePhoto() }
        try #require(await whenCondition(timeout: 60, { photos.hasRequests }) { true } != nil, "the request was not filed within 60 s")
        filed.cancel()
        #expect(try await outcome("a request cancelled while waiting", filed) == .cancelled)

        let pending = Task { try await photos.capturePhoto() }
        try #require(await whenCondition(timeout: 60, { photos.hasRequests }) { true } != nil, "the request was not filed within 60 s")
        session.stopRunning()
        #expect(try await outcome("a request pending when the session stopped", within: 60, pending) == .sessionNotRunning)
        _ = try await withDeadline(60, "the session's .stopped event") {
            for await event in events {
                if case .stopped = event { return true }
            }
            return false
        }
        let late = Task { try await photos.capturePhoto() }
        #expect(try await outcome("a request after the stop", late) == .sessionNotRunning)
        withExtendedLifetime(blocked) {}
    }
}
