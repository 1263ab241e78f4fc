import Composition
import SpliceFFmpeg
internal import CMedia

extension VideoSettings {
    /// The encoder configuration these settings give for `video`, stamped by `clock`, written into `fileType`:
    /// 4:2:0 at the plan's bit depth (ProRes: 4:2:2 10-bit; 10-bit H.264 is High 10, HEVC Main 10) tagged with the
    /// plan's colour space (x265 also gets the tags and, for PQ with sources that state it, the HDR10 SEI
    /// parameters `master-display`/`max-cll`; the container gets `mdcv`/`clli`), a key frame every
    /// `keyFrameInterval` frames (default
    /// 2 s, or `movieFragmentInterval` when shorter, so every movie fragment begins on time; FFV1: every frame), rate control as the settings say (CRF for x264/x265/VP9, else average bit rate),
    /// x264/x265 presets, libvpx's real-time mode for the fast presets, and `hvc1` for HEVC outside Matroska.
    /// A `segmentPart` (``SegmentPlan``) gets closed GOPs (`open-gop=0`), IDR key frames (`forced-idr`) and, for x264,
    /// headers that do not depend on the content (`stitchable=1`: every part gets the same SPS/PPS), so its first
    /// picture is an IDR and no picture refers across a join; the encoder's first picture is always a key frame.
    func encoderConfiguration(for video: VideoPlan, clock: EncoderClock, fileType: FileType,
                              segmentPart: Bool = false, movieFragmentInterval: MediaTime? = nil) -> EncoderConfiguration {
        var picture = EncoderConfiguration.Video(
            width: video.outputSize.width, height: video.outputSize.height,
            pixelFormat: codec == .prores ? AV_PIX_FMT_YUV422P10LE : video.color.pixelFormat, timeBase: clock.timeBase,
            frameRate: AVRational(num: video.frameDuration.timescale, den: Int32(clamping: video.frameDuration.value)))
        let tags = video.color.tags
        picture.color = tags
        picture.masteringDisplay = video.masteringDisplay
        picture.contentLightLevel = video.contentLightLevel
        let framesPerSecond = Double(video.frameDuration.timescale) / Double(video.frameDuration.value)
        var defaultInterval = max(1, Int((framesPerSecond * 2).rounded()))
        if let movieFragmentInterval {
            let framesPerFragment = movieFragmentInterval.seconds * framesPerSecond
            defaultInterval = min(defaultInterval, max(1, Int(framesPerFragment.rounded(.down))))
        }
        picture.keyFrameInterval = codec == .ffv1 ? 1 : (keyFrameInterval ?? defaultInterval)
        if codec == .hevc && fileType != .mkv { picture.codecTag = "hvc1" }

        var configuration = EncoderConfiguration(encoderName: codec.encoderName, media: .video(picture))
        configuration.threadCount = 0
        switch rateControl {
        case .constantQuality(let crf):
            if codec == .h264 || codec == .hevc || codec == .vp9 || codec == .av1 { configuration.options["crf"] = "\(crf)" }
        case .averageBitRate(let rate):
            configuration.bitRate = Int64(rate)
        }
        if codec == .h264 || codec == .hevc { configuration.options["preset"] = encoderPreset }
        if codec == .vp9 {
            // libvpx has no x264-style presets: map the fast ones to its real-time mode.
            let fast = ["ultrafast", "superfast", "veryfast", "faster", "fast"].contains(encoderPreset)
            configuration.options["deadline"] = fast ? "realtime" : "good"
            configuration.options["cpu-used"] = fast ? "8" : "2"
            configuration.options["row-mt"] = "1"
        }
        if codec == .av1 {
            // x264-style speed names onto SVT-AV1's presets (0 slowest … 13 fastest) or libaom's cpu-used (0 … 8).
            let speeds = ["ultrafast": 12, "superfast": 11, "veryfast": 10, "faster": 9, "fast": 8, "medium": 7, "slow": 5,
                          "slower": 4, "veryslow": 2]
            let speed = speeds[encoderPreset] ?? 7
            if configuration.encoderName == "libsvtav1" {
                configuration.options["preset"] = "\(speed)"
            } else {
                configuration.options["cpu-used"] = "\(min(8, speed - 4 < 0 ? 0 : speed - 4))"
                configuration.options["row-mt"] = "1"
            }
        }
        if video.color.bitDepth > 8 {
            if codec == .h264 { configuration.options["profile"] = "high10" }
            if codec == .hevc { configuration.options["profile"] = "main10" }
        }
        // ProRes 422 HQ (`apch`), as AVFoundation's ProRes 422 HQ preset, whatever prores_ks's default.
        if codec == .prores { configuration.options["profile"] = "hq" }
        if codec == .hevc {
            var parameters = segmentPart ? ["log-level=error", "open-gop=0"] : ["log-level=error"]
            if video.color.isHDR {
                let names = tags.names
                parameters += ["colorprim=\(names.primaries)", "transfer=\(names.transfer)",
                               "colormatrix=\(names.matrix)", "range=limited"]
                if video.masteringDisplay != nil || video.contentLightLevel != nil {
                    parameters += ["hdr10=1", "repeat-headers=1"]
                }
                if let display = video.masteringDisplay { parameters.append("master-display=\(display.x265Parameter)") }
                if let level = video.contentLightLevel {
                    parameters.append("max-cll=\(level.maxContentLightLevel),\(level.maxFrameAverageLightLevel)")
                }
            }
            configuration.options["x265-params"] = parameters.joined(separator: ":")
        }
        if segmentPart && codec == .h264 {
            configuration.options["x264-params"] = "open-gop=0:stitchable=1"
            configuration.options["forced-idr"] = "1"
        }
        return configuration
    }
}

