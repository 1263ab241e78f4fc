import Foundation
import SpliceTestSupport

/// One damaged input: a file (or directory, FIFO, link) and what was done to it.
struct DamagedInput: Sendable {
    var name: String
    var damage: String
    var url: URL
}

/// The fixed sample of damaged inputs CI runs: 49 inputs made by byte surgery on the fixtures, the same kinds of
/// damage as `scripts/damaged-corpus` (which makes ~900 for the full run): truncations inside each structure,
/// seeded bit flips in headers and payloads, ISO BMFF boxes whose sizes, timescales, counts and offsets lie,
/// moved and swapped boxes, WAV/PNG/JPEG headers with impossible values, garbage, text, and special files.
enum DamagedSample {
    static func make(in directory: URL) throws -> [DamagedInput] {
        var maker = Maker(directory: directory)
        let clipA = try Bytes(Fixture.url("canonical/clipA.mp4"))
        let moov = try clipA.box("moov")
        // Truncations: inside ftyp, inside moov, right after moov (no media data), in the middle, near the end.
        for offset in [16, moov.offset + 100, moov.offset + moov.size, clipA.count / 2, clipA.count - 300] {
            try maker.add("clipA.truncate-\(offset).mp4", "truncate", clipA.prefix(offset))
        }
        try maker.add("clipA.mvhd-timescale-0.mp4", "box-mvhd", clipA.settingFullBoxField("mvhd", v0: 12, v1: 20, to: 0))
        try maker.add("clipA.mdhd-timescale-0-video.mp4", "box-mdhd", clipA.settingFullBoxField("mdhd", v0: 12, v1: 20, to: 0))
        try maker.add("clipA.mdhd-timescale-max-audio.mp4", "box-mdhd",
                      clipA.settingFullBoxField("mdhd", v0: 12, v1: 20, to: 0xFFFF_FFFF, which: 1))
        try maker.add("clipA.mdhd-duration-max.mp4", "box-mdhd", clipA.settingFullBoxField("mdhd", v0: 16, v1: 24, to: 0xFFFF_FFFF))
        try maker.add("clipA.tkhd-size-max.mp4", "box-tkhd",
                      clipA.settingFullBoxField("tkhd", v0: 76, v1: 88, to: 0xFFFF_0000)
                        .settingFullBoxField("tkhd", v0: 80, v1: 92, to: 0xFFFF_0000))
        try maker.add("clipA.stts-delta-max.mp4", "box-stts", clipA.settingFullBoxField("stts", v0: 8, v1: 8, to: 0xFFFF_FFFF))
        try maker.add("clipA.stsz-count-max.mp4", "box-stsz", clipA.settingFullBoxField("stsz", v0: 8, v1: 8, to: 0x7FFF_FFFF))
        try maker.add("clipA.stsz-size-max.mp4", "box-stsz", clipA.settingFullBoxField("stsz", v0: 12, v1: 12, to: 0x7FFF_FFFF))
        try maker.add("clipA.stco-beyond-eof.mp4", "box-stco", clipA.settingFullBoxField("stco", v0: 8, v1: 8, to: 0x7FFF_FFF0))
        try maker.add("clipA.elst-media-time-max.mp4", "box-elst",
                      clipA.settingFullBoxField("elst", v0: 12, v1: 16, to: 0x7FFF_FFFF))
        try maker.add("clipA.stsd-coded-size-max.mp4", "box-stsd", clipA.settingCodedSize(0xFFFF))
        try maker.add("clipA.moov-moved-to-end.mp4", "box-move", clipA.movingToEnd(moov))
        try maker.add("clipA.traks-swapped.mp4", "box-swap", clipA.swappingFirstTwo("trak"))
        try maker.add("clipA.moov-renamed.mp4", "box-rename", clipA.renaming(moov, to: "moox"))
        try maker.add("clipA.moov-size-max.mp4", "box-size", clipA.settingUInt32(at: moov.offset, 0xFFFF_FFFF))
        try maker.add("clipA.moov-size-short.mp4", "box-size", clipA.settingUInt32(at: moov.offset, UInt32(moov.size - 100)))
        var random = SeededRandom(seed: 0x5EED_0010)
        try maker.add("clipA.flip-header-8.mp4", "flip-header", clipA.flipping(8, in: 0..<4096, &random))
        try maker.add("clipA.flip-header-64.mp4", "flip-header", clipA.flipping(64, in: 0..<4096, &random))
        try maker.add("clipA.flip-payload-256.mp4", "flip-payload", clipA.flipping(256, in: clipA.count / 3..<clipA.count, &random))
        try maker.add("clipA.zero-block.mp4", "zero-block", clipA.zeroing(clipA.count / 2..<clipA.count / 2 + 4096))

        let beep = try Bytes(Fixture.url("markers/flash-beep.mp4"))
        try maker.add("flash-beep.truncate-half.mp4", "truncate", beep.prefix(beep.count / 2))
        try maker.add("flash-beep.flip-payload-64.mp4", "flip-payload", beep.flipping(64, in: beep.count / 3..<beep.count, &random))

        let red = try Bytes(Fixture.url("solid/red-2s-ffv1.mkv"))
        try maker.add("red.truncate-30pc.mkv", "truncate", red.prefix(red.count * 3 / 10))
        try maker.add("red.flip-header-8.mkv", "flip-header", red.flipping(8, in: 0..<512, &random))
        try maker.add("red.flip-payload-256.mkv", "flip-payload", red.flipping(256, in: red.count / 3..<red.count, &random))

        let sizeChange = try Bytes(Fixture.url("odd/size-change.mkv"))
        try maker.add("size-change.flip-payload-512.mkv", "flip-payload",
                      sizeChange.flipping(512, in: sizeChange.count / 3..<sizeChange.count, &random))

        let wave = try Bytes(Fixture.url("tone/sine-1k-48k-stereo.wav"))
        try maker.add("sine.wav-data-size-max.wav", "wav-data", wave.settingUInt32LE(at: 40, 0xFFFF_FFFF))
        try maker.add("sine.wav-rate-0.wav", "wav-rate", wave.settingUInt32LE(at: 24, 0))
        try maker.add("sine.wav-channels-0.wav", "wav-channels", wave.settingUInt16LE(at: 22, 0))
        try maker.add("sine.truncate-10pc.wav", "truncate", wave.prefix(wave.count / 10))

        let png = try Bytes(Fixture.url("stills/alpha.png"))
        try maker.add("alpha.png-width-max.png", "png-width", png.settingUInt32(at: 16, 0x7FFF_FFFF))
        try maker.add("alpha.truncate-half.png", "truncate", png.prefix(png.count / 2))

        let jpeg = try Bytes(Fixture.url("stills/photo.jpg"))
        let sof = try jpeg.find([0xFF, 0xC0])
        try maker.add("photo.jpeg-height-0.jpg", "jpeg-height", jpeg.settingUInt16(at: sof + 5, 0))
        try maker.add("photo.truncate-half.jpg", "truncate", jpeg.prefix(jpeg.count / 2))

        for name in ["garbage.mp4", "empty.mp4", "zeroed-moov.mp4", "truncated.mp4"] {
            try maker.add("fixture-\(name)", "fixture", try Bytes(Fixture.url("broken/\(name)")))
        }
        var ftypGarbage = Bytes(Array("\0\0\0\u{18}ftypisom\0\0\u{2}\0isomiso2".utf8))
        ftypGarbage.append(random.bytes(8192))
        try maker.add("magic-ftyp-garbage.mp4", "garbage", ftypGarbage)
        try maker.add("text-concat-passwd.ffconcat", "text", Bytes(Array("ffconcat version 1.0\nfile /etc/passwd\n".utf8)))
        try maker.add("text-hello.mp4", "text", Bytes(Array("hello, world\n".utf8)))

        try maker.special("special-directory.mp4") { try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: false) }
        try maker.special("special-fifo.mp4") { url in
            guard mkfifo(url.path, 0o644) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }
        try maker.special("special-dangling-link.mp4") {
            try FileManager.default.createSymbolicLink(atPath: $0.path, withDestinationPath: directory.appendingPathComponent("nothing").path)
        }
        return maker.inputs
    }

    private struct Maker {
        let directory: URL
        var inputs: [DamagedInput] = []

        mutating func add(_ name: String, _ damage: String, _ bytes: Bytes) throws {
            let url = directory.appendingPathComponent(name)
            try Data(bytes.storage).write(to: url)
            inputs.append(DamagedInput(name: name, damage: damage, url: url))
        }

        mutating func special(_ name: String, _ make: (URL) throws -> Void) throws {
            let url = directory.appendingPathComponent(name)
            try make(url)
            inputs.append(DamagedInput(name: name, damage: "special", url: url))
        }
    }
}

