internal import CMedia
import Foundation
import SpliceTestSupport
import Testing
@testable import Export
import Splice

/// How layer effects are compiled: where in the layer's chain, with which values (a blur's sigma in source pixels),
/// one RGB conversion for a run of RGB effects, and the typed refusals (HDR canvas, vignette on alpha, a build
/// without a filter).
@Suite("Layer effects in the compiled graphs")
struct EffectGraphTests {
    static let canvas = Size(width: 320, height: 240)

    static func placed(_ effects: [VideoEffectValue], transform: AffineTransform2D, input: PictureFormat? = nil,
                       color: CanvasColor = .standard) throws -> String {
        let layer = LayerConfiguration(
            input: input ?? PictureFormat(width: 160, height: 120), transform: transform, crop: nil, opacity: 1,
            effects: effects)
        return try #require(try FilterGraphCompiler.place(layer: layer, canvas: canvas, color: color, label: "L0", name: "l0")).chain
    }

    /// A blur of 4 canvas pixels on a layer scaled × 0.5 across and × 2 down is 8 source pixels across and 2
    /// down, drawn before the scale.
    @Test func blurSigmaIsInCanvasPixels() throws {
        let chain = try Self.placed([.adjustment(.blur, 4)], transform: AffineTransform2D(a: 0.5, b: 0, c: 0, d: 2, tx: 10, ty: 20))
        #expect(chain == "[L0]gblur=sigma=8.000000:sigmaV=2.000000:steps=6,scale=80:240", "\(chain)")
        // A rotation keeps lengths: the sigma stays 4 on both axes.
        let rotated = try Self.placed([.adjustment(.blur, 4)], transform: AffineTransform2D(rotationAngle: 0.3))
        #expect(rotated.hasPrefix("[L0]gblur=sigma=4.000000:sigmaV=4.000000:steps=6,format=yuva420p,rotate="), "\(rotated)")
    }

