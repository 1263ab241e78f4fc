import Composition

/// Why a video composition cannot be used.
public enum VideoCompositionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Validation against a composition found these problems (every one, in order; never empty).
    case invalid([ValidationIssue])

    /// `video composition is invalid (N problems): …` with one problem per line.
    public var description: String {
        switch self {
        case .invalid(let issues):
            let count = issues.count == 1 ? "1 problem" : "\(issues.count) problems"
            return "video composition is invalid (\(count)):\n" + issues.map { "- \($0)" }.joined(separator: "\n")
        }
    }
}
