import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
internal import CMedia

/// Synthetic media written in-process with the library's own encoding muxer (`EncodingMuxer`, which the public
/// `SyntheticMedia` writes through too) and FFmpeg owners (`Encoder`, `Frame`), so each kind of difficult input (rotation matrix, variable frame rate, a 600 or 1001-based clock,
/// audio shorter or longer than video, odd sample rates) is reproduced with exactly known content and timing.
///
/// Pictures are drawn as solid boxes in RGB, converted to 8-bit 4:2:0 BT.709 limited range by the formula (no
/// scaler involved) and coded losslessly (libx264 `qp=0`, no B-frames, key frames exactly every
/// `keyFrameInterval` frames): a decoder returns exactly the drawn Y/U/V values. Audio is any function of the sample
/// index, coded as 16-bit PCM or AAC. (The library's public `SyntheticMedia` renders lavfi sources losslessly; these
/// clips need what it does not give: chosen timestamps per frame, display matrices, pixel aspect ratios, H.264/HEVC
/// GOPs, AAC priming and timestamp jumps.)
enum PaintedMedia {
    /// Colours are the library's ``Color`` (components 0…1; the pictures use 8-bit values, `n / 255`; the palette
    /// is below: `.pureRed`, `.pureGreen`, `.pureBlue`, `.yellow`, `.grey`, and the library's `.black`, `.white`).
    typealias RGB = Color

