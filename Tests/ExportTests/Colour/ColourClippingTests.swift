import Foundation
import Testing
@testable import Export
import SpliceFFmpeg
import Composition
internal import CMedia

/// Colours outside what a conversion can carry are clipped by an explicit rule, so every machine gives the same
/// picture: an HDR source's Y'CbCr outside its nominal R'G'B' cube converts as the nearest colour inside it, and a
/// BT.2020 colour outside BT.709 reaches an SDR canvas with its negative component at 0 (docs/document-format.md,
/// "Colour"). Uniform 16 × 16 pictures through the conversion steps the compiler emits.
@Suite("Colour: explicit clipping")
struct ColourClippingTests {
    /// A 10-bit 4:4:4 limited-range BT.2020 picture of one colour, tagged with `transfer`.
    static func hdrFormat(_ transfer: DynamicRange) -> PictureFormat {
        var format = PictureFormat(width: 16, height: 16)
        format.pixelFormat = AV_PIX_FMT_YUV444P10LE.rawValue
        format.colorSpace = AVCOL_SPC_BT2020_NCL.rawValue
        format.colorPrimaries = AVCOL_PRI_BT2020.rawValue
        format.colorTransfer = (transfer == .pq ? AVCOL_TRC_SMPTE2084 : AVCOL_TRC_ARIB_STD_B67).rawValue
        return format
    }

