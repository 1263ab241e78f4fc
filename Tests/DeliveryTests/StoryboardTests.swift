import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting
import Testing

/// Storyboards and posters of a frame-coded source: frame `n` (10 fps) is grey `4n` all over, so a thumbnail's
/// grey says which frame it shows. Sheets are read back with the `ffmpeg` CLI.
@Suite struct StoryboardTests {
    static let half = MediaTime(value: 1, timescale: 2)

    /// 6 s at 10 fps, 160 × 90, frame n grey (4n, 4n, 4n), lossless.
    static func frameCoded(in scratch: ScratchDirectory) async throws -> MutableComposition {
        let url = scratch.file("framecode.mkv")
        try SyntheticMedia.write(video: "color=black:s=160x90:r=10,format=gbrp,geq=r='4*N':g='4*N':b='4*N'", audio: nil,
                                 duration: MediaTime(value: 6, timescale: 1), to: url)
        let asset = try await Asset.load(from: url)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        return composition
    }

    /// `url` decoded by the `ffmpeg` CLI to RGB24: (width, height, bytes).
    static func decode(_ url: URL, width: Int, height: Int) async throws -> [UInt8] {
        let scratch = try ScratchDirectory("decode")
        defer { scratch.remove() }
        let raw = scratch.file("picture.rgb")
        _ = try await SecondReaders.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        let bytes = [UInt8](try BinaryFile.read(raw))
        #expect(bytes.count == width * height * 3, "\(url.lastPathComponent) is not \(width)x\(height)")
        return bytes
    }

    /// The mean grey of the 16 × 16 pixels around (`x`, `y`).
    static func grey(_ bytes: [UInt8], width: Int, x: Int, y: Int) -> Double {
        var sum = 0
        for row in (y - 8)..<(y + 8) {
            for column in (x - 8)..<(x + 8) {
                let i = (row * width + column) * 3
                sum += Int(bytes[i]) + Int(bytes[i + 1]) + Int(bytes[i + 2])
            }
        }
        return Double(sum) / (16 * 16 * 3)
    }

