import Foundation
import Testing
import Splice
@testable import SpliceDocument
import SpliceTestSupport

extension Reliability {
    /// Fuzzing: the document decoders of `MutableComposition`, `MutableVideoComposition` and `MutableAudioMix`, and
    /// `MediaTime` arithmetic, with randomized inputs from a fixed seed.
    ///
    /// CI runs `SPLICE_FUZZ_ITERATIONS` = 200 mutated documents per model (and 50 × that many `MediaTime` pairs); set it
    /// higher by hand for longer runs (`SPLICE_FUZZ_SEED` picks another seed).
    @Suite("Fuzzing: document decoding and MediaTime arithmetic")
    struct CodableFuzzTests {
        static let environment = ProcessInfo.processInfo.environment
        static let iterations = environment["SPLICE_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 200
        static let seed = environment["SPLICE_FUZZ_SEED"].flatMap { UInt64($0, radix: 16) } ?? 0x5EED_F022

        // MARK: Documents

        /// The canonical edit (three tracks, an opacity ramp, a watermark and a text overlay, a volume ramp) as the
        /// three documents the fuzzer mutates.
        static func baseDocuments() async throws -> (MutableComposition, MutableVideoComposition, MutableAudioMix) {
            let clipA = try await Fixture.asset("canonical/clipA.mp4")
            let music = try await Fixture.asset("canonical/music.m4a")
            var composition = MutableComposition()
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 4)), of: clipA, at: .zero)
            let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 4)),
                                            of: music.tracks[0], at: .zero, intoTrackWithID: musicTrack)
            try composition.scaleTimeRange(TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)),
                                           toDuration: MediaTime(value: 3, timescale: 2))
            var video = MutableVideoComposition(propertiesOf: composition)
            video.instructions[0].layerInstructions[0].setOpacityRamp(
                fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: MediaTime(seconds: 3), duration: MediaTime(seconds: 1)))
            video.instructions[0].layerInstructions[0].setTransformRamp(
                fromStart: .identity, toEnd: AffineTransform2D(a: 0.5, b: 0, c: 0, d: 0.5, tx: 10, ty: 20),
                timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
            video.overlays = [
                OverlayLayer(content: .image(Fixture.url("canonical/watermark.png")), frame: Rect(x: 464, y: 296, width: 160, height: 48),
                             timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 4))),
                OverlayLayer(content: .text(TextLayerContent(string: "Splice", fontSize: 24)), frame: Rect(x: 10, y: 10, width: 200, height: 40),
                             timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2))),
            ]
            var mix = MutableAudioMix()
            var parameters = AudioMixInputParameters(trackID: musicTrack)
            parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: MediaTime(seconds: 2), duration: MediaTime(seconds: 2)))
            mix.inputParameters = [parameters]
            return (composition, video, mix)
        }

        enum Kind: String, CaseIterable, Sendable { case composition, videoComposition, audioMix }

        /// Decodes, round-trips and plans each mutated document: a `DecodingError` or a value; a value encodes and
        /// decodes back to itself, and planning an export with it (validation, graph compilation; no file is opened)
        /// returns or throws a typed error. A trap anywhere kills the test process.
        @Test(arguments: Kind.allCases)
        func mutatedDocumentsDecodeOrFailWithADecodingError(_ kind: Kind) async throws {
            let (composition, video, mix) = try await Self.baseDocuments()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let base: JSONNode
            switch kind {
            case .composition: base = try JSONNode(parsing: try encoder.encode(composition))
            case .videoComposition: base = try JSONNode(parsing: try encoder.encode(video))
            case .audioMix: base = try JSONNode(parsing: try encoder.encode(mix))
            }
            let scratch = try ScratchDirectory("fuzz")
            defer { scratch.remove() }
            let seed = Self.seed &+ UInt64(Kind.allCases.firstIndex(of: kind)!)
            let output = scratch.file("out.mp4")
            let report = try await onWorkerThread {
                Self.fuzzDocuments(kind, base: base, composition: composition, mix: mix, seed: seed, output: output)
            }
            print("fuzz \(kind.rawValue): \(Self.iterations) documents, \(report.rejected) DecodingErrors, \(report.decoded) decoded "
                  + "(\(report.planned) planned, \(report.refused) refused with typed errors)")
            for failure in report.failures.prefix(20) { Issue.record(Comment(rawValue: failure)) }
            #expect(report.failures.isEmpty)
            #expect(report.rejected + report.decoded == Self.iterations)
            #expect(report.rejected > 0 && report.decoded > 0)
            #expect(scratch.contents.isEmpty)
        }

        struct FuzzReport: Sendable {
            var decoded = 0, rejected = 0, planned = 0, refused = 0
            var failures: [String] = []
        }

        /// The fuzzing loop (on a worker thread): failures are returned, not recorded.
        static func fuzzDocuments(_ kind: Kind, base: JSONNode, composition: MutableComposition, mix: MutableAudioMix,
                                  seed: UInt64, output: URL) -> FuzzReport {
            var report = FuzzReport()
            var random = SeededRandom(seed: seed)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for iteration in 0..<iterations {
                let text = Mutator.mutate(base, &random)
                let data = Data(text.utf8)
                let decoder = JSONDecoder()
                func check(_ condition: Bool, _ what: String) {
                    if !condition { report.failures.append("#\(iteration) \(what): \(text)") }
                }
                do {
                    let session: AssetExportSession
                    switch kind {
                    case .composition:
                        let value = try decoder.decode(MutableComposition.self, from: data)
                        check(try decoder.decode(MutableComposition.self, from: encoder.encode(value)) == value, "round trip")
                        for track in value.tracks {
                            try CompositionTrack.validateSegments(track.segments, trackID: track.trackID, mediaType: track.mediaType)
                        }
                        session = AssetExportSession(asset: value, settings: FastSettings.make())
                        session.audioMix = mix
                    case .videoComposition:
                        let value = try decoder.decode(MutableVideoComposition.self, from: data)
                        check(try decoder.decode(MutableVideoComposition.self, from: encoder.encode(value)) == value, "round trip")
                        _ = value.validate(for: composition)
                        session = AssetExportSession(asset: composition, settings: FastSettings.make())
                        session.videoComposition = value
                    case .audioMix:
                        let value = try decoder.decode(MutableAudioMix.self, from: data)
                        check(try decoder.decode(MutableAudioMix.self, from: encoder.encode(value)) == value, "round trip")
                        _ = value.validate(for: composition)
                        session = AssetExportSession(asset: composition, settings: FastSettings.make())
                        session.audioMix = value
                    }
                    report.decoded += 1
                    session.outputURL = output
                    do {
                        _ = try session.filterGraphDescription()
                        report.planned += 1
                    } catch {
                        check(ErrorKind.isTyped(error), "planning: \(ErrorKind.name(error)): \(error)")
                        report.refused += 1
                    }
                } catch is DecodingError {
                    report.rejected += 1
                } catch {
                    check(false, "not a DecodingError: \(ErrorKind.name(error)): \(error)")
                }
            }
            return report
        }

        /// JSON mutations: tree edits (a node replaced by an edge value of another type, a key deleted, an element
        /// duplicated or removed, values swapped, a node wrapped or nested 300 deep, a subtree grafted elsewhere) and
        /// text edits (truncated, a character replaced, inserted or deleted).
        enum Mutator {
            static let strings = ["", "x", "0/1", "1/0", "-1/1", "1/-1", "invalid", "+inf", "-inf", "indefinite",
                                  "9223372036854775807/1", "-9223372036854775808/1", "1/2147483647", "1/2147483648",
                                  "99999999999999999999", "nan", "video", "audio", "text", "image", "linear", "varispeed",
                                  "file:///nonexistent.png", "/etc/passwd", "http://127.0.0.1:9/x.mp4", "3 (rounded)"]
            static let numbers = ["0", "-1", "1", "2", "0.5", "-0.0", "1e300", "-1e300", "2147483647", "2147483648",
                                  "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                                  "1e-320", "65536", "100000", "3.9999999999999996"]

            static func scalar(_ random: inout SeededRandom) -> JSONNode {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: return JSONNode(.string(strings.randomElement(using: &random)!))
                case 4..<8: return JSONNode(.number(numbers.randomElement(using: &random)!))
                case 8: return JSONNode([JSONNode.Value.bool(true), .bool(false), .null].randomElement(using: &random)!)
                default: return JSONNode(Bool.random(using: &random) ? .array([]) : .object([]))
                }
            }

            static func mutate(_ base: JSONNode, _ random: inout SeededRandom) -> String {
                var tree = base
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let paths = tree.indexPaths
                    let path = paths.randomElement(using: &random)!
                    switch Int.random(in: 0..<9, using: &random) {
                    case 0, 1, 2:
                        tree = tree.replacing(atIndices: path) { _ in scalar(&random) }
                    case 3:
                        tree = tree.replacing(atIndices: path) { node in
                            guard case .object(var members) = node.value, !members.isEmpty else { return node }
                            members.remove(at: Int.random(in: 0..<members.count, using: &random))
                            return JSONNode(.object(members))
                        }
                    case 4:
                        tree = tree.replacing(atIndices: path) { node in
                            guard case .array(var elements) = node.value, !elements.isEmpty else { return node }
                            if Bool.random(using: &random) {
                                elements.append(elements[Int.random(in: 0..<elements.count, using: &random)])
                            } else {
                                elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
                            }
                            return JSONNode(.array(elements))
                        }
                    case 5:
                        tree = tree.replacing(atIndices: path) { node in
                            guard case .object(var members) = node.value, members.count >= 2 else { return node }
                            let i = Int.random(in: 0..<members.count, using: &random), j = Int.random(in: 0..<members.count, using: &random)
                            (members[i].value, members[j].value) = (members[j].value, members[i].value)
                            return JSONNode(.object(members))
                        }
                    case 6:
                        let depth = Bool.random(using: &random) ? 1 : 300
                        tree = tree.replacing(atIndices: path) { node in
                            var wrapped = node
                            for _ in 0..<depth { wrapped = JSONNode(.array([wrapped])) }
                            return wrapped
                        }
                    case 7:
                        let graft = tree.node(atIndices: paths.randomElement(using: &random)!)
                        tree = tree.replacing(atIndices: path) { _ in graft }
                    default:
                        var text = Array(tree.compactText.utf8)
                        guard !text.isEmpty else { break }
                        let position = Int.random(in: 0..<text.count, using: &random)
                        let alphabet = Array("{}[]\":,-0123456789.eE/ax".utf8)
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0: text = Array(text.prefix(position))
                        case 1: text[position] = alphabet.randomElement(using: &random)!
                        case 2: text.insert(alphabet.randomElement(using: &random)!, at: position)
                        default: text.removeSubrange(position..<min(text.count, position + Int.random(in: 1...8, using: &random)))
                        }
                        return String(decoding: text, as: UTF8.self)
                    }
                }
                return tree.compactText
            }
        }

        // MARK: MediaTime

        /// Random times weighted toward the edges: special values, 0, ±1, Int64 extremes, Int32.max timescales, NTSC
        /// and audio timescales.
        static func randomTime(_ random: inout SeededRandom) -> MediaTime {
            switch Int.random(in: 0..<20, using: &random) {
            case 0: return [MediaTime.invalid, .indefinite, .positiveInfinity, .negativeInfinity].randomElement(using: &random)!
            default:
                let values: [Int64] = [0, 1, -1, 2, 1001, -1001, .max, .min, .max - 1, .min + 1, 1 << 32, -(1 << 40)]
                let timescales: [Int32] = [1, 2, 3, 25, 30, 600, 1000, 1001, 24000, 30000, 44100, 48000, 90000, .max, .max - 1]
                let value = Bool.random(using: &random) ? values.randomElement(using: &random)!
                    : Int64.random(in: (Bool.random(using: &random) ? -1_000_000...1_000_000 : Int64.min...Int64.max), using: &random)
                let timescale = Bool.random(using: &random) ? timescales.randomElement(using: &random)! : Int32.random(in: 1...Int32.max, using: &random)
                let time = MediaTime(value: value, timescale: timescale)
                return Int.random(in: 0..<10, using: &random) == 0 ? time.convertScale(timescale, method: .towardZero) : time
            }
        }

        /// `lhs − rhs` of two rationals, as the sign of `(a/b) − (c/d)` with b, d > 0.
        static func compare(_ a: Int128, _ b: Int128, _ c: Int128, _ d: Int128) -> Int {
            let left = a * d, right = c * b
            return left < right ? -1 : (left > right ? 1 : 0)
        }

        /// Sums, differences, comparisons, negation, rescaling and ratio multiplication of random times, each checked
        /// against exact 128-bit rational arithmetic: exact results are exact, rounded ones are marked and within half a
        /// unit of the result's timescale, overflow gives an infinity (never a trap or a wrapped value), and the
        /// special-value rules of CMTime hold.
        @Test func mediaTimeArithmeticMatchesExactRationals() async throws {
            let (failures, rounded, infinite, pairs) = try await onWorkerThread { Self.fuzzMediaTime() }
            print("fuzz MediaTime: \(pairs) pairs, \(rounded) rounded results, \(infinite) overflowed to infinity")
            for failure in failures.prefix(20) { Issue.record(Comment(rawValue: failure)) }
            #expect(failures.isEmpty)
            #expect(rounded > 0 && infinite > 0)
        }

        /// The arithmetic checks (on a worker thread): failures are returned, not recorded.
        static func fuzzMediaTime() -> (failures: [String], rounded: Int, infinite: Int, pairs: Int) {
            var failures: [String] = []
            func check(_ condition: Bool, _ message: @autoclosure () -> String = "") {
                if !condition { failures.append(message()) }
            }
            var random = SeededRandom(seed: seed ^ 0x7133)
            let pairs = iterations * 50
            var rounded = 0, infinite = 0
            for _ in 0..<pairs {
                let a = randomTime(&random), b = randomTime(&random)
                let sum = a + b, difference = a - b
                check(sum == b + a, "\(a) + \(b)")
                if !a.isValid || !b.isValid { check(!sum.isValid && !difference.isValid) }
                if a.isPositiveInfinity && b.isNegativeInfinity { check(!sum.isValid && difference.isPositiveInfinity) }
                guard a.isNumeric, b.isNumeric else { continue }
                let (va, ta, vb, tb) = (Int128(a.value), Int128(a.timescale), Int128(b.value), Int128(b.timescale))
                // Order and equality are exact across timescales.
                let order = compare(va, ta, vb, tb)
                check((a < b) == (order < 0) && (a == b) == (order == 0), "\(a) vs \(b)")
                if a == b { check(a.hashValue == b.hashValue) }
                for (result, numerator) in [(sum, va * tb + vb * ta), (difference, va * tb - vb * ta)] {
                    let denominator = ta * tb
                    if result.isNumeric {
                        let (vr, tr) = (Int128(result.value), Int128(result.timescale))
                        let error = (vr * denominator - numerator * tr).magnitude
                        if result.hasBeenRounded {
                            rounded += 1
                            check(error * 2 <= denominator.magnitude, "\(a) ± \(b) = \(result)")
                        } else {
                            check(error == 0, "\(a) ± \(b) = \(result) is marked exact")
                        }
                    } else {
                        infinite += 1
                        check(result.hasBeenRounded && (result.isPositiveInfinity == (numerator > 0)), "\(a) ± \(b) = \(result)")
                        let fallback = Int128(max(a.timescale, b.timescale))
                        check(numerator.magnitude * UInt128(fallback) * 2 > UInt128(Int64.max) * denominator.magnitude,
                                "\(a) ± \(b) = \(result) though it fits")
                    }
                }
                // Negation round trip (Int64.min has no Int64 negation).
                if a.value != .min { check(-(-a) == a) }
                // Rescaling: the exact quotient, rounded half away from zero, or an infinity when it does not fit.
                let scale = b.timescale
                let scaled = a.convertScale(scale)
                let product = va * Int128(scale)
                if scaled.isNumeric {
                    check(scaled.timescale == scale)
                    let error = (Int128(scaled.value) * ta - product).magnitude
                    check(error * 2 <= ta.magnitude && (error == 0 || scaled.hasBeenRounded), "\(a) in 1/\(scale): \(scaled)")
                } else {
                    check((product / ta).magnitude > UInt128(Int64.max) - 1, "\(a) in 1/\(scale): \(scaled)")
                }
                // Ratio multiplication with 32-bit factors, checked exactly when exact.
                let m = Int64(Int32.random(in: .min ... .max, using: &random))
                let d = Int64(Int32.random(in: 1 ... .max, using: &random))
                let ratio = a.multiplied(byRatio: m, over: d)
                if ratio.isNumeric && !ratio.hasBeenRounded && !a.hasBeenRounded {
                    check(Int128(ratio.value) * ta * Int128(d) == va * Int128(m) * Int128(ratio.timescale), "\(a) × \(m)/\(d) = \(ratio)")
                }
                check(a.multiplied(byRatio: 1, over: 0).isValid == false)
                // Text and JSON round trips keep value, timescale and the rounded flag.
                let text = MediaTime(rationalText: a.rationalText)
                check(text?.value == a.value && text?.timescale == a.timescale && text?.hasBeenRounded == a.hasBeenRounded)
            }
            return (failures, rounded, infinite, pairs)
        }
    }
}