    /// eq per colour effect in list order; a run of RGB effects shares one conversion to planar RGB and back, the
    /// float exposure between two 8-bit ones switching format only.
    @Test func rgbEffectsShareOneConversion() throws {
        let lut = URL(fileURLWithPath: "/looks/a b.cube")
        let chain = try Self.placed(
            [.adjustment(.brightness, 0.1), .adjustment(.temperature, 4000), .adjustment(.exposure, 1), .lookupTable(lut),
             .adjustment(.saturation, 0.5)],
            transform: .identity)
        #expect(chain == "[L0]eq=brightness=0.100000,scale=in_color_matrix=bt709:in_range=limited,format=gbrp,"
                + "colortemperature=temperature=4000.000000,format=gbrpf32le,exposure=exposure=1.000000,format=gbrp,"
                + "lut3d=file=/looks/a b.cube:interp=tetrahedral,scale=out_color_matrix=bt709:out_range=limited,"
                + "format=yuv420p,eq=saturation=0.500000", "\(chain)")
    }

    /// A source in another matrix is converted into the canvas first, then the effect runs; the layer that covers
    /// the canvas (the base) draws its effects too.
    @Test func effectsRunAfterTheConversionIntoTheCanvas() throws {
        var sd = PictureFormat(width: 320, height: 240)
        sd.colorSpace = AVCOL_SPC_SMPTE170M.rawValue
        let configuration = GraphConfiguration(
            instructionIndex: 0, background: .black, canvas: Self.canvas, output: Self.canvas,
            frameRate: AVRationalKey(num: 30, den: 1),
            layers: [LayerConfiguration(input: sd, transform: .identity, crop: nil, opacity: 1, effects: [.adjustment(.sharpen, 1)])],
            imageOverlays: [], textOverlays: [])
        let description = try FilterGraphCompiler.compile(configuration).description
        #expect(description.hasPrefix("[L0]scale=in_color_matrix=smpte170m:in_range=limited:out_color_matrix=bt709:"
                                      + "out_range=limited,format=yuv420p,unsharp=lx=5:ly=5:la=1.000000:cx=5:cy=5:ca=0[base0]"),
                "\(description)")
    }

    @Test func refusalsAreTyped() throws {
        let hlg = CanvasColor(dynamicRange: .hlg, bitDepth: 10)
        #expect(throws: FilterGraphCompilerError.self) {
            _ = try Self.placed([.adjustment(.brightness, 0.1)], transform: .identity, color: hlg)
        }
        var alpha = PictureFormat(width: 160, height: 120)
        alpha.pixelFormat = AV_PIX_FMT_YUVA420P.rawValue
        #expect(throws: FilterGraphCompilerError.self) {
            _ = try Self.placed([.adjustment(.vignette, 0.5)], transform: .identity, input: alpha)
        }
        // Other effects keep the alpha channel: blur and the RGB effects run in formats with alpha.
        let kept = try Self.placed([.adjustment(.blur, 2), .adjustment(.temperature, 5000)], transform: .identity, input: alpha)
        #expect(kept.contains("format=gbrap") && kept.contains("format=yuva420p"), "\(kept)")
    }

    /// A build without `lut3d` refuses a lookup table before anything is written, naming the filter.
    @Test func aMissingFilterIsRefusedBeforeWriting() async throws {
        let red = try await ShearRenderingTests.solid("red")
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.addLookupTable(URL(fileURLWithPath: "/nonexistent.cube"))
        let (composition, video) = try ShearRenderingTests.scene(red, layer: layer)
        #expect(ExportPlanner.requiredFilters(of: video, in: TimeRange(start: .zero, duration: MediaTime(seconds: 2))) == ["lut3d"])
        var sharpen = VideoCompositionLayerInstruction(trackID: 0)
        sharpen.setEffectRamp(.sharpen, from: 0, to: 2, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        let (sharpened, sharpenedVideo) = try ShearRenderingTests.scene(red, layer: sharpen)
        #expect(throws: ExportError.filterUnavailable("unsharp")) {
            _ = try ExportPlanner.videoPlan(
                composition: sharpened, tracks: sharpened.tracks, videoComposition: sharpenedVideo,
                range: TimeRange(start: .zero, duration: MediaTime(seconds: 2)), maximumSize: nil, hasFilter: { $0 != "unsharp" })
        }
        // The missing .cube is a validation issue naming the file, before any filter lookup.
        #expect(throws: ExportError.self) {
            _ = try ExportPlanner.videoPlan(
                composition: composition, tracks: composition.tracks, videoComposition: video,
                range: TimeRange(start: .zero, duration: MediaTime(seconds: 2)), maximumSize: nil)
        }
        let issues = video.validate(for: composition)
        #expect(issues.map(\.kind) == [.invalidLookupTable] && issues.first?.message.contains("/nonexistent.cube: does not exist") == true,
                "\(issues)")
    }

    /// An HDR composition with effects is refused by the planner before anything is opened, with a typed error;
    /// the same edit exported as SDR plans (its effects then run on the tone-mapped picture).
    @Test func anHDRCanvasWithEffectsIsRefusedBeforeWriting() async throws {
        let hlg = try await ColourPlanningTests.track("hdr/hlg.mov")
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(hlg.timeRange, of: hlg, at: .zero, intoTrackWithID: id)
        var video = MutableVideoComposition(propertiesOf: composition)
        video.instructions[0].layerInstructions[0].setEffect(.contrast, 1.2, at: .zero)
        func plan(_ settings: VideoSettings) throws -> VideoPlan {
            try ExportPlanner.videoPlan(composition: composition, tracks: composition.tracks, videoComposition: video,
                                        range: hlg.timeRange, maximumSize: nil, settings: settings)
        }
        #expect(throws: ExportError.self) { _ = try plan(ColourPlanningTests.hevc) }
        do {
            _ = try plan(ColourPlanningTests.hevc)
        } catch ExportError.unsupportedSettings(let reason) {
            #expect(reason.contains("the contrast effect uses FFmpeg 5.1's eq"), "\(reason)")
        }
        #expect(try plan(ColourPlanningTests.h264).color == .standard)
    }
}
