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

    /// Reads packets of `info`'s stream from the start of `file` and decodes the first picture.
    ///
    /// - Throws: ``AssetLoadingError/corruptOrTruncated`` when no picture decodes; `CancellationError` when cancelled.
    init(file: InputFile, info: StreamInfo) throws {
        let url = file.url
        func corrupt(_ step: String, _ code: Int32) -> AssetLoadingError {
            .corruptOrTruncated(url, reason: "decoding the image (\(step)): \(FFmpegError(rawValue: code))")
        }
        guard let codec = avcodec_find_decoder(info.codecID) else {
            throw AssetLoadingError.unsupportedCodec(url, trackID: Int32(info.index + 1), codec: info.codecName)
        }
        let context = try ProbeCodecContext(codec: codec, url: url)
        var code = avcodec_parameters_to_context(context.pointer, file.stream(at: info.index).pointee.codecpar)
        guard code >= 0 else { throw corrupt("parameters", code) }
        context.pointer.pointee.thread_count = 1
        // Strict: a picture with decode errors (a JPEG cut off before its end marker, which the decoder would
        // otherwise pad with grey) is reported as corrupt instead of loading a damaged image.
        context.pointer.pointee.err_recognition |= AV_EF_EXPLODE
        code = avcodec_open2(context.pointer, codec, nil)
        guard code >= 0 else { throw corrupt("opening the decoder", code) }
        let frame = try ProbeFrame(url: url)
        let packet = try Packet()
        var flushed = false
        var lastError: Int32 = cmedia_AVERROR_INVALIDDATA()
        decoding: while true {
            if file.cancellation.isCancelled { throw CancellationError() }
            let more: Bool
            do { more = try file.readPacket(into: packet) } catch let error as FFmpegError {
                if error == .exit { throw CancellationError() }
                throw corrupt("reading", error.rawValue)
            }
            if more {
                guard packet.streamIndex == info.index else { continue }
                code = avcodec_send_packet(context.pointer, packet.pointer)
                if code < 0 && code != cmedia_AVERROR_EAGAIN() { lastError = code }
            } else if !flushed {
                flushed = true
                avcodec_send_packet(context.pointer, nil)  // drain: the decoder may hold the picture back
            } else {
                throw corrupt("no picture", lastError)
            }
            code = avcodec_receive_frame(context.pointer, frame.pointer)
            switch code {
            case 0...: break decoding
            case cmedia_AVERROR_EAGAIN(): continue
            case cmedia_AVERROR_EOF(): throw corrupt("no picture", lastError)
            default: lastError = code
            }
        }
        let picture = frame.pointer.pointee
        if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_DISPLAYMATRIX), side.pointee.size >= 36 {
            displayMatrix = side.pointee.data.withMemoryRebound(to: Int32.self, capacity: 9) {
                Array(UnsafeBufferPointer(start: $0, count: 9))
            }
        }
        if let entry = av_dict_get(picture.metadata, "Orientation", nil, 0), let value = entry.pointee.value {
            exifOrientation = Int(String(cString: value).trimmingCharacters(in: .whitespaces))
        }
        pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: picture.format)).map { String(cString: $0) } ?? "unknown"
        size = Size(width: Int(picture.width), height: Int(picture.height))
    }
}

/// Owns the probe's `AVCodecContext` (`avcodec_alloc_context3` / `avcodec_free_context`).
private final class ProbeCodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(codec: UnsafePointer<AVCodec>, url: URL) throws {
        guard let context = avcodec_alloc_context3(codec) else {
            throw AssetLoadingError.readFailed(url, reason: "out of memory allocating a decoder")
        }
        pointer = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}

/// Owns the probe's `AVFrame` (`av_frame_alloc` / `av_frame_free`).
private final class ProbeFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init(url: URL) throws {
        guard let frame = av_frame_alloc() else {
            throw AssetLoadingError.readFailed(url, reason: "out of memory allocating a frame")
        }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}
