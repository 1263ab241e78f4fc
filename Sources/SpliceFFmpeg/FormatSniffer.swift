internal import CMedia
import Foundation

/// Asks libavformat which format a file's first bytes look like (`av_probe_input_format3`), by content only (no
/// file name). Used to tell "not a media file" from "a media file that cannot be read" when `avformat_open_input`
/// fails with `AVERROR_INVALIDDATA` (e.g. an MP4 cut off before its `moov` box still starts with a valid `ftyp`).
package enum FormatSniffer {
    /// Bytes read from the start of the file.
    package static let headLength = 1 << 16

    /// The demuxer name and probe score (0…100) of the best content match, or nil when nothing matches or the file
    /// cannot be read.
    package static func guess(path: String) -> (name: String, score: Int32)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: headLength), !head.isEmpty else { return nil }
        var buffer = [UInt8](head)
        buffer.append(contentsOf: repeatElement(0, count: Int(AVPROBE_PADDING_SIZE)))
        var score: Int32 = 0
        let format: UnsafePointer<AVInputFormat>? = buffer.withUnsafeMutableBufferPointer { bytes in
            "".withCString { emptyName in
                var probe = AVProbeData(filename: emptyName, buf: bytes.baseAddress, buf_size: Int32(head.count), mime_type: nil)
                return av_probe_input_format3(&probe, 1, &score)
            }
        }
        guard let format, let name = format.pointee.name else { return nil }
        return (String(cString: name), score)
    }
}
