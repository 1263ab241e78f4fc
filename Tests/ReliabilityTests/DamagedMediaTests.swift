import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// Damaged media: every input gives a typed error or a correct best-effort export — never a crash, never a hang.
    ///
    /// CI runs the fixed sample of ``DamagedSample`` (49 inputs made in the test). With `SPLICE_CORPUS=<dir>` the test
    /// runs every input of a corpus made by `scripts/damaged-corpus` instead (scripts/asan does, under AddressSanitizer).
    /// `SPLICE_CORPUS_LOG=<file>` appends a `BEGIN`/`END` line per input (so a script can name the input a crash
    /// killed), `SPLICE_CORPUS_START=<n>` skips the first n inputs (to resume after one), `SPLICE_ITEM_TIMEOUT=<s>`
    /// sets the per-step timeout (20 s by default).
    @Suite("Damaged media: typed errors or correct best-effort results")
    struct DamagedMediaTests {
        static let environment = ProcessInfo.processInfo.environment

        /// What the sample's clear-cut inputs must give (the file-system cases and the committed broken fixtures).
        static let expectedOutcomes: [String: String] = [
            "fixture-empty.mp4": "AssetLoadingError.emptyFile",
            "fixture-garbage.mp4": "AssetLoadingError.notAMediaFile",
            "fixture-zeroed-moov.mp4": "AssetLoadingError.corruptOrTruncated",
            "fixture-truncated.mp4": "AssetLoadingError.corruptOrTruncated",
            "special-directory.mp4": "AssetLoadingError.isADirectory",
            "special-fifo.mp4": "AssetLoadingError.notARegularFile",
            "special-dangling-link.mp4": "AssetLoadingError.fileNotFound",
            "text-hello.mp4": "AssetLoadingError.notAMediaFile",
            "clipA.truncate-16.mp4": "AssetLoadingError.corruptOrTruncated",
            "clipA.moov-renamed.mp4": "AssetLoadingError.corruptOrTruncated",
            "text-concat-passwd.ffconcat": "AssetLoadingError.notAMediaFile",
        ]

        @Test func everyDamagedInputGivesATypedErrorOrACorrectResult() async throws {
            let scratch = try ScratchDirectory("damaged")
            defer { scratch.remove() }
            let inputs: [DamagedInput]
            let corpus = Self.environment["SPLICE_CORPUS"]
            if let corpus {
                inputs = try Self.corpusInputs(URL(fileURLWithPath: corpus))
            } else {
                let folder = scratch.file("inputs")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                inputs = try DamagedSample.make(in: folder)
                #expect(inputs.count == 49)
            }
            let timeout = Self.environment["SPLICE_ITEM_TIMEOUT"].flatMap(Double.init) ?? 20
            let first = Self.environment["SPLICE_CORPUS_START"].flatMap(Int.init) ?? 0
            let log = Self.environment["SPLICE_CORPUS_LOG"].map { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
            defer { if let log, log >= 0 { close(log) } }
            func append(_ line: String) {
                guard let log, log >= 0 else { return }
                _ = (line + "\n").utf8CString.withUnsafeBufferPointer { write(log, $0.baseAddress, $0.count - 1) }
            }

            let outputs = try ScratchDirectory("damaged-out")
            defer { outputs.remove() }
            var results: [ProbeResult] = []
            for (index, input) in inputs.enumerated() where index >= first {
                append("BEGIN\t\(index)\t\(input.name)")
                let result = await CorpusProbe.run(input, scratch: outputs, timeout: timeout)
                append("END\t\(index)\t\(input.name)\t\(input.damage)\t\(result.stage.rawValue)\t\(result.outcome)\t"
                       + "\(result.milliseconds)\t\(result.problem ?? "")\t\(result.detail)")
                results.append(result)
                #expect(result.problem == nil, "\(input.name) [\(input.damage)] at \(result.stage): \(result.problem ?? "")")
                if corpus == nil, let expected = Self.expectedOutcomes[input.name] {
                    #expect(result.outcome == expected, "\(input.name): \(result.outcome), expected \(expected)")
                }
            }
            print(Self.summary(results))
            if corpus == nil {
                // The sample exercises both paths: errors at load time and exports that complete from damaged sources.
                #expect(results.filter { $0.outcome == "exported" }.count >= 10)
                #expect(results.filter { $0.stage == .load && $0.outcome.hasPrefix("AssetLoadingError") }.count >= 10)
            }
        }

        /// The inputs of a corpus directory, in MANIFEST.tsv order when there is one.
        static func corpusInputs(_ directory: URL) throws -> [DamagedInput] {
            let manifest = directory.appendingPathComponent("MANIFEST.tsv")
            if let text = try? TextFile.read(manifest) {
                return text.split(separator: "\n").dropFirst().map { line in
                    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                    let name = String(fields[0])
                    return DamagedInput(name: name, damage: fields.count > 1 ? String(fields[1]) : "?",
                                        url: directory.appendingPathComponent(name))
                }
            }
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
                DamagedInput(name: $0, damage: "?", url: directory.appendingPathComponent($0))
            }
        }

        /// Inputs tried, outcomes by kind, failures.
        static func summary(_ results: [ProbeResult]) -> String {
            var lines = ["damaged inputs: \(results.count) tried"]
            var outcomes: [String: Int] = [:]
            for result in results { outcomes["\(result.stage.rawValue): \(result.outcome)", default: 0] += 1 }
            for (outcome, count) in outcomes.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(String(count).leftPadded(4))  \(outcome)")
            }
            let hangs = results.filter { $0.outcome == "hang" }.count
            let problems = results.filter { $0.problem != nil }.count
            let slowest = results.max { $0.milliseconds < $1.milliseconds }
            lines.append("  hangs \(hangs), failures \(problems), slowest \(slowest.map { "\($0.name) \($0.milliseconds) ms" } ?? "-")")
            return lines.joined(separator: "\n")
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
