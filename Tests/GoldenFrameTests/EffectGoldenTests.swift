import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// Built-in layer effects, known inputs to known outputs: each effect's frame (through the image generator, the
/// export's compositor) checked against the FFmpeg filter's own formula on exact synthetic sources (grey bands,
/// colour quadrants, a hard edge), plus a lossless export that must equal the image generator frame for frame.
@Suite("Effects: pixels against the filters' formulas")
struct EffectGoldenTests {
    typealias S = GoldenScenario
    static let w = S.canvas.width, h = S.canvas.height

    /// 16 grey bands 20 pixels wide, R = G = B = 17·band, stored as the canvas's own 4:2:0 BT.709 so it passes
    /// into the effects untouched.
    static func greyBands(_ scratch: ScratchDirectory) async throws -> Asset {
        let value = "floor(X/20)*17"
        return try await SyntheticMedia.makeAsset(
            video: SyntheticSource(
                description: "color=c=black:s=\(w)x\(h):r=30,format=gbrp,geq=r='\(value)':g='\(value)':b='\(value)'",
                mediaType: .video),
            duration: MediaTime(seconds: 2), pixelFormat: .yuv420p, in: scratch.url, name: "bands")
    }

    /// A one-layer edit of `asset` with `effects` on its layer.
    static func edit(_ asset: Asset, _ configure: (inout VideoCompositionLayerInstruction) -> Void)
        throws -> (MutableComposition, MutableVideoComposition) {
        let (composition, ids) = try S.composition([.init(asset: asset)])
        var layer = VideoCompositionLayerInstruction(trackID: ids[0])
        configure(&layer)
        let video = S.videoComposition([layer])
        #expect(video.validate(for: composition).isEmpty)
        return (composition, video)
    }

    /// The luma code value a grey RGB pixel of the canvas shows (BT.709 limited: Y = 16 + 219·v/255).
    static func luma(_ rgb: RGB) -> Double { 16 + (rgb.red + rgb.green + rgb.blue) / 3 * 219 / 255 }

    /// The grey RGB value of luma code `y` (clipped as the RGB conversion clips).
    static func grey(luma y: Double) -> Double { min(255, max(0, (y - 16) * 255 / 219)) }

    /// FFmpeg 5.1's `eq` on 8-bit luma (vf_eq.c `process_c`, the path for gamma 1 and |contrast| < 7.9, which
    /// the x86 code matches): c = ⌊4096·contrast⌋, b = ⌊(⌊100·brightness + 100⌋·511) / 200⌋ − 128 − c/32,
    /// Y′ = (Y·c >> 12) + b clipped to 0…255 (C's truncating conversions and divisions), with both parameters
    /// rounded to `float` first (vf_eq.c stores them through `av_clipf`: brightness −0.15 gives ⌊84.99999⌋ = 84).
    static func eq(_ y: Int, brightness: Double = 0, contrast: Double = 1) -> Int {
        let c = Int(Double(Float(contrast)) * 256 * 16)
        let b = (Int(100.0 * Double(Float(brightness)) + 100.0) * 511) / 200 - 128 - c / 32
        return min(255, max(0, ((y * c) >> 12) + b))
    }

