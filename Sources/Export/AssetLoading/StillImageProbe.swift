import SpliceFFmpeg
internal import CMedia
import Composition
import Foundation

/// Decodes the one picture of a still image (PNG, JPEG, …) to learn what only the decoder knows: the orientation
/// (FFmpeg 5.1's JPEG decoder exports EXIF orientation as a frame display matrix, not as stream side data) and the
/// decoded pixel format. A picture that does not decode is reported as corrupt.
struct StillImageProbe {
    /// The frame's display matrix (9 values), when the decoder attached one.
    var displayMatrix: [Int32]?
    /// The EXIF `Orientation` tag (1…8) from the frame metadata, when present.
    var exifOrientation: Int?
    /// The decoded pixel format name (`yuvj444p`, `rgba`, …).
    var pixelFormat: String
    /// The decoded picture size in pixels.
    var size: Size

    /// Reads packets of `info`'s stream from the start of `file` and decodes the first picture (through
    /// ``StreamDecoder``, strictly: a picture with decode errors counts as none).
    ///
    /// - Throws: ``AssetLoadingError/corruptOrTruncated`` when no picture decodes; `CancellationError` when cancelled.
    init(file: InputFile, info: StreamInfo) throws {
        let url = file.url
        guard avcodec_find_decoder(info.codecID) != nil else {
            throw AssetLoadingError.unsupportedCodec(url, trackID: Int32(info.index + 1), codec: info.codecName)
        }
        let frame: Frame
        do {
            // Strict: a picture with decode errors (a JPEG cut off before its end marker, which the decoder would
            // otherwise pad with grey) is reported as corrupt instead of loading a damaged image.
            let decoder = try StreamDecoder(input: file, streamIndex: info.index, label: "the image", threads: 1, strict: true)
            frame = try Frame()
            guard try decoder.decode(into: frame) else {
                throw AssetLoadingError.corruptOrTruncated(url, reason: "decoding the image: no picture decodes")
            }
        } catch ExportError.sourceUnreadable(_, let reason) {
            throw AssetLoadingError.corruptOrTruncated(url, reason: reason)
        } catch let error as FFmpegError {
            throw AssetLoadingError.readFailed(url, reason: "decoding the image: \(error)")
        }
        displayMatrix = frame.displayMatrix
        if let value = frame.metadataValue(forKey: "Orientation") {
            exifOrientation = Int(value.trimmingCharacters(in: .whitespaces))
        }
        pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.format)).map { String(cString: $0) } ?? "unknown"
        size = Size(width: frame.width, height: frame.height)
    }
}
