import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// The video packets of a smart-rendered stream (``SmartRenderWriter``), piece after piece, each restamped onto the
/// output timeline: a copied piece's packets from its first group's key frame, exactly as many as its groups hold
/// (decoding order); an encoded piece's packets, all of them. Confined to the writer's thread.
final class SmartRenderPacketSource {
    /// The packet waiting to be written, restamped into ``outputTimeBase``.
    private(set) var packet: Packet
    /// The output stream's time base, set once the header is written.
    var outputTimeBase = AVRational(num: 1, den: 1)
    /// The waiting packet's decoding time.
    private(set) var waitingTime = MediaTime.zero
    /// Packets handed out so far.
    private(set) var framesWritten = 0

    private let input: SmartRenderWriter.Input
    private let cancellation: CancellationFlag
    /// The stream's decoding delay: the largest (presentation − decoding) time of a copied piece's key frame.
    private let delay: MediaTime
    /// Each copied piece's own delay, by piece index.
    private let pieceDelays: [Int: MediaTime]
    private var pieceIndex = 0
    private var reader: PieceReader?
    private var lastDecodingTimestamp: Int64?

    /// An open piece: where its packets come from and how many are left.
    private struct PieceReader {
        var read: (Packet) throws -> Bool
        var timeBase: AVRational
        /// Added to a packet's time to place it on the output timeline (presentation).
        var shift: MediaTime
        /// Added to decoding times on top of `shift`.
        var decodingShift: MediaTime
        /// Packets still to hand out (copied pieces); nil: to the end of the piece's file.
        var remaining: Int?
        var handedOut = 0
        /// The file the packets come from (for errors).
        var url: URL
    }

    /// Measures every copied piece's reorder delay (its first packet's presentation − decoding time).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when a copied piece's key frame cannot be found.
    init(input: SmartRenderWriter.Input, cancellation: CancellationFlag) throws {
        self.input = input
        self.cancellation = cancellation
        packet = try Packet()
        var delays: [Int: MediaTime] = [:]
        for (index, piece) in input.pieces.enumerated() {
            guard case .copied(let source, let groups) = piece.content, let group = groups.first else { continue }
            let (stream, first) = try Self.openAtKeyFrame(source, group: group, cancellation: cancellation)
            let pts = MediaTime(pts: first.presentationTimestamp ?? 0, timeBase: stream.timeBase) ?? .zero
            let dts = first.decodingTimestamp.flatMap { MediaTime(pts: $0, timeBase: stream.timeBase) } ?? pts
            delays[index] = max(pts - dts, .zero)
        }
        pieceDelays = delays
        delay = delays.values.max() ?? .zero
    }

    /// Adds the output video stream: the copied source's codec parameters (its `avcC`), in a time base that holds
    /// the source's and every encoded piece's timestamps exactly when it can.
    func addStream(to output: OutputFile) throws -> Int {
        let stream = try SourceStream(url: input.source.assetURL, index: input.source.streamIndex, cancellation: cancellation)
        var timeBases = [stream.timeBase]
        for piece in input.pieces {
            switch piece.content {
            case .encoded(let url):
                timeBases.append(try SourceStream(bestVideoStreamOf: url, cancellation: cancellation).timeBase)
            case .copied(let source, _) where source.sourceStreamKey != input.source.sourceStreamKey:
                timeBases.append(try SourceStream(url: source.assetURL, index: source.streamIndex, cancellation: cancellation).timeBase)
            case .copied:
                break
            }
        }
        return try stream.withCodecParameters {
            try output.addStream(copying: $0, timeBase: AVRational.commonTimeBase(timeBases))
        }
    }

    /// Moves to the next packet (across pieces), restamped; false when every piece is written.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` for a piece that ends early or holds more pictures
    ///   than planned; ``ExportError/renderingFailed(stage:reason:)`` when timestamps cannot rise across a seam.
    func advance() throws -> Bool {
        while pieceIndex < input.pieces.count {
            if cancellation.isCancelled { throw CancellationError() }
            let piece = input.pieces[pieceIndex]
            if reader == nil { reader = try open(pieceIndex) }
            guard var current = reader else { break }
            if current.remaining != 0, try current.read(packet) {
                current.remaining = current.remaining.map { $0 - 1 }
                current.handedOut += 1
                reader = current
                try restamp(current, piece: piece)
                framesWritten += 1
                return true
            }
            if let remaining = current.remaining, remaining > 0 {
                throw ExportError.sourceUnreadable(
                    current.url, reason: "it ended \(remaining) pictures before the copied groups' end")
            }
            if current.handedOut != piece.frames.count {
                throw ExportError.sourceUnreadable(
                    current.url,
                    reason: "a smart-rendered piece holds \(current.handedOut) pictures where \(piece.frames.count) were planned")
            }
            reader = nil
            pieceIndex += 1
        }
        return false
    }

