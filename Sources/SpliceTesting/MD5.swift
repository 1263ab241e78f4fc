import Export
import SpliceFFmpeg
internal import CMedia

/// Owns an `AVMD5` hashing context (`av_md5_alloc` / `av_free`): libavutil's MD5, the hash of FFmpeg's own
/// `framemd5` muxer. Used for frame digests; not for security.
final class MD5 {
    private let pointer: OpaquePointer

    /// A context ready for ``update(_:count:)`` (`av_md5_alloc` + `av_md5_init`).
    /// - Throws: `FFmpegError` (ENOMEM) when allocation fails.
    init() throws {
        guard let context = av_md5_alloc() else { throw FFmpegError.posix(ENOMEM) }
        pointer = context
        av_md5_init(pointer)
    }

    deinit {
        av_free(UnsafeMutableRawPointer(pointer))
    }

    /// Adds `count` bytes at `bytes` to the hash (`av_md5_update`).
    func update(_ bytes: UnsafeRawPointer, count: Int) {
        av_md5_update(pointer, bytes.assumingMemoryBound(to: UInt8.self), count)
    }

    /// The digest of everything added, as 32 lowercase hexadecimal digits (`av_md5_final`); the context is then
    /// re-initialised for a new hash.
    func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        digest.withUnsafeMutableBufferPointer { av_md5_final(pointer, $0.baseAddress) }
        av_md5_init(pointer)
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(32)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The MD5 of one buffer, hex (`av_md5_sum` semantics through the context).
    static func hex(of bytes: UnsafeRawBufferPointer) throws -> String {
        let md5 = try MD5()
        if let base = bytes.baseAddress { md5.update(base, count: bytes.count) }
        return md5.finalizeHex()
    }
}
