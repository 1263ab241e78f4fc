import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// One piece of a smart-rendered video stream, in output order: whole groups of pictures copied from the source,
/// or a span rendered and encoded on its own (``SmartRenderEncoding``) into a video-only file.
struct SmartRenderPiece: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        /// Whole groups of pictures of `source`, in decoding order, back to back.
        case copied(source: AssetTrack, groups: [SmartRenderSource.Group])
        /// The encoded piece's file (its pictures start at time 0).
        case encoded(URL)
    }

    var content: Content
    /// Output frame indices the piece covers.
    var frames: Range<Int>
}

/// Writes a smart-rendered file on the calling (worker) thread: one H.264 stream holding the source's packets for
/// copied pieces and the encoded pieces' packets between them, plus the rendered audio, copied (AAC packets as the
/// audio-only export wrote them, interleaved by decoding time), the subtitle tracks encoded beside them and the
/// chapters.
///
/// The stream's sample entry is the first copied source's (`avcC` or `hvcC` with its parameter sets); each encoded
/// piece brings its own in-band before its IDR pictures (H.264: under an id the copied sources do not use), and its
/// NAL units are already length-prefixed (4 bytes, as the sources': ``ExportPlan/smartRenderDecision(cancellation:)``
/// checks). With ``Input/parameterSetsInBand`` each copied piece also sends its source's sets in front of its first
/// picture (an IDR picture, or a CRA picture marked a broken link: ``SmartRenderPacketSource``), replacing whatever a
/// piece before it left under the same ids. Timestamps:
/// presentation = the piece's output start + the picture's time in the piece; decoding = the same shift, then every
/// piece's decoding times lowered so that its first picture decodes `delay` before it is shown, `delay` being the
/// largest reorder delay of the copied pieces (the encoded pieces have none) — so decoding times rise across seams.
final class SmartRenderWriter {
    struct Input {
        /// The source whose codec parameters (`avcC`) the stream takes: one of the copied ones (all have the same).
        var source: AssetTrack
        var pieces: [SmartRenderPiece]
        /// The rendered audio (an audio-only file of the same type), if the export has audio.
        var audioURL: URL?
        var frameDuration: MediaTime
        var fileType: FileType
        var metadata: [(String, String)]
        /// Index first (`faststart`).
        var optimizeForNetworkUse: Bool
        /// See ``ExportPlan/movieFragmentInterval``.
        var movieFragmentInterval: MediaTime?
        var outputURL: URL
        /// True when each copied piece sends its source's parameter sets in-band before its first picture
        /// (``SmartRenderParameterSets``): HEVC, or copied sources whose decoder configurations differ.
        var parameterSetsInBand = false
        /// The sample entry's four-character code (`avc3`, `hev1`), or nil for the muxer's default.
        var codecTag: String?
        /// See ``ExportPlan/sourceMetadataURL``.
        var sourceMetadataURL: URL? = nil
        /// The subtitle tracks, encoded beside the video and audio (``SubtitleWriter``).
        var subtitles: [SubtitleTrackPlan] = []
        /// The chapters written.
        var chapters = ChapterPlan()
        /// The video stream's tags (``ExportPlan/videoStreamMetadata``).
        var videoStreamMetadata: [MetadataItem] = []
        /// The audio stream's tags (``ExportPlan/audioStreamMetadata``).
        var audioStreamMetadata: [MetadataItem] = []
        /// The timed metadata tracks written (``TimedMetadataWriter``).
        var timedMetadata = TimedMetadataPlan()
    }

    private let input: Input
    private let cancellation: CancellationFlag
    private let progress: (Double) -> Void