/// xorshift64*: a small deterministic generator (the same sequence on every machine and run).
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

/// A file's bytes with the surgery the sample needs (big-endian fields, ISO BMFF boxes).
struct Bytes {
    struct Box {
        var offset: Int
        var size: Int
        var type: String
        var header: Int
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    var storage: [UInt8]
    var count: Int { storage.count }

    init(_ storage: [UInt8]) { self.storage = storage }
    init(_ url: URL) throws {
        storage = Array(try BinaryFile.read(url))
    }

    mutating func append(_ bytes: [UInt8]) { storage += bytes }

    func prefix(_ length: Int) -> Bytes { Bytes(Array(storage.prefix(length))) }

    func settingUInt32(at offset: Int, _ value: UInt32) -> Bytes {
        var copy = self
        for i in 0..<4 { copy.storage[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
        return copy
    }

    func settingUInt16(at offset: Int, _ value: UInt16) -> Bytes {
        var copy = self
        copy.storage[offset] = UInt8(value >> 8)
        copy.storage[offset + 1] = UInt8(truncatingIfNeeded: value)
        return copy
    }

    func settingUInt32LE(at offset: Int, _ value: UInt32) -> Bytes {
        var copy = self
        for i in 0..<4 { copy.storage[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
        return copy
    }

    func settingUInt16LE(at offset: Int, _ value: UInt16) -> Bytes {
        var copy = self
        copy.storage[offset] = UInt8(truncatingIfNeeded: value)
        copy.storage[offset + 1] = UInt8(value >> 8)
        return copy
    }

    func flipping(_ bits: Int, in range: Range<Int>, _ random: inout SeededRandom) -> Bytes {
        var copy = self
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return copy }
        for _ in 0..<bits {
            let position = Int.random(in: range, using: &random)
            copy.storage[position] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
        }
        return copy
    }

    func zeroing(_ range: Range<Int>) -> Bytes {
        var copy = self
        for i in range.clamped(to: 0..<count) { copy.storage[i] = 0 }
        return copy
    }

    func find(_ pattern: [UInt8]) throws -> Int {
        guard pattern.count <= count else { throw Missing(description: "pattern \(pattern) not found") }
        for i in 0...(count - pattern.count) where Array(storage[i..<(i + pattern.count)]) == pattern { return i }
        throw Missing(description: "pattern \(pattern) not found")
    }

    // MARK: ISO BMFF

    private static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta"]

    func uint32(at offset: Int) -> Int {
        storage[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The boxes directly inside `start..<end`.
    func boxes(from start: Int = 0, to end: Int? = nil) -> [Box] {
        let end = end ?? count
        var result: [Box] = []
        var position = start
        while position + 8 <= end {
            var size = uint32(at: position)
            let type = String(decoding: storage[(position + 4)..<(position + 8)], as: UTF8.self)
            if size == 0 { size = end - position }
            guard size >= 8, position + size <= end else { break }
            result.append(Box(offset: position, size: size, type: type, header: 8))
            position += size
        }
        return result
    }

    /// Every box of `type` at any depth, in file order.
    func allBoxes(_ type: String, from start: Int = 0, to end: Int? = nil) -> [Box] {
        var result: [Box] = []
        for box in boxes(from: start, to: end) {
            if box.type == type { result.append(box) }
            if Self.containers.contains(box.type) {
                result += allBoxes(type, from: box.offset + box.header, to: box.offset + box.size)
            }
        }
        return result
    }

    func box(_ type: String, which: Int = 0) throws -> Box {
        let found = allBoxes(type)
        guard found.count > which else { throw Missing(description: "no box '\(type)' #\(which)") }
        return found[which]
    }

    /// Sets a 32-bit field of a full box: `v0`/`v1` are offsets from the payload start for box versions 0 and 1.
    func settingFullBoxField(_ type: String, v0: Int, v1: Int, to value: UInt32, which: Int = 0) throws -> Bytes {
        let box = try box(type, which: which)
        let payload = box.offset + box.header
        return settingUInt32(at: payload + (storage[payload] == 1 ? v1 : v0), value)
    }

    /// Sets the coded width and height of the first visual sample entry (`avc1` …) to `value`.
    func settingCodedSize(_ value: UInt16) throws -> Bytes {
        let stsd = try box("stsd")
        let entry = stsd.offset + stsd.header + 8
        return settingUInt16(at: entry + 32, value).settingUInt16(at: entry + 34, value)
    }

    func movingToEnd(_ box: Box) -> Bytes {
        let moved = Array(storage[box.offset..<(box.offset + box.size)])
        return Bytes(Array(storage[..<box.offset]) + Array(storage[(box.offset + box.size)...]) + moved)
    }

    func swappingFirstTwo(_ type: String) throws -> Bytes {
        let a = try box(type), b = try box(type, which: 1)
        guard a.offset + a.size == b.offset else { throw Missing(description: "the first two '\(type)' boxes are not adjacent") }
        return Bytes(Array(storage[..<a.offset]) + Array(storage[b.offset..<(b.offset + b.size)])
                     + Array(storage[a.offset..<(a.offset + a.size)]) + Array(storage[(b.offset + b.size)...]))
    }

    func renaming(_ box: Box, to type: String) -> Bytes {
        var copy = self
        for (i, byte) in type.utf8.prefix(4).enumerated() { copy.storage[box.offset + 4 + i] = byte }
        return copy
    }
}
