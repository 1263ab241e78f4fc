import SpliceFFmpeg
import Foundation
internal import CMedia

/// Encoder settings for the pieces smart rendering re-encodes between copied H.264 or HEVC packets, so that one
/// stream holds both: the same profile and level (HEVC: and tier) as the copied source, the export's canvas (4:2:0 at
/// its bit depth, its colour tags and VUI, square pixels), every piece starting with an IDR picture and closed
/// (`open-gop=0`, `forced-idr`), no B-frames (presentation order is decoding order, so the pieces take the copied
/// source's decoding delay without reordering), and the parameter sets written in-band before every key frame
/// (`repeat-headers=1`). H.264 (x264): under an SPS/PPS id the source does not use (`sps-id`; x264 gives the PPS the
/// same id), so a decoder holds both sets at once. HEVC (x265): x265 always writes VPS/SPS/PPS id 0, so a piece
/// replaces the source's sets at its IDR picture and the copied piece after it resends the source's own
/// (``SmartRenderParameterSets``) — a replacement the standard allows at an IDR picture.
/// H.264 pieces' quality is matched to the copied source (a CRF from its bits per pixel), not taken from the
/// export's rate control: the copied spans keep the source's quality, and the re-encoded ones must not stand out.
///
/// ``SmartRenderWriter`` joins the pieces encoded with them and the copied packets (docs/smart-rendering.md); the
/// settings are checked against x264's and x265's output by the tests.
enum SmartRenderEncoding {
    /// The x264 CRF that re-encodes a source of `bitsPerPixel` (its packets' bits ÷ (pictures × width × height))
    /// at ≥ 40 dB PSNR against the render: 17 − 4 · log2(bitsPerPixel / 0.1), rounded, within 12…22. A source
    /// spending more bits per pixel holds more detail (or noise) that the re-encoded pieces must keep, so it gets a
    /// lower CRF. Measured (x264 medium, RGB PSNR of the worst frame against the render with a text title): testsrc2
    /// 320 × 240 from x264 veryfast CRF 23 (0.138 bits per pixel → CRF 15; CRF 16 gives 41.8 dB, 18 gives 40.0, 20
    /// gives 38.6) and phone footage M09 (1080p30, 0.057 → CRF 20: 45.4 dB, at 1.3× the source's bit rate).
    static func constantRateFactor(bitsPerPixel: Double) -> Int {
        guard bitsPerPixel > 0, bitsPerPixel.isFinite else { return 22 }
        return min(22, max(12, Int((17 - 4 * log2(bitsPerPixel / 0.1)).rounded())))
    }

    /// The x264 presets from the fastest to the slowest, as x264 names them.
    static let x264Presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The x264 preset of H.264 pieces encoded at a matched CRF (``constantRateFactor(bitsPerPixel:)``): `faster`,
    /// or the export's own preset when that is faster still. The CRF sets the quality; the preset mostly sets how
    /// hard x264 searches for the bits that reach it, and the matched CRF's bits are ample: measured (x264 at CRF
    /// 15, no B-frames, YUV PSNR of the worst frame against the input), `faster` costs 0.5–0.6 × `medium`'s CPU
    /// time for 0.7–0.9 dB less (testsrc2 320 × 240: 46.6 vs 47.5 dB at 602 vs 595 kb/s; 720p with temporal
    /// noise: 50.5 vs 51.2 dB at 6.9 vs 7.0 Mb/s), while `veryfast` loses 1.9–2.0 dB.
    /// - Parameter exportPreset: the export's ``VideoSettings/encoderPreset``.
    /// - Returns: an x264 preset name.
    static func x264Preset(exportPreset: String) -> String {
        let faster = x264Presets.firstIndex(of: "faster") ?? 3
        guard let own = x264Presets.firstIndex(of: exportPreset), own < faster else { return "faster" }
        return exportPreset
    }

    /// Why the pieces cannot be matched to `source`, or nil when they can.
    static func mismatch(_ source: JoinableStreamParameters, video: VideoPlan) -> String? {
        if source.codec == .hevc {
            guard source.x265Profile != nil else {
                return "HEVC general_profile_idc \(source.profile) cannot be encoded by x265 here (Main and Main 10 only)"
            }
            if (source.profile == 2) != (video.color.bitDepth > 8) {
                return "HEVC profile \(source.profile == 2 ? "Main 10" : "Main") does not match the output's \(video.color.bitDepth)-bit canvas"
            }
            return nil
        }
        guard source.x264Profile != nil else { return "H.264 profile_idc \(source.profile) cannot be encoded by x264" }
        if (source.profile == 110) != (video.color.bitDepth > 8) {
            return "profile_idc \(source.profile) does not match the output's \(video.color.bitDepth)-bit canvas"
        }
        guard source.freeParameterSetID != nil else { return "the source uses every SPS id (0…31)" }
        return nil
    }
}
