import Composition
import Foundation

extension CaptureDevice {
    /// One way a device can deliver media (AVFoundation's `AVCaptureDevice.Format`): a picture size, pixel format
    /// and frame-rate ranges for video (from V4L2's `VIDIOC_ENUM_FMT`, `_FRAMESIZES`, `_FRAMEINTERVALS`), or a
    /// sample rate and channel count for sound.
    public struct Format: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Video or audio.
        public var mediaType: MediaType
        /// The pixel format as a FourCC (`YUYV`, `MJPG`, `H264`) or FFmpeg's name (`yuv420p`, `bgr0`); empty for audio.
        public var pixelFormat: String
        /// Picture width in pixels (0 for audio).
        public var width: Int
        /// Picture height in pixels (0 for audio).
        public var height: Int
        /// The frame rates the format supports (empty for audio).
        public var frameRateRanges: [FrameRateRange]
        /// Samples per second (0 for video).
        public var sampleRate: Int
        /// Channels (0 for video).
        public var channelCount: Int

        /// A video format: `width` × `height` pixels of `pixelFormat` at the rates in `frameRateRanges`.
        public init(pixelFormat: String, width: Int, height: Int, frameRateRanges: [FrameRateRange]) {
            mediaType = .video
            self.pixelFormat = pixelFormat
            self.width = width
            self.height = height
            self.frameRateRanges = frameRateRanges
            sampleRate = 0
            channelCount = 0
        }

        /// An audio format: `channelCount` channels at `sampleRate` Hz.
        public init(sampleRate: Int, channelCount: Int) {
            mediaType = .audio
            pixelFormat = ""
            width = 0
            height = 0
            frameRateRanges = []
            self.sampleRate = sampleRate
            self.channelCount = channelCount
        }

        /// The highest frame rate of any range, frames per second (0 for audio).
        public var maxFrameRate: Double { frameRateRanges.map(\.maxFrameRate).max() ?? 0 }

        /// `1280x720 MJPG 5–30 fps` or `48000 Hz 2 ch`.
        public var description: String {
            if mediaType == .audio { return "\(sampleRate) Hz \(channelCount) ch" }
            let rates = frameRateRanges.map(\.description).joined(separator: ", ")
            return "\(width)x\(height) \(pixelFormat) \(rates)"
        }
    }

    /// A range of frame rates (AVFoundation's `AVFrameRateRange`); a discrete rate has equal ends.
    public struct FrameRateRange: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The shortest time between frames (1 / ``maxFrameRate``), exact.
        public var minFrameDuration: MediaTime
        /// The longest time between frames (1 / ``minFrameRate``), exact.
        public var maxFrameDuration: MediaTime

        /// A range between two frame durations (seconds per frame, exact rationals as V4L2's `v4l2_fract`).
        public init(minFrameDuration: MediaTime, maxFrameDuration: MediaTime) {
            self.minFrameDuration = minFrameDuration
            self.maxFrameDuration = maxFrameDuration
        }

        /// One rate: `numerator / denominator` frames per second (30/1, 30000/1001).
        public init(framesPerSecond numerator: Int32, over denominator: Int32 = 1) {
            let duration = MediaTime(value: Int64(denominator), timescale: numerator)
            self.init(minFrameDuration: duration, maxFrameDuration: duration)
        }

        /// Frames per second at the shortest frame duration.
        public var maxFrameRate: Double { 1 / minFrameDuration.seconds }
        /// Frames per second at the longest frame duration.
        public var minFrameRate: Double { 1 / maxFrameDuration.seconds }

        /// `30 fps` or `5–30 fps`.
        public var description: String {
            func text(_ rate: Double) -> String {
                rate == rate.rounded() ? String(Int(rate)) : String(format: "%.3f", rate)
            }
            return minFrameDuration == maxFrameDuration
                ? "\(text(maxFrameRate)) fps" : "\(text(minFrameRate))–\(text(maxFrameRate)) fps"
        }
    }
}