    // MARK: Pieces

    private func open(_ index: Int) throws -> PieceReader {
        let piece = input.pieces[index]
        let start = input.frameDuration * Int64(piece.frames.lowerBound)
        switch piece.content {
        case .copied(let source, let groups):
            guard let first = groups.first else {
                throw ExportError.renderingFailed(stage: "joining smart-rendered pieces", reason: "a copied piece has no group of pictures")
            }
            let (stream, keyPacket) = try Self.openCopiedPiece(
                source, group: first, parameterSetsInBand: input.parameterSetsInBand, cancellation: cancellation)
            let count = Self.copiedPacketCount(groups)
            var pending: Packet? = keyPacket
            let keyTimestamp = keyPacket.presentationTimestamp ?? Int64.min
            let read: (Packet) throws -> Bool = { target in
                if let waiting = pending {
                    target.swapContents(with: waiting)
                    pending = nil
                    return true
                }
                return try Self.readCopied(stream, into: target, keyTimestamp: keyTimestamp)
            }
            // Source time = stream time − the track's start offset; output time = piece start + (source − key frame).
            let shift = start - first.keyFrameTime - source.startTimeOffset
            return PieceReader(read: read, timeBase: stream.timeBase, shift: shift,
                               decodingShift: (pieceDelays[index] ?? .zero) - delay, remaining: count, url: source.assetURL)
        case .encoded(let url):
            let part = try SourceStream(bestVideoStreamOf: url, cancellation: cancellation)
            let read: (Packet) throws -> Bool = { target in
                guard try Self.readCounted(part, into: target) else { return false }
                if target.isCorrupt { throw ExportError.sourceUnreadable(url, reason: "a re-encoded piece has a corrupt packet") }
                return true
            }
            return PieceReader(read: read, timeBase: part.timeBase, shift: start, decodingShift: .zero - delay, remaining: nil,
                               url: url)
        }
    }

    /// ``openAtKeyFrame(_:group:cancellation:)`` for a copied piece as the output holds it: an HEVC CRA key picture
    /// marked a broken link (``markBrokenLink(_:track:)``); with `parameterSetsInBand`, `track`'s own parameter sets
    /// (from its `avcC`/`hvcC`) put into the key packet, after an access unit delimiter if there is one. The group
    /// starts at an IDR or BLA picture, a new coded video sequence, where its own sets may replace those before it
    /// (H.264/HEVC: an SPS is replaced only there). The writer and the verifier both open copied pieces here and read
    /// them on with ``readCopied(_:into:keyTimestamp:)``, so the verifier compares the very bytes the writer wrote.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the decoder configuration holds no parameter sets;
    ///   ``ExportError/renderingFailed(stage:reason:)`` when the packet cannot be grown.
    static func openCopiedPiece(
        _ track: AssetTrack, group: SmartRenderSource.Group, parameterSetsInBand: Bool, cancellation: CancellationFlag
    ) throws -> (SourceStream, Packet) {
        let (stream, keyPacket) = try openAtKeyFrame(track, group: group, cancellation: cancellation)
        let codec: VideoSettings.Codec = stream.codecID == AV_CODEC_ID_HEVC ? .hevc : .h264
        if codec == .hevc && group.startsWithCleanRandomAccess {
            try markBrokenLink(keyPacket, track: track)
        }
        guard parameterSetsInBand else { return (stream, keyPacket) }
        let configuration = try ExportPlan.decoderConfiguration(of: track, cancellation: cancellation)
        guard let sets = SmartRenderParameterSets(decoderConfiguration: configuration, codec: codec) else {
            throw ExportError.sourceUnreadable(track.assetURL, reason: "its decoder configuration holds no parameter sets to send in-band")
        }
        do {
            try keyPacket.insert(sets.lengthPrefixed, at: sets.insertionOffset(in: keyPacket.data, codec: codec))
        } catch {
            throw ExportError.renderingFailed(stage: "joining smart-rendered pieces", reason: "\(error)")
        }
        return (stream, keyPacket)
    }

