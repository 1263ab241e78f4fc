import Composition
package import CMedia

extension MasteringDisplay {
    /// The description in FFmpeg's struct, or nil when it states neither primaries nor luminance
    /// (`has_primaries`, `has_luminance`). Primaries are stored red, green, blue (FFmpeg's order).
    package init?(_ metadata: AVMasteringDisplayMetadata) {
        guard metadata.has_primaries != 0 || metadata.has_luminance != 0 else { return nil }
        func value(_ rational: AVRational) -> Double { rational.den == 0 ? 0 : av_q2d(rational) }
        let p = metadata.display_primaries
        self.init(
            red: Chromaticity(x: value(p.0.0), y: value(p.0.1)), green: Chromaticity(x: value(p.1.0), y: value(p.1.1)),
            blue: Chromaticity(x: value(p.2.0), y: value(p.2.1)),
            whitePoint: Chromaticity(x: value(metadata.white_point.0), y: value(metadata.white_point.1)),
            minLuminance: value(metadata.min_luminance), maxLuminance: value(metadata.max_luminance))
    }

    /// FFmpeg's struct for this description: chromaticities in 1/50000 and luminance in 1/10000 cd/m² (the units
    /// of HEVC's SEI and of MP4's `mdcv` box), both flags set.
    package var ffmpegValue: AVMasteringDisplayMetadata {
        func chroma(_ value: Double) -> AVRational { AVRational(num: Int32((value * 50_000).rounded()), den: 50_000) }
        func luminance(_ value: Double) -> AVRational { AVRational(num: Int32(clamping: Int((value * 10_000).rounded())), den: 10_000) }
        var metadata = AVMasteringDisplayMetadata()
        metadata.display_primaries = ((chroma(red.x), chroma(red.y)), (chroma(green.x), chroma(green.y)),
                                      (chroma(blue.x), chroma(blue.y)))
        metadata.white_point = (chroma(whitePoint.x), chroma(whitePoint.y))
        metadata.min_luminance = luminance(minLuminance)
        metadata.max_luminance = luminance(maxLuminance)
        metadata.has_primaries = 1
        metadata.has_luminance = 1
        return metadata
    }

    /// x265's `master-display` parameter: `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)`, chromaticities in 1/50000 and
    /// luminance in 1/10000 cd/m² (x265's documented units).
    package var x265Parameter: String {
        func c(_ point: Chromaticity) -> String { "(\(Int((point.x * 50_000).rounded())),\(Int((point.y * 50_000).rounded())))" }
        return "G\(c(green))B\(c(blue))R\(c(red))WP\(c(whitePoint))"
            + "L(\(Int((maxLuminance * 10_000).rounded())),\(Int((minLuminance * 10_000).rounded())))"
    }
}

extension ContentLightLevel {
    /// The level in FFmpeg's struct (`MaxCLL`, `MaxFALL`).
    package init(_ metadata: AVContentLightMetadata) {
        self.init(maxContentLightLevel: Int(metadata.MaxCLL), maxFrameAverageLightLevel: Int(metadata.MaxFALL))
    }

    /// FFmpeg's struct for this level (values clamped to 0 ... 65535 cd/m², the field width).
    package var ffmpegValue: AVContentLightMetadata {
        AVContentLightMetadata(MaxCLL: UInt32(min(max(maxContentLightLevel, 0), 65_535)),
                               MaxFALL: UInt32(min(max(maxFrameAverageLightLevel, 0), 65_535)))
    }
}

extension Frame {
    /// The picture's mastering display side data (`AV_FRAME_DATA_MASTERING_DISPLAY_METADATA`, decoded from the
    /// HEVC SEI), nil when absent.
    package var masteringDisplay: MasteringDisplay? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
              side.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size else { return nil }
        return MasteringDisplay(UnsafeRawPointer(side.pointee.data).loadUnaligned(as: AVMasteringDisplayMetadata.self))
    }

    /// The picture's content light level side data (`AV_FRAME_DATA_CONTENT_LIGHT_LEVEL`), nil when absent.
    package var contentLightLevel: ContentLightLevel? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
              side.pointee.size >= MemoryLayout<AVContentLightMetadata>.size else { return nil }
        return ContentLightLevel(UnsafeRawPointer(side.pointee.data).loadUnaligned(as: AVContentLightMetadata.self))
    }
}
