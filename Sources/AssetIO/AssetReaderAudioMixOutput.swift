import AudioMix
import Composition
import Export
import SpliceFFmpeg

/// The mixed sound of audio tracks, as AVFoundation's `AVAssetReaderAudioMixOutput`: exactly the samples an export
/// of the same composition, audio mix and time range encodes — the export's own planner and mixer produce them
/// (segments cut to the sample, resampled, summed with the mix's volume ramps and crossfades), 1024 sample frames a
/// buffer as for AAC and PCM — as interleaved PCM in ``audioSettings``'s format.
///
/// Buffers are stamped in composition time from the range's start, on the output sample grid; together they hold
/// exactly the range's duration in samples.
public final class AssetReaderAudioMixOutput: AssetReaderOutput, ReaderOutputParts {
    /// Sample frames per buffer (the export's encoder frame for AAC and PCM, so the gains fall on the same samples).
    public static let samplesPerBuffer = 1024

    /// The composition tracks mixed (their track IDs).
    public let audioTrackIDs: [Int32]
    /// The PCM handed out; nil gives Float32 at 48 kHz stereo. The rate and channel count (1 or 2) default to
    /// 48 kHz and 2, as the export's `AudioSettings`.
    public let audioSettings: DecodedAudioSettings?
    /// Always audio.
    public var mediaType: MediaType { .audio }

    let core: ReaderOutputCore
    private let mix = Locked<MutableAudioMix?>(nil)

    /// An output mixing `audioTracks` of the reader's composition.
    public convenience init(audioTracks: [CompositionTrack], audioSettings: DecodedAudioSettings?) {
        self.init(trackIDs: audioTracks.map(\.trackID), audioSettings: audioSettings)
    }

    /// An output mixing `audioTracks` of the reader's file (composed as `MutableComposition(asset:)`).
    public convenience init(audioTracks: [AssetTrack], audioSettings: DecodedAudioSettings?) {
        self.init(trackIDs: audioTracks.map(\.trackID), audioSettings: audioSettings)
    }

    init(trackIDs: [Int32], audioSettings: DecodedAudioSettings?) {
        audioTrackIDs = trackIDs
        self.audioSettings = audioSettings
        core = ReaderOutputCore(name: "the audio mix output of tracks \(trackIDs)") { error in
            error as? AssetReaderError ?? AssetReaderError.renderingFailed(
                output: "the audio mix output of tracks \(trackIDs)", reason: FailureReason.words(for: error))
        }
    }

    /// The volumes and crossfades of the tracks (nil: every track at its preferred volume). Set before
    /// ``AssetReader/startReading()``; validated then.
    public var audioMix: MutableAudioMix? {
        get { mix.withLock { $0 } }
        set { if core.reader?.status ?? .unknown == .unknown { mix.withLock { $0 = newValue } } }
    }

    func check(for reader: AssetReader) throws {
        try reader.checkCompositionTracks(audioTrackIDs, mediaType: .audio)
        try audioSettings?.check(maximumChannels: 2)
    }

    func makePass(range: TimeRange?, reader: AssetReader) throws -> ReadingPass {
        let settings = audioSettings ?? DecodedAudioSettings()
        let mixing = try reader.planComposition { composition in
            try CompositionAudioMixing(
                composition: composition, audioMix: audioMix, trackIDs: audioTrackIDs,
                timeRange: range ?? TimeRange(start: .zero, duration: .positiveInfinity),
                sampleRate: settings.sampleRate ?? 48_000, channelCount: settings.channelCount ?? 2)
        }
        return { cancellation, deliver in
            try CompositionReading.mixSound(mixing, settings: settings, cancellation: cancellation, deliver: deliver)
        }
    }
}

extension AssetReaderAudioMixOutput: AsyncSequence {
    /// Each element is one sample.
    public typealias Element = SampleBuffer
}
