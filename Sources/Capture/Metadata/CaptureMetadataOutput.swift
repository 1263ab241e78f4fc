import Composition
import SpliceFFmpeg

/// Finds machine-readable codes (QR, EAN, UPC, Code 39/93/128, Interleaved 2 of 5) in the session's pictures
/// (AVFoundation's `AVCaptureMetadataOutput`), decoded by libzbar, and delivers them as a stream.
///
/// ``metadataObjects()`` plays the part of `setMetadataObjectsDelegate(_:queue:)`: each element is the codes found in
/// one picture (pictures with none are not delivered), in capture order, from the latest stream asked for.
///
/// Scanning runs on a thread of its own, beside the session, at its own rate: a picture arriving while the previous
/// one is still being scanned is not converted or scanned (counted in ``droppedFrameCount``), so the session's
/// thread — and a recording — never waits for the scanner. A consumer slower than the scanner makes it skip pictures
/// the same way. Nothing is scanned while nobody listens or no type is asked for.
public final class CaptureMetadataOutput: CaptureOutput {
    struct State: Sendable {
        var types: [MetadataObjectType] = []
        var rectOfInterest = Rect(x: 0, y: 0, width: 1, height: 1)
        var connections: [CaptureConnection] = []
        var scanner: MetadataScanner?
    }

    let state = Locked(State())

    /// An output reporting no type until ``setMetadataObjectTypes(_:)`` asks for some, over the whole picture
    /// (AVFoundation's defaults).
    public init() {}

    /// Video.
    public var acceptedMediaTypes: Set<MediaType> { [.video] }

    /// The connection made when the session started (one, for the video input).
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    /// The types the linked libzbar decodes, in ``MetadataObjectType``'s order: every type but
    /// ``MetadataObjectType/pdf417`` (libzbar 0.23 locates PDF417 symbols without decoding their text). AVFoundation
    /// lists them once the output has a connection; here they do not depend on the session.
    public var availableMetadataObjectTypes: [MetadataObjectType] { MetadataObjectType.decodable }

    /// The types reported (default none, as in AVFoundation: nothing is scanned until some are asked for).
    public var metadataObjectTypes: [MetadataObjectType] { state.withLock { $0.types } }

    /// Sets the types to report, from the next picture scanned (AVFoundation's settable `metadataObjectTypes`).
    /// - Throws: ``CaptureMetadataError/unsupportedType(_:)`` naming the first type not in
    ///   ``availableMetadataObjectTypes``; the types stay as they were.
    public func setMetadataObjectTypes(_ types: [MetadataObjectType]) throws(CaptureMetadataError) {
        if let unsupported = types.first(where: { !availableMetadataObjectTypes.contains($0) }) {
            throw .unsupportedType(unsupported)
        }
        var unique: [MetadataObjectType] = []
        for type in types where !unique.contains(type) { unique.append(type) }
        state.withLock { $0.types = unique }
    }

    /// The part of the picture searched, normalised as ``MachineReadableCodeObject``'s positions are (origin top left
    /// of the delivered picture, y down; default the whole picture, (0, 0, 1, 1)). Only that part is scanned, so a
    /// code outside it is not reported and a code partly outside it may not be.
    public var rectOfInterest: Rect { state.withLock { $0.rectOfInterest } }

    /// Sets ``rectOfInterest``, from the next picture scanned.
    /// - Throws: ``CaptureMetadataError/rectOfInterestOutOfRange(_:)`` for a rect not inside the unit square, empty
    ///   or not finite; the rect stays as it was.
    public func setRectOfInterest(_ rect: Rect) throws(CaptureMetadataError) {
        guard Self.isInsideUnitSquare(rect) else { throw .rectOfInterestOutOfRange(rect) }
        state.withLock { $0.rectOfInterest = rect }
    }

    /// True for a rect of interest this output takes: finite, not empty, inside the unit square.
    package static func isInsideUnitSquare(_ rect: Rect) -> Bool {
        rect.isFinite && !rect.isEmpty && rect.minX >= 0 && rect.minY >= 0 && rect.maxX <= 1 && rect.maxY <= 1
    }

    /// Pictures scanned for the current stream.
    public var scannedFrameCount: Int { state.withLock { $0.scanner?.scannedCount ?? 0 } }

    /// Pictures skipped for the current stream because the scanner was still busy with an earlier one.
    public var droppedFrameCount: Int { state.withLock { $0.scanner?.droppedCount ?? 0 } }

    /// The codes found from now on, one element per picture that had any, until the session stops. A new call
    /// replaces the previous stream, which ends. Call it before or while the session runs.
    public func metadataObjects() -> CaptureSampleStream<[MachineReadableCodeObject]> {
        let scanner = MetadataScanner { [weak self] in
            self?.state.withLock { (Set($0.types), $0.rectOfInterest) } ?? ([], Rect(x: 0, y: 0, width: 1, height: 1))
        }
        let previous = state.withLock { state -> MetadataScanner? in
            defer { state.scanner = scanner }
            return state.scanner
        }
        previous?.finish()
        return CaptureSampleStream(queue: scanner.results)
    }

    /// The scanner being fed, nil when nobody listens.
    var activeScanner: MetadataScanner? {
        state.withLock { state in
            guard let scanner = state.scanner, !scanner.isFinished else { return nil }
            return scanner
        }
    }

    /// Ends the current stream (the session stopped).
    func finishStream() { state.withLock { $0.scanner }?.finish() }
}

extension CaptureMetadataOutput: ConnectableOutput {
    func connect(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }
}
