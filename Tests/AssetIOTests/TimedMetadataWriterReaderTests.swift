import Foundation
import Testing
import Splice
import SpliceTestSupport

/// `AssetWriterInputMetadataAdaptor` writes timed metadata groups as an export does (the `Timed Metadata` text
/// track), `AssetReaderOutputMetadataAdaptor` reads them back with exact times and values, and ffprobe sees the
/// track's samples at those times.
@Suite("Timed metadata through the writer and reader")
struct TimedMetadataWriterReaderTests {
    static func location(_ text: String) -> MetadataItem { MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: text) }

    static let groups = [
        TimedMetadataGroup(timeRange: TimeRange(start: .zero, duration: MediaTime(value: 400, timescale: 1000)),
                           items: [location("+48.8584+002.2945/")]),
        TimedMetadataGroup(timeRange: TimeRange(start: MediaTime(value: 400, timescale: 1000), duration: MediaTime(value: 600, timescale: 1000)),
                           items: [location("+48.8606+002.3376/"), MetadataItem(key: "note", value: "a=b {x}\nsecond line 100%")]),
    ]

    @Test("writer → file → reader: the groups' times and values exactly; ffprobe lists the samples", arguments: ["mp4", "mov"])
    func roundTrip(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("timed-metadata-writer")
        defer { scratch.remove() }
        let target = scratch.file("timed.\(fileExtension)")
        let writer = try AssetWriter(outputURL: target, fileType: fileExtension == "mov" ? .mov : .mp4)
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let pictures = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        let metadata = AssetWriterInput(mediaType: .metadata, outputSettings: nil)
        let groups = AssetWriterInputMetadataAdaptor(assetWriterInput: metadata)
        try writer.add(video)
        try writer.add(metadata)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for group in Self.groups { try await groups.append(group) }
        metadata.markAsFinished()
        try await AssetWriterSettingsTests.appendPictures(pictures, 0..<30)
        video.markAsFinished()
        try await writer.finishWriting()

        let asset = try await Asset.load(from: target)
        #expect(asset.tracks.map(\.mediaType) == [.video, .metadata])
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .metadata)[0], outputSettings: nil)
        let adaptor = try AssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        try reader.add(output)
        reader.startReading()
        var read: [TimedMetadataGroup] = []
        while let group = try await adaptor.nextTimedMetadataGroup() { read.append(group) }
        #expect(read == Self.groups, "\(read)")
        #expect(try await Asset.loadTimedMetadataGroups(from: target) == Self.groups)

        let handler = try await AssetWriterSettingsTests.ffprobe([
            "-select_streams", "s:0", "-show_entries", "stream_tags=handler_name", "-of", "csv=p=0", target.path,
        ])
        #expect(handler.trimmingCharacters(in: .whitespacesAndNewlines) == "Timed Metadata", "\(handler)")
        let times = try await AssetWriterSettingsTests.ffprobe([
            "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", target.path,
        ])
        // As in an export's file: FFmpeg's muxer adds an empty sample (no text, no duration) where the second group
        // starts, which the reader adaptor skips.
        #expect(times.split(separator: "\n") == ["0.000000,0.400000", "0.400000,N/A", "0.400000,0.600000"], "\(times)")
    }

    @Test("a reader adaptor over a track that is not timed metadata is refused, naming the track")
    func readerRefusesOtherTracks() async throws {
        let asset = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        let track = asset.tracks(withMediaType: .video)[0]
        #expect {
            _ = try AssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: AssetReaderTrackOutput(track: track, outputSettings: nil))
        } throws: { error in
            guard case .settingsDoNotMatchTrack(let trackID, .video, let reason)? = error as? AssetReaderError else { return false }
            return trackID == track.trackID && reason.contains("Timed Metadata")
        }
    }

    @Test("containers without timed metadata tracks refuse the input at add(_:)", arguments: ["mkv", "webm", "m4a", "segments"])
    func refusedContainers(kind: String) throws {
        let scratch = try ScratchDirectory("timed-metadata-refused")
        defer { scratch.remove() }
        let writer = kind == "segments" ? try AssetWriter(contentType: .mp4)
            : try AssetWriter(outputURL: scratch.file("refused.\(kind)"), fileType: FileType(rawValue: kind)!)
        let input = AssetWriterInput(mediaType: .metadata, outputSettings: nil)
        #expect(!writer.canAdd(input))
        #expect {
            try writer.add(input)
        } throws: { error in
            guard case .unsupportedInput(let name, let reason)? = error as? AssetWriterError else { return false }
            return name == "metadata input" && reason.contains("cannot hold a timed metadata track")
        }
    }
}
