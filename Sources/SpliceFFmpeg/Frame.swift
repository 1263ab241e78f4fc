package import CMedia

/// Owns one `AVFrame` (`av_frame_alloc` / `av_frame_free`). Re-used across decode calls: `unref()` drops the
/// buffers, keeps the struct.
package final class Frame {
    package let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame.
    /// - Throws: `FFmpegError` (ENOMEM) when allocation fails.
    package init() throws {
        guard let frame = av_frame_alloc() else { throw FFmpegError.posix(ENOMEM) }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Drops the frame's buffers (`av_frame_unref`); the frame can be filled again.
    package func unref() { av_frame_unref(pointer) }

    /// Makes this frame reference the same buffers as `other` (`av_frame_ref`), after dropping its own.
    package func reference(_ other: Frame) throws {
        av_frame_unref(pointer)
        try FFmpegError.check(av_frame_ref(pointer, other.pointer), in: "av_frame_ref")
    }

    /// Moves `other`'s buffers into this frame (`av_frame_move_ref`); `other` is left empty.
    package func take(from other: Frame) {
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, other.pointer)
    }

    /// A new frame referencing the same buffers (`av_frame_clone` semantics, through `reference`).
    package func clone() throws -> Frame {
        let copy = try Frame()
        try copy.reference(self)
        return copy
    }

    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }
    package var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }
    package var bestEffortTimestamp: Int64 { pointer.pointee.best_effort_timestamp }
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    /// Samples per second of an audio frame (`sample_rate`; 0 for a picture).
    package var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    package var hasData: Bool { pointer.pointee.data.0 != nil || pointer.pointee.buf.0 != nil }

    /// The pixel format (`AVPixelFormat`) or sample format (`AVSampleFormat`) raw value; −1 when unset.
    package var format: Int32 { pointer.pointee.format }
    /// The colour range (`AVColorRange` raw value) the frame is tagged with.
    package var colorRange: UInt32 { pointer.pointee.color_range.rawValue }
    /// The Y'CbCr matrix (`AVColorSpace` raw value) the frame is tagged with.
    package var colorSpace: UInt32 { pointer.pointee.colorspace.rawValue }
    /// The primaries (`AVColorPrimaries` raw value) the frame is tagged with.
    package var colorPrimaries: UInt32 { pointer.pointee.color_primaries.rawValue }
    /// The transfer characteristic (`AVColorTransferCharacteristic` raw value) the frame is tagged with.
    package var colorTransfer: UInt32 { pointer.pointee.color_trc.rawValue }

    /// Clears the picture type a decoder left on a reused frame (`pict_type = AV_PICTURE_TYPE_NONE`): an encoder
    /// or filter would otherwise honour it.
    package func resetPictureType() {
        pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
    }

    /// Marks the pixels square (`sample_aspect_ratio = 1:1`).
    package func markSquarePixels() {
        pointer.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    }

    /// Bytes per row of picture plane `plane` (0 ..< 8; `linesize`), 0 for a plane the format lacks.
    package func bytesPerRow(ofPlane plane: Int) -> Int {
        precondition((0..<8).contains(plane), "AVFrame has 8 line sizes")
        return withUnsafeBytes(of: pointer.pointee.linesize) { Int($0.load(fromByteOffset: plane * 4, as: Int32.self)) }
    }

    /// Plane `plane`'s first byte (`extended_data[plane]`: a picture plane, or one channel of planar audio), nil
    /// when the frame has no buffers. `plane` must be below the format's plane (or planar channel) count.
    package func plane(_ plane: Int) -> UnsafeMutablePointer<UInt8>? {
        pointer.pointee.extended_data?[plane]
    }

    /// Drops the frame's buffers and allocates new ones for `width` × `height` pixels of `pixelFormat`
    /// (`av_frame_get_buffer`, default alignment).
    /// - Throws: ``FFmpegError`` (ENOMEM, EINVAL for a bad size or format).
    package func allocatePicture(width: Int, height: Int, pixelFormat: AVPixelFormat) throws {
        av_frame_unref(pointer)
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = pixelFormat.rawValue
        try FFmpegError.check(av_frame_get_buffer(pointer, 0), in: "av_frame_get_buffer")
    }

    /// Drops the frame's buffers and makes it a `width` × `height` picture of `pixelFormat` whose planes are the
    /// given arrays, referenced where they are, without a copy (`av_buffer_create`, read-only): one buffer per plane,
    /// rows `bytesPerRow` apart. Each array is kept until FFmpeg drops that plane's last reference (on whichever
    /// thread does); a caller changing its own copy afterwards changes a copy of its own (copy on write).
    /// - Throws: ``FFmpegError`` (ENOMEM) when a buffer reference cannot be made; EINVAL for an empty array or more
    ///   than 4 planes.
    package func referencePicture(width: Int, height: Int, pixelFormat: AVPixelFormat,
                                  planes: [(bytes: [UInt8], bytesPerRow: Int)]) throws {
        av_frame_unref(pointer)
        guard planes.count <= 4, planes.allSatisfy({ !$0.bytes.isEmpty }) else { throw FFmpegError.posix(EINVAL) }
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = pixelFormat.rawValue
        let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?) -> Void = { opaque, _ in
            if let opaque { Unmanaged<RetainedBytes>.fromOpaque(opaque).release() }
        }
        for (index, plane) in planes.enumerated() {
            let owner = RetainedBytes(plane.bytes)
            let opaque = Unmanaged.passRetained(owner).toOpaque()
            guard let buffer = av_buffer_create(owner.address, plane.bytes.count, release, opaque,
                                                Int32(AV_BUFFER_FLAG_READONLY)) else {
                Unmanaged<RetainedBytes>.fromOpaque(opaque).release()
                av_frame_unref(pointer)
                throw FFmpegError.posix(ENOMEM)
            }
            cmedia_AVFrame_set_plane(pointer, Int32(index), buffer, Int32(plane.bytesPerRow))
        }
    }

    /// Drops the frame's buffers and allocates `sampleCount` samples of `sampleFormat` at `sampleRate` Hz in
    /// FFmpeg's default layout for `channelCount` channels (`av_frame_get_buffer`).
    /// - Throws: ``FFmpegError`` (ENOMEM, EINVAL).
    package func allocateAudio(sampleCount: Int, sampleFormat: AVSampleFormat, sampleRate: Int, channelCount: Int) throws {
        av_frame_unref(pointer)
        pointer.pointee.nb_samples = Int32(sampleCount)
        pointer.pointee.format = sampleFormat.rawValue
        pointer.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&pointer.pointee.ch_layout, Int32(channelCount))
        try FFmpegError.check(av_frame_get_buffer(pointer, 0), in: "av_frame_get_buffer")
    }

    /// Keeps only the first `count` samples of an audio frame (`nb_samples` lowered; the buffers stay as they are),
    /// e.g. to end a recording on an exact sample. A `count` at or above the frame's count changes nothing.
    package func truncateSamples(to count: Int) {
        if count < sampleCount { pointer.pointee.nb_samples = Int32(max(0, count)) }
    }

    /// Gives an audio frame whose channel order is unspecified the layout `layout` (a copy); frames with a known
    /// order are left alone.
    package func fillUnspecifiedChannelLayout(with layout: AVChannelLayout) {
        guard pointer.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC else { return }
        var layout = layout
        av_channel_layout_uninit(&pointer.pointee.ch_layout)
        av_channel_layout_copy(&pointer.pointee.ch_layout, &layout)
    }

    /// The display matrix side data (`AV_FRAME_DATA_DISPLAYMATRIX`: 9 × Int32, 16.16 fixed point), nil when absent.
    package var displayMatrix: [Int32]? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_DISPLAYMATRIX), side.pointee.size >= 36 else {
            return nil
        }
        return side.pointee.data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
    }

    /// The value of the frame's metadata entry `key` (e.g. EXIF `"Orientation"`), nil when absent.
    package func metadataValue(forKey key: String) -> String? {
        guard let entry = av_dict_get(pointer.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }
}

/// An array of bytes a frame's plane references, and where its elements are: a native array's elements stay at one
/// address while the array is neither changed nor freed, and this object's constant copy is never changed (a change
/// to another copy of the same storage copies it first).
private final class RetainedBytes {
    let bytes: [UInt8]
    let address: UnsafeMutablePointer<UInt8>

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        address = UnsafeMutablePointer(mutating: bytes.withUnsafeBufferPointer { $0.baseAddress! })
    }
}
