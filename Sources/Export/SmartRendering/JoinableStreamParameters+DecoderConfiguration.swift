import Foundation

extension JoinableStreamParameters {
/// Reads an `avcC` record (ISO/IEC 14496-15 §5.3.3.1): the profile and level bytes, then each SPS's id.
/// - Returns: nil for anything but an `avcC` with at least one SPS (Annex B extradata, HEVC).
init?(avcC data: [UInt8]) {
    guard data.count > 8, data[0] == 1 else { return nil }
    profile = Int(data[1])
    level = Int(data[3])
    let count = Int(data[5] & 0x1F)
    var offset = 6
    var ids: Set<Int> = []
    for _ in 0..<count {
        guard offset + 2 <= data.count else { return nil }
        let length = Int(data[offset]) << 8 | Int(data[offset + 1])
        offset += 2
        guard length > 4, offset + length <= data.count else { return nil }
        // NAL header, profile_idc, constraint flags, level_idc, then seq_parameter_set_id as ue(v).
        guard let id = Self.exponentialGolomb(Array(data[(offset + 4)..<(offset + length)])) else { return nil }
        ids.insert(id)
        offset += length
    }
    guard !ids.isEmpty else { return nil }
    parameterSetIDs = ids
}

/// Reads an `hvcC` record (ISO/IEC 14496-15 §8.3.3.1): `general_tier_flag` and `general_profile_idc`
/// (byte 1), `general_level_idc` (byte 12).
/// - Returns: nil for anything but an `hvcC` record.
init?(hvcC data: [UInt8]) {
    guard data.count >= 23, data[0] == 1 else { return nil }
    codec = .hevc
    profile = Int(data[1] & 0x1F)
    highTier = data[1] & 0x20 != 0
    level = Int(data[12])
    parameterSetIDs = [0]
}

/// The first unsigned exponential-Golomb code (`ue(v)`, H.264 §9.1) at the start of `bits`.
static func exponentialGolomb(_ bytes: [UInt8]) -> Int? {
    var position = 0
    func bit() -> Int? {
        guard position / 8 < bytes.count else { return nil }
        defer { position += 1 }
        return Int(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
    }
    var zeros = 0
    while let next = bit(), next == 0 {
        zeros += 1
        if zeros > 31 { return nil }
    }
    var value = 1
    for _ in 0..<zeros {
        guard let next = bit() else { return nil }
        value = value << 1 | next
    }
    return value - 1
}
}