    /// Every band's centre against eq's table applied to the band's luma without the effect (± 2 levels: the
    /// canvas's YUV → RGB rounding).
    static func expectBands(_ frame: VideoFrame, baseline: VideoFrame, brightness: Double, contrast: Double = 1,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        for band in 0..<16 {
            let x = band * 20 + 10
            let before = try #require(baseline.rgb(x, 120)), after = try #require(frame.rgb(x, 120))
            let y = Int(luma(before).rounded())
            let expected = grey(luma: Double(eq(y, brightness: brightness, contrast: contrast)))
            #expect(abs(after.green - expected) <= 2 && abs(after.red - after.blue) <= 1,
                    "band \(band) (Y \(y)): \(after), expected grey \(expected) ± 2", sourceLocation: sourceLocation)
        }
    }

    @Test func brightnessAndContrastFollowEqOnAGreyRamp() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await Self.greyBands(scratch)
        let (plain, plainVideo) = try Self.edit(asset) { _ in }
        let baseline = try await S.render(plain, plainVideo, at: .zero)
        for (brightness, contrast) in [(0.2, 1.0), (-0.15, 1.0), (0.0, 1.5), (0.1, 0.5)] {
            let (composition, video) = try Self.edit(asset) { layer in
                if brightness != 0 { layer.setEffect(.brightness, brightness, at: .zero) }
                if contrast != 1 { layer.setEffect(.contrast, contrast, at: .zero) }
            }
            let frame = try await S.render(composition, video, at: .zero)
            if brightness != 0 && contrast != 1 {
                // Two eq filters in list order: brightness, then contrast on its result.
                for band in 0..<16 {
                    let x = band * 20 + 10
                    let y = Int(Self.luma(try #require(baseline.rgb(x, 120))).rounded())
                    let expected = Self.grey(luma: Double(Self.eq(Self.eq(y, brightness: brightness), contrast: contrast)))
                    let after = try #require(frame.rgb(x, 120))
                    #expect(abs(after.green - expected) <= 2, "band \(band): \(after), expected \(expected)")
                }
            } else {
                try Self.expectBands(frame, baseline: baseline, brightness: brightness, contrast: contrast)
            }
        }
    }

    /// A brightness ramp 0 → 0.2 over [0, 1 s): at 25, 50 and 75 % the bands follow eq at 0.05, 0.1 and 0.15.
    @Test func keyframedBrightnessRampAtQuarterPoints() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await Self.greyBands(scratch)
        let (plain, plainVideo) = try Self.edit(asset) { _ in }
        let baseline = try await S.render(plain, plainVideo, at: .zero)
        let (composition, video) = try Self.edit(asset) { layer in
            layer.setEffectRamp(.brightness, from: 0, to: 0.2, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        }
        let layer = video.instructions[0].layerInstructions[0]
        for (time, value) in [(MediaTime(value: 1, timescale: 4), 0.05), (MediaTime(value: 1, timescale: 2), 0.1),
                              (MediaTime(value: 3, timescale: 4), 0.15)] {
            #expect(abs(layer.effect(.brightness, at: time) - value) < 1e-12)
            let frame = try await S.render(composition, video, at: time)
            try Self.expectBands(frame, baseline: baseline, brightness: value)
        }
        // At the start the ramp is at its neutral value: the picture is untouched.
        let first = try await S.render(composition, video, at: .zero)
        #expect(try FrameComparison(actual: first, expected: baseline).isIdentical)
    }

    /// Saturation 0 leaves luma only: grey at the quadrant colour's BT.709 luma. eq's integer path puts chroma at
    /// (100·511) / 200 − 128 = 127, not 128, so the grey is tinted by its formula: R −1.8, G +0.7, B −2.1 levels
    /// (BT.709 limited: 1.793, −0.533 − 0.213, 2.112 per chroma step), each within 1.5 of that.
    @Test func saturationZeroGivesGrey() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await S.quadrants(in: scratch)
        let (composition, video) = try Self.edit(asset) { $0.setEffect(.saturation, 0, at: .zero) }
        let frame = try await S.render(composition, video, at: .zero)
        // Red, green, blue, white: BT.709 luma 0.2126, 0.7152, 0.0722, 1 of full scale.
        for (x, y, share) in [(80, 60, 0.2126), (240, 60, 0.7152), (80, 180, 0.0722), (240, 180, 1.0)] {
            let pixel = try #require(frame.rgb(x, y))
            let grey = 255 * share
            let expected = RGB(max(0, grey - 1.793), min(255, grey + 0.746), max(0, grey - 2.112))
            expectPixel(frame, x, y, expected, tolerance: 1.5, "saturation 0")
            #expect(max(pixel.red, pixel.green, pixel.blue) - min(pixel.red, pixel.green, pixel.blue) <= 4, "(\(x), \(y)): \(pixel)")
        }
    }

    /// A generated inverting `.cube` (out = 1 − in) gives 255 − x per channel; a channel-swapping one (R ↔ B)
    /// swaps red and blue.
    @Test func lookupTablesFromGeneratedCubeFiles() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await S.quadrants(in: scratch)
        func cube(_ name: String, _ map: (Double, Double, Double) -> (Double, Double, Double)) throws -> URL {
            var text = "TITLE \"\(name)\"\n# generated by the test\nLUT_3D_SIZE 2\n"
            for b in [0.0, 1.0] { for g in [0.0, 1.0] { for r in [0.0, 1.0] {
                let out = map(r, g, b)
                text += "\(out.0) \(out.1) \(out.2)\n"
            } } }
            return try scratch.write("\(name).cube", text)
        }
        let invert = try cube("invert") { (1 - $0, 1 - $1, 1 - $2) }
        let swap = try cube("swap") { ($2, $1, $0) }
        let colours = [(80, 60, RGB.red), (240, 60, RGB.green), (80, 180, RGB.blue), (240, 180, RGB.white)]
        for (url, map) in [(invert, { (c: RGB) in RGB(255 - c.red, 255 - c.green, 255 - c.blue) }),
                           (swap, { (c: RGB) in RGB(c.blue, c.green, c.red) })] {
            let (composition, video) = try Self.edit(asset) { $0.addLookupTable(url) }
            let frame = try await S.render(composition, video, at: .zero)
            for (x, y, colour) in colours { expectPixel(frame, x, y, map(colour), tolerance: 2, url.lastPathComponent) }
        }
    }

    /// A hard black | white edge at x = 160 blurred with sigma 4 canvas pixels: the luma profile is the Gaussian's
    /// integral, 16 + 219·Φ((x + ½ − 160) / 4), within 4 levels (gblur approximates the Gaussian).
    @Test func blurOfAHardEdgeHasTheGaussianProfile() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let black = Color(red: 0, green: 0, blue: 0)
        let asset = try await SyntheticMedia.makeAsset(
            video: .quadrants(topLeft: black, topRight: .white, bottomLeft: black, bottomRight: .white),
            duration: MediaTime(seconds: 2), pixelFormat: .yuv420p, in: scratch.url, name: "edge")
        let (composition, video) = try Self.edit(asset) { $0.setEffect(.blur, 4, at: .zero) }
        let frame = try await S.render(composition, video, at: .zero)
        var profile: [String] = []
        for x in [148, 152, 156, 158, 159, 160, 161, 163, 166, 170] {
            let pixel = try #require(frame.rgb(x, 120))
            let phi = 0.5 * (1 + erf((Double(x) + 0.5 - 160) / (4 * 2.0.squareRoot())))
            let expected = Self.grey(luma: 16 + 219 * phi)
            profile.append("\(x): \(pixel.green) vs \(String(format: "%.1f", expected))")
            #expect(abs(pixel.green - expected) <= 5, "x \(x): \(pixel), expected \(expected) ± 5 (Φ = \(phi))")
        }
        print("blur profile: \(profile.joined(separator: ", "))")
        // Far from the edge the picture is untouched.
        expectPixel(frame, 40, 120, .black, tolerance: 1)
        expectPixel(frame, 280, 120, .white, tolerance: 1)
    }

    /// A vignette of angle π/4 on a uniform grey: luma × cos⁴(angle · d), d the distance from the centre over the
    /// half-diagonal (vf_vignette.c); corners at a quarter of the centre, darker than the centre.
    @Test func vignetteDarkensCornersByTheFormula() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await SyntheticMedia.makeAsset(
            video: .colorField(Color(red: 0.8, green: 0.8, blue: 0.8)), duration: MediaTime(seconds: 2),
            pixelFormat: .yuv420p, in: scratch.url, name: "grey")
        let (plain, plainVideo) = try Self.edit(asset) { _ in }
        let y0 = Self.luma(try #require(try await S.render(plain, plainVideo, at: .zero).rgb(160, 120)))
        let angle = Double.pi / 4
        let (composition, video) = try Self.edit(asset) { $0.setEffect(.vignette, angle, at: .zero) }
        let frame = try await S.render(composition, video, at: .zero)
        let diagonal = (Double(Self.w * Self.w + Self.h * Self.h) / 4).squareRoot()
        for (x, y) in [(160, 120), (0, 0), (319, 239), (0, 120), (160, 0), (80, 60), (240, 200)] {
            let dx = Double(Int(Double(x) - 160)), dy = Double(Int(Double(y) - 120))
            let factor = pow(cos(angle * min(1, (dx * dx + dy * dy).squareRoot() / diagonal)), 4)
            let expected = Self.grey(luma: y0 * factor)
            let pixel = try #require(frame.rgb(x, y))
            #expect(abs(pixel.green - expected) <= 3, "(\(x), \(y)): \(pixel), expected \(expected) ± 3 (factor \(factor))")
        }
        let corner = try #require(frame.rgb(0, 0)), centre = try #require(frame.rgb(160, 120))
        #expect(corner.green < centre.green / 2, "corner \(corner) vs centre \(centre)")
    }

    /// Exposure +1 stop doubles R′G′B′ (the exposure filter scales code values by 2^stops); a low colour
    /// temperature warms a grey (red above blue), a high one cools it.
    @Test func exposureDoublesAndTemperatureTints() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await SyntheticMedia.makeAsset(
            video: .colorField(Color(red: 0.3, green: 0.3, blue: 0.3)), duration: MediaTime(seconds: 2),
            pixelFormat: .yuv420p, in: scratch.url, name: "grey30")
        let (plain, plainVideo) = try Self.edit(asset) { _ in }
        let before = try #require(try await S.render(plain, plainVideo, at: .zero).rgb(160, 120))
        let (brighter, brighterVideo) = try Self.edit(asset) { $0.setEffect(.exposure, 1, at: .zero) }
        let after = try #require(try await S.render(brighter, brighterVideo, at: .zero).rgb(160, 120))
        expectPixel(try await S.render(brighter, brighterVideo, at: .zero), 160, 120,
                    RGB(before.red * 2, before.green * 2, before.blue * 2), tolerance: 2, "exposure +1 from \(before)")
        #expect(after.green > before.green)
        for (kelvin, warmer) in [(3000.0, true), (12000.0, false)] {
            let (composition, video) = try Self.edit(asset) { $0.setEffect(.temperature, kelvin, at: .zero) }
            let pixel = try #require(try await S.render(composition, video, at: .zero).rgb(160, 120))
            #expect(warmer ? pixel.red > pixel.blue + 5 : pixel.blue > pixel.red + 5, "\(kelvin) K: \(pixel)")
        }
    }

    /// Every effect at once, one ramping: a lossless export equals the image generator on every checked frame.
    @Test func imageGeneratorEqualsLosslessExport() async throws {
        let scratch = try ScratchDirectory("effects")
        defer { scratch.remove() }
        let asset = try await S.quadrants(in: scratch)
        var text = "LUT_3D_SIZE 2\n"
        for b in [0, 1] { for g in [0, 1] { for r in [0, 1] { text += "\(1 - r) \(1 - g) \(1 - b)\n" } } }
        let cube = try scratch.write("invert.cube", text)
        let (composition, video) = try Self.edit(asset) { layer in
            layer.setTransform(AffineTransform2D(a: 0.75, b: 0, c: 0, d: 0.75, tx: 40, ty: 30), at: .zero)
            layer.setEffectRamp(.brightness, from: 0, to: 0.2, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
            layer.setEffect(.saturation, 1.5, at: .zero)
            layer.addLookupTable(cube)
            layer.setEffect(.blur, 2, at: .zero)
            layer.setEffect(.sharpen, 1, at: .zero)
            layer.setEffect(.vignette, 0.5, at: .zero)
            layer.setEffect(.temperature, 5000, at: .zero)
        }
        let url = scratch.file("effects.mkv")
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(codec: .ffv1), audio: nil))
        session.outputURL = url
        session.videoComposition = video
        try await session.export()
        let file = try await Asset.load(from: url)
        #expect(file.tracks(withMediaType: .video).first?.video?.frameCount == 60)
        var readback = MutableComposition()
        try readback.insertTimeRange(TimeRange(start: .zero, duration: file.duration), of: file, at: .zero)
        var generator = AssetImageGenerator(asset: readback)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let frames = [0, 1, 15, 30, 59]
        let times = frames.map { S.frameDuration * Int64($0) }
        var decoded: [VideoFrame] = []
        for try await item in generator.images(for: times) { decoded.append(item.image) }
        #expect(decoded.count == frames.count)
        for (index, time) in times.enumerated() where index < decoded.count {
            let rendered = try await S.render(composition, video, at: time)
            let comparison = try FrameComparison(actual: rendered, expected: decoded[index])
            #expect(comparison.isIdentical, "frame \(frames[index]): \(comparison)")
        }
    }
}
