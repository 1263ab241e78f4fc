import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Text in other scripts: a character the family's font lacks is drawn with the first font in
/// fontconfig's fallback order that has it, not as the `.notdef` box; no font at all is a typed error; Arabic is
/// shaped and laid right to left by FFmpeg 5.1's `drawtext` (`text_shaping`, through libfribidi). Texts that need
/// several fonts: TextMixedScriptTests and TextRunLayoutTests.
///
/// Needs scripts/packages/fonts.list (DejaVu Sans and WenQuanYi Micro Hei); without a CJK font the CJK test prints
/// one line saying so and how to install it.
@Suite("Text overlays: font fallback and scripts")
struct TextFontFallbackTests {
    /// DejaVu Sans's file, as fontconfig finds it; a test that needs it and finds none fails saying so.
    static var dejaVuFile: String {
        get throws {
            try #require(dejaVuFound, "fontconfig finds no DejaVu Sans: run ./scripts/setup (scripts/packages/fonts.list)")
        }
    }
    private static let dejaVuFound = SystemFont.file(family: "DejaVu Sans")
    /// WenQuanYi Micro Hei's file (a CJK font), as fontconfig finds it, or nil when it is not installed.
    static let wqyFile = SystemFont.file(family: "WenQuanYi Micro Hei")
    static let band = Rect(x: 0, y: 80, width: 320, height: 80)

    /// The band's ink mask: true where the picture is clearly lighter than the blue canvas (white text).
    static func ink(_ text: String, family: String = "DejaVu Sans", fontFile: URL? = nil) async throws -> [Bool] {
        let composition = try await OverlayRenderingTests.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        let content = TextLayerContent(string: text, fontFile: fontFile, fontFamily: family, fontSize: 48, color: .white)
        video.overlays = [OverlayLayer(content: .text(content), frame: band, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        let frame = try await OverlayRenderingTests.picture(composition, video)
        var mask: [Bool] = []
        for y in Int(band.minY)..<Int(band.maxY) {
            for x in Int(band.minX)..<Int(band.maxX) { mask.append((frame.pixel(x: x, y: y)?.red ?? 0) > 128) }
        }
        return mask
    }

    /// The fraction of pixels inked in one mask and not the other.
    static func difference(_ a: [Bool], _ b: [Bool]) -> Double {
        Double(zip(a, b).filter { $0 != $1 }.count) / Double(max(a.count, 1))
    }

    static func inked(_ mask: [Bool]) -> Double { Double(mask.filter { $0 }.count) / Double(max(mask.count, 1)) }

    @Test func chineseIsDrawnWithAFontThatHasItNotAsBoxes() async throws {
        guard Self.wqyFile != nil else {
            print("TextFontFallbackTests: skipped the CJK fallback test: no CJK font; run ./scripts/setup (scripts/packages/fonts.list) to enable it")
            return
        }
        // The .notdef reference: DejaVu Sans's own file, used as given, has no CJK glyphs — both characters are the
        // same box.
        let dejaVu = URL(fileURLWithPath: try Self.dejaVuFile)
        let boxBiao = try await Self.ink("标", fontFile: dejaVu)
        let boxTi = try await Self.ink("题", fontFile: dejaVu)
        #expect(Self.difference(boxBiao, boxTi) == 0, "two .notdef boxes are the same picture")
        #expect(Self.inked(boxBiao) > 0.005)
        // The family "DejaVu Sans" falls back to a font that has them: two different glyphs, neither the box.
        let biao = try await Self.ink("标", family: "DejaVu Sans"), ti = try await Self.ink("题", family: "DejaVu Sans")
        #expect(Self.inked(biao) > 0.01 && Self.inked(ti) > 0.01, "ink \(Self.inked(biao)), \(Self.inked(ti))")
        #expect(Self.difference(biao, boxBiao) > 0.01, "标 differs from the .notdef box: \(Self.difference(biao, boxBiao))")
        #expect(Self.difference(biao, ti) > 0.01, "标 and 题 are different glyphs: \(Self.difference(biao, ti))")
        // Mixed text: the Latin letters are drawn too, in their own font (more ink than the CJK alone).
        let mixed = try await Self.ink("Title 标题", family: "DejaVu Sans")
        #expect(Self.inked(mixed) > Self.inked(biao) + Self.inked(ti))
    }

    @Test func aCharacterNoFontHasIsATypedErrorNamingIt() async throws {
        let composition = try await OverlayRenderingTests.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        let content = TextLayerContent(string: "A\u{10FFFD}B", fontFamily: "DejaVu Sans", fontSize: 24)
        video.overlays = [OverlayLayer(content: .text(content), frame: Self.band, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        await #expect(throws: ExportError.noFontForCharacter(character: "'\u{10FFFD}' (U+10FFFD)", text: "A\u{10FFFD}B", family: "DejaVu Sans")) {
            _ = try await OverlayRenderingTests.picture(composition, video)
        }
    }

    /// FFmpeg 5.1's drawtext shapes Arabic with libfribidi (`text_shaping`, on by default when FFmpeg is built with
    /// it, as Debian's is): "بب" (two beh) is drawn with the joined initial and final forms (U+FE91 U+FE90), not two
    /// isolated ones (U+FE8F), and laid out right to left like them.
    @Test func arabicIsShapedAndRightToLeft() async throws {
        let shaped = try await Self.ink("بب")
        let joinedForms = try await Self.ink("\u{FE91}\u{FE90}")
        let isolatedForms = try await Self.ink("\u{FE8F}\u{FE8F}")
        #expect(Self.inked(shaped) > 0.003)
        #expect(Self.difference(shaped, joinedForms) < 0.001, "shaped like the joined forms: \(Self.difference(shaped, joinedForms))")
        #expect(Self.difference(shaped, isolatedForms) > 0.003, "not the isolated forms: \(Self.difference(shaped, isolatedForms))")
        // Right to left within an Arabic run: "اد" (alef, then dal; neither joins the next letter) is drawn dal on the
        // left, alef on the right — the same picture as their isolated forms forced left to right (U+202D … U+202C).
        let reversed = try await Self.ink("اد"), forced = try await Self.ink("\u{202D}\u{FEA9}\u{FE8D}\u{202C}")
        let logical = try await Self.ink("\u{202D}\u{FE8D}\u{FEA9}\u{202C}")
        #expect(Self.difference(reversed, forced) < 0.001, "visual order dal, alef: \(Self.difference(reversed, forced))")
        #expect(Self.difference(reversed, logical) > 0.003)
        // The paragraph itself is always left to right in FFmpeg 5.1 (drawtext fixes FRIBIDI_PAR_LTR): in "بx" the
        // Arabic run stays on the left of the Latin one, where an RTL paragraph would put it on the right.
        let arabicFirst = try await Self.ink("بx"), latinFirst = try await Self.ink("xب")
        #expect(Self.difference(arabicFirst, latinFirst) > 0.003)
    }
}
