extension CaptureDevice {
    /// The format a session preset picks on this device, or nil when none fits (AVFoundation's preset rules, made
    /// explicit for devices whose sizes vary):
    ///
    /// - `.high`: the largest picture that still reaches 24 fps (else the largest picture);
    /// - `.medium`: the largest picture at most 640 pixels wide reaching 24 fps;
    /// - `.low`: the smallest picture;
    /// - `.photo`: the largest picture at any rate;
    /// - `.hd1920x1080`, `.hd1280x720`, `.vga640x480`: exactly that size.
    ///
    /// Among formats of the chosen size the highest frame rate wins, then uncompressed pixels (YUYV, NV12, …) over
    /// MJPG over H264 (no decoding cost, no compression artefacts). An audio device's one format fits every preset.
    public func format(for preset: CaptureSession.Preset) -> Format? {
        if !hasMediaType(.video) { return formats.first }
        let video = formats.filter { $0.mediaType == .video }
        guard !video.isEmpty else { return nil }
        func area(_ format: Format) -> Int { format.width * format.height }
        let fast = video.filter { $0.maxFrameRate >= 24 }
        let candidates: [Format]
        switch preset {
        case .high:
            let pool = fast.isEmpty ? video : fast
            let largest = pool.map(area).max() ?? 0
            candidates = pool.filter { area($0) == largest }
        case .medium:
            let pool = fast.filter { $0.width <= 640 }
            let largest = pool.map(area).max() ?? 0
            candidates = pool.filter { area($0) == largest }
        case .low:
            let smallest = video.map(area).min() ?? 0
            candidates = video.filter { area($0) == smallest }
        case .photo:
            let largest = video.map(area).max() ?? 0
            candidates = video.filter { area($0) == largest }
        case .hd1920x1080, .hd1280x720, .vga640x480:
            let size = preset.size
            candidates = video.filter { $0.width == size?.width && $0.height == size?.height }
        }
        return candidates.max { left, right in
            if left.maxFrameRate != right.maxFrameRate { return left.maxFrameRate < right.maxFrameRate }
            return Self.pixelFormatRank(left.pixelFormat) > Self.pixelFormatRank(right.pixelFormat)
        }
    }

    /// Lower is preferred: uncompressed, then MJPG, then H264, then anything else.
    private static func pixelFormatRank(_ pixelFormat: String) -> Int {
        switch pixelFormat {
        case "MJPG": return 1
        case "H264": return 2
        case "YUYV", "UYVY", "NV12", "YU12", "yuv420p", "bgr0", "rgb24": return 0
        default: return 3
        }
    }
}
