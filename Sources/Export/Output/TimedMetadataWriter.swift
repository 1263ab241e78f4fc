import Foundation
import SpliceFFmpeg
import Composition

/// Writes an export's timed metadata tracks (SpliceFFmpeg's `TimedMetadataTrack`: a `tx3g` text track whose handler
/// is named `Timed Metadata`) beside the picture and sound, in every export path: the encoding export, passthrough,
/// smart rendering and the join of concurrent and segmented exports.
///
/// **Placing groups.** A composition metadata track's groups are its sources' groups (read as
/// `Asset.loadTimedMetadataGroups` reads them, in source time on the picture's clock) placed by
/// ``SourceTimePlacement``, the rule subtitle cues and chapters follow: clipped by cuts, moved with ripples and empty
/// ranges, scaled with `scaleTimeRange`, left out where a segment has a time effect, the pieces of one group that
/// meet again joined, times in milliseconds.
///
/// Made before the file header (it adds the streams); ``write()`` after it writes every group at once, interleaved by
/// the muxer with the other streams. Confined to the export's thread.
final class TimedMetadataWriter {
    private let output: OutputFile
    private var tracks: [(stream: Int, groups: [TimedMetadataGroup])] = []

    /// Reads and places the groups of `plan` and adds one timed metadata stream per track that shows any.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming a source whose groups cannot be read;
    ///   ``FFmpegError`` when the stream cannot be added (`encoderNotFound` without FFmpeg's `mov_text` encoder);
    ///   `CancellationError`.
    init(plan: TimedMetadataPlan, output: OutputFile, cancellation: CancellationFlag) throws {
        self.output = output
        var groupLists: [[TimedMetadataGroup]] = plan.requested.isEmpty ? [] : [plan.requested]
        if plan.requested.isEmpty {
            var cache: [String: [TimedMetadataGroup]] = [:]
            for track in plan.tracks {
                groupLists.append(try Self.groups(of: track, cache: &cache, cancellation: cancellation))
            }
        }
        for groups in groupLists where !groups.isEmpty {
            tracks.append((try output.addTimedMetadataStream(), groups))
        }
    }

    /// The groups of each written track, in output time (for tests and reports).
    var writtenGroups: [[TimedMetadataGroup]] { tracks.map(\.groups) }

    /// Writes every group into its stream. Call once, after the header.
    /// - Throws: ``FFmpegError`` from the muxer; `EINVAL` for a group over 65 535 bytes of text.
    func write() throws {
        for track in tracks {
            for group in track.groups { try output.writeTimedMetadata(group, stream: track.stream) }
        }
    }

    /// `track`'s groups placed on the export's clock (milliseconds), each source file read once (`cache`, keyed by
    /// file, stream and start offset).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    static func groups(of track: RenderTrack, cache: inout [String: [TimedMetadataGroup]],
                       cancellation: CancellationFlag) throws -> [TimedMetadataGroup] {
        try SourceTimePlacement.placeGroups(track.segments) { source in
            guard source.mediaType == .metadata else { return [] }
            let key = "\(source.assetURL.path)#\(source.streamIndex)@\(source.startTimeOffset)"
            let groups: [TimedMetadataGroup]
            if let cached = cache[key] {
                groups = cached
            } else {
                do {
                    groups = try TimedMetadataTrack.groups(
                        in: InputFile(url: source.assetURL, cancellation: cancellation), streamIndex: source.streamIndex,
                        startTimeOffset: source.startTimeOffset)
                } catch {
                    if cancellation.isCancelled { throw CancellationError() }
                    throw ExportError.reading(error, source: source.assetURL)
                }
                cache[key] = groups
            }
            return groups
        }
    }
}
