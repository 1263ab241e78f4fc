import SpliceFFmpeg
import Foundation

/// Decodes the first picture of an image file (PNG, JPEG, …) for overlays.
package enum StillImage {
    package static func decode(url: URL, cancellation: CancellationFlag) throws -> Frame {
        let source = try SourceStream(bestVideoStreamOf: url, cancellation: cancellation)
        let decoder = try StreamDecoder(source: source, label: "its picture", threads: 1)
        let frame = try Frame()
        guard try decoder.decode(into: frame) else {
            throw ExportError.sourceUnreadable(url, reason: "it holds no decodable picture")
        }
        return frame
    }
}
