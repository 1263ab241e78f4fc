import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// The properties of a picture entering the graph that the graph's sources must be configured with.
package struct PictureFormat: Hashable {
    package var width: Int
    package var height: Int
    /// `AVPixelFormat` raw value.
    package var pixelFormat: Int32
    /// `AVColorRange` raw value (0 unspecified, 1 limited, 2 full).
    package var colorRange: UInt32
    /// `AVColorSpace` raw value (matrix coefficients).
    package var colorSpace: UInt32

    package init(of frame: Frame) {
        width = frame.width
        height = frame.height
        pixelFormat = frame.format
        colorRange = frame.colorRange
        colorSpace = frame.colorSpace
    }

    package var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: pixelFormat)).map { String(cString: $0) } ?? "unknown"
    }

    package var hasAlpha: Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: pixelFormat)) else { return false }
        return (descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA)) != 0
    }

    package var isRGB: Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: pixelFormat)) else { return false }
        return (descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB)) != 0
    }

    /// Full range when stated, or implied by a JPEG pixel format (`yuvj420p`).
    package var isFullRange: Bool {
        colorRange == AVCOL_RANGE_JPEG.rawValue || pixelFormatName.hasPrefix("yuvj")
    }

    /// The YUV matrix by FFmpeg `scale` option name: as stated, else BT.709 for HD (height ≥ 720) and BT.601 for SD
    /// (the convention players use for untagged video).
    package var matrixName: String {
        switch AVColorSpace(rawValue: colorSpace) {
        case AVCOL_SPC_BT709: return "bt709"
        case AVCOL_SPC_BT470BG: return "bt470"
        case AVCOL_SPC_SMPTE170M: return "smpte170m"
        case AVCOL_SPC_SMPTE240M: return "smpte240m"
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return "bt2020"
        case AVCOL_SPC_FCC: return "fcc"
        default: return height >= 720 ? "bt709" : "smpte170m"
        }
    }

    /// True when the picture is already in the canvas format: 8-bit 4:2:0 YUV, limited range, BT.709 matrix.
    var isCanvasNative: Bool {
        (pixelFormatName == "yuv420p" || pixelFormatName == "yuva420p") && !isFullRange && matrixName == "bt709"
    }
}

extension PictureFormat {
    /// The canvas format (yuv420p, limited, BT.709) at a size: the background's format.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixelFormat = AV_PIX_FMT_YUV420P.rawValue
        colorRange = AVCOL_RANGE_MPEG.rawValue
        colorSpace = AVCOL_SPC_BT709.rawValue
    }
}