    /// A filled rectangle in pixels (origin top-left).
    struct Box: Sendable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var color: RGB
    }

    /// One frame's picture: a background with boxes drawn over it in order.
    struct Picture: Sendable {
        var background: RGB
        var boxes: [Box] = []
    }

    struct Video: Sendable {
        /// Coded size in pixels (even).
        var width: Int
        var height: Int
        /// The stream clock: ticks per second.
        var timescale: Int32
        /// Presentation time of each frame in ticks, increasing.
        var frameTimes: [Int64]
        /// End of the last frame in ticks.
        var endTime: Int64
        /// Display-matrix rotation in degrees as ffprobe reports it (`rotation=-90` for a phone held upright: the
        /// picture is shown turned a quarter clockwise). FFmpeg 5.1's `av_display_rotation_set` takes the opposite
        /// sign of what `av_display_rotation_get` (and ffprobe) report back, so it is called with `-rotation`.
        var rotation: Double = 0
        /// Pixel aspect ratio (width : height of one pixel).
        var pixelAspectRatio: (Int32, Int32) = (1, 1)
        /// Frames from one key frame to the next.
        var keyFrameInterval = 300
        /// `libx264` (lossless) or `libx265` (lossless, for long-GOP HEVC).
        var encoder = "libx264"
        /// The picture of frame `index`.
        var picture: @Sendable (Int) -> Picture

        /// Constant-rate frames: `count` frames of `frameDuration` ticks from 0.
        static func constantRate(width: Int, height: Int, timescale: Int32, frameDuration: Int64, count: Int,
                                 picture: @escaping @Sendable (Int) -> Picture) -> Video {
            Video(width: width, height: height, timescale: timescale,
                  frameTimes: (0..<count).map { Int64($0) * frameDuration }, endTime: Int64(count) * frameDuration,
                  picture: picture)
        }
    }

    struct Audio: Sendable {
        enum Codec: Sendable { case pcm, aac }
        var sampleRate: Int
        var channels: Int
        /// Samples per channel.
        var sampleCount: Int
        var codec: Codec = .pcm
        /// Ticks (1/sampleRate) added to the timestamps of every packet after the first presented one (AAC's priming
        /// packet, at a negative time, does not count): a gap in the timestamps
        /// that is not a gap in the sound, as an Android writer makes by giving the first packet a longer duration
        /// (M03: 8471 ticks for 1024 samples).
        var timestampJumpAfterFirstPacket: Int64 = 0
        /// The value (−1…1) of sample `index` on channel `channel`.
        var sample: @Sendable (_ index: Int, _ channel: Int) -> Float
    }

    /// Writes a file with the given streams (video first) through libavformat's muxer `format` (`mov`, `mp4`,
    /// `matroska`).
    static func write(to url: URL, format: String = "mov", video: Video?, audio: Audio?,
                      muxerOptions: [String: String] = [:]) throws {
        let muxer = try EncodingMuxer(path: url.path, formatName: format)
        var videoStream = -1, audioStream = -1
        if let video {
            let encoder = try Encoder(name: video.encoder)
            let context = encoder.pointer
            context.pointee.width = Int32(video.width)
            context.pointee.height = Int32(video.height)
            context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            context.pointee.time_base = AVRational(num: 1, den: video.timescale)
            context.pointee.sample_aspect_ratio = AVRational(num: video.pixelAspectRatio.0, den: video.pixelAspectRatio.1)
            context.pointee.gop_size = Int32(video.keyFrameInterval)
            context.pointee.max_b_frames = 0
            context.pointee.color_range = AVCOL_RANGE_MPEG
            context.pointee.colorspace = AVCOL_SPC_BT709
            context.pointee.color_primaries = AVCOL_PRI_BT709
            context.pointee.color_trc = AVCOL_TRC_BT709
            context.pointee.thread_count = 1
            let k = video.keyFrameInterval
            videoStream = try muxer.addStream(encoder, options: video.encoder == "libx265" ? [
                "preset": "ultrafast",
                "x265-params": "lossless=1:keyint=\(k):min-keyint=\(k):scenecut=0:bframes=0:open-gop=0:log-level=error",
            ] : [
                "preset": "ultrafast", "qp": "0", "x264-params": "keyint=\(k):min-keyint=\(k):scenecut=0:bframes=0",
            ])
            let stream = try #require(muxer.output.pointer.pointee.streams[videoStream])
            stream.pointee.sample_aspect_ratio = context.pointee.sample_aspect_ratio
            if video.rotation != 0 {
                guard let data = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) else {
                    throw FFmpegError.posix(ENOMEM)
                }
                data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_set($0, -video.rotation) }
            }
        }
        var audioFrameSize = 1024
        if let audio {
            let encoder = try Encoder(name: audio.codec == .pcm ? "pcm_s16le" : "aac")
            let context = encoder.pointer
            context.pointee.sample_rate = Int32(audio.sampleRate)
            context.pointee.sample_fmt = audio.codec == .pcm ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_FLTP
            av_channel_layout_default(&context.pointee.ch_layout, Int32(audio.channels))
            context.pointee.time_base = AVRational(num: 1, den: Int32(audio.sampleRate))
            if audio.codec == .aac { context.pointee.bit_rate = 128_000 }
            audioStream = try muxer.addStream(encoder)
            if context.pointee.frame_size > 0 { audioFrameSize = Int(context.pointee.frame_size) }
        }
        try muxer.writeHeader(options: muxerOptions)

        if let video {
            var durations: [Int64: Int64] = [:]
            for (index, time) in video.frameTimes.enumerated() {
                durations[time] = (index + 1 < video.frameTimes.count ? video.frameTimes[index + 1] : video.endTime) - time
            }
            let setDuration = { (packet: Packet) in
                if let duration = durations[packet.pointer.pointee.pts] { packet.pointer.pointee.duration = duration }
            }
            for (index, time) in video.frameTimes.enumerated() {
                let frame = try paint(video.picture(index), width: video.width, height: video.height)
                frame.pts = time
                try muxer.encode(frame, stream: videoStream, adjust: setDuration)
            }
            try muxer.encode(nil, stream: videoStream, adjust: setDuration)
        }
        if let audio {
            var audioPackets = 0
            let jump = audio.timestampJumpAfterFirstPacket
            let addJump = { (packet: Packet) in
                guard jump != 0, packet.pointer.pointee.pts >= 0 else { return }
                if audioPackets == 0 {
                    packet.pointer.pointee.duration += jump
                } else {
                    packet.pointer.pointee.pts += jump
                    packet.pointer.pointee.dts += jump
                }
                audioPackets += 1
            }
            var start = 0
            while start < audio.sampleCount {
                let count = min(audioFrameSize, audio.sampleCount - start)
                let frame = try Frame()
                let pointer = frame.pointer
                pointer.pointee.nb_samples = Int32(count)
                pointer.pointee.format = (audio.codec == .pcm ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_FLTP).rawValue
                pointer.pointee.sample_rate = Int32(audio.sampleRate)
                av_channel_layout_default(&pointer.pointee.ch_layout, Int32(audio.channels))
                try FFmpegError.check(av_frame_get_buffer(pointer, 0))
                if audio.codec == .pcm {
                    let plane = try #require(pointer.pointee.data.0)
                    plane.withMemoryRebound(to: Int16.self, capacity: count * audio.channels) { samples in
                        for i in 0..<count {
                            for channel in 0..<audio.channels {
                                let value = max(-1, min(1, audio.sample(start + i, channel)))
                                samples[i * audio.channels + channel] = Int16((value * 32767).rounded())
                            }
                        }
                    }
                } else {
                    for channel in 0..<audio.channels {
                        let plane = try #require(pointer.pointee.extended_data[channel])
                        plane.withMemoryRebound(to: Float.self, capacity: count) { samples in
                            for i in 0..<count { samples[i] = audio.sample(start + i, channel) }
                        }
                    }
                }
                frame.pts = Int64(start)
                try muxer.encode(frame, stream: audioStream, adjust: addJump)
                start += count
            }
            try muxer.encode(nil, stream: audioStream, adjust: addJump)
        }
        try muxer.finish()
    }

    /// A yuv420p frame of `picture`: the background, then each box filled in order (luma per pixel, chroma per
    /// 2 × 2 block from the block's top-left pixel).
    static func paint(_ picture: Picture, width: Int, height: Int) throws -> Frame {
        let frame = try Frame()
        let pointer = frame.pointer
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        pointer.pointee.color_range = AVCOL_RANGE_MPEG
        pointer.pointee.colorspace = AVCOL_SPC_BT709
        try FFmpegError.check(av_frame_get_buffer(pointer, 0))
        let strides = (Int(pointer.pointee.linesize.0), Int(pointer.pointee.linesize.1), Int(pointer.pointee.linesize.2))
        let planes = (try #require(pointer.pointee.data.0), try #require(pointer.pointee.data.1),
                      try #require(pointer.pointee.data.2))
        let boxes = [Box(x: 0, y: 0, width: width, height: height, color: picture.background)] + picture.boxes
        for box in boxes {
            let (y, u, v) = box.color.yuv
            let x0 = max(0, box.x), x1 = min(width, box.x + box.width)
            let y0 = max(0, box.y), y1 = min(height, box.y + box.height)
            guard x1 > x0, y1 > y0 else { continue }
            for row in y0..<y1 {
                (planes.0 + row * strides.0 + x0).update(repeating: y, count: x1 - x0)
            }
            // Chroma blocks whose top-left pixel lies in the box.
            let cx0 = (x0 + 1) / 2, cx1 = (x1 + 1) / 2, cy0 = (y0 + 1) / 2, cy1 = (y1 + 1) / 2
            guard cx1 > cx0, cy1 > cy0 else { continue }
            for row in cy0..<cy1 {
                (planes.1 + row * strides.1 + cx0).update(repeating: u, count: cx1 - cx0)
                (planes.2 + row * strides.2 + cx0).update(repeating: v, count: cx1 - cx0)
            }
        }
        return frame
    }
}

