import Composition

/// One sample of a track as an ``AssetReaderOutput`` hands it out or an ``AssetWriterInput`` takes it, as
/// AVFoundation's `CMSampleBuffer`: exact times, and either the stored compressed bytes, a decoded picture or decoded
/// sound.
///
/// A sample buffer is a value that owns its bytes (copied out of FFmpeg's buffers), so it can be kept, sent to
/// another task or appended to a writer after the reader has moved on — except a decoded picture read with
/// ``AssetReaderOutput/alwaysCopiesSampleData`` false, whose ``PixelBuffer`` is a view of the reader's picture until
/// the output's next ``AssetReaderOutput/copyNextSampleBuffer()`` call (``PixelBuffer/isValid``).
public struct SampleBuffer: Sendable, Hashable {
    /// When the sample is shown or heard, in the track's own timeline (the container's timestamps after its edit
    /// list, as FFmpeg's demuxer presents them), in the track's time scale. Exact.
    public var presentationTime: MediaTime
    /// When the sample is decoded (compressed samples of streams with reordered pictures: earlier than
    /// ``presentationTime``, possibly negative); equal to ``presentationTime`` for decoded samples.
    public var decodeTime: MediaTime
    /// How long the sample lasts (exact; `.zero` when the container does not say).
    public var duration: MediaTime
    /// Samples in the buffer: 1 for a picture or a compressed packet, the number of sample frames (samples per
    /// channel) for decoded sound.
    public var sampleCount: Int
    /// True for a sync sample (a key frame: decoding can start here). Decoded samples are always sync samples.
    public var isKeyFrame: Bool
    /// What the data is: the codec and its setup for compressed samples, the raw format for decoded ones.
    public var formatDescription: FormatDescription
    /// The stored bytes of a compressed sample (one packet, as the demuxer gave it); nil for decoded samples.
    public var dataBuffer: [UInt8]?
    /// The decoded picture; nil otherwise.
    public var imageBuffer: PixelBuffer?
    /// The decoded sound; nil otherwise.
    public var audioBuffer: AudioBuffer?
    /// The timed metadata group a sample of a timed metadata track holds (``presentationTime`` and ``duration`` are
    /// its range), as an ``AssetWriterInputMetadataAdaptor`` appends it and an ``AssetReaderOutputMetadataAdaptor``
    /// gives it; nil otherwise.
    public var timedMetadataGroup: TimedMetadataGroup?

    /// A sample buffer with the given parts.
    public init(presentationTime: MediaTime, decodeTime: MediaTime? = nil, duration: MediaTime, sampleCount: Int = 1,
                isKeyFrame: Bool = true, formatDescription: FormatDescription, dataBuffer: [UInt8]? = nil,
                imageBuffer: PixelBuffer? = nil, audioBuffer: AudioBuffer? = nil, timedMetadataGroup: TimedMetadataGroup? = nil) {
        self.presentationTime = presentationTime
        self.decodeTime = decodeTime ?? presentationTime
        self.duration = duration
        self.sampleCount = sampleCount
        self.isKeyFrame = isKeyFrame
        self.formatDescription = formatDescription
        self.dataBuffer = dataBuffer
        self.imageBuffer = imageBuffer
        self.audioBuffer = audioBuffer
        self.timedMetadataGroup = timedMetadataGroup
    }
}