extension VideoSettings {
    /// The encoder configuration these settings give for pictures of `size` pixels stamped in 1/`timeScale` second
    /// units, at a nominal
    /// `frameDuration` (the encoder's frame rate, and the default key-frame interval of 2 seconds' worth), written into
    /// `fileType`: the same choices as an export's (``encoderConfiguration(for:clock:fileType:segmentPart:)``) on an
    /// SDR BT.709 canvas of ``bitDepth`` bits (8 when nil). For writers that are handed pictures rather than a
    /// composition (AssetIO's `AssetWriterInput`).
    package func encoderConfiguration(size: Size, frameDuration: MediaTime, timeScale: Int32,
                                      fileType: FileType) -> EncoderConfiguration {
        var plan = VideoPlan(renderSize: size, outputSize: size, frameDuration: frameDuration, duration: frameDuration,
                             tracks: [], instructions: [])
        plan.color = CanvasColor(dynamicRange: .sdr, bitDepth: bitDepth ?? 8)
        let clock = EncoderClock(timeBase: AVRational(num: 1, den: timeScale), ticksPerFrame: 1, lastFramePTS: -1, lastFrameDuration: 1)
        return encoderConfiguration(for: plan, clock: clock, fileType: fileType)
    }
}

extension AudioSettings {
    /// The encoder configuration these settings give for `channelCount` channels at `sampleRate` Hz (the export's
    /// choices, ``encoderConfiguration(for:)``), for writers handed sound rather than a composition.
    package func encoderConfiguration(sampleRate: Int, channelCount: Int) -> EncoderConfiguration {
        encoderConfiguration(for: AudioOutputFormat(sampleRate: sampleRate, channelCount: channelCount))
    }

    /// The encoder configuration these settings give for audio in `format`: planar float (PCM: 16-bit
    /// interleaved; Opus: interleaved float), the settings' bit rate (PCM: none).
    func encoderConfiguration(for format: AudioOutputFormat) -> EncoderConfiguration {
        let sampleFormat: AVSampleFormat = switch codec {
        case .pcm: AV_SAMPLE_FMT_S16
        case .opus: AV_SAMPLE_FMT_FLT
        default: AV_SAMPLE_FMT_FLTP
        }
        var configuration = EncoderConfiguration(
            encoderName: codec.encoderName,
            media: .audio(.init(sampleRate: format.sampleRate, sampleFormat: sampleFormat, channelCount: format.channelCount)))
        if codec != .pcm { configuration.bitRate = Int64(bitRate) }
        return configuration
    }
}
