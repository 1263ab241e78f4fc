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
    /// What the re-encoded pieces must match, read from the copied source's `avcC` or `hvcC` decoder configuration.
    struct SourceParameters: Hashable, Sendable {
        /// The source's codec: H.264 (from `avcC`) or HEVC (from `hvcC`).
        var codec: VideoSettings.Codec = .h264
        /// H.264 `profile_idc` (66 Baseline, 77 Main, 100 High, 110 High 10); HEVC `general_profile_idc` (1 Main,
        /// 2 Main 10).
        var profile: Int
        /// H.264 `level_idc` (level × 10: 40 is level 4.0); HEVC `general_level_idc` (level × 30: 123 is 4.1).
        var level: Int
        /// The `seq_parameter_set_id`s of the source's SPS (PPS ids follow x264's rule of the same id); HEVC: [0]
        /// (x265 always writes id 0: its pieces replace the source's sets in-band, ``SmartRenderParameterSets``).
        var parameterSetIDs: Set<Int>
        /// HEVC `general_tier_flag`: true for the High tier.
        var highTier = false
        /// x264's CRF for the pieces, matched to the copied groups' bits per pixel
        /// (``constantRateFactor(bitsPerPixel:)``); nil: the export's own rate control.
        var constantRateFactor: Int? = nil

        /// The first parameter-set id (0…31) the source does not use.
        var freeParameterSetID: Int? { (0..<32).first { !parameterSetIDs.contains($0) } }

        /// x264's `profile` option for ``profile``, or nil when x264 cannot encode it.
        var x264Profile: String? {
            switch profile {
            case 66: return "baseline"
            case 77: return "main"
            case 100: return "high"
            case 110: return "high10"
            default: return nil
            }
        }

        /// x264's `level` option for ``level`` ("4.0", "3.1", "1b" is not handled).
        var x264Level: String { "\(level / 10).\(level % 10)" }

        /// Reads an `avcC` record (ISO/IEC 14496-15 §5.3.3.1): the profile and level bytes, then each SPS's id.
        /// - Returns: nil for anything but an `avcC` with at least one SPS (Annex B extradata, HEVC).
        init?(avcC data: [UInt8]) {
            guard data.count > 8, data[0] == 1 else { return nil }
            profile = Int(data[1])
            level = Int(data[3])
            let count = Int(data[5] & 0x1F)
            var offset = 6
            var ids: Set<Int> = []
            for _ in 0..<count {
                guard offset + 2 <= data.count else { return nil }
                let length = Int(data[offset]) << 8 | Int(data[offset + 1])
                offset += 2
                guard length > 4, offset + length <= data.count else { return nil }
                // NAL header, profile_idc, constraint flags, level_idc, then seq_parameter_set_id as ue(v).
                guard let id = Self.exponentialGolomb(Array(data[(offset + 4)..<(offset + length)])) else { return nil }
                ids.insert(id)
                offset += length
            }
            guard !ids.isEmpty else { return nil }
            parameterSetIDs = ids
        }

        /// Reads an `hvcC` record (ISO/IEC 14496-15 §8.3.3.1): `general_tier_flag` and `general_profile_idc`
        /// (byte 1), `general_level_idc` (byte 12).
        /// - Returns: nil for anything but an `hvcC` record.
        init?(hvcC data: [UInt8]) {
            guard data.count >= 23, data[0] == 1 else { return nil }
            codec = .hevc
            profile = Int(data[1] & 0x1F)
            highTier = data[1] & 0x20 != 0
            level = Int(data[12])
            parameterSetIDs = [0]
        }

        /// A described source (tests).
        init(codec: VideoSettings.Codec = .h264, profile: Int, level: Int, parameterSetIDs: Set<Int>, highTier: Bool = false) {
            self.codec = codec
            self.profile = profile
            self.level = level
            self.parameterSetIDs = parameterSetIDs
            self.highTier = highTier
        }

        /// x265's `profile` option for an HEVC ``profile`` (1 `main`, 2 `main10`), or nil.
        var x265Profile: String? {
            guard codec == .hevc else { return nil }
            switch profile {
            case 1: return "main"
            case 2: return "main10"
            default: return nil
            }
        }

        /// x265's `level-idc` for an HEVC ``level`` ("4.1" for 123).
        var x265Level: String { "\(level / 30).\(level % 30 / 3)" }

        /// The first unsigned exponential-Golomb code (`ue(v)`, H.264 §9.1) at the start of `bits`.
        static func exponentialGolomb(_ bytes: [UInt8]) -> Int? {
            var position = 0
            func bit() -> Int? {
                guard position / 8 < bytes.count else { return nil }
                defer { position += 1 }
                return Int(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
            }
            var zeros = 0
            while let next = bit(), next == 0 {
                zeros += 1
                if zeros > 31 { return nil }
            }
            var value = 1
            for _ in 0..<zeros {
                guard let next = bit() else { return nil }
                value = value << 1 | next
            }
            return value - 1
        }
    }

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

    /// Why the pieces cannot be matched to `source`, or nil when they can.
    static func mismatch(_ source: SourceParameters, video: VideoPlan) -> String? {
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

    /// The configuration for a re-encoded piece of `video`, matched to `source` (check ``mismatch(_:video:)``
    /// first: a source that does not match gets the export's own H.264 settings).
    static func configuration(
        _ settings: VideoSettings, video: VideoPlan, clock: EncoderClock, fileType: FileType, source: SourceParameters
    ) -> EncoderConfiguration {
        var configuration = settings.encoderConfiguration(for: video, clock: clock, fileType: fileType)
        if source.codec == .hevc {
            if let profile = source.x265Profile { configuration.options["profile"] = profile }
            configuration.options["forced-idr"] = "1"
            let matched = ["open-gop=0", "bframes=0", "repeat-headers=1", "level-idc=\(source.x265Level)",
                           "high-tier=\(source.highTier ? 1 : 0)"]
            let own = configuration.options["x265-params"].map { [$0] } ?? []
            configuration.options["x265-params"] = (own + matched).joined(separator: ":")
            return configuration
        }
        if let profile = source.x264Profile { configuration.options["profile"] = profile }
        configuration.options["level"] = source.x264Level
        configuration.options["forced-idr"] = "1"
        if let crf = source.constantRateFactor {
            configuration.options["crf"] = "\(crf)"
            configuration.bitRate = 0
        }
        let id = source.freeParameterSetID ?? 0
        configuration.options["x264-params"] = "open-gop=0:bframes=0:repeat-headers=1:sps-id=\(id)"
        return configuration
    }
}
