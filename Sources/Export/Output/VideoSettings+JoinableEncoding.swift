import SpliceFFmpeg
import Foundation

extension VideoSettings {
    /// The configuration for `video` encoded to be joined into the stream `source` describes (check
    /// ``SmartRenderEncoding/mismatch(_:video:)`` first: a source that does not match gets these settings' own
    /// H.264 options): its profile and level (HEVC: and tier), every picture group closed and starting with an IDR
    /// picture, no B-frames, the parameter sets in-band before every key frame, under a parameter-set id the source
    /// does not use (x264), and the source's quality (``JoinableStreamParameters/constantRateFactor``, encoded with
    /// ``JoinableStreamParameters/x264Preset``).
    func encoderConfiguration(
        for video: VideoPlan, clock: EncoderClock, fileType: FileType, joining source: JoinableStreamParameters
    ) -> EncoderConfiguration {
        var configuration = encoderConfiguration(for: video, clock: clock, fileType: fileType)
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
            if let preset = source.x264Preset { configuration.options["preset"] = preset }
            configuration.bitRate = 0
        }
        let id = source.freeParameterSetID ?? 0
        configuration.options["x264-params"] = "open-gop=0:bframes=0:repeat-headers=1:sps-id=\(id)"
        return configuration
    }
}
