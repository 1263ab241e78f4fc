import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splice probe --loudness` and `splice export --loudness` / `export.loudness`, read back by FFmpeg's `ebur128`.
@Suite struct LoudnessCLITests {
    /// The integrated loudness in FFmpeg's own `ebur128` summary of `url` (LUFS, to 0.1).
    static func ebur128Integrated(of url: URL) async throws -> Double? {
        let run = try await MediaTool.run("ffmpeg", ["-hide_banner", "-nostats", "-i", url.path, "-map", "0:a:0",
                                                     "-af", "ebur128", "-f", "null", "-"])
        guard let summary = run.errors.components(separatedBy: "Summary:").last, let range = summary.range(of: "I:") else { return nil }
        return Double(summary[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? "")
    }

    @Test func probeMeasuresLoudnessAsTextAndJSON() async throws {
        let clip = Fixture.url("canonical/clipA.mp4").path
        let text = try await SpliceTool.run(["probe", "--loudness", clip])
        #expect(text.status == 0)
        #expect(text.stdout == "\(clip)  integrated -12.7 LUFS  range 0.0 LU  true peak -11.8 dBTP\n")
        let json = try await SpliceTool.run(["probe", "--loudness", "--json", clip, Fixture.url("rates/no-audio-25.mp4").path])
        #expect(json.status == 1)  // the second file has no sound: named on stderr, the first still measured
        #expect(json.stderr.contains("no-audio-25.mp4 has no audio stream"))
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        let integrated = try #require(array.first?["integratedLoudness"] as? Double)
        #expect(abs(integrated - -12.69) < 0.02)
    }

    @Test func exportNormalisesTheMixFromTheDocumentOrTheCommandLine() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("edit.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4" }, { "source": "clipB.mp4" } ],
              "export": { "settings": { "video": { "encoderPreset": "ultrafast" } }, "loudness": { "integratedLoudness": -20 } } }
            """)
        let fromDocument = try await SpliceTool.run(["export", "edit.json", "-o", "doc.mp4", "--progress", "none"], in: scratch.url, timeout: 300)
        #expect(fromDocument.status == 0, "\(fromDocument.stderr)")
        #expect(fromDocument.stderr.contains("loudness: the mix measured -1"), "\(fromDocument.stderr)")
        let measured = try #require(try await Self.ebur128Integrated(of: scratch.file("doc.mp4")))
        #expect(abs(measured - -20) <= 0.5, "ebur128: \(measured) LUFS")

        let fromOption = try await SpliceTool.run(["export", "edit.json", "-o", "cli.mp4", "--loudness", "-30", "--progress", "none"],
                                                  in: scratch.url, timeout: 300)
        #expect(fromOption.status == 0, "\(fromOption.stderr)")
        let option = try #require(try await Self.ebur128Integrated(of: scratch.file("cli.mp4")))
        #expect(abs(option - -30) <= 0.5, "ebur128: \(option) LUFS")

        let refused = try await SpliceTool.run(["export", "edit.json", "-o", "bad.mp4", "--loudness", "-80"], in: scratch.url)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("-80.00 LUFS is outside -70…0 LUFS"))
        let tooLoud = try await SpliceTool.run(["export", "edit.json", "-o", "loud.mp4", "--loudness", "-1", "--true-peak", "-1",
                                                "--progress", "none"], in: scratch.url, timeout: 300)
        #expect(tooLoud.status == 1)
        #expect(tooLoud.stderr.contains("above the -1.00 dBTP ceiling"), "\(tooLoud.stderr)")
        // A ceiling or a limiter without a target is a usage error, not a normalisation to a default target.
        for option in [["--true-peak", "-3"], ["--limit-true-peak"]] {
            let alone = try await SpliceTool.run(["export", "edit.json", "-o", "alone.mp4"] + option, in: scratch.url)
            #expect(alone.status == 2, "\(option): \(alone.stderr)")
            #expect(alone.stderr.contains("\(option[0]) needs --loudness LUFS"), "\(alone.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("bad.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("loud.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("alone.mp4").path))
    }

    /// A loudness export killed with SIGKILL while it measures leaves its hidden work folder; the next loudness
    /// export into the same folder removes it (nobody holds its lock), and itself leaves nothing.
    @Test func aKilledLoudnessExportsWorkFolderIsRemovedByTheNextOne() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.file("out"), withIntermediateDirectories: false)
        // 80 s of sound to measure: the work folder exists for a while before the final export starts.
        let clips = Array(repeating: #"{ "source": "clipA.mp4" }, { "source": "clipB.mp4" }"#, count: 10).joined(separator: ", ")
        _ = try scratch.write("long.json", #"{ "version": 1, "clips": [ \#(clips) ], "export": \#(fastExport) }"#)
        _ = try scratch.write("short.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4" } ], "export": \#(fastExport) }"#)
        @Sendable func workFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path)) ?? []).filter { $0.hasPrefix(".splice-loudness-") }
        }
        let started = try SpliceTool.start(["export", "long.json", "-o", "out/long.mp4", "--loudness", "-23", "--progress", "none"],
                                           in: scratch.url)
        let killed = await started.send(SIGKILL) { _ in !workFolders().isEmpty }
        #expect(killed, "the export ended before its work folder appeared")
        _ = try await SpliceTool.finish(started, arguments: ["export"], timeout: 30)
        let left = workFolders()
        #expect(left.count == 1, "the killed export left \(left)")

        let next = try await SpliceTool.run(["export", "short.json", "-o", "out/short.mp4", "--loudness", "-23", "--progress", "none"],
                                            in: scratch.url, timeout: 300)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path) == ["short.mp4"])
        let measured = try #require(try await Self.ebur128Integrated(of: scratch.file("out/short.mp4")))
        #expect(abs(measured - -23) <= 0.5, "ebur128: \(measured) LUFS")
    }
}
