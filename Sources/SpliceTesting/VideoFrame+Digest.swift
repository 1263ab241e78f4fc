import SpliceFFmpeg
import Export
import Foundation

extension VideoFrame {
    /// The MD5 of the picture's RGBA bytes, row by row without padding (`width × 4` bytes per row, `height` rows),
    /// as 32 lowercase hexadecimal digits, computed by libavutil (`av_md5_*`). Two frames have the same digest
    /// exactly when they have the same size and pixels: for exact regression logs of lossless paths.
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` if the hash context cannot be allocated.
    public func md5() throws -> String {
        let md5: MD5
        do {
            md5 = try MD5()
        } catch {
            throw ExportError.renderingFailed(stage: "hashing", reason: "\(error)")
        }
        pixels.withUnsafeBytes { bytes in
            for row in 0..<height {
                md5.update(bytes.baseAddress! + row * bytesPerRow, count: width * 4)
            }
        }
        return md5.finalizeHex()
    }
}
