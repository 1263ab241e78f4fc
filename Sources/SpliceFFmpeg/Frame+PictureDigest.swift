internal import CMedia

extension Frame {
    /// A digest of the picture's visible pixels: its planes packed without padding (`av_image_copy_to_buffer`,
    /// alignment 1, as FFmpeg's `framemd5` hashes them) fed to Swift's `Hasher`, plus the width, height and pixel
    /// format. Equal pictures give equal digests within one process (Hasher is seeded per process): for comparing
    /// two decodes of the same picture, never for storing.
    /// - Throws: ``FFmpegError`` for a frame without a picture (`EINVAL`) or a failed copy.
    package func pictureDigest() throws -> Int {
        guard let buffer = try packedPicture() else { throw FFmpegError.posix(EINVAL) }
        let format = AVPixelFormat(rawValue: pointer.pointee.format)
        let width = pointer.pointee.width, height = pointer.pointee.height
        var hasher = Hasher()
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(format.rawValue)
        buffer.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// The picture's visible pixels with its planes packed one after another without padding
    /// (`av_image_copy_to_buffer`, alignment 1: what FFmpeg's `framemd5` hashes); nil when the frame holds no
    /// picture of a known size and format.
    /// - Throws: ``FFmpegError`` when the copy fails.
    package func packedPicture() throws -> [UInt8]? {
        let format = AVPixelFormat(rawValue: pointer.pointee.format)
        let width = pointer.pointee.width, height = pointer.pointee.height
        let size = Int(av_image_get_buffer_size(format, width, height, 1))
        guard size > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: size)
        let copied = withUnsafePointer(to: &pointer.pointee.data) { data in
            withUnsafePointer(to: &pointer.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 4) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 4) { strides in
                        buffer.withUnsafeMutableBufferPointer {
                            av_image_copy_to_buffer($0.baseAddress, Int32(size), planes, strides, format, width, height, 1)
                        }
                    }
                }
            }
        }
        _ = try FFmpegError.check(copied)
        return buffer
    }
}
