import Foundation

/// Why a `.cube` lookup table cannot be used: the file, the 1-based line (nil when the problem is the whole file)
/// and the cause.
public struct CubeLookupTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `.cube` file.
    public var url: URL
    /// The 1-based line of the problem, or nil.
    public var line: Int?
    /// What is wrong, as a phrase following the file name ("does not exist", "expected 3 numbers, found '1 0'").
    public var reason: String

    /// An error.
    public init(url: URL, line: Int?, reason: String) {
        self.url = url
        self.line = line
        self.reason = reason
    }

    /// `/path/look.cube line 12: expected 3 numbers, found '1 0'`.
    public var description: String {
        "\(url.path)\(line.map { " line \($0)" } ?? ""): \(reason)"
    }
}
