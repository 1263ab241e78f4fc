import Foundation
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// Burnt-in subtitles in a style: a SubRip track drawn in the style given (colour, size, position), an ASS track in
/// its own styles, Chinese and Arabic cues drawn as their glyphs through fontconfig's fallback fonts.
@Suite struct SubtitleBurnInStyleTests {
    /// Pixels of `frame` in `rows` (all columns) that `matches`.
    static func count(in frame: VideoFrame, rows: Range<Int>, where matches: (Int, Int, Int) -> Bool) -> Int {
        var count = 0
        for y in rows {
            for x in 0..<frame.width {
                if let p = frame.pixel(x: x, y: y), matches(Int(p.red), Int(p.green), Int(p.blue)) { count += 1 }
            }
        }
        return count
    }

    static func isYellow(_ r: Int, _ g: Int, _ b: Int) -> Bool { r > 180 && g > 180 && b < 90 }
    static func isRed(_ r: Int, _ g: Int, _ b: Int) -> Bool { r > 180 && g < 90 && b < 90 }
    static func isBright(_ r: Int, _ g: Int, _ b: Int) -> Bool { r > 180 && g > 180 && b > 180 }

    /// `captions` (a sidecar's text, written as `name`) burnt into 2 s of black 320 × 240 at 30 fps (the preset does
    /// not scale up), with `style`; the exported pictures at `frames`.
    static func burn(_ captions: String, name: String, style: SubtitleStyle?, frames: [Int]) async throws -> [VideoFrame] {
        let scratch = try ScratchDirectory("burn-in-style")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .colorField(.black), duration: .ms(2000), in: scratch.url, name: "black")
        let text = try await Asset.load(from: try scratch.write(name, captions))
        var composition = try MutableComposition(asset: video)
        let track = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(text.tracks[0].timeRange, of: text.tracks[0], at: .zero, intoTrackWithID: track)
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.subtitleBurnIn = SubtitleBurnIn(trackID: track, style: style)
        let url = scratch.file("burnt.mp4")
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = url
        session.videoComposition = videoComposition
        try await session.export()
        return try await Readback.frames(of: url, at: frames.map { MediaTime(value: Int64($0), timescale: 30) })
    }

    @Test func aSubRipTrackIsDrawnInTheStyleGiven() async throws {
        // One cue 0.500–1.500 s: frames 15 ... 44 at 30 fps. Yellow, 48 px, at the top 20 px from the edge.
        let style = SubtitleStyle(fontSize: 48, color: .yellow, outlineWidth: 3, position: .top, margin: 20)
        let frames = try await Self.burn("1\n00:00:00,500 --> 00:00:01,500\nHELLO\n", name: "captions.srt", style: style,
                                         frames: [14, 15, 44, 45])
        for (index, frame) in zip([14, 15, 44, 45], frames) {
            // The text's height is about the font size: rows 20 ..< 68 hold it, and nothing is drawn below row 120.
            let top = Self.count(in: frame, rows: 0..<120, where: Self.isYellow)
            let below = Self.count(in: frame, rows: 120..<frame.height) { r, g, b in r > 60 || g > 60 || b > 60 }
            #expect(below == 0, "frame \(index): \(below) lit pixels below the cue's box")
            if index == 15 || index == 44 {
                #expect(top > 400, "frame \(index): \(top) yellow pixels at the top")
                let rows = (0..<120).filter { y in (0..<frame.width).contains { x in
                    frame.pixel(x: x, y: y).map { Self.isYellow(Int($0.red), Int($0.green), Int($0.blue)) } ?? false } }
                #expect((rows.first ?? 0) >= 20 && (rows.last ?? 0) < 20 + 48, "frame \(index): yellow rows \(rows.first ?? -1)...\(rows.last ?? -1)")
            } else {
                #expect(top == 0, "frame \(index): \(top) yellow pixels outside the cue's time")
            }
        }
    }

    @Test func anASSTrackKeepsItsOwnStyleOverTheStyleGiven() async throws {
        // The ASS style: red, 40 on a script as large as the picture, top centre (alignment 8). The style given (yellow, bottom) is
        // for cues without a style and is ignored.
        let ass = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 320
            PlayResY: 240

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Top,DejaVu Sans,40,&H000000FF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,8,10,10,20,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.50,0:00:01.50,Top,,0,0,0,,RED TOP

            """
        let frames = try await Self.burn(ass, name: "styled.ass", style: SubtitleStyle(color: .yellow), frames: [20])
        let frame = try #require(frames.first)
        let red = Self.count(in: frame, rows: 0..<120, where: Self.isRed)
        let yellow = Self.count(in: frame, rows: 0..<frame.height, where: Self.isYellow)
        let lower = Self.count(in: frame, rows: 120..<frame.height) { r, g, b in r > 60 || g > 60 || b > 60 }
        #expect(red > 300, "\(red) red pixels at the top")
        #expect(yellow == 0 && lower == 0, "\(yellow) yellow pixels, \(lower) lit pixels below the top")
    }

    /// The lit pixels of the bottom third of `frame`, as a mask.
    static func ink(_ frame: VideoFrame) -> [[Bool]] {
        (frame.height * 2 / 3..<frame.height).map { y in
            (0..<frame.width).map { x in frame.pixel(x: x, y: y).map { Int($0.red) > 128 } ?? false }
        }
    }

    /// Pixels lit in one mask and not the other.
    static func difference(_ a: [[Bool]], _ b: [[Bool]]) -> Int {
        zip(a, b).reduce(0) { total, rows in total + zip(rows.0, rows.1).filter { $0 != $1 }.count }
    }

    @Test func chineseAndArabicCuesAreDrawnAsTheirGlyphsNotBoxes() async throws {
        guard TextFontFallbackTests.wqyFile != nil else {
            print("SubtitleBurnInStyleTests: skipped the CJK burn-in test: no CJK font; run ./scripts/setup (scripts/packages/fonts.list) to enable it")
            return
        }
        // Two characters of each script that a box would draw alike (ب and ت differ only in their dots), and two
        // private-use characters no font has, which are drawn alike: the check tells glyphs from boxes.
        let cues = ["标", "题", "ب", "ت", "\u{E000}", "\u{E001}"]
        func stamp(_ milliseconds: Int) -> String { String(format: "00:00:%02d,%03d", milliseconds / 1000, milliseconds % 1000) }
        let srt = cues.enumerated().map { index, text in
            "\(index + 1)\n\(stamp(index * 300)) --> \(stamp(index * 300 + 300))\n\(text)\n"
        }.joined(separator: "\n")
        // Each cue's middle frame: 0.15 s, 0.45 s, … at 30 fps.
        let frames = try await Self.burn(srt, name: "scripts.srt", style: SubtitleStyle(fontSize: 64), frames: [4, 13, 22, 31, 40, 49])
        let masks = frames.map(Self.ink)
        for (mask, text) in zip(masks, cues.prefix(4)) {
            let lit = mask.reduce(0) { $0 + $1.filter { $0 }.count }
            #expect(lit > 150, "'\(text)': \(lit) lit pixels")
        }
        #expect(Self.difference(masks[0], masks[1]) > 200, "标 and 题 differ: \(Self.difference(masks[0], masks[1])) pixels")
        #expect(Self.difference(masks[2], masks[3]) > 40, "ب and ت differ: \(Self.difference(masks[2], masks[3])) pixels")
        #expect(Self.difference(masks[4], masks[5]) < 20, "two missing characters draw alike: \(Self.difference(masks[4], masks[5])) pixels")
    }

    @Test func aStyleWithoutASizeIsRefusedByName() async throws {
        let scratch = try ScratchDirectory("burn-in-style")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(500), in: scratch.url, name: "clip")
        let text = try await Asset.load(from: try scratch.write("c.srt", "1\n00:00:00,100 --> 00:00:00,400\nHi\n"))
        var composition = try MutableComposition(asset: video)
        let track = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(text.tracks[0].timeRange, of: text.tracks[0], at: .zero, intoTrackWithID: track)
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.subtitleBurnIn = SubtitleBurnIn(trackID: track, style: SubtitleStyle(fontSize: 0))
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = scratch.file("refused.mp4")
        session.videoComposition = videoComposition
        await #expect(throws: ExportError.invalidComposition("subtitleBurnIn.style: fontSize 0.0 must be above 0 pixels")) {
            try await session.validate()
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("refused.mp4").path))
    }
}
