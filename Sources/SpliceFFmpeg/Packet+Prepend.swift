internal import CMedia

extension Packet {
    /// Puts `bytes` in front of the payload, keeping the timestamps, flags and side data (`av_new_packet` for the
    /// joined payload, `av_packet_copy_props`): e.g. length-prefixed parameter-set NAL units before a key frame's
    /// slices, so a stream carries them in-band. Nothing happens for empty `bytes`.
    /// - Throws: ``FFmpegError`` (ENOMEM, or a payload over 2 GiB: EINVAL).
    package func prepend(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let old = size
        guard bytes.count + old < Int(Int32.max) - Int(AV_INPUT_BUFFER_PADDING_SIZE) else {
            throw FFmpegError.posix(EINVAL)
        }
        let joined = try Packet()
        try FFmpegError.check(av_new_packet(joined.pointer, Int32(bytes.count + old)))
        guard let destination = joined.pointer.pointee.data else { throw FFmpegError.posix(ENOMEM) }
        bytes.withUnsafeBufferPointer { prefix in
            if let base = prefix.baseAddress { destination.update(from: base, count: prefix.count) }
        }
        if old > 0, let source = pointer.pointee.data { (destination + bytes.count).update(from: source, count: old) }
        try FFmpegError.check(av_packet_copy_props(joined.pointer, pointer))
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, joined.pointer)
    }
}
