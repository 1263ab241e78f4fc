import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// Reviewed goldens for the rest of the transitions catalogue: one style per `xfade` family beyond the wipe, circle,
/// fade and fade through black of ``TransitionReviewedGoldenTests``, in the same scene (the quadrants picture —
/// red, green / blue, white — into solid blue over [1 s, 2 s), the frame at 1.5 s: p = 0.5), each with its
/// analytic check beside it: every 8th pixel against `vf_xfade.c`'s definition (``XfadeReference``, with the
/// quadrants picture read where the style reads it), pixels near an edge of the definition skipped.
///
/// What each golden (`Fixtures/goldens/transition-<name>-50.png`) shows, as reviewed:
/// - `wipetl` (corner wipes): the top-left quarter-size box of the picture (its red quadrant, 160 × 120) kept,
///   blue everywhere else.
/// - `diagtl` (diagonals): the quadrants, fully kept at the top and left edges, fading into blue towards the
///   bottom-right corner (blue's weight `smoothstep(x/w · y/h)`: soft hyperbolic bands); the white quadrant shows it
///   best, pale at its top-left, blue at the corner.
/// - `slideleft` (slide / push): the picture pushed half-way out to the left — its right half (green over white)
///   on the left half of the frame, blue on the right half.
/// - `smoothleft` (smooth wipes): a horizontal gradient — the quadrants kept at the left edge, fading smoothly
///   into blue at the right edge (blue's weight `smoothstep(x/w)`).
/// - `circleclose` (shapes, closing): the quadrants inside a soft-edged disc at the centre, blue outside it.
/// - `vertopen` (bands, opening): blue down a soft vertical band at the centre, the quadrants left and right.
/// - `horzclose` (bands, closing): the quadrants in a soft horizontal band through the middle, blue above and below.
/// - `dissolve` (noise): a per-pixel random mix, about half quadrants and half blue pixels (checked as 8 × 8 block
///   means against the definition's mean).
/// - `zoomin` (zoom): the outgoing picture zoomed all the way in about its centre (xfade's zoom factor is 0 at
///   p = 0.5), not yet faded: the whole frame one pale cyan, (226, 255, 253) — the centre pixel, white, with the
///   chroma 4:2:0 blends in from the green quadrant beside it.
/// - `fadewhite` (fades through white): one uniform lavender, about (172, 172, 255): the quadrants are fully
///   faded to white at p = 0.5 (xfade's first stage, `smoothstep(0.8, 1, q)` = 0) and the second stage has mixed in
///   about a third of blue.
/// - `pixelize` (pixelize): the quadrants as 12-pixel squares sampled at their centres, each mixed half and half
///   with blue (purple, teal, blue, lavender); the squares are invisible inside a quadrant, but the vertical split
///   moved to x = 156, where the square 156 … 167 samples x = 162 (green/white).
/// - `radial` (radial): a clock-hand sweep about the centre — the left half still the quadrants (red over blue),
///   the right half swept to blue, with a soft white-to-blue wedge just right of straight down from the centre
///   (blue's weight `smoothstep(atan2(x − w/2, y − h/2))`).
/// - `hlslice` (slices): vertical slats — on the left the quadrants (red) cut by blue slats that widen to the right,
///   a few thin slats of green/white and a one-pixel line near x = 222, then all blue.
/// - `squeezeh` (squeeze): the quadrants squeezed to the middle half of the frame's height (rows 60 … 180), blue
///   above and below.
@Suite("Transitions: reviewed goldens, every family")
struct TransitionFamilyGoldenTests {
    typealias S = GoldenScenario
    static let w = S.canvas.width, h = S.canvas.height
    static let styles: [VideoTransitionStyle] = [
        .wipeTopLeft, .diagonalTopLeft, .slideLeft, .smoothLeft, .circleClose, .vertOpen, .horzClose, .dissolve, .zoomIn,
        .fadeWhite, .pixelize, .radial, .horizontalLeftSlice, .squeezeHorizontal,
    ]

    /// The quadrants picture's colour at pixel (x, y).
    static func quadrant(_ x: Int, _ y: Int) -> RGB? {
        Pictures.quadrants(S.canvas)(Point(x: Double(x), y: Double(y)))
    }

    /// The quadrants picture's colour at (x, y), nil within 3 pixels of a quadrant edge, where the canvas's 4:2:0
    /// chroma blends the two sides: a style that reads the outgoing picture there (pixelize's block centres) is not
    /// checked at that pixel.
    static func quadrantAwayFromEdges(_ x: Int, _ y: Int) -> RGB? {
        guard abs(x - w / 2) > 3, abs(y - h / 2) > 3 else { return nil }
        return quadrant(x, y)
    }

