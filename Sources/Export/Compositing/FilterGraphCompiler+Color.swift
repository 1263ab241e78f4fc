import Composition
import Foundation
internal import CMedia

extension FilterGraphCompiler {
    /// BT.2408's reference white, cd/m²: SDR white (and HLG 75 %) maps to it, in both directions.
    static let referenceWhite = 203.0

    /// The filters that bring `input` into the canvas's colour space and format (empty when it already is), or with
    /// `chromaSubsampled: false` into the canvas's 4:4:4 form. One rule per direction (docs/document-format.md,
    /// "Colour"):
    /// - SDR into an SDR canvas: `scale` names the source's matrix and range (untagged: BT.709 for HD, BT.601 for
    ///   SD) and writes BT.709 limited — exact for 8-bit sources, as before colour management;
    /// - HDR into an SDR canvas: tone mapping with gamut conversion (``toneMappingSteps(for:)``);
    /// - SDR (or an RGB picture) into an HDR canvas: `zscale` maps it per BT.2408, SDR white at 203 cd/m², BT.709
    ///   primaries into BT.2020 (SDR Y 235 → HLG Y 721, PQ Y 573 at 10 bits);
    /// - HDR into an HDR canvas of the same transfer: `scale` converts only matrix, range and depth; of the other
    ///   transfer (HLG ↔ PQ): `zscale` through linear light, HLG 75 % = PQ 203 cd/m².
    static func normalizationSteps(for input: PictureFormat, canvas: CanvasColor = .standard, keepAlpha: Bool,
                                   chromaSubsampled: Bool = true) -> [String] {
        let target = canvas.pixelFormatName(alpha: keepAlpha, subsampled: chromaSubsampled)
        if input.isNative(on: canvas) {
            return input.pixelFormatName == target ? [] : ["format=\(target)"]
        }
        let isSDR = input.dynamicRange == .sdr || input.isRGB
        if isSDR == !canvas.isHDR && (isSDR || input.dynamicRange == canvas.dynamicRange) {
            var options = ["out_color_matrix=\(canvas.scaleMatrixName)", "out_range=limited"]
            if !input.isRGB {
                options.insert("in_color_matrix=\(input.matrixName)", at: 0)
                options.insert("in_range=\(input.isFullRange ? "full" : "limited")", at: 1)
            }
            return ["scale=" + options.joined(separator: ":"), "format=\(target)"]
        }
        if !isSDR && !canvas.isHDR {
            return toneMappingSteps(for: input) + ["format=\(target)"]
        }
        let clipped = clippedToNominalRange(input)
        return clipped.steps + [
            "zscale=\(clipped.zscaleInput):p=bt2020:t=\(canvas.transferName):m=bt2020nc:r=limited"
                + ":npl=\(Int(referenceWhite)):agamma=0", "format=\(target)",
        ]
    }

    /// Clips a Y'CbCr picture to its nominal R'G'B' cube (0…1 in each of R', G', B') before a transfer function
    /// is applied to it: `zscale` to full-range R'G'B' of the same primaries and transfer, held in 16-bit
    /// integers (`gbrp16le`, `gbrap16le` with alpha), which cannot hold anything outside 0…1. No steps for RGB
    /// pictures, which are inside the cube already.
    ///
    /// Why: Y'CbCr code values outside the cube (super-whites, sub-blacks, chroma at a saturated edge) give
    /// transfer-function inputs outside 0…1, where libzimg's portable and SIMD paths disagree by up to the whole
    /// code range (e.g. a PQ → HLG conversion giving 0 on one CPU and 1023 on another). Inside the cube, with exact
    /// transfer functions (`agamma=0`), they agree to one code value (docs/document-format.md, "Colour").
    /// - Returns: the steps, and `zscale`'s input options describing the picture they output.
    static func clippedToNominalRange(_ input: PictureFormat) -> (steps: [String], zscaleInput: String) {
        guard !input.isRGB else { return ([], zscaleInput(input)) }
        let names = zscaleNames(input)
        let rgb = "pin=\(names.primaries):tin=\(names.transfer):min=gbr:rin=full"
        return (["zscale=\(zscaleInput(input)):p=\(names.primaries):t=\(names.transfer):m=gbr:r=full",
                 input.hasAlpha ? "format=gbrap16le" : "format=gbrp16le"], rgb)
    }

