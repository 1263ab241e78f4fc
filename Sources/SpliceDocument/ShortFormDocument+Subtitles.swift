import Composition

extension ShortFormDocument {
    /// A sidecar subtitle file (`.srt`, `.vtt`, `.ass`) shown over the edit: all its cues on the edit's timeline from
    /// time 0, on a subtitle track of their own. A last cue ending after the clips lengthens the composition, which
    /// lasts as its longest track (AVFoundation's rule).
    ///
    /// ```json
    /// "subtitles": [{ "source": "captions.srt", "language": "eng" }]
    /// ```
    public struct Subtitles: Sendable, Hashable, Codable {
        /// The file: a path relative to the document's folder, an absolute path or a `file://` URL. Its first
        /// subtitle track is used.
        public var source: String
        /// The track's ISO 639-2 language (`"eng"`, `"fra"`: three lowercase letters), written as the output
        /// stream's `language` tag; nil for the file's own (a sidecar file states none).
        public var language: String?

        /// Subtitles from `source`, optionally in `language`.
        public init(source: String, language: String? = nil) {
            self.source = source
            self.language = language
        }
    }
}
