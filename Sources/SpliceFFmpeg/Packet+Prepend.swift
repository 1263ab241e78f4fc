internal import CMedia

extension Packet {
    /// Puts `bytes` in front of the payload, keeping the timestamps, flags and side data; see
    /// ``insert(_:at:)``. Nothing happens for empty `bytes`.
    /// - Throws: ``FFmpegError`` (ENOMEM, or a payload over 2 GiB: EINVAL).
    package func prepend(_ bytes: [UInt8]) throws {
        try insert(bytes, at: 0)
    }

    /// Inserts `bytes` into the payload before byte `offset` (clamped to the payload), keeping the timestamps, flags
    /// and side data (`av_new_packet` for the joined payload, `av_packet_copy_props`): e.g. length-prefixed
    /// parameter-set NAL units after a key frame's access unit delimiter, so a stream carries them in-band. Nothing
    /// happens for empty `bytes`.
    /// - Throws: ``FFmpegError`` (ENOMEM, or a payload over 2 GiB: EINVAL).
    package func insert(_ bytes: [UInt8], at offset: Int) throws {
        guard !bytes.isEmpty else { return }
        let old = size
        let split = min(max(offset, 0), old)
        guard bytes.count + old < Int(Int32.max) - Int(AV_INPUT_BUFFER_PADDING_SIZE) else {
            throw FFmpegError.posix(EINVAL)
        }
        let joined = try Packet()
        try FFmpegError.check(av_new_packet(joined.pointer, Int32(bytes.count + old)), in: "av_new_packet")
        guard let destination = joined.pointer.pointee.data else { throw FFmpegError.posix(ENOMEM) }
        let source = pointer.pointee.data
        if split > 0, let source { destination.update(from: source, count: split) }
        bytes.withUnsafeBufferPointer { inserted in
            if let base = inserted.baseAddress { (destination + split).update(from: base, count: inserted.count) }
        }
        if old > split, let source { (destination + split + bytes.count).update(from: source + split, count: old - split) }
        try FFmpegError.check(av_packet_copy_props(joined.pointer, pointer), in: "av_packet_copy_props")
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, joined.pointer)
    }
}

extension Packet {
    /// Sets the payload's byte at each offset to the value given (offsets outside the payload are ignored), on a
    /// payload of its own first (`av_packet_make_writable`: a demuxed packet may share its buffer): e.g. a NAL unit
    /// header's type, as when an HEVC CRA picture is marked a broken link.
    /// - Throws: ``FFmpegError`` (ENOMEM).
    package func setBytes(_ bytes: [(offset: Int, value: UInt8)]) throws {
        guard !bytes.isEmpty else { return }
        try FFmpegError.check(av_packet_make_writable(pointer), in: "av_packet_make_writable")
        guard let data = pointer.pointee.data else { return }
        let count = size
        for (offset, value) in bytes where offset >= 0 && offset < count { data[offset] = value }
    }
}
