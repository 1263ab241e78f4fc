import SpliceFFmpeg
import Composition
import Foundation
import VideoComposition

extension ExportPlanner {
    /// The colour space an export (or, with `settings` nil, the image generator) composites in: the video
    /// composition's colour fields where set, else the rule of ``VideoComposition/MutableVideoComposition/colorPrimaries``
    /// — HDR (BT.2020, 10-bit; PQ when every HDR source is PQ, else HLG) when every video source is HDR and the
    /// output can carry 10 bits, else SDR BT.709 at the settings' bit depth (8 by default).
    ///
    /// - Parameters:
    ///   - sources: the source tracks of the exported range's video segments.
    ///   - keepsHDR: with `settings` nil (the image generator), whether the output can carry HDR (`.matchSource`:
    ///     16-bit RGBA); false renders SDR unless the fields ask for HDR.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for a colour space Splice does not render (BT.709 primaries
    ///   with an HDR transfer, BT.2020 with BT.709), a bit depth other than 8 or 10, or HDR at 8 bits.
    static func canvasColor(for videoComposition: MutableVideoComposition, sources: [AssetTrack],
                            settings: VideoSettings?, keepsHDR: Bool = false) throws -> CanvasColor {
        if let depth = settings?.bitDepth, depth != 8, depth != 10 {
            throw ExportError.unsupportedSettings("bitDepth \(depth): 8 or 10 bits per component")
        }
        let videos = sources.compactMap(\.video)
        let ranges = videos.map { $0.isStillImage ? DynamicRange.sdr : $0.color.dynamicRange }
        let canCarry10Bits: Bool
        if let settings {
            canCarry10Bits = settings.bitDepth == 10
                || (settings.bitDepth == nil && [.hevc, .prores, .ffv1].contains(settings.codec))
        } else {
            canCarry10Bits = keepsHDR
        }
        let dynamicRange: DynamicRange
        let primaries = videoComposition.colorPrimaries, matrix = videoComposition.colorYCbCrMatrix
        switch videoComposition.colorTransferFunction {
        case .itu709?: dynamicRange = .sdr
        case .hlg?: dynamicRange = .hlg
        case .pq?: dynamicRange = .pq
        case nil:
            if primaries == .itu2020 || matrix == .itu2020 {
                dynamicRange = .hlg
            } else if primaries != nil || matrix != nil {
                dynamicRange = .sdr
            } else if !ranges.isEmpty, !ranges.contains(.sdr), canCarry10Bits {
                dynamicRange = ranges.allSatisfy { $0 == .pq } ? .pq : .hlg
            } else {
                dynamicRange = .sdr
            }
        }
        let wide: VideoColorPrimaries = dynamicRange == .sdr ? .itu709 : .itu2020
        if let primaries, primaries != wide {
            throw ExportError.unsupportedSettings(
                "colorPrimaries \(primaries.rawValue) with a \(dynamicRange.displayName) transfer: Splice renders BT.709 "
                    + "with the BT.709 transfer and BT.2020 with HLG or PQ")
        }
        if let matrix, matrix.rawValue != wide.rawValue {
            throw ExportError.unsupportedSettings(
                "colorYCbCrMatrix \(matrix.rawValue) with a \(dynamicRange.displayName) transfer: Splice renders BT.709 "
                    + "with the BT.709 transfer and BT.2020 with HLG or PQ")
        }
        guard let settings else { return CanvasColor(dynamicRange: dynamicRange, bitDepth: dynamicRange == .sdr ? 8 : 10) }
        if dynamicRange != .sdr, settings.bitDepth == 8 {
            throw ExportError.unsupportedSettings("an HDR (\(dynamicRange.rawValue)) composition needs bitDepth 10, not 8")
        }
        return CanvasColor(dynamicRange: dynamicRange, bitDepth: settings.bitDepth ?? (dynamicRange == .sdr ? 8 : 10))
    }

    /// Refuses a picture format the linked encoder does not take — 10-bit H.264 (High 10) from a libx264 built for
    /// 8 bits only, above all — before any file is opened, rather than letting the encoder fail mid-export.
    ///
    /// - Parameters:
    ///   - format: FFmpeg's name of the pictures the graph hands the encoder (`yuv420p10le`).
    ///   - pixelFormats: the formats an encoder takes (``MediaLibrary/pixelFormats(ofEncoder:)``; tests pass
    ///     another to act as an 8-bit-only libx264). An encoder that declares none is trusted.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the encoder, the format and the formats it takes.
    static func checkEncoder(of codec: VideoSettings.Codec, accepts format: String,
                             pixelFormats: (String) -> [String]? = MediaLibrary.pixelFormats(ofEncoder:)) throws {
        let name = codec.encoderName
        guard let accepted = pixelFormats(name), !accepted.contains(format) else { return }
        let advice = codec == .h264 && format.contains("10")
            ? "H.264 High 10 needs a libx264 built with 10-bit support; use hevc (Main 10), or bitDepth 8 with an SDR "
                + "composition"
            : "choose another codec or bit depth"
        throw ExportError.unsupportedSettings(
            "the linked \(name) cannot encode \(format) pictures (it takes \(accepted.joined(separator: ", "))): \(advice)")
    }

    /// The HDR10 static metadata an HDR export carries over: for a PQ output, the first source's mastering display
    /// and the largest MaxCLL and MaxFALL any source states; nil for HLG and SDR (HLG needs none, and iPhones
    /// write none).
    static func hdrMetadata(of sources: [AssetTrack], color: CanvasColor)
        -> (masteringDisplay: MasteringDisplay?, contentLightLevel: ContentLightLevel?) {
        guard color.dynamicRange == .pq else { return (nil, nil) }
        let colors = sources.compactMap { $0.video?.color }.filter { $0.dynamicRange != .sdr }
        let levels = colors.compactMap(\.contentLightLevel)
        let level = levels.isEmpty ? nil : ContentLightLevel(
            maxContentLightLevel: levels.map(\.maxContentLightLevel).max() ?? 0,
            maxFrameAverageLightLevel: levels.map(\.maxFrameAverageLightLevel).max() ?? 0)
        return (colors.lazy.compactMap(\.masteringDisplay).first, level)
    }

    /// The filters converting between colour spaces need: `zscale` (libzimg) for any HDR picture or HDR canvas,
    /// `tonemap` for an HDR source on an SDR canvas. FFmpeg builds them only with `--enable-libzimg`; Splice has no
    /// fallback (FFmpeg's `colorspace` filter knows neither HLG nor PQ), so a build without them is refused up front.
    static func colorFilters(canvas: CanvasColor, sources: [AssetTrack]) -> [String] {
        let hdrSource = sources.contains { !($0.video?.isStillImage ?? true) && $0.video?.color.dynamicRange != .sdr }
        var names: [String] = []
        if canvas.isHDR || hdrSource { names.append("zscale") }
        if !canvas.isHDR && hdrSource { names.append("tonemap") }
        return names
    }
}
