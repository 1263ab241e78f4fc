internal import CMedia

/// Owns a libswscale context (`sws_alloc_context` / `sws_freeContext`) that converts pictures of one size and pixel
/// format to another pixel format of the same size, written straight into memory the caller owns — for a picture
/// that leaves FFmpeg (a Swift array), so that no filter's frame pool keeps a second copy of it.
///
/// The context is set up as FFmpeg's `scale` filter sets up its own for the same options, so both give the same
/// bytes: the `flags` (`sws_flags`), the source and destination ranges, MPEG-2 chroma siting for a 4:2:0 source
/// (`src_v_chr_pos` 128, the filter's convention), and one Y'CbCr matrix on both sides (`sws_setColorspaceDetails`,
/// as the filter does when only `in_color_matrix` is given).
package final class PictureScaler {
    private let context: OpaquePointer
    /// Width and height in pixels, of the source and the result.
    package let width: Int, height: Int
    /// The source's `AVPixelFormat` raw value.
    package let sourceFormat: Int32

    /// - Parameters:
    ///   - width, height: the picture's size in pixels (source and result).
    ///   - sourceFormat, destinationFormat: `AVPixelFormat` raw values.
    ///   - sourceFullRange, destinationFullRange: full (`pc`) rather than limited (`tv`) range.
    ///   - matrix: libswscale's Y'CbCr matrix (`SWS_CS_ITU709`, …).
    ///   - flags: libswscale's flags by name, as the `scale` filter's `flags` option (`bicubic+accurate_rnd`).
    /// - Throws: `FFmpegError` when libswscale cannot allocate the context or refuses the formats or flags.
    package init(width: Int, height: Int, sourceFormat: Int32, sourceFullRange: Bool, matrix: Int32,
                 destinationFormat: Int32, destinationFullRange: Bool, flags: String) throws {
        guard let context = sws_alloc_context() else { throw FFmpegError.posix(ENOMEM) }
        self.context = context
        self.width = width
        self.height = height
        self.sourceFormat = sourceFormat
        let options = UnsafeMutableRawPointer(context)
        let integers: [(String, Int64)] = [
            ("srcw", Int64(width)), ("srch", Int64(height)), ("src_format", Int64(sourceFormat)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(destinationFormat)),
            ("src_range", sourceFullRange ? 1 : 0), ("dst_range", destinationFullRange ? 1 : 0),
        ] + (sourceFormat == AV_PIX_FMT_YUV420P.rawValue ? [("src_v_chr_pos", 128)] : [])
        for (name, value) in integers {
            try FFmpegError.check(av_opt_set_int(options, name, value, 0), in: "av_opt_set_int(\(name))")
        }
        try FFmpegError.check(av_opt_set(options, "sws_flags", flags, 0), in: "av_opt_set(sws_flags)")
        try FFmpegError.check(sws_init_context(context, nil, nil), in: "sws_init_context")
        let coefficients = sws_getCoefficients(matrix)
        try FFmpegError.check(
            sws_setColorspaceDetails(context, coefficients, sourceFullRange ? 1 : 0, coefficients,
                                     destinationFullRange ? 1 : 0, 0, 1 << 16, 1 << 16),
            in: "sws_setColorspaceDetails")
    }

    deinit { sws_freeContext(context) }

    /// Converts `frame` (of this scaler's size and source format) into `destination`: one packed plane of
    /// `height` rows, `bytesPerRow` bytes apart.
    /// - Throws: `FFmpegError.invalidData` when the frame's size or format differs from the scaler's, or
    ///   libswscale's error.
    package func scale(_ frame: Frame, into destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int) throws {
        guard frame.width == width, frame.height == height, frame.format == sourceFormat else { throw FFmpegError.invalidData }
        let data = frame.pointer.pointee.data, lines = frame.pointer.pointee.linesize
        let planes: [UnsafePointer<UInt8>?] = [data.0, data.1, data.2, data.3].map { $0.map { UnsafePointer($0) } }
        let strides: [Int32] = [lines.0, lines.1, lines.2, lines.3]
        let output: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        let outputStrides: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        let rows = sws_scale(context, planes, strides, 0, Int32(height), output, outputStrides)
        try FFmpegError.check(rows, in: "sws_scale")
    }
}