    /// HDR (HLG or PQ) → SDR BT.709, with FFmpeg's `zscale` and `tonemap`: to linear light with 1.0 = 203 cd/m²
    /// (HLG through its OOTF for a 1000 cd/m² display, so HLG 75 % = 1.0), BT.2020 → BT.709 primaries in linear
    /// light, `tonemap=mobius` (param 0.8: linear up to 0.8 × 203 cd/m², then compressing towards the source's
    /// peak, which lands on 1.0), clipped to 0…1 in linear light (a BT.2020 colour outside BT.709 has a negative
    /// component there; 16-bit linear integers hold the clipped result: one step is 0.06 of a 10-bit code at black),
    /// then BT.709 (inverse BT.1886) limited range. Both clips are explicit (the source into its nominal range
    /// first, ``clippedToNominalRange(_:)``) and the transfer functions exact (`agamma=0`): outside 0…1, or
    /// approximated, libzimg's results depend on the CPU's SIMD path and on the library's version (a BT.2020 cyan
    /// came out with R' −78 instead of 0 on one machine).
    ///
    /// Why npl 203 and mobius 0.8 (measured on the HLG fixture, 8-bit Y): HLG 75 % → 226, 50 % → 139, 100 % → 235,
    /// bar hues kept (magenta moves to ≈ 308°, where a BT.2020 magenta outside BT.709 lands when clipped), and the
    /// inverse of the BT.2408 SDR → HDR mapping below 162 cd/m²: SDR 126 / 180 round-trip through HLG exactly, so
    /// an SDR clip in an HDR composition keeps its level when that composition is exported as SDR (no brightness
    /// jump at a dissolve). The common web recipe (hable, npl 100) puts HLG 75 % at 182.
    static func toneMappingSteps(for input: PictureFormat) -> [String] {
        let peak = max(input.peakLuminance, referenceWhite) / referenceWhite
        let clipped = clippedToNominalRange(input)
        return clipped.steps + [
            "zscale=\(clipped.zscaleInput):t=linear:npl=\(Int(referenceWhite)):agamma=0",
            input.hasAlpha ? "format=gbrapf32le" : "format=gbrpf32le",
            "zscale=pin=\(zscaleNames(input).primaries):tin=linear:min=gbr:rin=full:p=bt709",
            "tonemap=mobius:param=0.8:desat=0:peak=\(format(peak))",
            "zscale=pin=bt709:tin=linear:min=gbr:rin=full",
            input.hasAlpha ? "format=gbrap16le" : "format=gbrp16le",
            "zscale=pin=bt709:tin=linear:min=gbr:rin=full:t=bt709:m=bt709:r=limited:agamma=0",
        ]
    }

    /// An RGBA overlay picture (image layer, drawn text) into the canvas: BT.709 limited for SDR, as video
    /// (R'G'B' code values taken as BT.709 R'G'B'), mapped like SDR video per BT.2408 for HDR.
    static func graphicSteps(canvas: CanvasColor) -> [String] {
        let target = canvas.pixelFormatName(alpha: true)
        guard canvas.isHDR else { return ["scale=out_color_matrix=bt709:out_range=limited", "format=\(target)"] }
        return ["zscale=pin=bt709:tin=bt709:min=gbr:rin=full:p=bt2020:t=\(canvas.transferName):m=bt2020nc:r=limited"
                + ":npl=\(Int(referenceWhite)):agamma=0", "format=\(target)"]
    }

    /// `zscale`'s input options for a picture: its primaries, transfer, matrix and range, stated explicitly (never
    /// taken from the frame, so a track's corrected description wins). Untagged: HD → BT.709, SD → BT.601
    /// (SMPTE 170M), HDR → BT.2020; RGB pictures are BT.709 full range.
    static func zscaleInput(_ input: PictureFormat) -> String {
        if input.isRGB { return "pin=bt709:tin=bt709:min=gbr:rin=full" }
        let names = zscaleNames(input)
        return "pin=\(names.primaries):tin=\(names.transfer):min=\(names.matrix):rin=\(input.isFullRange ? "full" : "limited")"
    }

    /// `zscale`'s names of a Y'CbCr picture's primaries, transfer and matrix, with the defaults of
    /// ``zscaleInput(_:)`` for untagged pictures.
    static func zscaleNames(_ input: PictureFormat) -> (primaries: String, transfer: String, matrix: String) {
        let primaries: String
        switch AVColorPrimaries(rawValue: input.colorPrimaries) {
        case AVCOL_PRI_BT709: primaries = "bt709"
        case AVCOL_PRI_BT470BG: primaries = "bt470bg"
        case AVCOL_PRI_SMPTE170M: primaries = "smpte170m"
        case AVCOL_PRI_SMPTE240M: primaries = "smpte240m"
        case AVCOL_PRI_BT470M: primaries = "bt470m"
        case AVCOL_PRI_BT2020: primaries = "bt2020"
        default:
            primaries = input.dynamicRange != .sdr ? "bt2020" : input.isStandardDefinition ? "smpte170m" : "bt709"
        }
        let transfer: String
        switch input.dynamicRange {
        case .hlg: transfer = "arib-std-b67"
        case .pq: transfer = "smpte2084"
        case .sdr: transfer = "bt709"
        }
        let matrix: String
        switch input.matrixName {
        case "bt470": matrix = "bt470bg"
        case "bt2020": matrix = "bt2020nc"
        case "smpte240m": matrix = "smpte2400m"  // zscale's spelling in FFmpeg 5.1
        default: matrix = input.matrixName
        }
        return (primaries, transfer, matrix)
    }
}
