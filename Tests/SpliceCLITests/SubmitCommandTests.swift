import Foundation
import SpliceTestSupport
import Testing
import Splice

/// `splice plan` + `splice submit --kubernetes`: the generated manifest (not run here). The Slurm path runs end to
/// end on a one-node Slurm in SlurmSubmitTests.
@Suite("splice submit")
struct SubmitCommandTests {
    @Test func kubernetesManifestIsAnIndexedJobPerSegmentAndAJoin() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let plan = scratch.file("plan.json")
        let planned = try await SpliceTool.run(["plan", Fixture.example("canonical-edit.json").path, "--segments", "3", "-o", plan.path])
        #expect(planned.status == 0, "\(planned.stderr)")
        let manifest = try await SpliceTool.run(["submit", "--kubernetes", plan.path, "-o", scratch.file("out.mp4").path])
        #expect(manifest.status == 0)
        #expect(manifest.stdout.contains("completionMode: Indexed"))
        #expect(manifest.stdout.contains("completions: 3"))
        #expect(manifest.stdout.contains("\"render-segment\", \"\(plan.path)\""))
        #expect(manifest.stdout.contains("\"join\", \"\(plan.path)\", \"-o\""))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mp4").path))
    }
}
