import Foundation
import Testing
import Splice
import SpliceTestSupport

/// ``AssetExportSession/timedMetadataGroups`` with ``AssetExportSession/movieFragmentInterval``: the timed metadata
/// track of a fragmented export against the regular export of the same edit, read back by the loader, by
/// `AssetReaderOutputMetadataAdaptor`, by `ffprobe` and box by box (``MovieFragmentScan``).
@Suite("Fragmented export with timed metadata")
struct FragmentedTimedMetadataTests {
    static func location(_ text: String) -> MetadataItem { MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: text) }

    /// Four groups over 3 s, two of them across the 1 s fragment boundaries, one gap (2.0–2.3 s).
    static let groups = [
        TimedMetadataGroup(timeRange: TimeRange(start: .zero, end: .ms(800)), items: [location("+48.8584+002.2945/")]),
        TimedMetadataGroup(timeRange: TimeRange(start: .ms(800), end: .ms(1600)),
                           items: [location("+48.8606+002.3376/"), MetadataItem(key: "note", value: "across a fragment")]),
        TimedMetadataGroup(timeRange: TimeRange(start: .ms(1600), end: .ms(2000)), items: [location("+48.8530+002.3499/")]),
        TimedMetadataGroup(timeRange: TimeRange(start: .ms(2300), end: .ms(3000)), items: [location("+48.8738+002.2950/")]),
    ]

    /// Exports clipA 0–3 s (H.264 `ultrafast` + AAC) with ``groups`` to `url`, fragmented every `interval` when valid.
    static func export(to url: URL, interval: MediaTime) async throws {
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: clip, at: .zero)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(encoderPreset: "ultrafast"), audio: AudioSettings()))
        session.outputURL = url
        session.timedMetadataGroups = groups
        session.movieFragmentInterval = interval
        try await session.export()
    }

    /// The groups `AssetReaderOutputMetadataAdaptor` reads from `url`'s metadata track.
    static func readGroups(_ url: URL) async throws -> [TimedMetadataGroup] {
        let asset = try await Asset.load(from: url)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: try #require(asset.tracks(withMediaType: .metadata).first), outputSettings: nil)
        let adaptor = try AssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        try reader.add(output)
        reader.startReading()
        var read: [TimedMetadataGroup] = []
        while let group = try await adaptor.nextTimedMetadataGroup() { read.append(group) }
        return read
    }

    /// The regular export: every group read back with its time and items by the loader, the reader's metadata
    /// adaptor and `ffprobe`. With a `movieFragmentInterval`, FFmpeg 5.1's muxer aborts the process on the same
    /// track (`Assertion next_dts >= 0 failed at libavformat/movenc.c:1136`; `ffmpeg -c copy -movflags
    /// +frag_keyframe+delay_moov` on this file aborts the same way), so the session refuses the combination before
    /// writing anything: for its own groups and for a composition metadata track holding them.
    @Test("timed metadata with movieFragmentInterval is refused before writing; the regular export reads back whole")
    func timedMetadataWithFragmentsIsRefused() async throws {
        let scratch = try ScratchDirectory("fragmented-timed-metadata")
        defer { scratch.remove() }
        let regular = scratch.file("regular.mp4")
        try await Self.export(to: regular, interval: .invalid)
        let asset = try await Asset.load(from: regular)
        #expect(asset.tracks.map(\.mediaType) == [.video, .audio, .metadata])
        #expect(try await Asset.loadTimedMetadataGroups(from: regular) == Self.groups)
        let read = try await Self.readGroups(regular)
        #expect(read == Self.groups, "\(read)")
        let handler = try await CommandLineTool.probe(regular, stream: "s:0", section: "stream_tags", entries: "handler_name")
        #expect(handler == [["Timed Metadata"]], "\(handler)")
        // Each group's sample at its millisecond start, lasting its duration (the muxer's empty samples between).
        let samples = try await CommandLineTool.probe(regular, stream: "s:0", section: "packet", entries: "pts_time,duration_time")
        #expect(samples.filter { $0.count == 2 && $0[1] != "N/A" } == [
            ["0.000000", "0.800000"], ["0.800000", "0.800000"], ["1.600000", "0.400000"], ["2.000000", "0.300000"],
            ["2.300000", "0.700000"],
        ], "\(samples)")

        let fragmented = scratch.file("fragmented.mp4")
        let message = "unsupported export settings: movieFragmentInterval 1.000 s cannot be combined with timedMetadataGroups, "
            + "written as a timed metadata track: FFmpeg's fragmented movie muxer cannot end its samples; export a regular "
            + "movie, or leave the timed metadata out"
        await #expect { try await Self.export(to: fragmented, interval: MediaTime(seconds: 1)) } throws: { "\($0)" == message }
        #expect(!FileManager.default.fileExists(atPath: fragmented.path))

        // The regular export as a source: its metadata track (3) carried into the composition is refused too; with
        // the track disabled the fragmented export is written, without it.
        var composition = try MutableComposition(asset: asset)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(encoderPreset: "ultrafast"), audio: AudioSettings()))
        session.outputURL = fragmented
        session.movieFragmentInterval = MediaTime(seconds: 1)
        let carried = message.replacingOccurrences(of: "timedMetadataGroups", with: "metadata track 3")
        await #expect { try await session.validate() } throws: { "\($0)" == carried }
        await #expect { try await session.export() } throws: { "\($0)" == carried }
        #expect(!FileManager.default.fileExists(atPath: fragmented.path))
        try composition.modifyTrack(withID: 3) { $0.isEnabled = false }
        let withoutMetadata = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(encoderPreset: "ultrafast"), audio: AudioSettings()))
        withoutMetadata.outputURL = fragmented
        withoutMetadata.movieFragmentInterval = MediaTime(seconds: 1)
        try await withoutMetadata.export()
        #expect(try await Asset.load(from: fragmented).tracks.map(\.mediaType) == [.video, .audio])
        #expect(try MovieFragmentScan(url: fragmented).fragments.count == 3)
    }

    /// QuickTime's boxed metadata (`mebx`, an iPhone Live Photo's three data tracks) is not written by an export, so
    /// it does not stand in the way of fragments.
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func boxedMetadataTracksDoNotStopFragments() async throws {
        let scratch = try ScratchDirectory("fragmented-mebx")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Fixture.sharedMedia("M05_iphone13pro_livephoto_480x640_dropped-frame_audio-first.mov"))
        #expect(asset.tracks(withMediaType: .metadata).count == 3)
        let session = AssetExportSession(asset: try MutableComposition(asset: asset), settings: ExportSettings(
            video: VideoSettings(encoderPreset: "ultrafast"), audio: AudioSettings()))
        session.outputURL = scratch.file("fragmented.mp4")
        session.movieFragmentInterval = MediaTime(seconds: 1)
        try await session.export()
        let scan = try MovieFragmentScan(url: scratch.file("fragmented.mp4"))
        #expect(scan.fragments.count >= 2 && !scan.isTorn, "\(scan.topLevel)")
    }
}
