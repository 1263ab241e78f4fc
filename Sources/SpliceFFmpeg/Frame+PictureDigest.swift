internal import CMedia

extension Frame {
    /// A digest of the picture's visible pixels: each plane's visible rows, read in place (no copy), fed to
    /// libavutil's MurmurHash3 (``Murmur3``) after the width, height and pixel format; a paletted picture's packed
    /// copy (``packedPicture()``, palette included). Equal pictures give equal digests, in any process: for comparing
    /// two decodes of the same picture (smart rendering's verifier), not for security.
    /// - Throws: ``FFmpegError`` for a frame without a picture of a known size and format (`EINVAL`), or a failed copy.
    package func pictureDigest() throws -> Int {
        let format = AVPixelFormat(rawValue: pointer.pointee.format)
        let width = pointer.pointee.width, height = pointer.pointee.height
        guard width > 0, height > 0, let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else { throw FFmpegError.posix(EINVAL) }
        let hash = try Murmur3()
        withUnsafeBytes(of: width) { hash.update($0) }
        withUnsafeBytes(of: height) { hash.update($0) }
        withUnsafeBytes(of: format.rawValue) { hash.update($0) }
        if descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0 {
            guard let buffer = try packedPicture() else { throw FFmpegError.posix(EINVAL) }
            buffer.withUnsafeBytes { hash.update($0) }
            return hash.finalize()
        }
        var rowBytes: [Int32] = [0, 0, 0, 0]
        try FFmpegError.check(av_image_fill_linesizes(&rowBytes, format, width), in: "av_image_fill_linesizes")
        let chromaShift = Int32(descriptor.pointee.log2_chroma_h)
        for plane in 0..<4 where rowBytes[plane] > 0 {
            guard let data = self.plane(plane) else { throw FFmpegError.posix(EINVAL) }
            // Chroma planes (1 and 2) are subsampled vertically, rounding up (as av_image_copy_to_buffer does).
            let rows = plane == 1 || plane == 2 ? -((-height) >> chromaShift) : height
            let stride = bytesPerRow(ofPlane: plane)
            for row in 0..<Int(rows) { hash.update(data + row * stride, count: Int(rowBytes[plane])) }
        }
        return hash.finalize()
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
        _ = try FFmpegError.check(copied, in: "av_image_copy_to_buffer")
        return buffer
    }
}
