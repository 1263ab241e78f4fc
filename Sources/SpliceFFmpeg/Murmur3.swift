internal import CMedia

/// Owns an `AVMurMur3` hashing context (`av_murmur3_alloc` / `av_free`): libavutil's MurmurHash3 (128 bits), a fast
/// non-cryptographic hash for telling two buffers apart (a decoded picture against another decode of it). Not for
/// security.
package final class Murmur3 {
    private let pointer: OpaquePointer

    /// A context ready for ``update(_:count:)`` (`av_murmur3_alloc` + `av_murmur3_init`).
    /// - Throws: ``FFmpegError`` (ENOMEM) when allocation fails.
    package init() throws {
        guard let context = av_murmur3_alloc() else { throw FFmpegError.posix(ENOMEM) }
        pointer = context
        av_murmur3_init(pointer)
    }

    deinit {
        av_free(UnsafeMutableRawPointer(pointer))
    }

    /// Adds `count` bytes at `bytes` to the hash (`av_murmur3_update`).
    package func update(_ bytes: UnsafeRawPointer, count: Int) {
        av_murmur3_update(pointer, bytes.assumingMemoryBound(to: UInt8.self), count)
    }

    /// Adds the bytes of `buffer` to the hash (nothing for an empty buffer).
    package func update(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress, !buffer.isEmpty { update(base, count: buffer.count) }
    }

    /// The first 64 of the hash's 128 bits (`av_murmur3_final`), as an `Int`; the context is then re-initialised
    /// for a new hash. The same bytes give the same value in every process.
    package func finalize() -> Int {
        var digest = [UInt8](repeating: 0, count: 16)
        digest.withUnsafeMutableBufferPointer { av_murmur3_final(pointer, $0.baseAddress) }
        av_murmur3_init(pointer)
        return Int(bitPattern: UInt(digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
    }
}
