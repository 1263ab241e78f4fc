import Foundation
import SpliceFFmpeg

extension OutputFile {
    /// Opens the temporary file `path` for `fileType`'s muxer, for the output `url` (wraps
    /// `avformat_alloc_output_context2` and `avio_open2` through ``OutputFile``): the one way the stream-copy
    /// writers (passthrough, smart rendering, segment joins) open what they write.
    /// - Throws: ``ExportError/outputNotWritable(_:reason:)`` naming `url`'s directory and the cause
    ///   (``ExportError/openingOutput(_:for:)``).
    static func export(path: String, fileType: FileType, for url: URL, cancellation: CancellationFlag) throws -> OutputFile {
        do {
            return try OutputFile(path: path, formatName: fileType.muxerName, cancellation: cancellation)
        } catch {
            throw ExportError.openingOutput(error, for: url)
        }
    }
}
