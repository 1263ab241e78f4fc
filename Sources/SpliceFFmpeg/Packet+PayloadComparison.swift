internal import CMedia

extension Packet {
    /// True when this packet's payload holds the same bytes as `other`'s (same count, `memcmp` in place, no copy):
    /// for checking that a packet was copied byte for byte (smart rendering's verifier). Timestamps, flags and side
    /// data are not compared.
    package func hasPayload(equalTo other: Packet) -> Bool {
        let count = size
        guard count == other.size else { return false }
        guard count > 0, let bytes = pointer.pointee.data, let others = other.pointer.pointee.data else { return count == 0 }
        return memcmp(bytes, others, count) == 0
    }
}
