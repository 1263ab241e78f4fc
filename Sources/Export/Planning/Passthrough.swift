import AudioMix
import Composition
import Foundation
import VideoComposition

/// Stream copy for the passthrough preset: packets are copied from the source files without decoding, as
/// `AVAssetExportPresetPassthrough` does, when the composition is plain cuts. Every condition that rules copying
/// out is reported by ``ExportError/passthroughNotPossible(_:)`` naming the track, the segment (its index in
/// `CompositionTrack.segments`), the time and the cause:
///
/// - no video composition and no audio mix (they need rendering);
/// - each exported track is one or more segments of source tracks at normal speed (no ``CompositionTrack/scaleTimeRange(_:toDuration:)``),
///   not still images, with no empty segment before or between them (a gap cannot be copied; an empty segment
///   after the last one only ends the track early);
/// - every segment of a track has the same codec parameters as the first: codec, profile, picture size, pixel
///   format and extradata (SPS/PPS) for video; codec, sample rate, channel count and extradata for audio — so one
///   decoder can play the joined stream, as `ffmpeg -f concat -c copy` requires;
/// - a video segment starts on a key frame of its source (the error names the nearest key frames before and
///   after); it may end anywhere except inside a run of pictures reordered for B-frames, where a kept picture
///   would be decoded after a cut one it may depend on (the error names the nearest ends that work);
/// - the container accepts the codec.
///
/// The segments of a track are copied back to back, their timestamps offset so the result plays continuously (as
/// `ffmpeg -f concat -c copy`). Video is exact to the frame: the packets whose presentation time lies in the
/// segment are copied, from the key frame at its start; the last picture's duration is cut at the segment's end.
/// Passthrough audio is exact to the sample by default (``PassthroughAudioCuts/exact``): an audio track whose every cut
/// (each segment's start and end, the export range's ends) falls on its source's packet grid is copied; a track with
/// any cut off the grid (AAC packets are 1024 samples, 21.3 ms at 48 kHz, and a packet can only be copied whole) is
/// rendered and encoded on its own, as an ordinary export renders that track (AAC, the source's sample rate and channel
/// count), into a temporary file whose packets are then copied as the track's one piece, while the video and the other
/// tracks are copied (``AssetExportSession/passthroughReport`` names such tracks and the cut; a track that cannot be
/// encoded so — WebM, more than two channels, a sample rate AAC has no index for — keeps the rule below and says why).
///
/// Copied audio (every track under ``PassthroughAudioCuts/nearestPacket``): a cut off the packet grid is placed at the
/// nearest packet boundary. Packets are laid end to end; a segment takes packets while the next one's midpoint lies
/// before its end in the output, and the next segment starts with the source packet nearest to where that output
/// boundary falls in it, so every segment's samples play within half a packet of their composition time and the error
/// never accumulates. Each segment is preceded by one pre-roll packet (the source's priming packet at its start, else
/// the packet before the first kept one) that the decoder needs to rebuild the first kept samples. In MP4/MOV/M4A the
/// first segment's pre-roll sits before time 0 and the muxer writes an edit list trimming it together with the part of
/// the first packet before the segment's start (AAC priming kept: the start is exact to the sample); a later segment's
/// pre-roll takes the place of the previous segment's last packet. One edit per segment could trim every join to the
/// sample (as AVFoundation writes them), but FFmpeg 5.1's mov demuxer applies only the first edit to the sample and
/// later ones to whole packets, so FFmpeg-based readers (Splice's own included) would play such joins up to a packet
/// off each, adding up: the writer keeps the one edit, and exact joins are rendered instead. Matroska has no such edit
/// list: there the pre-roll is left out, and a segment's first packet decodes without its predecessor (its onset within
/// one packet of its time; for a rendered track only its first packet, at the track's start).
struct PassthroughPlan: Sendable {
    /// One segment to copy.
    struct Piece: Sendable {
        var source: AssetTrack
        /// Source time copied.
        var sourceRange: TimeRange
        /// Composition (output) time of `sourceRange.start`, after the export range shift.
        var targetStart: MediaTime
        /// The segment's index in the composition track's `segments`, for messages.
        var segmentIndex: Int

        /// Composition (output) time of `sourceRange.end`.
        var targetEnd: MediaTime { targetStart + sourceRange.duration }

        /// "segments[k] of track N (file.mp4)" for messages.
        func name(track: Int32) -> String {
            "segments[\(segmentIndex)] of track \(track) (\(source.assetURL.lastPathComponent) track \(source.trackID))"
        }
    }

    /// The segments of one composition track, in time order and back to back.
    struct Track: Sendable {
        var trackID: Int32
        var mediaType: MediaType
        var pieces: [Piece]
        /// The output stream's tags (``ExportPlanner/streamMetadata(of:range:fileType:)`` of this track alone, as the
        /// encoding export tags its streams), checked for the container.
        var metadata: [MetadataItem] = []
    }

    var tracks: [Track]
    var fileType: FileType
    var outputURL: URL
    var overwritesExistingFile: Bool
    var metadata: [(String, String)]
    var optimizeForNetworkUse: Bool
    /// See ``ExportPlan/movieFragmentInterval``.
    var movieFragmentInterval: MediaTime?
    /// See ``ExportPlan/sourceMetadataURL``.
    var sourceMetadataURL: URL?

    /// Every piece of every track.
    var pieces: [Piece] { tracks.flatMap(\.pieces) }