    init(input: Input, cancellation: CancellationFlag, progress: @escaping (Double) -> Void) {
        self.input = input
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Writes the file into `path` (a temporary file; errors name ``Input/outputURL``).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` for a source or piece that cannot be read as planned;
    ///   ``ExportError/outputNotWritable(_:reason:)``; ``ExportError/writeFailed(_:reason:)``; `CancellationError`.
    func run(path: String) throws {
        let output = try OutputFile.export(path: path, fileType: input.fileType, for: input.outputURL, cancellation: cancellation)
        let video = try SmartRenderPacketSource(input: input, cancellation: cancellation)
        let videoIndex = try video.addStream(to: output)
        if let tag = input.codecTag { output.setCodecTag(tag, ofStream: videoIndex) }
        output.setTrackMetadata(input.videoStreamMetadata, onStream: videoIndex)
        var audio: SourceStream?
        var audioIndex = -1
        let audioPacket = try Packet()
        if let url = input.audioURL {
            let reader = try Self.openAudio(url, cancellation: cancellation)
            audioIndex = try reader.withCodecParameters { try output.addStream(copying: $0, timeBase: reader.timeBase) }
            output.setTrackMetadata(input.audioStreamMetadata, onStream: audioIndex)
            audio = reader
        }
        let cues = input.subtitles.isEmpty ? nil
            : try SubtitleWriter(plans: input.subtitles, muxer: EncodingMuxer(output: output), cancellation: cancellation)
        let metadata = try CarriedMetadata.items(input.metadata, carriedFrom: input.sourceMetadataURL, cancellation: cancellation)
        let metadataKeySpace = output.setContainerMetadata(metadata)
        try writing { try output.addChapters(input.chapters, cancellation: cancellation) }
        let timedMetadata = try writing { try TimedMetadataWriter(plan: input.timedMetadata, output: output, cancellation: cancellation) }
        let sampleRate = audio?.audioFrameSize.sampleRate ?? 0
        let options = input.fileType.muxerOptions(
            optimizeForNetworkUse: input.optimizeForNetworkUse, movieFragmentInterval: input.movieFragmentInterval,
            movieTimescale: sampleRate > 0 ? Int32(sampleRate) : nil, metadataKeySpace: metadataKeySpace)
        try writing { try output.writeHeader(options: options) }
        try writing { try timedMetadata.write() }
        video.outputTimeBase = output.timeBase(ofStream: videoIndex)
        let audioOut = audioIndex >= 0 ? output.timeBase(ofStream: audioIndex) : AVRational(num: 1, den: 1)

        var audioTime = MediaTime.positiveInfinity
        func advanceAudio() throws -> Bool {
            guard let audio else { return false }
            let more: Bool
            do {
                more = try audio.readPacket(into: audioPacket)
            } catch {
                throw ExportError.sourceUnreadable(audio.url, reason: "the rendered audio: \(error)")
            }
            guard more else { return false }
            let packet = audioPacket
            packet.prepareForMuxing(stream: audioIndex, from: audio.timeBase, to: audioOut)
            audioTime = MediaTime(pts: packet.decodingTimestamp ?? 0, timeBase: audioOut) ?? .zero
            return true
        }
        var videoWaiting = try video.advance()
        var audioWaiting = try advanceAudio()
        let total = Double(input.pieces.last?.frames.upperBound ?? 1)
        while videoWaiting || audioWaiting {
            if cancellation.isCancelled { throw CancellationError() }
            let next = videoWaiting && (!audioWaiting || video.waitingTime <= audioTime) ? video.waitingTime : audioTime
            try cues?.write(through: next, into: input.outputURL, cancellation: cancellation)
            if videoWaiting && (!audioWaiting || video.waitingTime <= audioTime) {
                video.packet.prepareForMuxing(stream: videoIndex)
                try writing { try output.write(video.packet) }
                videoWaiting = try video.advance()
                progress(min(Double(video.framesWritten) / total, 1))
            } else {
                try writing { try output.write(audioPacket) }
                audioWaiting = try advanceAudio()
            }
        }
        try cues?.write(through: .positiveInfinity, into: input.outputURL, cancellation: cancellation)
        try writing { try output.finish() }
    }

    /// The rendered audio file's audio stream.
    private static func openAudio(_ url: URL, cancellation: CancellationFlag) throws -> SourceStream {
        let file: InputFile
        do {
            file = try InputFile.open(url, cancellation: cancellation)
        } catch {
            throw ExportError.reading(error, source: url)
        }
        guard let index = file.bestStreamIndex(of: AVMEDIA_TYPE_AUDIO) else {
            throw ExportError.sourceUnreadable(url, reason: "the rendered audio has no audio stream")
        }
        return try SourceStream(input: file, index: index)
    }

    private func writing<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw ExportError.writing(error, to: input.outputURL, cancelled: cancellation.isCancelled)
        }
    }
}
