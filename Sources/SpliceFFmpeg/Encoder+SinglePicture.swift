internal import CMedia

extension Encoder {
    /// Encodes one picture as a still-image file's bytes (`png`, `mjpeg`): opens the encoder with its
    /// configuration's options, sends `picture` with pts 0 (set on it) and then the end of the stream, and gathers
    /// every packet in order. The encoder is spent afterwards (make a new one for the next picture). `picture` must
    /// already be in the encoder's pixel format and size.
    /// - Returns: the packets' bytes, never empty.
    /// - Throws: ``FFmpegError`` from opening, sending or receiving; `EIO` when the encoder gave no packet.
    package func encodeSinglePicture(_ picture: Frame) throws -> [UInt8] {
        try open()
        picture.pts = 0
        _ = try send(picture)
        _ = try send(nil)
        let packet = try Packet()
        var bytes: [UInt8] = []
        while try receive(into: packet) == .packet {
            bytes.append(contentsOf: packet.data)
            packet.unref()
        }
        guard !bytes.isEmpty else { throw FFmpegError.posix(EIO) }
        return bytes
    }
}
