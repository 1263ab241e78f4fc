import Capture
import Composition
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing

/// `CaptureMovieFileOutput.metadata`: title, creation date and ISO 6709 location in the recorded movie's container
/// tags (read back with FFmpeg's demuxer), in both containers, after the clean end's rewrite as a regular movie.
@Suite("Capture movie metadata")
struct MovieMetadataTests {
    @Test("title, creation date and location are in the finished .mp4 and .mov", arguments: ["mp4", "mov"])
    func tagsAreWritten(_ container: String) async throws {
        let scratch = try ScratchDirectory("capture-metadata")
        defer { scratch.remove() }
        let url = scratch.file("tagged.\(container)")
        let location = try CaptureMovieMetadata.Location(latitude: 48.8584, longitude: 2.2945, altitude: 35)
        #expect(location.iso6709 == "+48.8584+002.2945+035.000/")
        let created = Date(timeIntervalSince1970: 1_796_000_000.25)
        let result = try await record([.virtualCamera(markerInterval: nil)], to: url) { output in
            output.maxRecordedDuration = MediaTime(seconds: 1)
            output.metadata = CaptureMovieMetadata(title: "Tour Eiffel", creationDate: created, location: location)
        }
        #expect(result.error == .maximumDurationReached && result.recordingSuccessfullyFinished)
        let tags = Dictionary(try InputFile(url: url).metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(tags["title"] == "Tour Eiffel")
        // MOV keeps the text; MP4's muxer parses it and writes the altitude back with six decimals.
        let written = try #require(tags["location"])
        #expect(written.hasPrefix("+48.8584+002.2945+") && written.hasSuffix("/"), "\(written)")
        #expect(Double(written.dropFirst(18).dropLast()) == 35, "\(written)")
        if container == "mov" { #expect(written == location.iso6709) }
        // The movie header holds whole seconds: 1 796 000 000 s is 2026-11-30T00:53:20Z.
        #expect(tags["creation_time"]?.hasPrefix("2026-11-30T00:53:20") == true, "\(tags)")
    }

    @Test("a location off the Earth is a typed error naming the values")
    func invalidLocation() {
        for (latitude, longitude) in [(91.0, 0.0), (0, -180.5), (Double.nan, 0)] {
            do {
                _ = try CaptureMovieMetadata.Location(latitude: latitude, longitude: longitude)
                Issue.record("\(latitude), \(longitude) was accepted")
            } catch {
                #expect(error.description.hasPrefix("location \(latitude), \(longitude) is not on Earth"), "\(error)")
            }
        }
        #expect((try? CaptureMovieMetadata.Location(latitude: -33.8568, longitude: 151.2153))?.iso6709 == "-33.8568+151.2153/")
    }
}

/// The movie file output's further items (`CaptureMovieMetadata.items`), written by the rule the export session and
/// the asset writer share and read back by ffprobe and exiftool after the clean end's rewrite.
@Suite("Capture movie metadata items")
struct MovieMetadataItemTests {
    @Test("make, model, software and a custom key beside title, creation date and location", arguments: ["mp4", "mov"])
    func standardItems(_ container: String) async throws {
        let scratch = try ScratchDirectory("capture-metadata-items")
        defer { scratch.remove() }
        let url = scratch.file("tagged.\(container)")
        let typed: Set<String> = ["title", "creation_time", "location"]
        let result = try await record([.virtualCamera(markerInterval: nil)], to: url) { output in
            output.maxRecordedDuration = MediaTime(seconds: 1)
            output.metadata = CaptureMovieMetadata(
                title: "Tour Eiffel", creationDate: Date(timeIntervalSince1970: 1_796_385_600),  // 2026-12-04T12:00:00Z
                location: try? CaptureMovieMetadata.Location(latitude: 48.8584, longitude: 2.2945, altitude: 35),
                items: MetadataReadBack.standardItems.filter { !typed.contains($0.key) }.map { MetadataItem(key: $0.key, value: $0.value) })
        }
        #expect(result.error == .maximumDurationReached && result.recordingSuccessfullyFinished)
        try await MetadataReadBack.expectStandardItems(in: url)
    }

    @Test("a location item that is not ISO 6709 is refused with the value; no file is made")
    func invalidLocationItem() async throws {
        let scratch = try ScratchDirectory("capture-metadata-refused")
        defer { scratch.remove() }
        let url = scratch.file("refused.mp4")
        let result = try await record([.virtualCamera(markerInterval: nil)], to: url) { output in
            output.maxRecordedDuration = MediaTime(seconds: 1)
            output.metadata = CaptureMovieMetadata(items: [MetadataItem(key: "location", value: "Paris")])
        }
        guard case .invalidMetadata(let key, let value, let reason)? = result.error else {
            Issue.record("expected invalidMetadata, got \(String(describing: result.error))")
            return
        }
        #expect(key == "location" && value == "Paris" && reason.contains("'Paris' is not an ISO 6709 location"), "\(reason)")
        #expect(!result.recordingSuccessfullyFinished)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
