import Composition
import VideoComposition
internal import CMedia

extension FilterGraphCompiler {
    /// Why an adjustment effect of `parameter` cannot be drawn on the 10-bit HDR canvas, or nil when it can. (A 10-bit SDR canvas draws effects
    /// at 8 bits, as before HDR effects existed: its pictures are converted to 8-bit BT.709 for them.)
    ///
    /// Measured on FFmpeg 5.1 (which formats each filter takes without an automatic conversion): `eq` (brightness,
    /// contrast, saturation) and `vignette` take 8-bit formats only, so they would drop a 10-bit picture to 8 bits;
    /// `exposure` takes 32-bit float RGB, `colortemperature` and `lut3d` 16-bit planar RGB, `gblur` and `unsharp`
    /// 10-bit YUV — those are drawn at full depth.
    /// A lookup table (`lut3d`) is always drawable.
    static func highBitDepthRefusal(of parameter: VideoEffectParameter) -> String? {
        switch parameter {
        case .brightness, .contrast, .saturation:
            return "the \(parameter.rawValue) effect uses FFmpeg 5.1's eq, which works on 8-bit pictures only"
        case .vignette:
            return "the vignette effect uses FFmpeg 5.1's vignette, which works on 8-bit pictures only"
        case .exposure, .temperature, .blur, .sharpen:
            return nil
        }
    }

    /// The planar RGB format effects that need RGB run in on `color` (`lut3d`, `colortemperature`): 8-bit on an
    /// SDR canvas, 16-bit on an HDR one, with alpha when the picture has it.
    static func effectRGBFormat(alpha: Bool, color: CanvasColor) -> String {
        (alpha ? "gbrap" : "gbrp") + (color.isHDR ? "16le" : "")
    }

    /// The picture effects leave: on an HDR canvas, the canvas's own 10-bit 4:2:0 format (with alpha when the
    /// picture has it), limited range, BT.2020 with its transfer — so the layer's conversion into the canvas after
    /// them is nothing; on an SDR canvas, 8-bit BT.709 as always.
    static func effectOutputFormat(width: Int, height: Int, alpha: Bool, color: CanvasColor) -> PictureFormat {
        var format = PictureFormat(width: width, height: height)
        let tags = color.isHDR ? color.tags : .bt709
        format.colorRange = tags.range.rawValue
        format.colorSpace = tags.matrix.rawValue
        format.colorPrimaries = tags.primaries.rawValue
        format.colorTransfer = tags.transfer.rawValue
        switch (alpha, color.isHDR) {
        case (false, false): format.pixelFormat = AV_PIX_FMT_YUV420P.rawValue
        case (true, false): format.pixelFormat = AV_PIX_FMT_YUVA420P.rawValue
        case (false, true): format.pixelFormat = AV_PIX_FMT_YUV420P10LE.rawValue
        case (true, true): format.pixelFormat = AV_PIX_FMT_YUVA420P10LE.rawValue
        }
        return format
    }
}
