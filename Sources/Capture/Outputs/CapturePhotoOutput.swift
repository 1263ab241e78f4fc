import Composition
import Foundation
import SpliceFFmpeg

/// Takes still photos from the session's video (AVFoundation's `AVCapturePhotoOutput`, and its predecessor
/// `AVCaptureStillImageOutput` through ``CaptureStillImageOutput``): a JPEG or PNG of the first frame the session
/// reads after the request, oriented and mirrored as the connection says, with its metadata.
///
/// `capturePhoto(with:delegate:)` becomes an `async` call that returns the ``CapturePhoto``.
public final class CapturePhotoOutput: CaptureOutput {
    struct Request: Sendable {
        var id: UUID
        var settings: CapturePhotoSettings
        var continuation: CheckedContinuation<Result<CapturePhoto, CapturePhotoError>, Never>
    }

    struct State: Sendable {
        var connections: [CaptureConnection] = []
        var isAccepting = false
        var requests: [Request] = []
        /// Requests cancelled before they were filed (removed again when their call returns).
        var cancelled: Set<UUID> = []
    }

    let state = Locked(State())

    /// An output with no request pending.
    public init() {}

    /// Video.
    public var acceptedMediaTypes: Set<MediaType> { [.video] }

    /// The connection made when the session started (one, for the video input).
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    /// The formats ``capturePhoto(with:)`` can write (AVFoundation's `availablePhotoCodecTypes`).
    public var availablePhotoCodecs: [CapturePhotoSettings.Codec] { CapturePhotoSettings.Codec.allCases }

    /// Takes a photo of the next frame the session reads (AVFoundation's `capturePhoto(with:delegate:)`).
    ///
    /// Never waits for good: a request still waiting when the session stops fails with
    /// ``CapturePhotoError/sessionNotRunning``, and one whose task is cancelled fails at once with
    /// ``CapturePhotoError/cancelled`` (the request is withdrawn; a photo already being encoded is let go).
    /// - Throws: ``CapturePhotoError/sessionNotRunning`` when the session is not running or stops first,
    ///   ``CapturePhotoError/noVideoConnection``, ``CapturePhotoError/cancelled``,
    ///   ``CapturePhotoError/encodingFailed(codec:reason:)``.
    public func capturePhoto(with settings: CapturePhotoSettings = CapturePhotoSettings()) async throws(CapturePhotoError)
        -> CapturePhoto {
        let id = UUID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<CapturePhoto, CapturePhotoError>, Never>) in
                let refusal = state.withLock { state -> CapturePhotoError? in
                    guard state.isAccepting else { return .sessionNotRunning }
                    guard state.connections.contains(where: { $0.mediaType == .video && $0.isEnabled }) else {
                        return .noVideoConnection
                    }
                    // Cancelled before the request was filed: the cancellation handler found nothing to withdraw.
                    guard !state.cancelled.contains(id) else { return .cancelled }
                    state.requests.append(Request(id: id, settings: settings, continuation: continuation))
                    return nil
                }
                if let refusal { continuation.resume(returning: .failure(refusal)) }
            }
        } onCancel: {
            withdraw(id)
        }
        state.withLock { _ = $0.cancelled.remove(id) }
        return try result.get()
    }

    /// Fails the request `id` with ``CapturePhotoError/cancelled`` when it still waits; otherwise notes the
    /// cancellation for a request not filed yet.
    private func withdraw(_ id: UUID) {
        let request = state.withLock { state -> Request? in
            guard let index = state.requests.firstIndex(where: { $0.id == id }) else {
                state.cancelled.insert(id)
                return nil
            }
            return state.requests.remove(at: index)
        }
        request?.continuation.resume(returning: .failure(.cancelled))
    }

    /// Starts (true) or stops (false) taking requests; stopping fails the pending ones (the session's thread).
    func setAccepting(_ accepting: Bool) {
        let pending = state.withLock { state -> [Request] in
            state.isAccepting = accepting
            guard !accepting else { return [] }
            defer { state.requests = [] }
            return state.requests
        }
        for request in pending { request.continuation.resume(returning: .failure(.sessionNotRunning)) }
    }

    /// The requests waiting for a frame, taken (the session's thread answers them with the frame it just read).
    func takeRequests() -> [Request] {
        state.withLock { state in
            defer { state.requests = [] }
            return state.requests
        }
    }

    /// True when a request waits (checked for every frame, so cheap).
    var hasRequests: Bool { state.withLock { !$0.requests.isEmpty } }
}

extension CapturePhotoOutput: ConnectableOutput {
    func connect(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }
}

/// AVFoundation's older still-image output, for porting: ``CapturePhotoOutput`` under the old name
/// (`captureStillImageAsynchronously(from:completionHandler:)` is ``CapturePhotoOutput/capturePhoto(with:)``).
public typealias CaptureStillImageOutput = CapturePhotoOutput
