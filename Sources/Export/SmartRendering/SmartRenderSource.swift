import Composition

/// What smart rendering needs to know about one source video stream, as plain data: its codec and picture format
/// (from ``AssetTrack``) and its groups of pictures in decoding order (from ``GroupOfPicturesScan``, which reads
/// the packets without decoding). Tests build it by hand.
struct SmartRenderSource: Sendable, Hashable {
    /// One group of pictures: a key frame and every packet after it in decoding order up to the next key frame.
    struct Group: Sendable, Hashable {
        /// Presentation time of the key frame (source time, seconds from the track's start).
        var keyFrameTime: MediaTime
        /// Earliest presentation time of the group's pictures: before ``keyFrameTime`` when the group has leading
        /// pictures (shown before the key frame, decoded after it — an open GOP's B-frames).
        var start: MediaTime
        /// End of the group's last picture in presentation order (its time plus its duration).
        var end: MediaTime
        /// Pictures (packets) in the group.
        var frameCount: Int
        /// True when the key frame is an IDR picture (H.264 NAL type 5, HEVC 19 or 20): decoding can start there.
        var startsWithIDR: Bool
        /// True when the key frame is an HEVC CRA picture (NAL type 21): decoding can start there once it is marked a
        /// broken link (BLA, H.265 §8.1.3) and its leading pictures are left out.
        var startsWithCleanRandomAccess = false
        /// Pictures shown before the key frame (its leading pictures: presentation time before ``keyFrameTime``).
        var leadingFrameCount = 0
        /// Bytes of the group's packets (their payloads): with ``frameCount``, the source's bits per pixel that
        /// ``SmartRenderEncoding/constantRateFactor(bitsPerPixel:)`` matches the re-encoded pieces' quality to.
        var byteCount: Int = 0

        /// True when a decoder can start at this group and show all its pictures: an IDR key frame and no leading
        /// pictures.
        var isClosed: Bool { startsWithIDR && start == keyFrameTime }

        /// True when a copy can start at this group's key frame: an IDR picture, or an HEVC CRA picture (rewritten as
        /// a BLA picture). Its leading pictures, if any, are left out of the copy and re-encoded with what precedes it.
        var isRandomAccessStart: Bool { startsWithIDR || startsWithCleanRandomAccess }
    }

    /// FFmpeg's codec name (`h264`, `hevc`, …).
    var codecName: String
    /// The picture format the loader read.
    var format: VideoTrackFormat
    /// Groups of pictures in decoding order; their presentation ranges tile the stream.
    var groups: [Group]
}
