import Composition

/// Why an audio mix cannot be used.
public enum AudioMixError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Validation against a composition found these problems (every one, in order; never empty).
    case invalid([ValidationIssue])

    /// `audio mix is invalid (N problems): …` with one problem per line.
    public var description: String {
        switch self {
        case .invalid(let issues):
            let count = issues.count == 1 ? "1 problem" : "\(issues.count) problems"
            return "audio mix is invalid (\(count)):\n" + issues.map { "- \($0)" }.joined(separator: "\n")
        }
    }
}
