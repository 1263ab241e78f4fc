import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Sidecar SubRip and WebVTT files that break their syntax or are not UTF-8: refused with the line and column, or
/// decoded from their encoding; cues read back by the `ffmpeg` command-line tool.
@Suite struct SubtitleSidecarTests {
    /// A malformed file, where its first error is, and words of the reason.
    struct Malformed: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var line: Int
        var column: Int
        var reason: String
        var description: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "arrow.srt", text: "1\n00:00:01,000 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n",
                  line: 2, column: 14, reason: "expected '-->' after the start time"),
        Malformed(name: "blank.srt", text: "1\n00:00:01,000 --> 00:00:02,000\nHello\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n",
                  line: 4, column: 1, reason: "a blank line is missing before this cue"),
        Malformed(name: "seconds.srt", text: "1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:3,000 --> 00:00:04,000\nWorld\n",
                  line: 6, column: 7, reason: "bad timestamp: seconds are two digits from 00 to 59"),
        Malformed(name: "millis.srt", text: "1\r\n00:00:01,000 --> 00:00:02,50\r\nHello\r\n",
                  line: 2, column: 27, reason: "bad timestamp: milliseconds are three digits"),
        Malformed(name: "backwards.srt", text: "1\n00:00:05,000 --> 00:00:02,000\nHello\n",
                  line: 2, column: 18, reason: "the cue ends at 2000 ms, not after its start at 5000 ms"),
        Malformed(name: "text.srt", text: "Hello\n00:00:01,000 --> 00:00:02,000\n",
                  line: 1, column: 1, reason: "expected a cue number or a timing line"),
        Malformed(name: "arrow.vtt", text: "WEBVTT\n\n00:01.000 00:02.000\nHello\n\n00:03.000 --> 00:04.000\nWorld\n",
                  line: 3, column: 11, reason: "expected '-->' after the start time"),
        Malformed(name: "blank.vtt", text: "WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n00:03.000 --> 00:04.000\nWorld\n",
                  line: 5, column: 11, reason: "a blank line is missing before this cue"),
        Malformed(name: "comma.vtt", text: "WEBVTT\n\ncue-1\n00:00:01,000 --> 00:00:02,000\nHello\n",
                  line: 4, column: 9, reason: "bad timestamp: expected '.' and the milliseconds"),
        Malformed(name: "minutes.vtt", text: "WEBVTT\n\n61:00.000 --> 62:00.000\nHello\n",
                  line: 3, column: 1, reason: "bad timestamp: minutes are two digits from 00 to 59"),
        Malformed(name: "header.vtt", text: "WEBVTX\n\n00:01.000 --> 00:02.000\nHello\n",
                  line: 1, column: 1, reason: "a WebVTT file starts with a 'WEBVTT' line"),
    ]

    @Test(arguments: malformed)
    func aMalformedSidecarIsRefusedWithTheLineAndColumn(_ case: Malformed) async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let url = try scratch.write(`case`.name, `case`.text)
        do {
            let asset = try await Asset.load(from: url)
            Issue.record("\(`case`.name) loaded with \(asset.tracks.first?.subtitle?.cueCount ?? 0) cues")
        } catch let error as AssetLoadingError {
            guard case .malformedSubtitles(let file, let line, let column, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file == url)
            #expect(line == `case`.line, "\(error)")
            #expect(column == `case`.column, "\(error)")
            #expect(reason.hasPrefix(`case`.reason), "\(error)")
            #expect(error.description.contains("\(`case`.name): line \(`case`.line), column \(`case`.column): "))
        }
    }

    /// The CLI's `-f srt` text of the first subtitle stream of `url`, or nil (recorded as skipped) without the CLI.
    static func cues(of url: URL) async throws -> String? {
        guard let ffmpeg = Executable.required("ffmpeg") else { return nil }
        let log = url.deletingPathExtension().appendingPathExtension("readback.txt")
        let child = try ChildProcess(executable: ffmpeg, arguments: [
            "-nostdin", "-v", "error", "-i", url.path, "-map", "0:s:0", "-f", "srt", "-",
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        #expect(child.exitCode == 0)
        return try TextFile.read(log).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `captions` (a sidecar) on a 3 s test picture, exported to Matroska (SubRip), its cues read back.
    static func exportedCues(of captions: URL, in scratch: ScratchDirectory) async throws -> String? {
        let text = try await Asset.load(from: captions)
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(3000), in: scratch.url, name: "clip")
        var composition = try MutableComposition(asset: video)
        let track = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(text.tracks[0].timeRange, of: text.tracks[0], at: .zero, intoTrackWithID: track)
        let out = scratch.file("out.mkv")
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = out
        try await session.export()
        return try await cues(of: out)
    }

    static let latin1Cues = """
        1
        00:00:00,500 --> 00:00:01,250
        Café crème

        2
        00:00:01,500 --> 00:00:02,000
        naïve «déjà»


        """

    @Test func windows1252SubRipIsDecodedAndWrittenAsUTF8() async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let bytes: [UInt8] = Array("1\r\n00:00:00,500 --> 00:00:01,250\r\nCaf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8]
            + Array("me\r\n\r\n2\r\n00:00:01,500 --> 00:00:02,000\r\nna".utf8) + [0xEF] + Array("ve ".utf8) + [0xAB]
            + Array("d".utf8) + [0xE9, 0x6A, 0xE0, 0xBB] + Array("\r\n".utf8)
        let url = try scratch.write("latin1.srt", Data(bytes))
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks.first?.subtitle?.cueCount == 2)
        #expect(asset.duration == .ms(2000))
        guard let cues = try await Self.exportedCues(of: url, in: scratch) else { return }
        #expect(cues == Self.latin1Cues)
    }

    @Test func utf16WithAByteOrderMarkIsDecoded() async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let text = "1\n00:00:00,500 --> 00:00:01,250\nCafé crème\n\n2\n00:00:01,500 --> 00:00:02,000\nnaïve «déjà»\n"
        let url = try scratch.write("utf16.srt", Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!)
        #expect(try await Asset.load(from: url).tracks.first?.subtitle?.cueCount == 2)
        guard let cues = try await Self.exportedCues(of: url, in: scratch) else { return }
        #expect(cues == Self.latin1Cues)
    }

    /// Lines that start with a character of more than one UTF-8 byte (Japanese, Arabic, a guillemet), in UTF-16 of
    /// either byte order: every byte of every line arrives, as the ffmpeg tool reads the exported cues back.
    @Test(arguments: [true, false])
    func utf16LinesStartingWithNonASCIICharactersKeepEveryCharacter(littleEndian: Bool) async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let text = "1\n00:00:00,500 --> 00:00:01,250\n日本語の字幕\nمرحبا بالعالم\n\n2\n00:00:01,500 --> 00:00:02,000\n«déjà vu»\n"
        let mark: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        let url = try scratch.write("utf16.srt", Data(mark) + text.data(using: littleEndian ? .utf16LittleEndian : .utf16BigEndian)!)
        #expect(try await Asset.load(from: url).tracks.first?.subtitle?.cueCount == 2)
        guard let cues = try await Self.exportedCues(of: url, in: scratch) else { return }
        #expect(cues == """
            1
            00:00:00,500 --> 00:00:01,250
            日本語の字幕
            مرحبا بالعالم

            2
            00:00:01,500 --> 00:00:02,000
            «déjà vu»


            """)
    }

    @Test func webVTTThatIsNotUTF8IsRefusedWithTheByte() async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let bytes = Array("WEBVTT\n\n00:00.500 --> 00:01.250\nCaf".utf8) + [0xE9] + Array("\n".utf8)
        let url = try scratch.write("latin1.vtt", Data(bytes))
        await #expect(throws: AssetLoadingError.undecodableText(
            url, line: 4, column: 4, reason: "byte 0xE9 is not UTF-8, and WebVTT text is always UTF-8")) {
            try await Asset.load(from: url)
        }
    }

    @Test func subRipInNeitherUTF8NorWindows1252IsRefused() async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let bytes = Array("1\n00:00:00,500 --> 00:00:01,250\nCaf".utf8) + [0xE9, 0x20, 0x81] + Array("\n".utf8)
        let url = try scratch.write("binary.srt", Data(bytes))
        await #expect(throws: AssetLoadingError.undecodableText(
            url, line: 3, column: 6,
            reason: "the text is neither UTF-8 (byte 0xE9 at line 3, column 4) nor Windows-1252 (byte 0x81 is undefined there)")) {
            try await Asset.load(from: url)
        }
    }

    @Test func overlappingCuesAreKeptWithTheirTimes() async throws {
        let scratch = try ScratchDirectory("sidecar")
        defer { scratch.remove() }
        let url = try scratch.write("overlap.vtt", """
            WEBVTT

            NOTE the second cue shows while the first is still up

            00:00.500 --> 00:02.000
            Speaker one

            both
            00:01.000 --> 00:01.500 line:10%
            Speaker two

            """)
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks.first?.subtitle?.cueCount == 2)
        #expect(asset.duration == .ms(2000))
        guard let cues = try await Self.exportedCues(of: url, in: scratch) else { return }
        #expect(cues == """
            1
            00:00:00,500 --> 00:00:02,000
            Speaker one

            2
            00:00:01,000 --> 00:00:01,500
            Speaker two


            """)
    }
}
