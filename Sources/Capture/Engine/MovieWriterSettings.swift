import Composition
import Foundation
import SpliceFFmpeg

/// What a ``MovieWriter`` writes: the file, the streams and the limits, in the session's units (microseconds, bytes).
struct MovieWriterSettings: Sendable {
    /// Where the encoded streams go.
    enum Destination: Sendable {
        /// A crash-safe movie file at ``MovieWriterSettings/url`` (claimed with `O_EXCL`, fragmented, rewritten as a
        /// regular movie at the end).
        case movieFile
        /// No file: the encoders' packets only go to a live stream (``EncodingMuxer/mirror(to:)``), through FFmpeg's
        /// `null` muxer.
        case liveStream
    }

    /// A live stream's constraints on the encoders: constant bit rates (bits per second) with a VBV buffer of one
    /// second, and a key frame every `keyFrameInterval` frames (no scene-cut key frames).
    struct StreamRateControl: Sendable, Hashable {
        var videoBitRate: Int
        var audioBitRate: Int
        var keyFrameInterval: Int
    }

    var url: URL
    var destination: Destination = .movieFile
    /// The live stream's constraints, for a stream's own encoders and for a recording whose encoders a stream shares;
    /// nil for a recording's defaults (x264 CRF 23, a key frame every second, AAC at 128 kb/s).
    var rateControl: StreamRateControl?
    /// Pixels and frames per second of the video stream; nil without video.
    var video: (width: Int, height: Int, frameRate: Int32)?
    /// Samples per second of the (stereo) audio stream; nil without audio.
    var audioSampleRate: Int?
    /// Movie time at which to stop, µs; nil for none.
    var maxDuration: Int64?
    /// Bytes the finished file may not exceed; nil for none.
    var maxFileSize: Int64?
    /// Free bytes below which recording stops; nil for none.
    var minFreeDiskSpace: Int64?
    /// Fragment length after the first, µs.
    var fragmentInterval: Int64
    /// The first fragment's length, µs.
    var initialFragmentInterval: Int64
    /// The video track's display matrix (the connection's orientation and mirroring), nil for none.
    var displayMatrix: [Int32]? = nil
    /// The audio connection's channels, whose ``CaptureAudioChannel/volume`` is applied to the recorded sound
    /// (read for every block of 1024 samples); empty for none.
    var audioChannels: [CaptureAudioChannel] = []
    /// Container items (`title`, `creation_time`, `location`, then the others), in order, written by SpliceFFmpeg's
    /// `ContainerMetadata` rule.
    var metadata: [MetadataItem] = []
}
