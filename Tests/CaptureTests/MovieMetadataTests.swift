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
