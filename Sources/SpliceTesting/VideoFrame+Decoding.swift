import SpliceFFmpeg
import Export
import Composition
import Foundation
internal import CMedia

extension VideoFrame {
    /// Reads the first picture of an image file (PNG, or any still format libavcodec decodes) as RGBA8 — the
    /// counterpart of ``write(to:)``, for comparing rendered frames with approved pictures.
    ///
    /// RGB, grey and palette pictures convert to RGBA exactly (8-bit PNGs round-trip bit for bit; a missing alpha
    /// channel reads as 255; 16-bit channels are rounded to 8 bits). YUV pictures (JPEG) convert with their stated
    /// matrix and range. No orientation metadata is applied: the stored pixels are returned.
    ///
    /// - Parameter url: a `file:` URL of the image.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming the file when it is missing, not an image or
    ///   cannot be decoded.
    public init(contentsOf url: URL) throws {
        let picture = try StillImage.decode(url: url, cancellation: CancellationFlag())
        let format = PictureFormat(of: picture)
        let conversion: String
        if format.isRGB || format.pixelFormatName.hasPrefix("gray") || format.pixelFormatName == "pal8" {
            conversion = "format=rgba"
        } else {
            conversion = "scale=in_color_matrix=\(format.matrixName):in_range=\(format.isFullRange ? "full" : "limited")"
                + ":out_range=full:flags=bicubic+accurate_rnd+full_chroma_int,format=rgba"
        }
        do {
            let graph = try FilterGraph(
                description: "[in]\(conversion)[out]",
                sources: [.video(.init(label: "in", width: format.width, height: format.height,
                                       pixelFormat: format.pixelFormat, timeBase: AVRational(num: 1, den: 1)))],
                sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
            picture.pts = 0
            try graph.push(picture, to: 0)
            try graph.push(nil, to: 0)
            let output = try Frame()
            guard try graph.pull(from: 0, into: output) == .frame else {
                throw ExportError.sourceUnreadable(url, reason: "converting the picture to RGBA gave no frame")
            }
            try self.init(rgbaFrame: output)
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError.sourceUnreadable(url, reason: "converting the picture to RGBA: \(error)")
        }
    }
}
