import Foundation

/// Receives the segments of an ``AssetWriter`` made with ``AssetWriter/init(contentType:)`` (AVFoundation's
/// `AVAssetWriterDelegate` and its `assetWriter(_:didOutputSegmentData:segmentType:segmentReport:)`).
///
/// The writer calls it on its own thread, once per segment, in order: the initialization segment first, then each
/// media segment as soon as it is complete (on the append that starts the next one, or in
/// ``AssetWriter/finishWriting()`` for the last). The writer waits while it runs, so a slow delegate slows the
/// appends (memory stays bounded). ``HLSSegmentFileWriter`` is one that writes files and a playlist.
public protocol AssetWriterDelegate: AnyObject, Sendable {
    /// Takes one segment.
    /// - Parameters:
    ///   - segmentData: whole boxes: `ftyp` + `moov` for the initialization segment, then `moof` + `mdat` (with the
    ///     profile's `styp`/`sidx`) per media segment. Concatenated in order they are a playable fragmented MP4.
    ///   - segmentReport: what the media segment holds; nil for the initialization segment.
    /// - Throws: any error, which fails the writer: ``AssetWriter/status`` becomes `failed` and ``AssetWriter/error``
    ///   is ``AssetWriterError/segmentOutputFailed(reason:)`` naming the segment and the error.
    func assetWriter(_ writer: AssetWriter, didOutputSegmentData segmentData: Data, segmentType: AssetSegmentType,
                     segmentReport: AssetSegmentReport?) throws
}
