import Foundation
import SpliceTestSupport
import Testing

/// `splice scan`: JSON lines for the codes of a movie drawn by the Python verifiers (``CodeVideo``), and bad types or
/// rects refused as usage errors naming them.
@Suite("splice scan")
struct ScanCommandTests {
    /// One printed line.
    struct Line: Decodable {
        var time: Double
        var type: String
        var value: String
        var corners: [[Double]]
    }

    @Test("prints a JSON line per code per picture: exact strings, the first line of each at the frame it appears, corners within 2 % of the frame; --types and --every narrow it",
          .enabled(if: PythonVerifier.isAvailable))
    func printsCodes() async throws {
        let scratch = try ScratchDirectory("cli-scan")
        defer { scratch.remove() }
        let movie = scratch.file("codes.mp4")
        let drawn = try await CodeVideo.make(at: movie)
        let run = try await SpliceTool.run(["scan", movie.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let perCode = drawn.map { code in CodeVideo.frameCount - code.firstFrame }.reduce(0, +)
        #expect(lines.count >= perCode - drawn.count && lines.count <= perCode, "\(lines.count) lines for \(perCode) code pictures")
        #expect(run.stderr.contains("in 120 scanned pictures"), "\(run.stderr)")
        for code in drawn {
            let first = try #require(lines.first { $0.value == code.text }, "no line for '\(code.text)'")
            #expect(first.type == code.type)
            #expect(abs(first.time - code.firstTime) <= 1.0 / 30 + 1e-6, "\(code.text) first at \(first.time) s")
            #expect(first.corners.count == 4)
            for (corner, wanted) in zip(first.corners, code.corners) {
                #expect(abs(corner[0] - wanted[0] / 640) <= 0.02 && abs(corner[1] - wanted[1] / 480) <= 0.02,
                        "\(code.text): corner \(corner), drawn at \(wanted) px")
            }
        }
        let narrowed = try await SpliceTool.run(["scan", movie.path, "--types", "ean13,code128", "--every", "1s"])
        #expect(narrowed.status == 0, "\(narrowed.stderr)")
        let kept = try narrowed.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        // Pictures at 0, 1, 2, 3 s: the EAN-13 (from 1.567 s) in two, the Code 128 (from 2.067 s) in one.
        // Within one picture the codes come in libzbar's order: compared by time, then text.
        let sorted = kept.map { "\($0.time) \($0.type) \($0.value)" }.sorted()
        #expect(sorted == ["2.0 ean13 4006381333931", "3.0 code128 SPL-128", "3.0 ean13 4006381333931"], "\(narrowed.stdout)")
        #expect(narrowed.stderr.contains("3 codes in 4 scanned pictures"), "\(narrowed.stderr)")
    }

    @Test("refused before anything is read (exit 2, named): an unknown type, PDF417, a rect outside 0…1, a rect that is not four numbers",
          arguments: [(["--types", "qr,qrr"], "unknown type 'qrr'"),
                      (["--types", "pdf417"], "'pdf417' cannot be read by the linked libzbar"),
                      (["--rect", "0.5,0,0.6,1"], "--rect: rect of interest (x 0.5, y 0.0, width 0.6, height 1.0) is not inside 0…1"),
                      (["--rect", "0,0,1"], "--rect takes x,y,width,height as four numbers")])
    func refusesBadOptions(options: [String], message: String) async throws {
        let run = try await SpliceTool.run(["scan", "/nonexistent/movie.mp4"] + options)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
