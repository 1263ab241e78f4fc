import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Each track's own metadata items (`AVAssetTrack.metadata`): the language, handler name and title a file states per
/// track, compared with what ffprobe reads for each stream.
@Suite struct TrackMetadataTests {
    /// ffprobe's tags of every stream of `url`, by stream index, or nil (recorded as skipped) without the tool.
    static func streamTags(of url: URL) async throws -> [Int: [String: String]]? {
        guard let ffprobe = Executable.required("ffprobe") else { return nil }
        let log = url.deletingPathExtension().appendingPathExtension("streams.json")
        let child = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-show_entries", "stream=index:stream_tags", "-of", "json", url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        let root = try JSONSerialization.jsonObject(with: BinaryFile.read(log)) as? [String: Any]
        let streams = root?["streams"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: streams.compactMap { stream in
            (stream["index"] as? Int).map { ($0, stream["tags"] as? [String: String] ?? [:]) }
        })
    }

    @Test(arguments: ["mp4", "mkv"])
    func eachTrackHasTheTagsItsContainerStates(fileExtension: String) async throws {
        guard Executable.required("ffmpeg") != nil else { return }
        let scratch = try ScratchDirectory("track-metadata")
        defer { scratch.remove() }
        let url = scratch.file("tagged.\(fileExtension)")
        let made = try await MediaToolRun.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac",
            "-metadata:s:v:0", "handler_name=Main camera", "-metadata:s:v:0", "title=Wide shot",
            "-metadata:s:a:0", "language=fra", "-metadata:s:a:0", "handler_name=Commentaire", url.path,
        ])
        #expect(made.isEmpty, "\(made)")
        let asset = try await Asset.load(from: url)
        let video = try #require(asset.tracks(withMediaType: .video).first)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        func tags(_ track: AssetTrack) -> [String: String] {
            Dictionary((track.metadata ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        // Raw keys as libavformat names them: Matroska's tags are in capitals.
        let handler = fileExtension == "mkv" ? "HANDLER_NAME" : "handler_name"
        #expect(tags(video)[handler] == "Main camera", "\(tags(video))")
        #expect(tags(audio)[handler] == "Commentaire", "\(tags(audio))")
        #expect(tags(audio)["language"] == "fra", "\(tags(audio))")
        #expect(audio.languageCode == "fra")
        if fileExtension == "mkv" {
            // Matroska keeps a track's name; MP4's muxer writes no per-track title.
            #expect(tags(video)["title"] == "Wide shot", "\(tags(video))")
            #expect(video.metadata?.first { $0.key == "title" }?.commonKey == "title")
        }
        guard let probed = try await Self.streamTags(of: url) else { return }
        #expect(tags(video) == probed[video.streamIndex], "\(String(describing: probed[video.streamIndex]))")
        #expect(tags(audio) == probed[audio.streamIndex], "\(String(describing: probed[audio.streamIndex]))")
    }
}

/// Runs a command-line tool found on `PATH`, returning what it printed on standard error.
enum MediaToolRun {
    static func run(_ name: String, _ arguments: [String]) async throws -> String {
        let path = try #require(Executable.find(name))
        let log = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(name)-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try ChildProcess(executable: path, arguments: arguments, standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 120), "\(name) did not finish")
        return TextFile.text(of: log)
    }
}
