import Foundation
import SpliceFFmpeg

/// Repairs a fragmented movie a crash left behind (`splice repair`): keeps every complete top-level box and cuts the
/// file before the first one that is torn — a box claiming more bytes than the file holds, or a `moof` whose `mdat`
/// is missing or cut short (a player would otherwise decode garbage at the end: "Invalid NAL unit size").
public enum MovieFileRepair {
    /// What ``repair(at:)`` found and did.
    public struct Report: Sendable, Hashable {
        /// Bytes before the repair.
        public var originalSize: Int64
        /// Bytes kept (equal to ``originalSize`` when nothing was torn).
        public var keptSize: Int64
        /// Complete movie fragments (`moof` + `mdat` pairs) kept.
        public var completeFragments: Int
        /// True when a torn tail was cut off.
        public var wasRepaired: Bool { keptSize < originalSize }
    }

    /// Why a file cannot be repaired.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file cannot be read or truncated: its path and the errno.
        case unreadable(path: String, errno: Int32)
        /// The file does not start with an ISO base media box (`ftyp`) or has no `moov`: nothing to keep.
        case notAMovie(path: String)
        /// The file holds no byte: the recording (or fragmented export) ended before its first fragment, which
        /// carries the `ftyp` and `moov` (they are written once the first samples are known). Nothing to keep.
        case empty(path: String)

        /// A sentence naming the file and the cause, in the words exports use too: `cannot read or truncate
        /// /abs/take.mp4: the file or its directory does not exist (errno 2)`.
        public var description: String {
            switch self {
            case .unreadable(let path, let code):
                return "cannot read or truncate \(path): \(FailureReason.words(errno: code)) (errno \(code))"
            case .notAMovie(let path):
                return "\(path) is not an ISO media movie (it does not start with an ftyp box or has no moov box)"
            case .empty(let path):
                return "\(path) is empty: the recording or export ended before its first fragment was written, "
                    + "so it holds nothing to keep"
            }
        }
    }

    /// Checks the movie at `url` and, when its tail is torn, truncates it to its last complete fragment.
    /// - Throws: ``Failure``.
    public static func repair(at url: URL) throws(Failure) -> Report {
        let path = url.path
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw .unreadable(path: path, errno: errno) }
        defer { try? handle.close() }
        let size = Int64((try? handle.seekToEnd()) ?? 0)
        guard size > 0 else { throw .empty(path: path) }
        let boxes = scan(handle, size: size)
        guard boxes.first?.type == "ftyp", boxes.contains(where: { $0.type == "moov" }) else { throw .notAMovie(path: path) }
        var kept: Int64 = 0
        var fragments = 0
        var index = 0
        while index < boxes.count {
            let box = boxes[index]
            guard box.end <= size else { break }
            if box.type == "moof" {
                guard index + 1 < boxes.count, boxes[index + 1].type == "mdat", boxes[index + 1].end <= size else { break }
                kept = boxes[index + 1].end
                fragments += 1
                index += 2
                continue
            }
            kept = box.end
            index += 1
        }
        if kept < size {
            do { try handle.truncate(atOffset: UInt64(kept)) } catch { throw .unreadable(path: path, errno: EIO) }
        }
        return Report(originalSize: size, keptSize: kept, completeFragments: fragments)
    }

    /// The top-level boxes: type, start and end offsets (an end may lie beyond the file).
    static func scan(_ handle: FileHandle, size: Int64) -> [(type: String, start: Int64, end: Int64)] {
        var boxes: [(type: String, start: Int64, end: Int64)] = []
        var offset: Int64 = 0
        while offset + 8 <= size {
            try? handle.seek(toOffset: UInt64(offset))
            guard let header = try? handle.read(upToCount: 16), header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var length = Int64(bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if length == 1, bytes.count >= 16 {
                length = Int64(bitPattern: bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            } else if length == 0 {
                length = size - offset
            }
            guard length >= 8 else { break }
            boxes.append((type, offset, offset + length))
            offset += length
        }
        return boxes
    }
}
