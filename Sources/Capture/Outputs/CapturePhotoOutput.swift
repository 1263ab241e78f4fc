import Composition
import SpliceFFmpeg

/// Takes still photos from the session's video (AVFoundation's `AVCapturePhotoOutput`, and its predecessor
/// `AVCaptureStillImageOutput` through ``CaptureStillImageOutput``): a JPEG or PNG of the first frame the session
/// reads after the request, oriented and mirrored as the connection says, with its metadata.
///
/// `capturePhoto(with:delegate:)` becomes an `async` call that returns the ``CapturePhoto``.
public final class CapturePhotoOutput: CaptureOutput {
    struct Request: Sendable {
        var settings: CapturePhotoSettings
        var continuation: CheckedContinuation<Result<CapturePhoto, CapturePhotoError>, Never>
    }

    struct State: Sendable {
        var connections: [CaptureConnection] = []
        var isAccepting = false
        var requests: [Request] = []
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
    /// - Throws: ``CapturePhotoError/sessionNotRunning`` when the session is not running or stops first,
    ///   ``CapturePhotoError/noVideoConnection``, ``CapturePhotoError/encodingFailed(codec:reason:)``.
    public func capturePhoto(with settings: CapturePhotoSettings = CapturePhotoSettings()) async throws(CapturePhotoError)
        -> CapturePhoto {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<CapturePhoto, CapturePhotoError>, Never>) in
            let refusal = state.withLock { state -> CapturePhotoError? in
                guard state.isAccepting else { return .sessionNotRunning }
                guard state.connections.contains(where: { $0.mediaType == .video && $0.isEnabled }) else {
                    return .noVideoConnection
                }
                state.requests.append(Request(settings: settings, continuation: continuation))
                return nil
            }
            if let refusal { continuation.resume(returning: .failure(refusal)) }
        }
        return try result.get()
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
