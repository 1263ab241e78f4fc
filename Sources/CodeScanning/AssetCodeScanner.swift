import AssetIO
import Capture
import Composition
import Export
import Foundation
import VideoComposition

/// Finds machine-readable codes (QR, EAN, UPC, Code 39/93/128, Interleaved 2 of 5) in the pictures of a file or a
/// composition: the detector of ``CaptureMetadataOutput`` (libzbar) over stored video, read by `AssetReader`.
///
/// No AVFoundation class does this for files (apps use Vision's barcode request there); the results are the
/// capture output's ``MachineReadableCodeObject``s, positions normalised to the picture as it is shown — a file's
/// track after its `preferredTransform` (a phone's portrait clip is upright), a composition as its video composition
/// renders it — and ``MachineReadableCodeObject/time`` the picture's presentation time in the file or composition.
///
/// Every picture is decoded; one is scanned unless it comes less than ``minimumScanInterval`` after the last one
/// scanned. Scanning runs in the task that consumes the stream, one picture at a time, reading the decoded luma in
/// place.
public struct AssetCodeScanner: Sendable {
    /// The types reported, in the order given, without repeats.
    public let metadataObjectTypes: [MetadataObjectType]
    /// The part of each picture searched, normalised (origin top left of the picture as shown, y down).
    public let rectOfInterest: Rect
    /// The least time between two scanned pictures, seconds as a ``MediaTime`` (zero: every picture is scanned).
    public let minimumScanInterval: MediaTime

    /// A scanner for `types` inside `rectOfInterest`, scanning pictures at least `minimumScanInterval` apart.
    /// - Parameters:
    ///   - types: what to look for; each must be in ``CaptureMetadataOutput/availableMetadataObjectTypes``.
    ///   - rectOfInterest: normalised, inside the unit square (default the whole picture).
    ///   - minimumScanInterval: zero (the default) or a positive time: a picture less than this after the last
    ///     scanned one is skipped.
    /// - Throws: ``CodeScanError/unsupportedType(_:)`` for a type the linked libzbar cannot read,
    ///   ``CodeScanError/noTypes`` for an empty list, ``CodeScanError/rectOfInterestOutOfRange(_:)`` for a rect that
    ///   is empty, not finite or not inside 0…1, ``CodeScanError/invalidScanInterval(_:)`` for a negative or
    ///   non-numeric interval.
    public init(metadataObjectTypes types: [MetadataObjectType], rectOfInterest: Rect = Rect(x: 0, y: 0, width: 1, height: 1),
                minimumScanInterval: MediaTime = .zero) throws(CodeScanError) {
        if let unsupported = types.first(where: { !MetadataObjectType.decodable.contains($0) }) {
            throw .unsupportedType(unsupported)
        }
        guard !types.isEmpty else { throw .noTypes }
        guard CaptureMetadataOutput.isInsideUnitSquare(rectOfInterest) else { throw .rectOfInterestOutOfRange(rectOfInterest) }
        guard minimumScanInterval.isNumeric, minimumScanInterval >= .zero else {
            throw .invalidScanInterval(minimumScanInterval)
        }
        var unique: [MetadataObjectType] = []
        for type in types where !unique.contains(type) { unique.append(type) }
        metadataObjectTypes = unique
        self.rectOfInterest = rectOfInterest
        self.minimumScanInterval = minimumScanInterval
    }

    /// One scanned picture: its presentation time and the codes found in it (none is an answer too).
    public struct ScannedPicture: Sendable, Hashable {
        /// The picture's presentation time: the track's time for a file, composition time for a composition.
        public let time: MediaTime
        /// The codes found, in libzbar's order.
        public let codes: [MachineReadableCodeObject]
    }

    /// Scans the first video track of `asset`, in presentation order: one element per scanned picture, the stream
    /// ending after the last picture. Cancelling the consuming task (or dropping the stream) stops the reading.
    ///
    /// The stream throws ``CodeScanError/noVideoTrack(_:)`` for a file without pictures, and `AssetReader`'s
    /// errors (`AssetReaderError`: the file, the track, FFmpeg's reason) when reading fails.
    public func pictures(in asset: Asset) -> AsyncThrowingStream<ScannedPicture, any Error> {
        stream { scanner, deliver in
            guard let track = asset.tracks(withMediaType: .video).first else {
                throw CodeScanError.noVideoTrack(asset.url.path)
            }
            let reader = AssetReader(asset: asset)
            let output = AssetReaderTrackOutput(track: track, outputSettings: .video(pixelFormat: .yuv420p))
            try await scanner.read(reader, output, orientation: track.preferredTransform, deliver: deliver)
        }
    }

    /// Scans `composition` as `videoComposition` renders it (nil: `MutableVideoComposition(propertiesOf:)`, the
    /// tracks upright and fitted to the render size), one element per scanned output frame on its frame grid.
    ///
    /// The stream throws ``CodeScanError/noVideoTrack(_:)`` for a composition without video tracks, and
    /// `AssetReader`'s errors when rendering fails.
    public func pictures(in composition: MutableComposition, videoComposition: MutableVideoComposition? = nil)
        -> AsyncThrowingStream<ScannedPicture, any Error> {
        stream { scanner, deliver in
            let tracks = composition.tracks(withMediaType: .video)
            guard !tracks.isEmpty else { throw CodeScanError.noVideoTrack("the composition") }
            let reader = AssetReader(asset: composition)
            let output = AssetReaderVideoCompositionOutput(videoTracks: tracks,
                                                           videoSettings: DecodedVideoSettings(pixelFormat: .yuv420p))
            if let videoComposition { output.videoComposition = videoComposition }
            try await scanner.read(reader, output, orientation: .identity, deliver: deliver)
        }
    }

    /// Every code of `asset`'s first video track, in presentation order (the scanned pictures' codes, the pictures
    /// without codes left out).
    /// - Throws: what the stream throws; `CancellationError` when the task is cancelled.
    public func codes(in asset: Asset) async throws -> [MachineReadableCodeObject] {
        var found: [MachineReadableCodeObject] = []
        for try await picture in pictures(in: asset) { found += picture.codes }
        try Task.checkCancellation()
        return found
    }

    /// The stream of a reading job run in a task of its own, cancelled when the stream is dropped.
    private func stream(_ job: @escaping @Sendable (PictureScanner, (ScannedPicture) -> Void) async throws -> Void)
        -> AsyncThrowingStream<ScannedPicture, any Error> {
        let settings = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let scanner = try PictureScanner(settings: settings)
                    try await job(scanner) { continuation.yield($0) }
                    try Task.checkCancellation()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
