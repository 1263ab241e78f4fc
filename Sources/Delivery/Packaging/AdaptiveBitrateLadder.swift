import Composition
import Export

/// The renditions of an adaptive-bitrate package: one video encode per rung, each a height and an average bit rate,
/// all from one decode and one composite of the programme (see ``AdaptiveBitratePackager``).
///
/// A rung is never scaled above the source: rungs taller than the composition's render size are left out, and a
/// source shorter than every rung gets one rendition at its own height with the lowest rung's bit rate.
public struct AdaptiveBitrateLadder: Sendable, Hashable {
    /// One rung: an H.264 (or HEVC) encode at `height` pixels (the width follows the source's aspect ratio, rounded
    /// to even) and `bitRate` bits per second on average.
    public struct Rendition: Sendable, Hashable {
        /// The picture height in pixels: positive and even (4:2:0 chroma).
        public var height: Int
        /// The average bit rate in bits per second (libx264's ABR mode), positive. The peak is bounded by a VBV of
        /// 1.5 × this rate over a 2 s buffer, so ``AdaptiveBitratePackage`` BANDWIDTH stays near it.
        public var bitRate: Int
        /// ``VideoSettings/Codec/h264`` (libx264, `avc1`; the default, which every player decodes) or
        /// ``VideoSettings/Codec/hevc`` (libx265, tagged `hvc1` as Apple's players require).
        public var codec: VideoSettings.Codec

        /// A rung of `height` pixels at `bitRate` bits per second in `codec`.
        public init(height: Int, bitRate: Int, codec: VideoSettings.Codec = .h264) {
            self.height = height
            self.bitRate = bitRate
            self.codec = codec
        }

        /// The rung's name in the package: its folder and DASH `Representation@id`, e.g. `720p-3000k`, or
        /// `720p-2000k-hevc` for HEVC.
        public var name: String { "\(height)p-\(bitRate / 1000)k" + (codec == .h264 ? "" : "-\(codec.rawValue)") }
    }

    /// The rungs, highest first (the order of the master playlist's variant streams).
    public var renditions: [Rendition]

    /// A ladder of `renditions`.
    public init(renditions: [Rendition]) {
        self.renditions = renditions
    }

    /// The ladder used when none is given: 1080p at 5 Mb/s, 720p at 3 Mb/s, 480p at 1.2 Mb/s — the bit rates of
    /// common H.264 streaming ladders for 30 fps content. A 720p source gives 720p and 480p.
    public static let `default` = AdaptiveBitrateLadder(renditions: [
        Rendition(height: 1080, bitRate: 5_000_000),
        Rendition(height: 720, bitRate: 3_000_000),
        Rendition(height: 480, bitRate: 1_200_000),
    ])

    /// Checks every rung.
    /// - Throws: ``PackagingError/emptyLadder`` without a rung; ``PackagingError/invalidRendition(index:reason:)``
    ///   for a height that is not positive and even, a bit rate that is not positive, a codec other than H.264 and
    ///   HEVC, or two rungs of one name.
    public func validate() throws(PackagingError) {
        guard !renditions.isEmpty else { throw .emptyLadder }
        var names: Set<String> = []
        for (index, rendition) in renditions.enumerated() {
            if rendition.height <= 0 || rendition.height % 2 != 0 {
                throw .invalidRendition(index: index, reason: "height \(rendition.height) is not a positive even number of pixels")
            }
            if rendition.bitRate <= 0 {
                throw .invalidRendition(index: index, reason: "bit rate \(rendition.bitRate) is not a positive number of bits per second")
            }
            if rendition.bitRate < 1000 {
                throw .invalidRendition(index: index, reason: "bit rate \(rendition.bitRate) b/s is below 1 kb/s")
            }
            if rendition.codec != .h264 && rendition.codec != .hevc {
                throw .invalidRendition(index: index, reason: "codec \(rendition.codec.rawValue) is not packaged (H.264 or HEVC)")
            }
            guard names.insert(rendition.name).inserted else {
                throw .invalidRendition(index: index, reason: "\(rendition.name) is in the ladder twice")
            }
        }
    }

    /// The rungs a source of `sourceSize` gets, each with its picture size: the rungs no taller than the source
    /// (the source's own height when none is), widths from the source's aspect ratio rounded to the nearest even
    /// number (at least 2).
    public func renditions(forSourceSize sourceSize: Size) -> [(rendition: Rendition, size: Size)] {
        var fitting = renditions.filter { $0.height <= sourceSize.height }
        if fitting.isEmpty, let lowest = renditions.min(by: { $0.height < $1.height }) {
            fitting = [Rendition(height: sourceSize.height - sourceSize.height % 2, bitRate: lowest.bitRate, codec: lowest.codec)]
        }
        return fitting.map { rendition in
            let width = Int((Double(sourceSize.width) * Double(rendition.height) / Double(sourceSize.height) / 2).rounded()) * 2
            return (rendition, Size(width: max(2, width), height: rendition.height))
        }
    }
}
