import Foundation

/// Whether golden files are (re)written instead of compared — a deliberate act, switched on from the environment.
public enum GoldenRecordMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Compare only; a missing golden is a failure (the default).
    case never
    /// Write goldens that do not exist yet; compare the others.
    case missing
    /// Write every golden, replacing the existing ones (each write is reported, so a run in this mode never passes
    /// silently).
    case all

    /// The name of the environment variable read by ``environment``.
    public static let environmentVariable = "SPLICE_RECORD_GOLDENS"

    /// The mode from `SPLICE_RECORD_GOLDENS`: `1`, `true`, `yes` or `all` → ``all``; `missing` → ``missing``; unset,
    /// empty or anything else → ``never``.
    public static var environment: GoldenRecordMode {
        mode(fromEnvironmentValue: ProcessInfo.processInfo.environment[environmentVariable])
    }

    /// The mode an environment value stands for (see ``environment``).
    public static func mode(fromEnvironmentValue value: String?) -> GoldenRecordMode {
        switch value?.lowercased() {
        case "1", "true", "yes", "all": return .all
        case "missing": return .missing
        default: return .never
        }
    }
}
