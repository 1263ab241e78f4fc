import Foundation
import Testing

/// A movie's container metadata as two readers that share no code see it: `ffprobe` (FFmpeg's demuxer, run as a
/// separate program) and `exiftool` (Debian's libimage-exiftool-perl, a Perl reader of the boxes).
package enum MetadataReadBack {
    /// The items every movie writer's test writes (the export session, the asset writer, the movie file output):
    /// title, creation date, ISO 6709 location, make, model, software and a custom reverse-DNS key, by
    /// libavformat's keys. `software` and the custom key need the QuickTime `mdta` key space in both MP4 and MOV.
    package static let standardItems: [(key: String, value: String)] = [
        ("title", "Tour Eiffel"), ("creation_time", "2026-12-04T12:00:00.000000Z"),
        ("location", "+48.8584+002.2945+035.000/"), ("make", "Acme"), ("model", "Field Recorder 2"),
        ("software", "Splice"), ("com.example.take", "7"),
    ]

    /// `ffprobe -show_entries format_tags -of json`'s tags of `url` (keys as FFmpeg names them).
    /// - Returns: nil (recorded as skipped) when `ffprobe` is not on `PATH`.
    package static func ffprobeTags(of url: URL) async throws -> [String: String]? {
        try await tags(of: url, tool: "ffprobe", arguments: ["-v", "error", "-show_entries", "format_tags", "-of", "json", url.path]) {
            (($0 as? [String: Any])?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        }
    }

    /// `ffprobe -show_entries stream_tags -of json`'s tags of each stream of `url`, in stream order.
    /// - Returns: nil (recorded as skipped) when `ffprobe` is not on `PATH`.
    package static func ffprobeStreamTags(of url: URL) async throws -> [[String: String]]? {
        try await tags(of: url, tool: "ffprobe", arguments: ["-v", "error", "-show_entries", "stream_tags", "-of", "json", url.path]) {
            (($0 as? [String: Any])?["streams"] as? [[String: Any]] ?? []).map { $0["tags"] as? [String: String] ?? [:] }
        }
    }

    /// `exiftool -json -n -G1`'s tags of `url`, by group-qualified names (`Keys:Make`, `UserData:GPSCoordinates`,
    /// `QuickTime:CreateDate`), every value as text.
    /// - Returns: nil (recorded as skipped) when `exiftool` is not on `PATH`.
    package static func exiftoolTags(of url: URL) async throws -> [String: String]? {
        try await tags(of: url, tool: "exiftool", arguments: ["-json", "-n", "-G1", url.path]) {
            (($0 as? [[String: Any]])?.first ?? [:]).mapValues { "\($0)" }
        }
    }

    /// Checks ``standardItems`` in `url` (an `.mp4` or `.mov` written with them) with both readers: ffprobe sees
    /// every key (the location in FFmpeg's form of the 3GPP `loci` box, `+48.8584+002.2945+35.000000/`); exiftool
    /// sees them as QuickTime `mdta` keys (the location's text as given), the movie header's creation date and the
    /// `loci` box's numbers.
    package static func expectStandardItems(in url: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if let tags = try await ffprobeTags(of: url) {
            for (key, value) in standardItems where key != "location" {
                #expect(tags[key] == value, "ffprobe: \(key) in \(tags)", sourceLocation: sourceLocation)
            }
            #expect(tags["location"] == "+48.8584+002.2945+35.000000/", "ffprobe: \(tags)", sourceLocation: sourceLocation)
        }
        guard let tags = try await exiftoolTags(of: url) else { return }
        let expected = [
            "Keys:Title": "Tour Eiffel", "Keys:CreationTime": "2026-12-04T12:00:00.000000Z",
            "Keys:Location": "+48.8584+002.2945+035.000/", "Keys:Make": "Acme", "Keys:Model": "Field Recorder 2",
            "Keys:Software": "Splice", "Keys:ExampleTake": "7", "QuickTime:CreateDate": "2026:12:04 12:00:00",
        ]
        for (key, value) in expected {
            #expect(tags[key] == value, "exiftool: \(key) in \(tags)", sourceLocation: sourceLocation)
        }
        // 3GPP TS 26.244 loci: latitude and longitude as 16.16 fixed point, so 2.2945° reads back as 2.29449°.
        #expect(tags["UserData:LocationInformation"]?.contains("Lat=48.85840 Lon=2.29449 Alt=35.00 Body=earth") == true,
                "exiftool: \(tags)", sourceLocation: sourceLocation)
    }

    /// Runs `tool` with `arguments`, its standard output into a file beside `url`, and parses that JSON with `read`.
    private static func tags<T>(of url: URL, tool: String, arguments: [String], read: (Any) -> T) async throws -> T? {
        guard let executable = Executable.required(tool) else { return nil }
        let log = url.deletingPathExtension().appendingPathExtension("\(tool).json")
        let errors = url.deletingPathExtension().appendingPathExtension("\(tool).log")
        for file in [log, errors] { try? FileManager.default.removeItem(at: file) }
        let child = try ChildProcess(executable: executable, arguments: arguments, standardOutput: log, standardError: errors)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60), "\(tool) did not finish")
        #expect(child.exitCode == 0, "\(tool) failed: \(TextFile.text(of: errors))")
        return read(try JSONSerialization.jsonObject(with: BinaryFile.read(log)))
    }
}
