import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// The properties of a picture entering the graph that the graph's sources must be configured with, and the
/// colour description its conversion into the canvas is compiled from.
package struct PictureFormat: Hashable {
    package var width: Int
    package var height: Int
    /// `AVPixelFormat` raw value.
    package var pixelFormat: Int32
    /// `AVColorRange` raw value (0 unspecified, 1 limited, 2 full).
    package var colorRange: UInt32
    /// `AVColorSpace` raw value (matrix coefficients).
    package var colorSpace: UInt32
    /// `AVColorPrimaries` raw value (2 = unspecified).
    var colorPrimaries: UInt32 = AVCOL_PRI_UNSPECIFIED.rawValue
    /// `AVColorTransferCharacteristic` raw value (2 = unspecified: SDR).
    var colorTransfer: UInt32 = AVCOL_TRC_UNSPECIFIED.rawValue
    /// The brightest light the source reaches, cd/m² (``Composition/ColorProperties/peakLuminance``): the tone
    /// mapper's peak for HDR sources.
    var peakLuminance: Double = 1000

    package init(of frame: Frame) {
        width = frame.width
        height = frame.height
        pixelFormat = frame.format
        colorRange = frame.colorRange
        colorSpace = frame.colorSpace
        colorPrimaries = frame.colorPrimaries
        colorTransfer = frame.colorTransfer
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

    /// Bits per component of the pixel format (8 when unknown).
    var bitDepth: Int {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: pixelFormat)),
              descriptor.pointee.nb_components > 0 else { return 8 }
        return Int(descriptor.pointee.comp.0.depth)
    }

    /// Full range when stated, or implied by a JPEG pixel format (`yuvj420p`).
    package var isFullRange: Bool {
        colorRange == AVCOL_RANGE_JPEG.rawValue || pixelFormatName.hasPrefix("yuvj")
    }

    /// HLG or PQ by the transfer tag; anything else (unspecified included) is SDR.
    var dynamicRange: DynamicRange {
        switch AVColorTransferCharacteristic(rawValue: colorTransfer) {
        case AVCOL_TRC_ARIB_STD_B67: return .hlg
        case AVCOL_TRC_SMPTE2084: return .pq
        default: return .sdr
        }
    }

    /// True for a picture of SD height (below 720 lines): untagged, it is BT.601 (the players' convention).
    var isStandardDefinition: Bool { height < 720 }

    /// The YUV matrix by FFmpeg `scale` option name: as stated, else BT.709 for HD (height ≥ 720) and BT.601 for SD
    /// (the convention players use for untagged video); BT.2020 for an untagged HDR picture.
    package var matrixName: String {
        switch AVColorSpace(rawValue: colorSpace) {
        case AVCOL_SPC_BT709: return "bt709"
        case AVCOL_SPC_BT470BG: return "bt470"
        case AVCOL_SPC_SMPTE170M: return "smpte170m"
        case AVCOL_SPC_SMPTE240M: return "smpte240m"
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return "bt2020"
        case AVCOL_SPC_FCC: return "fcc"
        default: return dynamicRange != .sdr ? "bt2020" : isStandardDefinition ? "smpte170m" : "bt709"
        }
    }

    /// True when the picture is already in `canvas`'s format: 4:2:0 YUV at its bit depth, limited range, its
    /// matrix, and (for an HDR canvas) its transfer; an SDR canvas takes SDR pictures only.
    func isNative(on canvas: CanvasColor) -> Bool {
        let name = pixelFormatName
        guard name == canvas.pixelFormatName(alpha: false) || name == canvas.pixelFormatName(alpha: true),
              !isFullRange, dynamicRange == canvas.dynamicRange else { return false }
        return matrixName == canvas.scaleMatrixName
    }

    /// The picture described by a track's colour properties where they are stated (a loader's or a user's
    /// correction of a wrongly tagged file), the frame's own tags where they are `unknown`/unspecified; the peak
    /// luminance always from the description.
    func applying(_ color: ColorProperties) -> PictureFormat {
        var format = self
        switch color.range {
        case .full: format.colorRange = AVCOL_RANGE_JPEG.rawValue
        case .limited: format.colorRange = AVCOL_RANGE_MPEG.rawValue
        case .unspecified: break
        }
        let matrix = av_color_space_from_name(color.matrix)
        if matrix >= 0, matrix != AVCOL_SPC_UNSPECIFIED.rawValue { format.colorSpace = UInt32(matrix) }
        let primaries = av_color_primaries_from_name(color.primaries)
        if primaries >= 0, primaries != AVCOL_PRI_UNSPECIFIED.rawValue { format.colorPrimaries = UInt32(primaries) }
        let transfer = av_color_transfer_from_name(color.transfer)
        if transfer >= 0, transfer != AVCOL_TRC_UNSPECIFIED.rawValue { format.colorTransfer = UInt32(transfer) }
        format.peakLuminance = color.peakLuminance
        return format
    }
}

extension PictureFormat {
    /// An 8-bit SDR picture (yuv420p, limited, BT.709) at a size: the background's format.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixelFormat = AV_PIX_FMT_YUV420P.rawValue
        colorRange = AVCOL_RANGE_MPEG.rawValue
        colorSpace = AVCOL_SPC_BT709.rawValue
        colorPrimaries = AVCOL_PRI_BT709.rawValue
        colorTransfer = AVCOL_TRC_BT709.rawValue
    }
}
