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
        return ["zscale=\(zscaleInput(input)):p=bt2020:t=\(canvas.transferName):m=bt2020nc:r=limited"
                + ":npl=\(Int(referenceWhite))", "format=\(target)"]
    }

    /// HDR (HLG or PQ) → SDR BT.709, with FFmpeg's `zscale` and `tonemap`: to linear light with 1.0 = 203 cd/m²
    /// (HLG through its OOTF for a 1000 cd/m² display, so HLG 75 % = 1.0), BT.2020 → BT.709 primaries in linear
    /// light, `tonemap=mobius` (param 0.8: linear up to 0.8 × 203 cd/m², then compressing towards the source's
    /// peak, which lands on 1.0), then BT.709 (inverse BT.1886) limited range.
    ///
    /// Why npl 203 and mobius 0.8 (measured on the HLG fixture, 8-bit Y): HLG 75 % → 226, 50 % → 139, 100 % → 235,
    /// bar hues kept (magenta moves to ≈ 308°, where a BT.2020 magenta outside BT.709 lands when clipped), and the
    /// inverse of the BT.2408 SDR → HDR mapping below 162 cd/m²: SDR 126 / 180 round-trip through HLG exactly, so
    /// an SDR clip in an HDR composition keeps its level when that composition is exported as SDR (no brightness
    /// jump at a dissolve). The common web recipe (hable, npl 100) puts HLG 75 % at 182.
    static func toneMappingSteps(for input: PictureFormat) -> [String] {
        let peak = max(input.peakLuminance, referenceWhite) / referenceWhite
        return [
            "zscale=\(zscaleInput(input)):t=linear:npl=\(Int(referenceWhite))",
            input.hasAlpha ? "format=gbrapf32le" : "format=gbrpf32le",
            "zscale=p=bt709",
            "tonemap=mobius:param=0.8:desat=0:peak=\(format(peak))",
            "zscale=t=bt709:m=bt709:r=limited",
        ]
    }

    /// An RGBA overlay picture (image layer, drawn text) into the canvas: BT.709 limited for SDR, as video
    /// (R'G'B' code values taken as BT.709 R'G'B'), mapped like SDR video per BT.2408 for HDR.
    static func graphicSteps(canvas: CanvasColor) -> [String] {
        let target = canvas.pixelFormatName(alpha: true)
        guard canvas.isHDR else { return ["scale=out_color_matrix=bt709:out_range=limited", "format=\(target)"] }
        return ["zscale=pin=bt709:tin=bt709:min=gbr:rin=full:p=bt2020:t=\(canvas.transferName):m=bt2020nc:r=limited"
                + ":npl=\(Int(referenceWhite))", "format=\(target)"]
    }

    /// `zscale`'s input options for a picture: its primaries, transfer, matrix and range, stated explicitly (never
    /// taken from the frame, so a track's corrected description wins). Untagged: HD → BT.709, SD → BT.601
    /// (SMPTE 170M), HDR → BT.2020; RGB pictures are BT.709 full range.
    static func zscaleInput(_ input: PictureFormat) -> String {
        if input.isRGB { return "pin=bt709:tin=bt709:min=gbr:rin=full" }
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
        return "pin=\(primaries):tin=\(transfer):min=\(matrix):rin=\(input.isFullRange ? "full" : "limited")"
    }
}
