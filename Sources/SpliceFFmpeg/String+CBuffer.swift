extension String {
    /// The text of a NUL-terminated C buffer filled by an FFmpeg call (`av_channel_layout_describe`, `av_strerror`):
    /// the bytes up to the first NUL, decoded as UTF-8 (invalid bytes repaired).
    package init(cBuffer buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
