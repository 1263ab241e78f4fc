import Composition
import Export
import Foundation
import SpliceFFmpeg

/// The package's subtitle renditions: every enabled subtitle track of the composition with cues, written as WebVTT
/// by the export's subtitle writer (its cues placed as an export places them) into the package's build folder.
///
/// For HLS, one WebVTT segment per video segment, over the same time range (RFC 8216 §3.5): each holds every cue
/// overlapping its range with the cue's own times on the programme's timeline (a cue crossing a boundary is in both
/// segments with the same times, which a player shows once), after an `X-TIMESTAMP-MAP` header mapping the cues'
/// time 0 (`LOCAL:00:00:00.000`) to the media's time 0 in 90 kHz units (`MPEGTS:0`: the CMAF segments' timeline
/// starts at 0). For DASH, one whole-programme file.
struct SubtitleRenditions {
    /// The `X-TIMESTAMP-MAP` line each HLS WebVTT segment carries after `WEBVTT`.
    static let timestampMap = "X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0"

    var composition: MutableComposition

    /// Writes each subtitle track into `folder/subtitles-TRACKID/`: `segmentK.vtt` over the video segments of
    /// `segmentDurations` (from 0) and `subtitles.vtt`, the whole programme — its first `duration`: a cue ending
    /// after the programme is cut at its end, and one starting after it is left out.
    /// - Returns: the renditions written (none when the composition has no subtitle track with a cue).
    /// - Throws: ``PackagingError/writeFailed(_:reason:)`` when a folder cannot be made, the export's errors for
    ///   cues that cannot be read or written, `CancellationError`.
    func write(into folder: URL, segmentDurations: [MediaTime], duration: MediaTime,
               cancellation: CancellationFlag) throws -> [AdaptiveBitratePackage.SubtitleRendition] {
        let subtitles = try CompositionSubtitles(composition: composition, timeRange: TimeRange(start: .zero, duration: duration))
        var windows: [TimeRange] = []
        var start = MediaTime.zero
        for segment in segmentDurations {
            windows.append(TimeRange(start: start, duration: segment))
            start = start + segment
        }
        var renditions: [AdaptiveBitratePackage.SubtitleRendition] = []
        for track in subtitles.tracks {
            let name = "subtitles-\(track.trackID)"
            let trackFolder = folder.appendingPathComponent(name)
            do {
                try FileManager.default.createDirectory(at: trackFolder, withIntermediateDirectories: false)
            } catch {
                throw PackagingError.writeFailed(trackFolder, reason: FailureReason.words(for: error))
            }
            let whole = trackFolder.appendingPathComponent(AdaptiveBitratePackage.SubtitleRendition.wholeProgrammeFileName)
            let written = try subtitles.writeWebVTT(
                trackID: track.trackID, windows: windows,
                to: windows.indices.map { trackFolder.appendingPathComponent(Self.segmentName($0)) },
                headerLines: [Self.timestampMap], whole: whole, cancellation: cancellation)
            guard written else {
                try? FileManager.default.removeItem(at: trackFolder)
                continue
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: whole.path)[.size] as? Int) ?? 0
            let bitRate = duration > .zero ? Int((Double(bytes * 8) / duration.seconds).rounded(.up)) : 0
            renditions.append(AdaptiveBitratePackage.SubtitleRendition(
                name: name, trackID: track.trackID, languageCode: track.languageCode, title: track.title,
                isDefault: track.isDefault, isForced: track.isForced, segmentDurations: segmentDurations,
                bitRate: max(bitRate, 1)))
        }
        return renditions
    }

    /// The file name of WebVTT segment `index` (from 0).
    static func segmentName(_ index: Int) -> String { "segment\(index).vtt" }
}
