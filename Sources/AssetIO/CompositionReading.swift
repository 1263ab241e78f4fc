import Composition
import Export
import SpliceFFmpeg
internal import CMedia

/// The read loops of the composition outputs, on the output's thread: the export's renderer or mixer, then a
/// ``FrameConverter`` to the output's format, each converted frame restamped in composition time.
enum CompositionReading {
    /// Renders every frame of `rendering`, converted per `settings`, stamped `start + k × frameDuration` and lasting
    /// one frame duration (the last one ending at the range's end); lent to `lendingOutput` without a copy when it
    /// is not nil.
    static func renderPictures(_ rendering: CompositionVideoRendering, settings: DecodedVideoSettings, lendingOutput: String?,
                               cancellation: CancellationFlag, deliver: (SampleBuffer) -> Bool) throws {
        let renderer = CompositionVideoRenderer(rendering, cancellation: cancellation)
        defer { renderer.stop() }
        let frameDuration = rendering.frameDuration
        let timeBase = AVRational(num: Int32(clamping: frameDuration.value), den: frameDuration.timescale)
        let start = rendering.timeRange.start, end = rendering.timeRange.end
        let converted = try Frame()
        var converter: FrameConverter?
        var going = true

        func emit(_ sample: SampleBuffer) -> Bool {
            var sample = restamped(sample, from: start)
            sample.duration = min(frameDuration, end - sample.presentationTime)
            going = deliver(sample)
            return going
        }

        while going, let frame = try renderer.next() {
            if converter == nil || !converter!.accepts(frame) {
                if let old = converter, try !old.flush(into: converted, emit: emit) { break }
                converter = try FrameConverter(first: frame, settings: .video(settings), timeBase: timeBase,
                                               lendingOutput: lendingOutput)
            }
            let more = try converter!.push(frame, into: converted, emit: emit)
            renderer.recycle(frame)
            if !more { break }
        }
        if going, let converter { _ = try converter.flush(into: converted, emit: emit) }
    }

    /// Mixes every sample of `mixing` in buffers of ``AssetReaderAudioMixOutput/samplesPerBuffer``, converted per
    /// `settings` (sample format only: the mix is made at the settings' rate and channel count), stamped from the
    /// range's start.
    static func mixSound(_ mixing: CompositionAudioMixing, settings: DecodedAudioSettings,
                         cancellation: CancellationFlag, deliver: (SampleBuffer) -> Bool) throws {
        let mixer = try CompositionAudioMixer(mixing, chunkSize: AssetReaderAudioMixOutput.samplesPerBuffer,
                                              cancellation: cancellation)
        let timeBase = AVRational(num: 1, den: Int32(mixing.sampleRate))
        let start = mixing.timeRange.start
        let converted = try Frame()
        var converter: FrameConverter?
        var going = true

        func emit(_ sample: SampleBuffer) -> Bool {
            going = deliver(restamped(sample, from: start))
            return going
        }

        while going {
            if cancellation.isCancelled { throw CancellationError() }
            let mixed = try mixer.next { frame in
                if converter == nil { converter = try FrameConverter(first: frame, settings: .audio(settings), timeBase: timeBase) }
                _ = try converter!.push(frame, into: converted, emit: emit)
            }
            if !mixed { break }
        }
        if going, let converter { _ = try converter.flush(into: converted, emit: emit) }
    }

    /// `sample` moved from the range's own time (0 at its start) to composition time.
    private static func restamped(_ sample: SampleBuffer, from start: MediaTime) -> SampleBuffer {
        var sample = sample
        sample.presentationTime = start + sample.presentationTime
        sample.decodeTime = sample.presentationTime
        return sample
    }
}