    @Test func tilesShowTheFramesOfTheirTimesAndTheCuesCoverTheDuration() async throws {
        let scratch = try ScratchDirectory("storyboard")
        defer { scratch.remove() }
        let composition = try await Self.frameCoded(in: scratch)
        let generator = StoryboardGenerator(asset: composition,
                                            settings: StoryboardSettings(interval: Self.half, columns: 4, rows: 2, tileWidth: 64))
        let storyboard = try await generator.write(to: scratch.url, name: "board")
        #expect(storyboard.tileSize == Size(width: 64, height: 36))
        #expect(storyboard.tiles.count == 12)
        #expect(storyboard.sheets.map(\.lastPathComponent) == ["board-0.jpg", "board-1.jpg"])
        #expect(scratch.contents == ["board-0.jpg", "board-1.jpg", "board.vtt", "framecode.mkv"])

        let probe = try await SecondReaders.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height",
                                                            "-of", "csv=p=0", storyboard.sheets[1].path])
        #expect(probe.output == "mjpeg,256,72\n")
        for (sheetIndex, sheet) in storyboard.sheets.enumerated() {
            let bytes = try await Self.decode(sheet, width: 256, height: 72)
            for place in 0..<8 {
                let index = sheetIndex * 8 + place
                let measured = Self.grey(bytes, width: 256, x: (place % 4) * 64 + 32, y: (place / 4) * 36 + 18)
                // Tile i shows the picture at i × 0.5 s: frame 5i, grey 20i; an unused place is black.
                let expected = index < 12 ? Double(20 * index) : 0
                #expect(abs(measured - expected) <= 3, "sheet \(sheetIndex) place \(place): grey \(measured), expected \(expected)")
            }
        }

        var expected = "WEBVTT\n"
        for index in 0..<12 {
            let start = index * 500, end = (index + 1) * 500
            func stamp(_ ms: Int) -> String { String(format: "00:00:%02d.%03d", ms / 1000, ms % 1000) }
            expected += "\n\(stamp(start)) --> \(stamp(end))\nboard-\(index / 8).jpg#xywh=\((index % 8) % 4 * 64),\((index % 8) / 4 * 36),64,36\n"
        }
        #expect(try TextFile.read(storyboard.webVTT) == expected)
    }

    @Test func cuesEndAtTheDurationWhenTheIntervalDoesNotDivideIt() async throws {
        let scratch = try ScratchDirectory("storyboard")
        defer { scratch.remove() }
        let composition = try await Self.frameCoded(in: scratch)
        let seventh = MediaTime(value: 7, timescale: 10)
        let ranges = try StoryboardGenerator(asset: composition, settings: StoryboardSettings(interval: seventh)).tileTimeRanges()
        #expect(ranges.count == 9)  // 0, 0.7, …, 5.6
        #expect(ranges.first?.start == .zero)
        #expect(ranges.last?.end == MediaTime(value: 6, timescale: 1))
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(earlier.end == later.start) }
        // The written track: 9 cues tiling 0…6 s without a gap, the last one ending at the duration.
        let written = try await StoryboardGenerator(asset: composition, settings: StoryboardSettings(interval: seventh, tileWidth: 32))
            .write(to: scratch.url, name: "sevenths")
        let cues = try TextFile.read(written.webVTT).split(separator: "\n").filter { $0.contains(" --> ") }
            .map { $0.components(separatedBy: " --> ") }
        #expect(cues.count == 9)
        #expect(cues.first?.first == "00:00:00.000")
        #expect(cues.last?.last == "00:00:06.000")
        #expect(cues.map { $0[0] }.dropFirst() == cues.map { $0[1] }.dropLast(), "each cue starts where the previous ends: \(cues)")
        #expect(cues.dropLast().last?.last == "00:00:05.600")
        #expect(StoryboardGenerator.timestamp(MediaTime(value: 1, timescale: 3)) == "00:00:00.333")
        #expect(StoryboardGenerator.timestamp(MediaTime(value: 3_723_500, timescale: 1000)) == "01:02:03.500")
    }

    @Test func badSettingsAndExistingFilesAreRefusedBeforeRendering() async throws {
        let scratch = try ScratchDirectory("storyboard")
        defer { scratch.remove() }
        let composition = try await Self.frameCoded(in: scratch)
        for settings in [StoryboardSettings(interval: .zero), StoryboardSettings(columns: 0), StoryboardSettings(rows: 65),
                         StoryboardSettings(tileWidth: 15), StoryboardSettings(tileWidth: 161)] {
            await #expect(throws: StoryboardError.self) {
                try await StoryboardGenerator(asset: composition, settings: settings).write(to: scratch.url)
            }
        }
        _ = try scratch.write("storyboard.vtt", "taken")
        await #expect(throws: StoryboardError.outputFileExists(scratch.file("storyboard.vtt"))) {
            try await StoryboardGenerator(asset: composition).write(to: scratch.url)
        }
        #expect(scratch.contents == ["framecode.mkv", "storyboard.vtt"])
        await #expect(throws: StoryboardError.noVideo) {
            try await StoryboardGenerator(asset: MutableComposition()).write(to: scratch.url, name: "empty")
        }
    }

    @Test func posterIsTheFrameOfItsTime() async throws {
        let scratch = try ScratchDirectory("poster")
        defer { scratch.remove() }
        let composition = try await Self.frameCoded(in: scratch)
        let generator = StoryboardGenerator(asset: composition)
        let time = MediaTime(value: 5, timescale: 2)  // frame 25: grey 100
        try await generator.writePoster(at: time, to: scratch.file("poster.jpg"))
        try await generator.writePoster(at: time, to: scratch.file("poster.png"), maximumSize: Size(width: 80, height: 80))
        let jpeg = try await Self.decode(scratch.file("poster.jpg"), width: 160, height: 90)
        #expect(abs(Self.grey(jpeg, width: 160, x: 80, y: 45) - 100) <= 2)
        // 160 × 90 fitted into 80 × 80: 80 × 45, rounded to even sizes as the export's maximumSize rounds them.
        let png = try await Self.decode(scratch.file("poster.png"), width: 80, height: 46)
        #expect(Self.grey(png, width: 80, x: 40, y: 23) == 100)
        await #expect(throws: StoryboardError.unsupportedImageType(scratch.file("poster.gif"))) {
            try await generator.writePoster(at: time, to: scratch.file("poster.gif"))
        }
        await #expect(throws: StoryboardError.outputFileExists(scratch.file("poster.jpg"))) {
            try await generator.writePoster(at: time, to: scratch.file("poster.jpg"))
        }
    }
}
