import Composition

extension ShortFormDocument {
    /// A music bed: an audio file (or the sound of a video file) played from the start of the edit, for at most the
    /// edit's length.
    public struct Music: Sendable, Hashable, Codable {
        /// The file: a path relative to the document's folder, an absolute path or a `file://` URL.
        public var source: String
        /// Where to start in the file (source time); nil for 0.
        public var start: MediaTime?
        /// How long to play (output time); nil for as long as the clips last (or the file, if shorter).
        public var duration: MediaTime?
        /// Linear gain (1.0 = unity); nil for 1.0.
        public var volume: Double?
        /// Fade in from silence over this long; nil for none.
        public var fadeIn: MediaTime?
        /// Fade out to silence over this long, ending where the music ends; nil for none.
        public var fadeOut: MediaTime?
        /// Start the file again when it ends, until the edit ends; nil for false.
        public var loop: Bool?

        /// Music from `source`; every other property optional.
        public init(
            source: String, start: MediaTime? = nil, duration: MediaTime? = nil, volume: Double? = nil,
            fadeIn: MediaTime? = nil, fadeOut: MediaTime? = nil, loop: Bool? = nil
        ) {
            self.source = source
            self.start = start
            self.duration = duration
            self.volume = volume
            self.fadeIn = fadeIn
            self.fadeOut = fadeOut
            self.loop = loop
        }
    }
}