// MARK: Colours

extension Color {
    /// Pure red (255, 0, 0).
    static let pureRed = Color(red: 1, green: 0, blue: 0)
    /// Pure green (0, 255, 0).
    static let pureGreen = Color(red: 0, green: 1, blue: 0)
    /// Pure blue (0, 0, 255).
    static let pureBlue = Color(red: 0, green: 0, blue: 1)
    /// Yellow (255, 255, 0).
    static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Mid grey (128, 128, 128).
    static let grey = Color(red: 128 / 255, green: 128 / 255, blue: 128 / 255)

    /// R, G, B on the 0…255 scale, for ``colorMatches(_:_:tolerance:)``.
    var tuple: (Double, Double, Double) { (red * 255, green * 255, blue * 255) }

    /// BT.709 limited-range Y, Cb, Cr of this colour (rounded), the values a decoder returns.
    var yuv: (UInt8, UInt8, UInt8) {
        let y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
        let cb = (blue - y) / 1.8556, cr = (red - y) / 1.5748
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        return (byte(16 + 219 * y), byte(128 + 224 * cb), byte(128 + 224 * cr))
    }
}

// MARK: Pictures that say which frame they are

extension PaintedMedia {
    /// Bits of the frame-index code: 10 squares, so indices 0 ..< 1024.
    static let indexBits = 10

    /// A picture whose frame index is written as a row of `indexBits` 16 × 16 squares (white = 1, black = 0, least
    /// significant bit leftmost) at (8 + 16·bit, 8) on a grey background; readable after any lossy step.
    static func indexed(_ index: Int, background: RGB = .grey, extra: [Box] = []) -> Picture {
        var boxes = (0..<indexBits).map { bit in
            Box(x: 8 + 16 * bit, y: 8, width: 16, height: 16, color: (index >> bit) & 1 == 1 ? .white : .black)
        }
        boxes += extra
        return Picture(background: background, boxes: boxes)
    }

    /// The index written by ``indexed(_:background:extra:)`` in `frame` (read at each square's centre, 8 × 8 mean),
    /// or nil when a square is neither clearly black nor clearly white (no index picture there).
    static func readIndex(_ frame: VideoFrame, scale: Double = 1) -> Int? {
        var index = 0
        for bit in 0..<indexBits {
            let centreX = (8 + 16 * Double(bit) + 8) * scale, centreY = 16 * scale
            let mean = frame.meanColor(in: Rect(x: centreX - 4 * scale, y: centreY - 4 * scale, width: 8 * scale, height: 8 * scale))
            let level = (mean.red + mean.green + mean.blue) / 3
            if level > 200 { index |= 1 << bit } else if level > 55 { return nil }
        }
        return index
    }

    /// Four quadrants: top-left red, top-right green, bottom-left blue, bottom-right yellow.
    static func quadrants(width: Int, height: Int) -> Picture {
        Picture(background: .black, boxes: [
            Box(x: 0, y: 0, width: width / 2, height: height / 2, color: .pureRed),
            Box(x: width / 2, y: 0, width: width - width / 2, height: height / 2, color: .pureGreen),
            Box(x: 0, y: height / 2, width: width / 2, height: height - height / 2, color: .pureBlue),
            Box(x: width / 2, y: height / 2, width: width - width / 2, height: height - height / 2, color: .yellow),
        ])
    }
}
