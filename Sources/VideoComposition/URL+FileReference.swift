import Foundation

extension URL {
    /// A URL from JSON text: a string with a scheme (`file:///a/b.png`) is parsed as a URL, anything else is taken
    /// as a file path (a relative path is resolved against the current directory when decoded).
    init(fileReference text: String) {
        if text.contains("://"), let url = URL(string: text), url.scheme != nil {
            self = url
        } else {
            // In the form its own encoding (`absoluteString`) decodes to, so a decoded document round-trips equal.
            let fileURL = URL(fileURLWithPath: text)
            self = URL(string: fileURL.absoluteString) ?? fileURL.absoluteURL
        }
    }
}
