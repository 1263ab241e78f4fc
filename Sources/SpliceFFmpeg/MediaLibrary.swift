internal import CMedia

/// Facts about the FFmpeg libraries Splice is running on, for bug reports and licence checks.
public enum MediaLibrary {
    /// One linked library: its name, the version it reports at run time, and the version Splice was compiled with.
    public struct Component: Sendable, Hashable, Codable {
        /// Library name, e.g. `"libavformat"`.
        public var name: String
        /// Version reported at run time (`avformat_version()`), `major.minor.micro`.
        public var runtimeVersion: String
        /// Version of the headers Splice was compiled against (`LIBAVFORMAT_VERSION_INT`), or nil when not shimmed.
        public var compiledVersion: String?
    }

    /// The linked libraries: libavformat, libavcodec, libavfilter, libavutil, libswscale, libswresample.
    public static var versions: [Component] {
        [
            Component(name: "libavformat", runtimeVersion: format(avformat_version()),
                      compiledVersion: format(cmedia_LIBAVFORMAT_VERSION_INT())),
            Component(name: "libavcodec", runtimeVersion: format(avcodec_version()),
                      compiledVersion: format(cmedia_LIBAVCODEC_VERSION_INT())),
            Component(name: "libavfilter", runtimeVersion: format(avfilter_version()),
                      compiledVersion: format(cmedia_LIBAVFILTER_VERSION_INT())),
            Component(name: "libavutil", runtimeVersion: format(avutil_version()),
                      compiledVersion: format(cmedia_LIBAVUTIL_VERSION_INT())),
            Component(name: "libswscale", runtimeVersion: format(swscale_version()), compiledVersion: nil),
            Component(name: "libswresample", runtimeVersion: format(swresample_version()), compiledVersion: nil),
        ]
    }

    /// FFmpeg's release string (`av_version_info()`, e.g. `"5.1.9-0+deb12u1"`).
    public static var ffmpegVersion: String { String(cString: av_version_info()) }

    /// The `./configure` line libavcodec was built with (`avcodec_configuration()`).
    public static var configuration: String { String(cString: avcodec_configuration()) }

    /// The licence libavcodec declares (`avcodec_license()`), e.g. `"GPL version 2 or later"`: Debian's build links
    /// GPL code (libx264), so a program distributed with it is a GPL-2+ combination.
    public static var license: String { String(cString: avcodec_license()) }

    /// True when the linked libavfilter has a filter of this name (`avfilter_get_by_name`); LGPL builds lack some
    /// (e.g. `perspective`).
    public static func hasFilter(named name: String) -> Bool {
        avfilter_get_by_name(name) != nil
    }

    /// True when the linked libavcodec has an encoder of this name (`avcodec_find_encoder_by_name`), e.g. `libx264`.
    public static func hasEncoder(named name: String) -> Bool {
        avcodec_find_encoder_by_name(name) != nil
    }

    /// The pixel formats the encoder of this name accepts, by FFmpeg's names (`yuv420p`, `yuv420p10le`), in the
    /// encoder's order (`AVCodec.pix_fmts`, as `ffmpeg -h encoder=NAME` lists them); nil when there is no such
    /// encoder or it does not declare them. A libx264 built for 8 bits only lacks `yuv420p10le`, so it cannot write
    /// H.264 High 10 (Debian 12's libx264 164 has both depths in one library).
    public static func pixelFormats(ofEncoder name: String) -> [String]? {
        guard let codec = avcodec_find_encoder_by_name(name), var format = codec.pointee.pix_fmts else { return nil }
        var names: [String] = []
        while format.pointee != AV_PIX_FMT_NONE {
            if let name = av_get_pix_fmt_name(format.pointee) { names.append(String(cString: name)) }
            format += 1
        }
        return names
    }

    /// A multi-line report: release, each library's run-time and compile-time version, licence.
    public static var report: String {
        var lines = ["FFmpeg \(ffmpegVersion) (\(license))"]
        for component in versions {
            let compiled = component.compiledVersion.map { " (built against \($0))" } ?? ""
            lines.append("  \(component.name) \(component.runtimeVersion)\(compiled)")
        }
        return lines.joined(separator: "\n")
    }

    private static func format(_ version: UInt32) -> String {
        "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }
}