    /// The definition's colour at (x, y), p = 0.5 (the zoom is checked apart: ``expectUniformCentreColour(_:)``).
    static func expected(_ style: VideoTransitionStyle, _ x: Int, _ y: Int) -> RGB? {
        guard x >= 0, y >= 0, x < w, y < h else { return nil }
        return XfadeReference.colour(style, x: x, y: y, w: w, h: h, p: 0.5, picture: quadrantAwayFromEdges,
                                     b: TransitionReviewedGoldenTests.incoming)
    }

    @Test("every other xfade family at 50 %: golden and definition", arguments: styles)
    func halfwayMatchesGoldenAndDefinition(_ style: VideoTransitionStyle) async throws {
        let scratch = try ScratchDirectory("transition-family")
        defer { scratch.remove() }
        let frame = try await TransitionReviewedGoldenTests.render(style, in: scratch)
        S.expectGolden(frame, "transition-\(style.rawValue)-50")
        if style == .dissolve { return expectDissolveClassesMatch(frame) }
        if style == .zoomIn { return expectUniformCentreColour(frame) }
        var checked = 0, wrong: [String] = []
        for y in stride(from: 4, to: Self.h, by: 8) {
            for x in stride(from: 4, to: Self.w, by: 8) {
                guard let want = Self.expected(style, x, y), let got = frame.rgb(x, y) else { continue }
                // Skip pixels within 6 of an edge of the definition (4:2:0 chroma, resampled, blends across it),
                // thin slats included: every pixel up to 6 away along each axis, none of them unmodelled (nil).
                let offsets = (-6...6).flatMap { [(x + $0, y), (x, y + $0)] }
                let near = offsets.map { Self.expected(style, $0.0, $0.1) }
                if near.contains(where: { $0.map { TransitionGoldenTests.distance($0, want) > 8 } ?? true }) { continue }
                checked += 1
                if TransitionGoldenTests.distance(got, want) > 4 { wrong.append("(\(x), \(y)) \(got) ≠ \(want)") }
            }
        }
        #expect(checked > 150, "\(style.rawValue): only \(checked) pixels away from edges")
        #expect(wrong.count == 0, "\(style.rawValue) at 50 %: \(wrong.count) of \(checked) pixels off: \(wrong.prefix(5))")
    }

    /// The noise dissolve switches single pixels, so 4:2:0 chroma (and the clipping back to RGB) smears their
    /// colour; their luma stays their own. Each pixel is classed as outgoing or incoming by which of the two
    /// colours' luma (BT.709 weights) its own is nearer, and the classes must agree with the definition for at
    /// least 97 % of the pixels.
    func expectDissolveClassesMatch(_ frame: VideoFrame) {
        func luma(_ c: RGB) -> Double { 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue }
        let incoming = TransitionReviewedGoldenTests.incoming
        var agree = 0, total = 0
        for y in 0..<Self.h {
            for x in 0..<Self.w {
                guard let want = Self.expected(.dissolve, x, y), let got = frame.rgb(x, y),
                      let outgoing = Self.quadrant(x, y), outgoing != incoming else { continue }
                let isOutgoing = abs(luma(got) - luma(outgoing)) < abs(luma(got) - luma(incoming))
                total += 1
                if isOutgoing == (want == outgoing) { agree += 1 }
            }
        }
        #expect(total > 50_000)
        #expect(Double(agree) >= 0.97 * Double(total), "dissolve at 50 %: \(agree) of \(total) pixels on the definition's side")
    }

    /// The zoom at p = 0.5 shows one colour everywhere: the outgoing picture's centre pixel as the compositor holds
    /// it (the corner where the four quadrants meet, so 4:2:0 chroma blends white with its green neighbour).
    func expectUniformCentreColour(_ frame: VideoFrame) {
        guard let centre = frame.rgb(Self.w / 2, Self.h / 2) else { return }
        var off = 0
        for y in stride(from: 0, to: Self.h, by: 4) {
            for x in stride(from: 0, to: Self.w, by: 4) where frame.rgb(x, y).map({ TransitionGoldenTests.distance($0, centre) > 1 }) ?? true {
                off += 1
            }
        }
        #expect(off == 0, "zoomin at 50 %: \(off) pixels differ from the centre colour \(centre)")
        #expect(TransitionGoldenTests.distance(centre, .white) <= 40, "zoomin centre \(centre) is not near white")
    }
}
