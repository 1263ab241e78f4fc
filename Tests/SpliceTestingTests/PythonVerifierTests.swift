import Foundation
import SpliceTestSupport
import Testing

/// The Python verifiers other suites read their outputs with are the versions `scripts/python/requirements.txt`
/// pins, so every machine checks with the same code.
@Suite struct PythonVerifierTests {
    @Test(.enabled(if: PythonVerifier.isAvailable))
    func installedVersionsAreThePinnedOnes() async throws {
        let requirements = try TextFile.read(Fixture.packageRoot.appendingPathComponent("scripts/python/requirements.txt"))
        let pinned = requirements.split(separator: "\n")
            .map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map { line -> (String, String) in
                let parts = line.components(separatedBy: "==")
                return (parts[0].lowercased(), parts.count > 1 ? parts[1] : "")
            }
        // The four verifiers the suites name are among them.
        #expect(Set(pinned.map(\.0)).isSuperset(of: ["opentimelineio", "m3u8", "pyloudnorm", "qrcode"]))
        let script = """
            import sys
            from importlib.metadata import version
            for name in sys.argv[1:]:
                print(name, version(name))
            """
        let output = try await PythonVerifier.run(script, pinned.map(\.0))
        let installed = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").map { line -> (String, String) in
            let parts = line.split(separator: " ")
            return (String(parts[0]), String(parts.last ?? ""))
        })
        for (name, version) in pinned {
            #expect(installed[name] == version, "\(name): installed \(installed[name] ?? "nothing"), pinned \(version)")
        }
        // The verifiers import (their C extensions load on this machine).
        let imported = try await PythonVerifier.run("import opentimelineio, m3u8, pyloudnorm, qrcode; print('ok')")
        #expect(imported == "ok\n")
    }
}
