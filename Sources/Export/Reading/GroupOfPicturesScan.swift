import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Reads a source video stream's packets (no decoding) and lists its groups of pictures for smart rendering
/// (``SmartRenderSource``): for each key frame in decoding order, the presentation range of the pictures up to the
/// next one, their count, and whether the key frame is an IDR picture (H.264 NAL unit type 5, found in the packet's
/// length-prefixed (`avcC`) or start-code (Annex B) NAL units). Reads the whole stream once; runs on the calling
/// (worker) thread.
enum GroupOfPicturesScan {
    /// The groups of pictures of `track`.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    static func scan(_ track: AssetTrack, cancellation: CancellationFlag) throws -> SmartRenderSource? {
        guard let format = track.video, !format.isStillImage else { return nil }
        let stream = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: cancellation)
        let timeBase = stream.timeBase
        let lengthSize = stream.withCodecParameters { parameters -> Int? in
            let p = parameters.pointee
            guard p.extradata_size > 6, let extradata = p.extradata, extradata[0] == 1 else { return nil }
            return Int(extradata[4] & 3) + 1  // avcC lengthSizeMinusOne
        }
        let isH264 = stream.codecID == AV_CODEC_ID_H264
        let packet = try Packet()
        var groups: [SmartRenderSource.Group] = []
        var current: SmartRenderSource.Group?
        let fallbackDuration = format.minFrameDuration
        while true {
            if cancellation.isCancelled { throw CancellationError() }
            let more: Bool
            do {
                more = try stream.readPacket(into: packet)
            } catch let error as FFmpegError where error == .exit {
                throw CancellationError()
            } catch {
                throw ExportError.sourceUnreadable(track.assetURL, reason: "reading packets: \(error)")
            }
            guard more else { break }
            guard !packet.isDiscarded, let pts = packet.presentationTimestamp,
                  let streamTime = MediaTime(pts: pts, timeBase: timeBase) else { continue }
            let time = streamTime - track.startTimeOffset
            let duration = packet.duration > 0
                ? (MediaTime(pts: packet.duration, timeBase: timeBase) ?? fallbackDuration) : fallbackDuration
            if packet.isKeyFrame {
                if let current { groups.append(current) }
                let idr = isH264 && containsIDR(packet.data, lengthSize: lengthSize)
                current = SmartRenderSource.Group(
                    keyFrameTime: time, start: time, end: time + duration, frameCount: 0, startsWithIDR: idr)
            }
            guard var group = current else { continue }  // pictures before the first key frame cannot be copied
            group.start = min(group.start, time)
            group.end = max(group.end, time + duration)
            group.frameCount += 1
            group.byteCount += packet.size
            current = group
        }
        if let current { groups.append(current) }
        return SmartRenderSource(codecName: track.codecName, format: format, groups: groups)
    }

    /// True when an H.264 access unit holds an IDR slice (NAL unit type 5). `lengthSize` is the NAL length prefix
    /// in bytes (1, 2 or 4: `avcC`'s lengthSizeMinusOne + 1), nil for Annex B start codes.
    static func containsIDR(_ data: [UInt8], lengthSize: Int?) -> Bool {
        nalUnitTypes(data, lengthSize: lengthSize).contains(5)
    }

    /// The NAL unit types (low 5 bits of each unit's first byte) of an H.264 access unit, in order.
    static func nalUnitTypes(_ data: [UInt8], lengthSize: Int?) -> [UInt8] {
        var types: [UInt8] = []
        if let lengthSize {
            var offset = 0
            while offset + lengthSize < data.count {
                var length = 0
                for byte in data[offset..<(offset + lengthSize)] { length = length << 8 | Int(byte) }
                offset += lengthSize
                guard length > 0, offset + length <= data.count else { break }
                types.append(data[offset] & 0x1F)
                offset += length
            }
            return types
        }
        var index = 0
        while index + 3 < data.count {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                types.append(data[index + 3] & 0x1F)
                index += 3
            } else {
                index += 1
            }
        }
        return types
    }
}
