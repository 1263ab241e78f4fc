import Foundation
import Splice

/// A recording with a changing location, as the tests of composed timed metadata need one: a video file's pictures
/// copied by `AssetWriter` (a passthrough input) beside a timed metadata track written through its metadata adaptor.
public enum TimedMetadataRecording {
    /// Writes `url` (MP4 or MOV by its extension): `video`'s first video track, copied, and `groups`, relative to
    /// source time 0; then loads it.
    /// - Throws: the reader's, writer's and loader's errors.
    public static func write(_ url: URL, copying video: Asset, groups: [TimedMetadataGroup]) async throws -> Asset {
        let writer = try AssetWriter(outputURL: url, fileType: url.pathExtension == "mov" ? .mov : .mp4)
        let reader = AssetReader(asset: video)
        let output = AssetReaderTrackOutput(track: video.tracks(withMediaType: .video)[0], outputSettings: nil)
        let pictures = AssetWriterInput(mediaType: .video, outputSettings: nil)
        let metadata = AssetWriterInput(mediaType: .metadata, outputSettings: nil)
        let adaptor = AssetWriterInputMetadataAdaptor(assetWriterInput: metadata)
        try reader.add(output)
        try writer.add(pictures)
        try writer.add(metadata)
        reader.startReading()
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for group in groups { try await adaptor.append(group) }
        metadata.markAsFinished()
        for try await sample in output { try await pictures.append(sample) }
        pictures.markAsFinished()
        try await writer.finishWriting()
        return try await Asset.load(from: url)
    }
}
