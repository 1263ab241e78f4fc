import SpliceFFmpeg
import Composition
internal import CMedia

/// The colour space pictures are composited in and encoded from: SDR BT.709 at 8 or 10 bits, or HDR BT.2100
/// (BT.2020 primaries and matrix, HLG or PQ) at 10 bits. Always 4:2:0 limited range. Decided once per export by
/// the planner (``ExportPlanner/canvasColor(for:sources:settings:keepsHDR:)``) from the video composition's colour fields.
struct CanvasColor: Hashable, Sendable {
    /// SDR (BT.709 transfer) or an HDR transfer.
    var dynamicRange: DynamicRange
    /// Bits per component: 8 or 10 (HDR is always 10).
    var bitDepth: Int

    /// 8-bit SDR BT.709: what every export used before colour management, and the default.
    static let standard = CanvasColor(dynamicRange: .sdr, bitDepth: 8)

    var isHDR: Bool { dynamicRange != .sdr }

    /// FFmpeg's name of the canvas pixel format with or without alpha, 4:2:0 or 4:4:4 (`yuv420p`, `yuva444p10le`).
    func pixelFormatName(alpha: Bool, subsampled: Bool = true) -> String {
        (alpha ? "yuva" : "yuv") + (subsampled ? "420p" : "444p") + (bitDepth > 8 ? "10le" : "")
    }

    /// The canvas pixel format without alpha.
    var pixelFormat: AVPixelFormat { bitDepth > 8 ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P }

    /// `overlay`'s `format` option that blends in the canvas format without passing through 8 bits: `yuv420`, or
    /// `yuv420p10` (FFmpeg 5.1's only 10-bit 4:2:0 mode).
    var overlayFormat: String { bitDepth > 8 ? "yuv420p10" : "yuv420" }

    /// FFmpeg's (and `zscale`'s) names of the primaries, transfer and matrix.
    var primariesName: String { isHDR ? "bt2020" : "bt709" }
    var transferName: String {
        switch dynamicRange {
        case .sdr: return "bt709"
        case .hlg: return "arib-std-b67"
        case .pq: return "smpte2084"
        }
    }
    var matrixName: String { isHDR ? "bt2020nc" : "bt709" }
    /// The matrix by `scale`'s option name (`bt709`, `bt2020`).
    var scaleMatrixName: String { isHDR ? "bt2020" : "bt709" }

    /// The code points the encoder and container are tagged with.
    var tags: ColorTags {
        switch dynamicRange {
        case .sdr: return .bt709
        case .hlg:
            return ColorTags(range: AVCOL_RANGE_MPEG, primaries: AVCOL_PRI_BT2020, transfer: AVCOL_TRC_ARIB_STD_B67,
                             matrix: AVCOL_SPC_BT2020_NCL)
        case .pq:
            return ColorTags(range: AVCOL_RANGE_MPEG, primaries: AVCOL_PRI_BT2020, transfer: AVCOL_TRC_SMPTE2084,
                             matrix: AVCOL_SPC_BT2020_NCL)
        }
    }

    /// The graph's last step: the tags every output picture carries (`setparams`).
    var setparams: String {
        "setparams=range=tv:color_primaries=\(primariesName):color_trc=\(transferName):colorspace=\(matrixName)"
    }

    /// A short description for `splice graph` and errors: `SDR BT.709 8-bit`, `HDR (HLG) BT.2020 10-bit`.
    var summary: String {
        "\(dynamicRange.displayName) \(isHDR ? "BT.2020" : "BT.709") \(bitDepth)-bit"
    }
}