    /// The plan with the pieces of audio track `trackID` replaced by one: `rendered`, the track rendered and encoded
    /// into a file of its own from the track's first composition time to its last (an ordinary export of that track
    /// alone over the export range), copied whole with its priming.
    func replacingPieces(ofTrack trackID: Int32, with rendered: AssetTrack) -> PassthroughPlan {
        var plan = self
        guard let index = tracks.firstIndex(where: { $0.trackID == trackID }),
              let first = tracks[index].pieces.first, let last = tracks[index].pieces.last else { return self }
        plan.tracks[index].pieces = [Piece(
            source: rendered, sourceRange: TimeRange(start: .zero, end: last.targetEnd - first.targetStart),
            targetStart: first.targetStart, segmentIndex: 0)]
        return plan
    }

    /// Checks that `composition` can be stream-copied over `range` and lists what to copy. Opens no file.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` naming the first obstacle;
    ///   ``ExportError/invalidComposition(_:)`` when no track has media to copy.
    static func make(
        composition: MutableComposition, request: ExportRequest, fileType: FileType,
        outputURL: URL, range: TimeRange
    ) throws -> PassthroughPlan {
        if request.videoComposition != nil {
            throw ExportError.passthroughNotPossible("a video composition is set; applying it needs re-encoding")
        }
        if request.audioMix != nil {
            throw ExportError.passthroughNotPossible("an audio mix is set; applying it needs re-encoding")
        }
        var tracks: [Track] = []
        for track in composition.tracks where track.isEnabled && (track.mediaType == .video || track.mediaType == .audio) {
            if track.mediaType == .video && !fileType.supportsVideo { continue }
            if let planned = try plan(track, range: range) { tracks.append(planned) }
        }
        guard !tracks.isEmpty else {
            throw ExportError.invalidComposition("it has no enabled video or audio track with media to copy")
        }
        return PassthroughPlan(
            tracks: tracks, fileType: fileType, outputURL: outputURL,
            overwritesExistingFile: request.overwritesExistingFile,
            metadata: request.metadata.map { ($0.key, $0.value) },
            optimizeForNetworkUse: request.shouldOptimizeForNetworkUse,
            sourceMetadataURL: request.carriesSourceMetadata ? composition.firstSourceURL(in: range) : nil)
    }

    /// The pieces of one track, or nil when it has no media in the range.
    private static func plan(_ track: CompositionTrack, range: TimeRange) throws -> Track? {
        let segments = RenderTrack(track, exporting: range).segments
        // RenderTrack keeps the segments that overlap the range, in order: those before it are skipped.
        let skipped = track.segments.prefix { $0.timeMapping.target.end <= range.start }.count
        guard let lastMedia = segments.lastIndex(where: { $0.source != nil }) else { return nil }
        var pieces: [Piece] = []
        for (offset, segment) in segments[...lastMedia].enumerated() {
            let index = skipped + offset
            let mapping = segment.mapping
            guard let source = segment.source else {
                throw ExportError.passthroughNotPossible(
                    "segments[\(index)] of track \(track.trackID) is empty (\(display(mapping.target.start)) to "
                        + "\(display(mapping.target.end)) in the export); a gap cannot be stream-copied — remove it or re-encode")
            }
            let piece = Piece(source: source, sourceRange: mapping.source, targetStart: mapping.target.start, segmentIndex: index)
            if let effect = segment.effect {
                throw ExportError.passthroughNotPossible(
                    "\(piece.name(track: track.trackID)) has a time effect (\(effect.kindName)) from "
                        + "\(display(mapping.target.start)); time effects need re-encoding")
            }
            guard mapping.source.duration == mapping.target.duration else {
                throw ExportError.passthroughNotPossible(
                    "\(piece.name(track: track.trackID)) plays at speed \(mapping.speed) from \(display(mapping.target.start)); "
                        + "speed changes need re-encoding")
            }
            if source.video?.isStillImage == true {
                throw ExportError.passthroughNotPossible(
                    "\(piece.name(track: track.trackID)) shows a still image; it must be encoded as video")
            }
            if let first = pieces.first, let difference = describedDifference(first.source, source) {
                throw ExportError.passthroughNotPossible(
                    "\(first.name(track: track.trackID)) and \(piece.name(track: track.trackID)) have different codec "
                        + "parameters (\(difference)); joining them needs re-encoding")
            }
            pieces.append(piece)
        }
        return Track(trackID: track.trackID, mediaType: track.mediaType, pieces: pieces)
    }

    /// The first difference between two tracks' described formats that rules out joining them, or nil. The
    /// writer compares the streams' full codec parameters (profile, extradata) once the files are open.
    private static func describedDifference(_ a: AssetTrack, _ b: AssetTrack) -> String? {
        if a.codecName != b.codecName { return "codec \(a.codecName) vs \(b.codecName)" }
        if let x = a.video, let y = b.video {
            if x.naturalSize != y.naturalSize {
                return "size \(x.naturalSize.width)x\(x.naturalSize.height) vs "
                    + "\(y.naturalSize.width)x\(y.naturalSize.height) pixels"
            }
            if x.pixelFormat != y.pixelFormat { return "pixel format \(x.pixelFormat) vs \(y.pixelFormat)" }
        }
        if let x = a.audio, let y = b.audio {
            if x.sampleRate != y.sampleRate { return "sample rate \(x.sampleRate) Hz vs \(y.sampleRate) Hz" }
            if x.channelCount != y.channelCount { return "\(x.channelCount) vs \(y.channelCount) channels" }
        }
        return nil
    }

    /// A time as "1.500 s" for messages (display only; no timeline math goes through it).
    static func display(_ time: MediaTime) -> String { time.secondsText }
}
