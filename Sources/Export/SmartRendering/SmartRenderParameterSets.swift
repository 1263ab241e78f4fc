/// The parameter-set NAL units of a copied source's decoder configuration record, for smart rendering to send
/// in-band: H.264's SPS and PPS from `avcC` (ISO/IEC 14496-15 §5.3.3.1), HEVC's VPS, SPS, PPS (and SEI arrays) from
/// `hvcC` (§8.3.3.1).
///
/// A coded video sequence starts at every IDR picture, and both codecs let a parameter set be replaced there (the
/// same id with new content; a PPS may be resent before any picture). So a smart-rendered stream whose pieces come
/// from sources with different parameter sets (or from x265, which always writes id 0) is valid when each piece
/// carries its own sets in front of its first IDR picture: ``SmartRenderPacketSource`` puts ``lengthPrefixed`` in
/// front of a copied piece's first packet.
struct SmartRenderParameterSets: Hashable, Sendable {
    /// The NAL units (header included, no length prefix), in the record's order.
    var units: [[UInt8]]

    /// Reads the NAL units of an `avcC` or `hvcC` record.
    /// - Returns: nil for anything else (Annex B extradata, a truncated record).
    init?(decoderConfiguration data: [UInt8], codec: VideoSettings.Codec) {
        guard data.first == 1 else { return nil }
        var offset: Int
        var units: [[UInt8]] = []
        func unit() -> [UInt8]? {
            guard offset + 2 <= data.count else { return nil }
            let length = Int(data[offset]) << 8 | Int(data[offset + 1])
            offset += 2
            guard length > 0, offset + length <= data.count else { return nil }
            defer { offset += length }
            return Array(data[offset..<(offset + length)])
        }
        switch codec {
        case .hevc:
            guard data.count >= 23 else { return nil }
            offset = 23
            for _ in 0..<Int(data[22]) {
                guard offset + 3 <= data.count else { return nil }
                let count = Int(data[offset + 1]) << 8 | Int(data[offset + 2])
                offset += 3
                for _ in 0..<count {
                    guard let next = unit() else { return nil }
                    units.append(next)
                }
            }
        default:
            guard data.count > 6 else { return nil }
            offset = 6
            for _ in 0..<Int(data[5] & 0x1F) {  // SPS
                guard let next = unit() else { return nil }
                units.append(next)
            }
            guard offset < data.count else { return nil }
            let count = Int(data[offset])
            offset += 1
            for _ in 0..<count {  // PPS
                guard let next = unit() else { return nil }
                units.append(next)
            }
        }
        guard !units.isEmpty else { return nil }
        self.units = units
    }

    /// Where ``lengthPrefixed`` goes in an access unit of 4-byte length-prefixed NAL units: after its access unit
    /// delimiter (H.264 type 9, HEVC 35), which must stay first, else at the start.
    func insertionOffset(in accessUnit: [UInt8], codec: VideoSettings.Codec) -> Int {
        guard accessUnit.count > 4 else { return 0 }
        let length = accessUnit[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, 4 + length <= accessUnit.count else { return 0 }
        let type = GroupOfPicturesScan.nalUnitTypes(Array(accessUnit[0..<(4 + length)]), lengthSize: 4, codec: codec).first
        return type == (codec == .hevc ? 35 : 9) ? 4 + length : 0
    }

    /// The units with 4-byte big-endian length prefixes, as MP4 samples hold them.
    var lengthPrefixed: [UInt8] {
        units.flatMap { unit -> [UInt8] in
            let length = UInt32(unit.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + unit
        }
    }
}
