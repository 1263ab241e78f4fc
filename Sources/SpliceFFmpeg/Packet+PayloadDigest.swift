internal import CMedia

extension Packet {
    /// A digest of the payload bytes and their count, read in place (no copy) and fed to Swift's `Hasher`. Equal
    /// payloads give equal digests within one process (Hasher is seeded per process): for checking that a packet
    /// was copied byte for byte (smart rendering's verifier), never for storing.
    package var payloadDigest: Int {
        var hasher = Hasher()
        let count = size
        hasher.combine(count)
        if let bytes = pointer.pointee.data, count > 0 {
            hasher.combine(bytes: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        return hasher.finalize()
    }
}
