import Foundation

/// Installed fonts found through fontconfig (`fc-match`), wherever the system keeps them.
package enum SystemFont {
    /// The file of the font fontconfig picks for `family` in `style` (`"Bold"`; nil: the regular face), or nil when
    /// fontconfig has no font of that family (`fc-match` then names another family) or `fc-match` is not on `PATH`
    /// (then one line says so).
    package static func file(family: String, style: String? = nil) -> String? {
        guard let fcMatch = fcMatchPath else { return nil }
        let pattern = style.map { "\(family):style=\($0)" } ?? family
        let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fc-match-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        // Families (fontconfig lists a font's names in several languages, comma-separated), a newline, the file.
        guard let child = try? ChildProcess(executable: fcMatch, arguments: ["-f", "%{family}\n%{file}", pattern],
                                            standardOutput: output)
        else { return nil }
        guard child.waitBlocking(seconds: 30) else {
            child.stop()
            return nil
        }
        guard child.exitCode == 0, let text = try? TextFile.read(output) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, !lines[1].isEmpty else { return nil }
        let families = lines[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard families.contains(family.lowercased()) else { return nil }
        return lines[1]
    }

    /// `fc-match` on `PATH`; when it is absent, one line says that font lookups find nothing.
    private static let fcMatchPath: String? = {
        let found = Executable.find("fc-match")
        if found == nil {
            print("SKIPPED font lookups: fc-match (fontconfig) is not on PATH, so tests that need an installed font "
                + "cannot find one (run ./scripts/setup, which installs scripts/packages/fonts.list)")
        }
        return found
    }()
}
