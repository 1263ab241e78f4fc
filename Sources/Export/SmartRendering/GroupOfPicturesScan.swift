import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Reads a source video stream's packets (no decoding) and lists its groups of pictures for smart rendering
/// (``SmartRenderSource``): for each key frame in decoding order, the presentation range of the pictures up to the
/// next one, their count, how many are leading pictures (shown before the key frame), and whether the key frame is an
/// IDR picture (H.264 NAL unit type 5; HEVC `IDR_W_RADL` 19 or `IDR_N_LP` 20) or an HEVC CRA picture (21: a start
/// only without its RASL pictures, which need the previous group), found in the
/// packet's length-prefixed (`avcC`, `hvcC`) or start-code (Annex B) NAL units. Reads the whole stream once; runs on
/// the calling (worker) thread.
enum GroupOfPicturesScan {
    /// The groups of pictures of `track`.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    static func scan(_ track: AssetTrack, cancellation: CancellationFlag) throws -> SmartRenderSource? {
        guard let format = track.video, !format.isStillImage else { return nil }
        let stream = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: cancellation)
        let timeBase = stream.timeBase
        let codec: VideoSettings.Codec? = switch stream.codecID {
        case AV_CODEC_ID_H264: .h264
        case AV_CODEC_ID_HEVC: .hevc
        default: nil
        }
        let lengthSize = stream.withCodecParameters { parameters -> Int? in
            let p = parameters.pointee
            guard let extradata = p.extradata, p.extradata_size > 0 else { return nil }
            return Self.nalLengthSize(
                Array(UnsafeBufferPointer(start: extradata, count: Int(p.extradata_size))), codec: codec ?? .h264)
        }
        let packet = try Packet()
        var groups: [SmartRenderSource.Group] = []
        var current: SmartRenderSource.Group?
        let fallbackDuration = format.minFrameDuration
        while true {
            if cancellation.isCancelled { throw CancellationError() }
            guard try stream.readPacket(into: packet, context: "reading packets") else { break }
            guard !packet.isDiscarded, let pts = packet.presentationTimestamp,
                  let streamTime = MediaTime(pts: pts, timeBase: timeBase) else { continue }
            let time = streamTime - track.startTimeOffset
            let duration = packet.duration > 0
                ? (MediaTime(pts: packet.duration, timeBase: timeBase) ?? fallbackDuration) : fallbackDuration
            if packet.isKeyFrame {
                if let current { groups.append(current) }
                let types = codec.map { nalUnitTypes(packet.data, lengthSize: lengthSize, codec: $0) } ?? []
                current = SmartRenderSource.Group(
                    keyFrameTime: time, start: time, end: time + duration, frameCount: 0,
                    startsWithIDR: codec.map { holdsIDR(types, codec: $0) } ?? false,
                    startsWithCleanRandomAccess: codec == .hevc && types.contains(cleanRandomAccessType))
            }
            guard var group = current else { continue }  // pictures before the first key frame cannot be copied
            if time < group.keyFrameTime { group.leadingFrameCount += 1 }
            group.start = min(group.start, time)
            group.end = max(group.end, time + duration)
            group.frameCount += 1
            group.byteCount += packet.size
            current = group
        }
        if let current { groups.append(current) }
        return SmartRenderSource(codecName: track.codecName, format: format, groups: groups)
    }

    /// The NAL length prefix in bytes (1, 2 or 4) a decoder configuration record states: `avcC`'s
    /// lengthSizeMinusOne + 1 (ISO/IEC 14496-15 §5.3.3.1, byte 4), `hvcC`'s (§8.3.3.1, byte 21); nil for Annex B
    /// extradata (start codes).
    static func nalLengthSize(_ extradata: [UInt8], codec: VideoSettings.Codec) -> Int? {
        guard extradata.first == 1 else { return nil }
        switch codec {
        case .hevc: return extradata.count >= 23 ? Int(extradata[21] & 3) + 1 : nil
        default: return extradata.count > 6 ? Int(extradata[4] & 3) + 1 : nil
        }
    }

    /// True when an access unit holds an IDR picture: H.264 NAL unit type 5, HEVC 19 (`IDR_W_RADL`) or 20
    /// (`IDR_N_LP`). `lengthSize` is the NAL length prefix in bytes (1, 2 or 4), nil for Annex B start codes.
    static func containsIDR(_ data: [UInt8], lengthSize: Int?, codec: VideoSettings.Codec = .h264) -> Bool {
        holdsIDR(nalUnitTypes(data, lengthSize: lengthSize, codec: codec), codec: codec)
    }

    /// True when NAL unit `types` hold an IDR picture's (see ``containsIDR(_:lengthSize:codec:)``).
    static func holdsIDR(_ types: [UInt8], codec: VideoSettings.Codec) -> Bool {
        codec == .hevc ? types.contains { $0 == 19 || $0 == 20 } : types.contains(5)
    }

    /// HEVC's CRA picture (H.265 Table 7-1), and the BLA type a copy that starts there rewrites it to: `BLA_N_LP`,
    /// a broken link with no leading pictures (the copy leaves them out).
    static let cleanRandomAccessType: UInt8 = 21
    static let brokenLinkWithoutLeadingType: UInt8 = 18

    /// The NAL unit types of an access unit, in order: H.264's low 5 bits of each unit's first byte, HEVC's 6 bits
    /// after the forbidden bit (H.265 §7.3.1.2).
    static func nalUnitTypes(_ data: [UInt8], lengthSize: Int?, codec: VideoSettings.Codec = .h264) -> [UInt8] {
        nalUnits(data, lengthSize: lengthSize, codec: codec).map(\.type)
    }

    /// The NAL units of an access unit, in order: the offset of each unit's header (its first byte) and its type.
    static func nalUnits(_ data: [UInt8], lengthSize: Int?, codec: VideoSettings.Codec = .h264) -> [(offset: Int, type: UInt8)] {
        func type(_ byte: UInt8) -> UInt8 { codec == .hevc ? (byte >> 1) & 0x3F : byte & 0x1F }
        var types: [(offset: Int, type: UInt8)] = []
        if let lengthSize {
            var offset = 0
            while offset + lengthSize < data.count {
                var length = 0
                for byte in data[offset..<(offset + lengthSize)] { length = length << 8 | Int(byte) }
                offset += lengthSize
                guard length > 0, offset + length <= data.count else { break }
                types.append((offset, type(data[offset])))
                offset += length
            }
            return types
        }
        var index = 0
        while index + 3 < data.count {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                types.append((index + 3, type(data[index + 3])))
                index += 3
            } else {
                index += 1
            }
        }
        return types
    }
}
