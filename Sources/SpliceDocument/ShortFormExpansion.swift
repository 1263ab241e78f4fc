import AudioMix
import Composition
import Foundation
import VideoComposition

/// The work of ``ShortFormDocument/expanded(assets:folder:documentURL:)``, step by step.
struct ShortFormExpansion {
    /// One clip, resolved against its source and placed on the timeline.
    struct PlacedClip {
        var index: Int
        var clip: ShortFormDocument.Clip
        var asset: Asset
        var video: AssetTrack
        var audio: AssetTrack?
        /// Source range of the video (source time).
        var sourceRange: TimeRange
        /// Source range of the sound (the video's range, cut where the sound track ends); nil without sound.
        var audioRange: TimeRange?
        /// Output duration (after speed).
        var duration: MediaTime
        /// Speed as `numerator / denominator`.
        var speed: (numerator: Int64, denominator: Int64)
        /// Overlap with the previous / next clip (output time).
        var transitionIn = MediaTime.zero
        var transitionOut = MediaTime.zero
        /// Composition start time.
        var start = MediaTime.zero
        /// Which of the two alternating tracks it is on (0 or 1).
        var lane = 0

        var end: MediaTime { start + duration }
        var isStill: Bool { video.video?.isStillImage ?? false }
    }

    let document: ShortFormDocument
    let assets: [String: Asset]
    let folder: URL
    var problems = ProblemList()

    init(document: ShortFormDocument, assets: [String: Asset], folder: URL) {
        self.document = document
        self.assets = assets
        self.folder = folder
    }

    mutating func run() -> CompositionDocument? {
        let frameRate = document.frameRate ?? ShortFormDocument.defaultFrameRate
        guard let frameDuration = frameRate.frameDuration else {
            problems.add("frameRate", "the frame rate \(frameRate) must be positive")
            return nil
        }
        if document.version != CompositionDocument.currentVersion {
            problems.add("version", "this splice reads version \(CompositionDocument.currentVersion) documents, not \(document.version)")
        }
        guard !document.clips.isEmpty else {
            problems.add("clips", "the list is empty: a document needs at least one clip")
            return nil
        }
        var placed = document.clips.enumerated().compactMap { resolveClip($0.element, index: $0.offset) }
        guard placed.count == document.clips.count else { return nil }
        placeTransitions(&placed)
        guard problems.isEmpty else { return nil }

        let total = placed[placed.count - 1].end
        let renderSize = self.renderSize(first: placed[0])
        let usesTwoLanes = placed.contains { $0.transitionOut > .zero }
        let videoTrackIDs: [Int32] = usesTwoLanes ? [1, 2] : [1]
        var nextTrackID = Int32(videoTrackIDs.count + 1)
        var audioTrackIDs: [Int: Int32] = [:]
        for lane in 0..<videoTrackIDs.count where placed.contains(where: { $0.lane == lane && $0.audioRange != nil }) {
            audioTrackIDs[lane] = nextTrackID
            nextTrackID += 1
        }

        var tracks: [DocumentTrack] = videoTrackIDs.map { DocumentTrack(trackID: $0, mediaType: .video, segments: []) }
        var audioTracks: [Int: DocumentTrack] = audioTrackIDs.mapValues { DocumentTrack(trackID: $0, mediaType: .audio, segments: []) }
        for clip in placed {
            tracks[clip.lane].segments.append(segment(of: clip, track: clip.video, range: clip.sourceRange))
            if let audio = clip.audio, let range = clip.audioRange {
                audioTracks[clip.lane]?.segments.append(segment(of: clip, track: audio, range: range))
            }
        }
        tracks += audioTracks.keys.sorted().compactMap { audioTracks[$0] }

        var inputParameters = audioParameters(placed, trackIDs: audioTrackIDs)
        if let music = document.music, let (track, parameters) = musicTrack(music, trackID: nextTrackID, total: total) {
            tracks.append(track)
            if let parameters { inputParameters.append(parameters) }
        }
        var subtitleTrackID = (tracks.map(\.trackID).max() ?? 0) + 1
        if let clipSubtitles = clipTimedTrack(.subtitle, placed, trackID: subtitleTrackID) {
            tracks.append(clipSubtitles)
            subtitleTrackID += 1
        }
        let sidecars = sidecarSubtitleTracks(firstTrackID: subtitleTrackID)
        tracks += sidecars
        // A composition lasts as its longest track: a subtitles file whose last cue ends after the clips lengthens it.
        let end = sidecars.flatMap(\.segments).compactMap { segment in
            segment.timeRange.map { (segment.at ?? .zero) + $0.duration }
        }.reduce(total, max)
        if let clipMetadata = clipTimedTrack(.metadata, placed, trackID: (tracks.map(\.trackID).max() ?? 0) + 1) {
            tracks.append(clipMetadata)
        }

        var videoInstructions = instructions(placed, trackIDs: videoTrackIDs, renderSize: renderSize)
        if end > total {
            // After the clips, the background alone (no layers), as where an AVFoundation composition has no video.
            videoInstructions.append(VideoCompositionInstruction(timeRange: TimeRange(start: total, end: end)))
        }
        var videoComposition = MutableVideoComposition(
            renderSize: renderSize, frameDuration: frameDuration, instructions: videoInstructions,
            backgroundColor: document.backgroundColor ?? .black)
        videoComposition.colorPrimaries = document.colorPrimaries
        videoComposition.colorTransferFunction = document.colorTransferFunction
        videoComposition.colorYCbCrMatrix = document.colorYCbCrMatrix
        videoComposition.overlays = (document.overlays ?? []).enumerated().compactMap { index, overlay in
            overlayLayer(overlay, index: index, renderSize: renderSize, total: total)
        }
        guard problems.isEmpty else { return nil }
        return CompositionDocument(
            composition: DocumentComposition(tracks: tracks), videoComposition: videoComposition,
            audioMix: MutableAudioMix(inputParameters: inputParameters,
                                      crossfades: audioCrossfades(placed, trackIDs: audioTrackIDs)),
            export: document.export)
    }
}
