import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// A title mixing Latin, Chinese, Cyrillic and Arabic: no one installed font has them all, so it
/// is drawn in runs, each in the first font of fontconfig's fallback order for the family that has its characters
/// (DejaVu Sans for Latin, Cyrillic and Arabic, WenQuanYi Micro Hei for Chinese), side by side on one baseline,
/// the whole line placed by the single-font rules.
///
/// Needs scripts/packages/fonts.list (DejaVu Sans and WenQuanYi Micro Hei); without the CJK font the suite prints one
/// line saying so and how to install it.
@Suite("Text overlays: a title in several scripts")
struct TextMixedScriptTests {
    static let band = Rect(x: 0, y: 80, width: 320, height: 80)
    static let fontSize = 32.0

    /// The band's ink mask (rows of 320), true where the picture is clearly lighter than the blue canvas.
    static func ink(_ text: String, family: String = "DejaVu Sans", fontFile: String? = nil, frame: Rect = band,
                    alignment: TextLayerContent.Alignment = .center) async throws -> [[Bool]] {
        let composition = try await OverlayRenderingTests.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        let content = TextLayerContent(string: text, fontFile: fontFile.map { URL(fileURLWithPath: $0) }, fontFamily: family,
                                       fontSize: fontSize, color: .white, alignment: alignment)
        video.overlays = [OverlayLayer(content: .text(content), frame: frame, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        let picture = try await OverlayRenderingTests.picture(composition, video)
        return (Int(band.minY)..<Int(band.maxY)).map { y in (0..<320).map { x in (picture.pixel(x: x, y: y)?.red ?? 0) > 128 } }
    }

    /// The fraction of pixels in `columns` inked in `a` and not in `b` (or the reverse), `b` shifted down by `dy`.
    static func difference(_ a: [[Bool]], _ b: [[Bool]], columns: Range<Int>, dy: Int = 0) -> Double {
        var differing = 0, count = 0
        for y in a.indices {
            for x in columns {
                let other = b.indices.contains(y - dy) ? b[y - dy][x] : false
                if a[y][x] != other { differing += 1 }
                count += 1
            }
        }
        return Double(differing) / Double(max(count, 1))
    }

    static func inked(_ mask: [[Bool]], columns: Range<Int>) -> Double {
        let count = mask.reduce(0) { total, row in total + columns.filter { row[$0] }.count }
        return Double(count) / Double(max(mask.count * columns.count, 1))
    }

    /// The lowest inked row in `columns`, or nil.
    static func bottom(_ mask: [[Bool]], columns: Range<Int>) -> Int? {
        mask.indices.last { y in columns.contains { mask[y][$0] } }
    }

    @Test func aTitleInFourScriptsIsDrawnRunByRunOnOneBaseline() async throws {
        guard let wqy = TextFontFallbackTests.wqyFile else {
            print("TextMixedScriptTests: skipped: no CJK font; run ./scripts/setup (scripts/packages/fonts.list) to enable it")
            return
        }
        let dejaVu = try TextFontFallbackTests.dejaVuFile
        let title = "Ab 标题 Жж بت"
        // The runs: each text (logical order) with its font, as fontconfig's order for DejaVu Sans gives them.
        guard case .runs(let layout) = try FontResolver.font(family: "DejaVu Sans", text: title, fontSize: Self.fontSize) else {
            Issue.record("a title no one font covers is drawn in runs")
            return
        }
        let expected = [("Ab ", dejaVu), ("标题 ", wqy), ("Жж بت", dejaVu)]
        #expect(layout.runs.map(\.fontFile) == expected.map(\.1))
        #expect(layout.runs.count == 3)
        guard layout.runs.count == 3 else { return }
        // Side by side in text order: each run starts where the previous one's advance ends, none overlaps.
        #expect(layout.runs.map(\.x) == [0, layout.runs[0].width, layout.runs[0].width + layout.runs[1].width])
        #expect(layout.runs.allSatisfy { $0.width > 0 && $0.line == 0 })
        #expect(layout.width == layout.runs.reduce(0) { $0 + $1.width })
        // The line is centred as one drawtext's text_w would be: x = trunc(0 + (320 - text_w) / 2).
        let blockX = (320 - layout.width) / 2

        let mixed = try await Self.ink(title)
        var bottoms: [Int] = []
        for (run, (text, font)) in zip(layout.runs, expected) {
            let x = blockX + run.x, columns = x..<(x + run.width)
            #expect(Self.inked(mixed, columns: columns) > 0.02, "'\(text)' has ink in its columns \(columns)")
            // The run alone, drawn by one drawtext with its own font from the same x: the same ink in its columns,
            // lifted or lowered to the shared baseline.
            let alone = try await Self.ink(text, fontFile: font, frame: Rect(x: Double(x), y: 80, width: Double(320 - x), height: 80), alignment: .left)
            let best = (-15...15).min { Self.difference(mixed, alone, columns: columns, dy: $0) < Self.difference(mixed, alone, columns: columns, dy: $1) } ?? 0
            let difference = Self.difference(mixed, alone, columns: columns, dy: best)
            #expect(difference < 0.005, "'\(text)' in columns \(columns) is its font's glyphs (difference \(difference) at dy \(best))")
            if font == wqy {
                // Not boxes: DejaVu Sans's .notdef boxes at the same place differ from the drawn run.
                let boxes = try await Self.ink(text, fontFile: dejaVu,
                                               frame: Rect(x: Double(x), y: 80, width: Double(320 - x), height: 80), alignment: .left)
                let fromBoxes = (-15...15).map { Self.difference(mixed, boxes, columns: columns, dy: $0) }.min() ?? 0
                #expect(fromBoxes > 0.03, "'\(text)' is not drawn as .notdef boxes (difference \(fromBoxes))")
            }
            // Baseline: the lowest ink of "Ab" and of "Жж" (flat bottoms on the baseline; the Arabic after it has
            // dots below, so only the run's first 40 % counts).
            if font != wqy, let bottom = Self.bottom(mixed, columns: x..<(x + run.width * 2 / 5)) { bottoms.append(bottom) }
        }
        #expect(bottoms.count == 2 && (bottoms.max() ?? 0) - (bottoms.min() ?? 0) <= 1, "Latin and Cyrillic share the baseline: bottom rows \(bottoms)")
        // The whole line's ink is centred in the frame (within the side bearings).
        let inkedColumns = (0..<320).filter { x in mixed.contains { $0[x] } }
        let centre = Double((inkedColumns.first ?? 0) + (inkedColumns.last ?? 0)) / 2
        #expect(abs(centre - 160) <= 4, "ink centred: columns \(inkedColumns.first ?? -1)...\(inkedColumns.last ?? -1)")
        // Vertically: the ink stays inside the band and is centred in it within a few pixels.
        let inkedRows = mixed.indices.filter { mixed[$0].contains(true) }
        let middle = Double((inkedRows.first ?? 0) + (inkedRows.last ?? 0)) / 2
        #expect(abs(middle - 40) <= 6, "ink centred vertically: rows \(inkedRows.first ?? -1)...\(inkedRows.last ?? -1) of 80")
    }

    /// The family is honoured first: with "WenQuanYi Micro Hei" the same title's Latin letters are drawn by the CJK
    /// font (which has them) and only the Arabic falls back to DejaVu Sans.
    @Test func theFamilyDrawsEveryCharacterItHas() throws {
        // The documentation says the linked libavfilter has libass's filters, and why Splice does not use them.
        #expect(MediaLibrary.hasFilter(named: "ass") && MediaLibrary.hasFilter(named: "subtitles"))
        guard let wqy = TextFontFallbackTests.wqyFile else {
            print("TextMixedScriptTests: skipped: no CJK font; run ./scripts/setup (scripts/packages/fonts.list) to enable it")
            return
        }
        let dejaVu = try TextFontFallbackTests.dejaVuFile
        guard case .runs(let layout) = try FontResolver.font(family: "WenQuanYi Micro Hei", text: "Ab 标题 بت", fontSize: 32) else {
            Issue.record("Arabic needs another font than WenQuanYi Micro Hei")
            return
        }
        #expect(layout.runs.map(\.fontFile) == [wqy, dejaVu])
        #expect(layout.runs.first?.text == "Ab 标题 ")
        // docs/document-format.md's example: DejaVu Sans draws the Latin and Cyrillic words, the CJK font 标题.
        guard case .runs(let example) = try FontResolver.font(family: "DejaVu Sans", text: "Title 标题 Заголовок", fontSize: 32) else {
            Issue.record("the documentation's example is drawn in runs")
            return
        }
        #expect(example.runs.map(\.fontFile) == [dejaVu, wqy, dejaVu])
        #expect(example.runs.map(\.text) == ["Title ", "标题 ", "Заголовок"])
        // One font for the whole text: one drawtext, the family's own font.
        #expect(try FontResolver.font(family: "DejaVu Sans", text: "Жж ab بت", fontSize: 32) == .file(dejaVu))
    }
}