    /// Opens the source and reads up to the key frame that starts `group` (skipping what a backward seek lands on
    /// before it); ``SmartRenderVerifier`` reads the copied packets the same way.
    /// - Returns: the stream, positioned after the key frame, and the key frame's packet.
    static func openAtKeyFrame(
        _ track: AssetTrack, group: SmartRenderSource.Group, cancellation: CancellationFlag
    ) throws -> (SourceStream, Packet) {
        let stream = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: cancellation)
        let key = group.keyFrameTime + track.startTimeOffset
        if let timestamp = key.timestamp(in: stream.timeBase) {
            do {
                try stream.seek(toTimestamp: timestamp)
            } catch {
                throw ExportError.sourceUnreadable(track.assetURL, reason: "cannot seek to the key frame at \(group.keyFrameTime.secondsText): \(error)")
            }
        }
        let packet = try Packet()
        while try readCounted(stream, into: packet) {
            if cancellation.isCancelled { throw CancellationError() }
            guard packet.isKeyFrame, !packet.isDiscarded, let pts = packet.presentationTimestamp,
                  let time = MediaTime(pts: pts, timeBase: stream.timeBase) else { continue }
            if time == key { return (stream, packet) }
            if time > key { break }
        }
        throw ExportError.sourceUnreadable(
            track.assetURL, reason: "the key frame at \(group.keyFrameTime.secondsText) the smart render plan copies from is not there")
    }

    /// The packets a copied piece of `groups` holds: all of theirs but the first group's leading pictures.
    static func copiedPacketCount(_ groups: [SmartRenderSource.Group]) -> Int {
        groups.reduce(0) { $0 + $1.frameCount } - (groups.first?.leadingFrameCount ?? 0)
    }

    /// Reads a copied piece's next packet after its key packet: the next shown one (not discarded, with a time)
    /// that is not a leading picture of the piece's key frame (shown before `keyTimestamp`, in the stream's time
    /// base): those need the pictures before the key frame, which the copy leaves out.
    /// - Returns: false at the stream's end.
    static func readCopied(_ stream: SourceStream, into packet: Packet, keyTimestamp: Int64) throws -> Bool {
        while try readCounted(stream, into: packet) {
            if !packet.isDiscarded, let pts = packet.presentationTimestamp, pts >= keyTimestamp { return true }
        }
        return false
    }

    /// Marks an HEVC CRA key picture as a broken link: each CRA NAL unit (type 21) of `packet` becomes `BLA_N_LP`
    /// (18), so a decoder starts a new coded video sequence there (NoRaslOutputFlag, H.265 §8.1.3) whatever came
    /// before it in the joined stream; the copy leaves the CRA's leading pictures out, as `BLA_N_LP` states. Trailing
    /// pictures never refer to leading pictures or to pictures before the CRA (§8.3.2), so they decode as in the source.
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` when the packet cannot be written.
    static func markBrokenLink(_ packet: Packet, track: AssetTrack) throws {
        let units = GroupOfPicturesScan.nalUnits(packet.data, lengthSize: 4, codec: .hevc)
        let edits = units.filter { $0.type == GroupOfPicturesScan.cleanRandomAccessType }.map { unit in
            // The header's first byte: forbidden bit, 6 bits of type, the layer id's top bit (§7.3.1.2).
            (offset: unit.offset, value: (packet.data[unit.offset] & 0x81) | GroupOfPicturesScan.brokenLinkWithoutLeadingType << 1)
        }
        do {
            try packet.setBytes(edits)
        } catch {
            throw ExportError.renderingFailed(stage: "joining smart-rendered pieces", reason: "marking the CRA picture of \(track.assetURL.lastPathComponent) a broken link: \(error)")
        }
    }

    /// ``SourceStream/readPacket(into:context:)`` with the joiner's context: a cancelled read throws
    /// `CancellationError`, others ``ExportError/sourceUnreadable(_:reason:)`` naming the stream's file.
    static func readCounted(_ stream: SourceStream, into packet: Packet) throws -> Bool {
        try stream.readPacket(into: packet, context: "reading packets to join")
    }

    /// Restamps ``packet`` onto the output timeline (see ``SmartRenderWriter``).
    private func restamp(_ reader: PieceReader, piece: SmartRenderPiece) throws {
        let out = outputTimeBase
        func place(_ timestamp: Int64, _ extra: MediaTime) -> Int64? {
            MediaTime(pts: timestamp, timeBase: reader.timeBase).flatMap { ($0 + reader.shift + extra).timestamp(in: out) }
        }
        guard let pts = packet.presentationTimestamp.flatMap({ place($0, .zero) }) else {
            throw ExportError.renderingFailed(stage: "joining smart-rendered pieces", reason: "a picture has no timestamp")
        }
        var dts = place(packet.decodingTimestamp ?? packet.presentationTimestamp ?? 0, reader.decodingShift) ?? pts
        if let last = lastDecodingTimestamp, dts <= last { dts = last + 1 }
        guard dts <= pts else {
            throw ExportError.renderingFailed(
                stage: "joining smart-rendered pieces",
                reason: "the piece at frame \(piece.frames.lowerBound) would be decoded after it is shown (decoding delay \(delay.secondsText))")
        }
        let duration = packet.duration > 0
            ? av_rescale_q(packet.duration, reader.timeBase, out) : (input.frameDuration.timestamp(in: out) ?? 1)
        packet.setTiming(presentation: pts, decoding: dts, duration: duration)
        lastDecodingTimestamp = dts
        waitingTime = MediaTime(pts: dts, timeBase: out) ?? .zero
    }
}
