import Foundation
import Testing
@testable import Export
import Composition
import SpliceFFmpeg

/// A text drawn in font runs is the picture one `drawtext` draws of the whole text: the runs'
/// measurement (FreeType, as drawtext measures), shaping and right-to-left order (libfribidi, as drawtext's
/// `text_shaping`), block placement, background box and opacity. The same font file under two paths forces runs
/// where one font would do, so the two pictures can be compared pixel for pixel.
@Suite("Text overlays: runs laid out as one drawtext")
struct TextRunLayoutTests {
    /// DejaVu Sans's file as fontconfig finds it, and the same file under another path (through its folder's parent):
    /// a different "font" to the run splitter, the same glyphs.
    static func dejaVuPaths() throws -> (file: String, again: String) {
        let file = URL(fileURLWithPath: try TextFontFallbackTests.dejaVuFile)
        let folder = file.deletingLastPathComponent()
        return (file.path, folder.path + "/../" + folder.lastPathComponent + "/" + file.lastPathComponent)
    }

    /// The layer `configuration` draws on a 320x160 canvas: its planes (yuva420p), row by row, `width` bytes each.
    static func layerPicture(_ configuration: TextOverlayConfiguration) throws -> [[UInt8]] {
        let canvas = Size(width: 320, height: 160)
        let layer = try #require(try configuration.layer(canvas: canvas, frameRate: AVRationalKey(num: 25, den: 1)))
        let graph = try FilterGraph(description: layer.chain + "[out]", sources: [], sinkLabels: ["out"], sinkIsAudio: [false])
        let frame = try Frame()
        #expect(try graph.pull(from: 0, into: frame) == .frame)
        var planes: [[UInt8]] = []
        for plane in 0..<4 {
            guard let data = frame.plane(plane) else { break }
            let chroma = plane == 1 || plane == 2
            let width = chroma ? (frame.width + 1) / 2 : frame.width, height = chroma ? (frame.height + 1) / 2 : frame.height
            var bytes: [UInt8] = []
            for row in 0..<height { bytes += UnsafeBufferPointer(start: data + row * frame.bytesPerRow(ofPlane: plane), count: width) }
            planes.append(bytes)
        }
        return planes
    }

    /// `text` split into runs that alternate between the two paths of DejaVu Sans at every space (the space stays with
    /// the word before it), in visual order as drawtext draws it.
    static func alternatingLayout(_ text: String, fontSize: Double) throws -> TextLayout {
        let (dejaVu, dejaVuAgain) = try dejaVuPaths()
        var useSecond = false
        let visual = TextShaping.visual(text.unicodeScalars.map(\.value)).map { glyph -> (code: UInt32, file: String) in
            defer { if glyph.code == 0x20 { useSecond.toggle() } }
            return (glyph.code, useSecond ? dejaVuAgain : dejaVu)
        }
        return try TextLayout(visual: visual, fontSize: fontSize, text: text)
    }

    static func compare(_ text: String, alignment: String, background: RenderColor?, opacity: Double, frame: Rect) throws {
        let layout = try alternatingLayout(text, fontSize: 27)
        #expect(Set(layout.runs.map(\.fontFile)).count == 2, "the text is drawn in runs of both paths")
        func configuration(_ font: FontChoice) -> TextOverlayConfiguration {
            let style = TextStyle(text: text, font: font, alignment: alignment, fontSize: 27,
                                  color: RenderColor(red: 1, green: 0.9, blue: 0.2, alpha: 1), background: background, padding: 5)
            return TextOverlayConfiguration(style: style, frame: frame, opacity: opacity)
        }
        let one = try layerPicture(configuration(.file(try dejaVuPaths().file))), runs = try layerPicture(configuration(.runs(layout)))
        #expect(one.count == 4 && runs.count == 4)
        for (plane, (a, b)) in zip(one, runs).enumerated() {
            let differing = zip(a, b).filter { $0 != $1 }.count
            let largest = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(differing == 0, "'\(text)' \(alignment): plane \(plane) differs in \(differing) bytes (largest \(largest))")
        }
        // The runs path draws something: the picture is not the empty canvas.
        #expect(one[3].contains { $0 > 100 }, "ink or box is drawn")
    }

    @Test(arguments: ["left", "center", "right"])
    func latinRunsAreTheSinglePicture(alignment: String) throws {
        try Self.compare("Ab Wörld, gyp Vo", alignment: alignment, background: nil, opacity: 1, frame: Rect(x: 12, y: 30, width: 290, height: 90))
    }

    @Test func multipleLinesBoxAndOpacityAreTheSinglePicture() throws {
        try Self.compare("first line\nand a longer second line", alignment: "center",
                         background: RenderColor(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.8), opacity: 0.7,
                         frame: Rect(x: 7.5, y: 20.25, width: 301, height: 120))
    }

    /// Arabic is shaped and its right-to-left run reversed across the run boundary, as drawtext does for one font.
    @Test func arabicRunsAreShapedAndOrderedAsTheSinglePicture() throws {
        try Self.compare("ab بتث جحخ cd", alignment: "center", background: nil, opacity: 1, frame: Rect(x: 0, y: 30, width: 320, height: 90))
    }

    /// A text wider than its frame: the block starts left of the frame (truncated towards zero, as drawtext does).
    @Test func textWiderThanTheFrameIsTheSinglePicture() throws {
        try Self.compare("overflowing text is clipped here", alignment: "center", background: nil, opacity: 1,
                         frame: Rect(x: 40, y: 30, width: 150, height: 60))
    }
}
