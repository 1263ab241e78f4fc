import Foundation

/// A fragmented MP4/MOV read box by box (ISO/IEC 14496-12), as a second reader beside FFmpeg's: the order of the
/// top-level boxes, each track's edit list start, and each movie fragment's runs of samples per track (their
/// durations, in the track's timescale, and whether the first is a sync sample). A box whose size runs past the end
/// of the file (a torn last fragment) ends the scan.
package struct MovieFragmentScan: Sendable {
    /// One track's samples in one movie fragment.
    package struct Run: Sendable, Equatable {
        package var trackID: UInt32
        /// Each sample's duration, in the track's timescale.
        package var durations: [UInt32]
        /// True when the run's first sample is a sync sample (a key frame).
        package var startsWithSyncSample: Bool
    }

    /// The top-level box types in file order, complete boxes only (e.g. `ftyp moov moof mdat … mfra`).
    package var topLevel: [String] = []
    /// The first edit's `media_time` per track ID (the samples hidden before time 0), for tracks with an edit list.
    package var editStart: [UInt32: Int64] = [:]
    /// Each track's edit list, per track ID: `segment_duration` (in ``movieTimescale``) and `media_time` (in the
    /// track's timescale, -1 for an empty edit) of each entry.
    package var edits: [UInt32: [(segmentDuration: Int64, mediaTime: Int64)]] = [:]
    /// The `mvhd` timescale (units a second of edit-list durations), 0 when there is no `moov`.
    package var movieTimescale: UInt32 = 0
    /// Per complete movie fragment, its runs.
    package var fragments: [[Run]] = []
    /// True when the file ends inside a box.
    package var isTorn = false

    /// The samples of `trackID` over every fragment.
    package func durations(ofTrack trackID: UInt32) -> [UInt32] {
        fragments.flatMap { $0.filter { $0.trackID == trackID }.flatMap(\.durations) }
    }

    /// Scans the file at `url`.
    package init(url: URL) throws {
        let data = try BinaryFile.read(url)
        var defaults: [UInt32: (duration: UInt32, flags: UInt32)] = [:]
        var offset = 0
        while let box = Self.box(in: data, at: offset, end: data.count) {
            offset = box.end
            topLevel.append(box.type)
            if box.type == "moov" {
                if let mvhd = Self.children(of: box, in: data).first(where: { $0.type == "mvhd" }) {
                    movieTimescale = Self.uint32(data, mvhd.body + (data[mvhd.body] == 1 ? 20 : 12))
                }
                for trak in Self.children(of: box, in: data) where trak.type == "trak" {
                    var trackID: UInt32 = 0
                    for child in Self.children(of: trak, in: data) {
                        if child.type == "tkhd" {
                            let version = data[child.body]
                            trackID = Self.uint32(data, child.body + (version == 1 ? 20 : 12))
                        }
                        if child.type == "edts", let elst = Self.children(of: child, in: data).first(where: { $0.type == "elst" }),
                           Self.uint32(data, elst.body + 4) > 0 {
                            let version = data[elst.body]
                            let entry = elst.body + 8
                            editStart[trackID] = version == 1 ? Int64(bitPattern: Self.uint64(data, entry + 8))
                                : Int64(Int32(bitPattern: Self.uint32(data, entry + 4)))
                            edits[trackID] = (0..<Int(Self.uint32(data, elst.body + 4))).map { index in
                                let position = entry + index * (version == 1 ? 20 : 12)
                                return version == 1
                                    ? (Int64(bitPattern: Self.uint64(data, position)), Int64(bitPattern: Self.uint64(data, position + 8)))
                                    : (Int64(Self.uint32(data, position)), Int64(Int32(bitPattern: Self.uint32(data, position + 4))))
                            }
                        }
                    }
                }
                for mvex in Self.children(of: box, in: data) where mvex.type == "mvex" {
                    for trex in Self.children(of: mvex, in: data) where trex.type == "trex" {
                        defaults[Self.uint32(data, trex.body + 4)] = (Self.uint32(data, trex.body + 12), Self.uint32(data, trex.body + 20))
                    }
                }
            }
            if box.type == "moof" {
                var runs: [Run] = []
                for traf in Self.children(of: box, in: data) where traf.type == "traf" {
                    var trackID: UInt32 = 0
                    var duration: UInt32 = 0, sampleFlags: UInt32 = 0
                    for child in Self.children(of: traf, in: data) {
                        let flags = Self.uint32(data, child.body) & 0xFF_FFFF
                        if child.type == "tfhd" {
                            trackID = Self.uint32(data, child.body + 4)
                            (duration, sampleFlags) = defaults[trackID] ?? (0, 0)
                            var position = child.body + 8
                            if flags & 0x1 != 0 { position += 8 }
                            if flags & 0x2 != 0 { position += 4 }
                            if flags & 0x8 != 0 { duration = Self.uint32(data, position); position += 4 }
                            if flags & 0x10 != 0 { position += 4 }
                            if flags & 0x20 != 0 { sampleFlags = Self.uint32(data, position) }
                        }
                        if child.type == "trun" {
                            let count = Int(Self.uint32(data, child.body + 4))
                            var position = child.body + 8
                            if flags & 0x1 != 0 { position += 4 }
                            var firstFlags = sampleFlags
                            if flags & 0x4 != 0 { firstFlags = Self.uint32(data, position); position += 4 }
                            var durations: [UInt32] = []
                            for index in 0..<count {
                                var sampleDuration = duration
                                if flags & 0x100 != 0 { sampleDuration = Self.uint32(data, position); position += 4 }
                                if flags & 0x200 != 0 { position += 4 }
                                if flags & 0x400 != 0 {
                                    if index == 0 && flags & 0x4 == 0 { firstFlags = Self.uint32(data, position) }
                                    position += 4
                                }
                                if flags & 0x800 != 0 { position += 4 }
                                durations.append(sampleDuration)
                            }
                            // sample_is_non_sync_sample is bit 16 of the sample flags.
                            runs.append(Run(trackID: trackID, durations: durations, startsWithSyncSample: firstFlags & 0x1_0000 == 0))
                        }
                    }
                }
                fragments.append(runs)
            }
        }
        isTorn = offset < data.count
    }

    private struct Box {
        var type: String
        /// Where the box's content starts (after its header) and where the box ends.
        var body: Int
        var end: Int
    }

    /// The complete box at `offset`, or nil when none starts there or it runs past `end`.
    private static func box(in data: Data, at offset: Int, end: Int) -> Box? {
        guard offset + 8 <= end else { return nil }
        var size = Int(uint32(data, offset))
        var header = 8
        if size == 1 {
            guard offset + 16 <= end else { return nil }
            size = Int(uint64(data, offset + 8))
            header = 16
        } else if size == 0 {
            size = end - offset
        }
        guard size >= header, offset + size <= end else { return nil }
        let type = String(decoding: data[(data.startIndex + offset + 4)..<(data.startIndex + offset + 8)], as: UTF8.self)
        return Box(type: type, body: offset + header, end: offset + size)
    }

    private static func children(of parent: Box, in data: Data) -> [Box] {
        var boxes: [Box] = []
        var offset = parent.body
        while let box = box(in: data, at: offset, end: parent.end) {
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }

    private static func uint32(_ data: Data, _ offset: Int) -> UInt32 {
        data[(data.startIndex + offset)..<(data.startIndex + offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func uint64(_ data: Data, _ offset: Int) -> UInt64 {
        data[(data.startIndex + offset)..<(data.startIndex + offset + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
