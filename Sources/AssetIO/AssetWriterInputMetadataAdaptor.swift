import Composition

/// Appends timed metadata groups to a timed metadata ``AssetWriterInput``, as AVFoundation's
/// `AVAssetWriterInputMetadataAdaptor`: e.g. a location changing over a recording, each group's items over its range.
///
/// The input is one of media type ``MediaType/metadata`` (AVFoundation's `AVMediaType.metadata`) with nil settings,
/// added to a writer of an MP4 or MOV file (``AssetWriter/add(_:)`` refuses it elsewhere). The groups are written as
/// an export writes its ``Export/AssetExportSession/timedMetadataGroups``: a `tx3g` text track whose handler is named
/// `Timed Metadata`, one sample per group, its start and end relative to the session start rounded to milliseconds
/// (half away from zero), a group that ends after ``AssetWriter/endSession(atSourceTime:)`` cut there. Read back with
/// an ``AssetReaderOutputMetadataAdaptor`` or `Asset.loadTimedMetadataGroups(from:)`.
public final class AssetWriterInputMetadataAdaptor: Sendable {
    /// The input the groups go to.
    public let assetWriterInput: AssetWriterInput

    /// An adaptor for `input` (media type ``MediaType/metadata``, nil settings).
    public init(assetWriterInput input: AssetWriterInput) {
        assetWriterInput = input
    }

    /// Appends `group` (its items over its time range, in the appended samples' timeline), suspending while the
    /// writer is behind. Groups must start at increasing times.
    /// - Throws: ``AssetWriterError/sampleMismatch(input:reason:)`` when the input is not a timed metadata input
    ///   or the group's range is not numeric with a positive duration; otherwise as ``AssetWriterInput/append(_:)``
    ///   (``AssetWriterError/nonIncreasingTime(input:previous:appended:)`` for a group starting at or before the
    ///   previous one's start).
    public func append(_ group: TimedMetadataGroup) async throws {
        guard assetWriterInput.mediaType == .metadata, assetWriterInput.outputSettings == nil else {
            throw AssetWriterError.sampleMismatch(input: assetWriterInput.name,
                                                  reason: "a metadata adaptor needs a metadata input with nil settings")
        }
        let format = FormatDescription(mediaType: .metadata, codecName: "mov_text", timeScale: group.timeRange.start.timescale)
        try await assetWriterInput.append(SampleBuffer(presentationTime: group.timeRange.start, duration: group.timeRange.duration,
                                                       formatDescription: format, timedMetadataGroup: group))
    }
}
