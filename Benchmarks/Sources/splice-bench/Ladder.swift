import Foundation
import Splice

/// A1: the floor's programme (clip A then clip B, no effects) packaged as an adaptive-bitrate ladder.
enum Ladder {
    /// Packages `edit` as three H.264 renditions of the heights in `heights` (highest first; 5, 3 and 1.2 Mb/s for
    /// 1080p, 720p and 480p, else 3, 1.2 and 0.8 Mb/s) plus one AAC 128 kb/s rendition, in 4 s segments, HLS only,
    /// into `directory` (replaced). Prints the renditions and their segment counts.
    static func package(_ edit: Workloads.Edit, heights: [Int], to directory: URL) async throws -> String {
        let rates = heights.first == 1080 ? [5_000_000, 3_000_000, 1_200_000] : [3_000_000, 1_200_000, 800_000]
        let packager = AdaptiveBitratePackager(asset: edit.composition)
        packager.videoComposition = edit.video
        packager.audioMix = edit.audio
        packager.ladder = AdaptiveBitrateLadder(renditions: zip(heights, rates).map { .init(height: $0, bitRate: $1) })
        packager.segmentDuration = MediaTime(seconds: 4)
        packager.manifestFormats = [.hls]
        packager.overwritesExistingOutput = true
        let package = try await packager.write(to: directory)
        let renditions = package.videoRenditions.map { "\($0.name):\($0.segmentDurations.count)" }.joined(separator: ",")
        return "renditions=\(renditions) audio=\(package.audioRendition?.segmentDurations.count ?? 0)"
    }
}
