import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia

/// One rendered file of a segmented export (a video part or the audio), opened for checking and copying: its one
/// stream of the wanted kind, read packet by packet.
final class SegmentPartReader {
    let url: URL
    let input: InputFile
    let streamIndex: Int
    let packet: Packet

    /// Opens `url` and finds its stream of `type`.
    /// - Throws: `describe(reason)`: the caller's typed error for a file that cannot be opened or lacks the stream.
    init(url: URL, type: AVMediaType, describe: (String) -> any Error) throws {
        self.url = url
        do {
            input = try InputFile(url: url)
            packet = try Packet()
        } catch {
            throw describe("it cannot be opened (\(error)); it may be truncated")
        }
        guard let index = input.bestStreamIndex(of: type) else {
            throw describe("it has no \(type == AVMEDIA_TYPE_VIDEO ? "video" : "audio") stream")
        }
        streamIndex = index
    }

    /// The stream's time base.
    var timeBase: AVRational { input.stream(at: streamIndex).pointee.time_base }

    /// Calls `body` with the stream's codec parameters.
    func withCodecParameters<T>(_ body: (UnsafePointer<AVCodecParameters>) throws -> T) rethrows -> T {
        try body(input.stream(at: streamIndex).pointee.codecpar)
    }

    /// Reads the next packet of the stream into ``packet``; false at the end.
    /// - Throws: `describe(reason)` for a read failure, a packet the demuxer marks corrupt, or a file that ends before
    ///   the samples its index lists (a truncated file).
    func next(describe: (String) -> any Error) throws -> Bool {
        do {
            while try input.readPacket(into: packet) {
                guard packet.streamIndex == streamIndex else { continue }
                if packet.isCorrupt { throw describe("a packet is corrupt (the file is truncated or damaged)") }
                return true
            }
            return false
        } catch let error as FFmpegError {
            throw describe("reading failed (\(error)); the file is truncated or damaged")
        } catch let truncation as SourceTruncation {
            throw describe("\(truncation)")
        }
    }

    /// The first difference between two streams' codec parameters that stops a join without re-encoding: codec,
    /// profile, size, pixel format, sample rate, channels, decoder configuration (extradata: the parameter sets).
    static func difference(_ a: UnsafePointer<AVCodecParameters>, _ b: UnsafePointer<AVCodecParameters>) -> String? {
        let x = a.pointee, y = b.pointee
        if x.codec_id != y.codec_id {
            return "codec \(String(cString: avcodec_get_name(x.codec_id))) vs \(String(cString: avcodec_get_name(y.codec_id)))"
        }
        if x.profile != y.profile || x.level != y.level { return "profile/level \(x.profile)/\(x.level) vs \(y.profile)/\(y.level)" }
        if x.width != y.width || x.height != y.height { return "size \(x.width)x\(x.height) vs \(y.width)x\(y.height)" }
        if x.format != y.format { return "pixel format \(x.format) vs \(y.format)" }
        let same = x.extradata_size == y.extradata_size
            && (x.extradata_size == 0 || memcmp(x.extradata, y.extradata, Int(x.extradata_size)) == 0)
        guard !same else { return nil }
        func hex(_ p: AVCodecParameters) -> String {
            guard let data = p.extradata else { return "none" }
            return (0..<Int(p.extradata_size)).map { String(format: "%02x", data[$0]) }.joined()
        }
        return "parameter sets (extradata \(hex(x)) vs \(hex(y)))"
    }
}