    /// The canvas picture `steps` make of a uniform picture of code values `ycc`: the mean Y, Cb, Cr of the
    /// output (8- or 10-bit code values).
    static func convert(_ ycc: (Int, Int, Int), format: PictureFormat, steps: [String]) throws -> (Double, Double, Double) {
        let graph = try FilterGraph(
            description: "[in]" + steps.joined(separator: ",") + "[out]",
            sources: [.video(.init(label: "in", width: 16, height: 16, pixelFormat: format.pixelFormat,
                                   timeBase: AVRational(num: 1, den: 1)))],
            sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        let frame = try Frame()
        try frame.allocatePicture(width: 16, height: 16, pixelFormat: AV_PIX_FMT_YUV444P10LE)
        for (plane, value) in [ycc.0, ycc.1, ycc.2].enumerated() {
            let base = try #require(frame.plane(plane))
            for row in 0..<16 {
                let line = UnsafeMutableRawPointer(base + row * frame.bytesPerRow(ofPlane: plane))
                    .assumingMemoryBound(to: UInt16.self)
                for x in 0..<16 { line[x] = UInt16(value) }
            }
        }
        frame.pts = 0
        try graph.push(frame, to: 0)
        try graph.push(nil, to: 0)
        let output = try Frame()
        guard try graph.pull(from: 0, into: output) == .frame else { throw ExportError.renderingFailed(stage: "test", reason: "no frame") }
        let wide = output.format != AV_PIX_FMT_YUV420P.rawValue
        func mean(_ plane: Int) throws -> Double {
            let base = try #require(output.plane(plane))
            let size = plane == 0 ? 16 : 8
            var sum = 0.0
            for row in 0..<size {
                let line = base + row * output.bytesPerRow(ofPlane: plane)
                for x in 0..<size {
                    sum += wide ? Double(UnsafeRawPointer(line).load(fromByteOffset: 2 * x, as: UInt16.self)) : Double(line[x])
                }
            }
            return sum / Double(size * size)
        }
        return (try mean(0), try mean(1), try mean(2))
    }

    /// BT.2020 Y'CbCr (10-bit limited code values) of a non-linear R'G'B' in 0…1.
    static func bt2020(_ r: Double, _ g: Double, _ b: Double) -> (Int, Int, Int) {
        let y = 0.2627 * r + 0.6780 * g + 0.0593 * b
        let cb = (b - y) / 1.8814, cr = (r - y) / 1.4746
        return (Int((64 + 876 * y).rounded()), Int((512 + 896 * cb).rounded()), Int((512 + 896 * cr).rounded()))
    }

    /// BT.2020 non-linear R'G'B' of 10-bit limited Y'CbCr code values (not clipped).
    static func bt2020RGB(_ ycc: (Int, Int, Int)) -> (Double, Double, Double) {
        let y = Double(ycc.0 - 64) / 876, cb = Double(ycc.1 - 512) / 896, cr = Double(ycc.2 - 512) / 896
        let r = y + 1.4746 * cr, b = y + 1.8814 * cb
        return (r, (y - 0.2627 * r - 0.0593 * b) / 0.6780, b)
    }

    /// Code values outside the nominal cube — super-white, sub-black, and chroma past a saturated edge — convert
    /// exactly as the colour the clip gives (each R', G', B' limited to 0…1), into the SDR canvas and the HDR canvas
    /// of the other transfer. (Into a canvas of its own transfer only matrix, range and depth change: the code
    /// values pass as they are, with no transfer function to disagree about.)
    @Test(arguments: [DynamicRange.hlg, .pq])
    func outOfRangeCodesConvertAsTheNearestColourInside(source: DynamicRange) throws {
        let format = Self.hdrFormat(source)
        let outside: [(Int, Int, Int)] = [(1019, 512, 512), (4, 512, 512), (512, 1016, 8), (700, 100, 960), (300, 900, 900)]
        let canvases = [CanvasColor.standard, CanvasColor(dynamicRange: source == .hlg ? .pq : .hlg, bitDepth: 10)]
        for ycc in outside {
            let rgb = Self.bt2020RGB(ycc)
            let clip = { (v: Double) in min(max(v, 0), 1) }
            let inside = Self.bt2020(clip(rgb.0), clip(rgb.1), clip(rgb.2))
            for canvas in canvases {
                let steps = FilterGraphCompiler.normalizationSteps(for: format, canvas: canvas, keepAlpha: false)
                let got = try Self.convert(ycc, format: format, steps: steps)
                let expected = try Self.convert(inside, format: format, steps: steps)
                // One code value: the clipped colour is re-quantised to 10 bits before it is converted.
                let difference = max(abs(got.0 - expected.0), abs(got.1 - expected.1), abs(got.2 - expected.2))
                #expect(difference <= 1, "\(source) \(ycc) → \(canvas.dynamicRange): \(got), clipped \(inside) → \(expected)")
            }
        }
    }

    /// BT.2020 colours outside BT.709 (pure green, cyan and red at HLG/PQ 75 %) reach the SDR canvas clipped: the
    /// component that is negative in BT.709 decodes to R'G'B' 0 (within 2 of 255 for rounding and 4:2:0), never
    /// below, and no component leaves 0…255.
    @Test(arguments: [DynamicRange.hlg, .pq])
    func coloursOutsideBT709AreClippedOnTheSDRCanvas(source: DynamicRange) throws {
        let format = Self.hdrFormat(source)
        let steps = FilterGraphCompiler.normalizationSteps(for: format, canvas: .standard, keepAlpha: false)
        let cases: [(name: String, rgb: (Double, Double, Double), clipped: [Int])] = [
            ("green", (0, 0.75, 0), [0, 2]), ("cyan", (0, 0.75, 0.75), [0]), ("red", (0.75, 0, 0), [1, 2]),
        ]
        for item in cases {
            let ycc = try Self.convert(Self.bt2020(item.rgb.0, item.rgb.1, item.rgb.2), format: format, steps: steps)
            let y = (ycc.0 - 16) * 255 / 219, cb = (ycc.1 - 128) * 255 / 224, cr = (ycc.2 - 128) * 255 / 224
            let rgb = [y + 1.5748 * cr, y - 0.1873 * cb - 0.4681 * cr, y + 1.8556 * cb]
            for (index, component) in rgb.enumerated() {
                #expect(component >= -2 && component <= 257, "\(source) \(item.name): R'G'B' \(rgb)")
                if item.clipped.contains(index) {
                    #expect(abs(component) <= 2, "\(source) \(item.name): component \(index) of \(rgb) should be clipped to 0")
                }
            }
        }
    }

    /// Every `zscale` that applies a transfer function uses libzimg's exact functions (`agamma=0`): the
    /// approximated ones differ between its portable and SIMD paths by up to 13 code values.
    @Test func everyTransferFunctionIsExact() {
        var all: [String] = []
        for source in [DynamicRange.hlg, .pq] {
            for canvas in [CanvasColor.standard, CanvasColor(dynamicRange: source == .hlg ? .pq : .hlg, bitDepth: 10)] {
                all += FilterGraphCompiler.normalizationSteps(for: Self.hdrFormat(source), canvas: canvas, keepAlpha: false)
            }
        }
        all += FilterGraphCompiler.normalizationSteps(for: PictureFormat(width: 16, height: 16),
                                                      canvas: CanvasColor(dynamicRange: .hlg, bitDepth: 10), keepAlpha: false)
        all += FilterGraphCompiler.graphicSteps(canvas: CanvasColor(dynamicRange: .pq, bitDepth: 10))
        // A step changing the transfer names a target `t=`; the clip into the nominal cube keeps it (`m=gbr:r=full`).
        let transfers = all.filter { $0.hasPrefix("zscale") && $0.contains(":t=") && !$0.hasSuffix(":m=gbr:r=full") }
        #expect(transfers.count >= 6, "\(transfers)")
        for step in transfers {
            #expect(step.contains(":agamma=0"), "\(step)")
        }
    }
}
