import Composition
import VideoComposition

extension ShortFormDocument {
    /// A built-in effect on a clip's picture (``VideoComposition/VideoEffect``): a constant amount, a ramp over
    /// the whole clip, or a `.cube` lookup table.
    ///
    /// ```json
    /// "effects": [{"type": "saturation", "value": 0.6},
    ///             {"type": "blur", "value": 0, "to": 6, "easing": "easeIn"},
    ///             {"type": "lookupTable", "file": "looks/teal-orange.cube"}]
    /// ```
    public struct Effect: Sendable, Hashable, Codable {
        /// `brightness`, `contrast`, `saturation`, `exposure`, `temperature`, `blur`, `sharpen`, `vignette`
        /// (``VideoComposition/VideoEffectParameter``, with its unit and range) or `lookupTable`.
        public var type: String
        /// The amount (the parameter's unit); the ramp's start value when ``to`` is given. Not for `lookupTable`.
        public var value: Double?
        /// The amount at the clip's end: the effect ramps from ``value`` over the clip's whole time on screen.
        public var to: Double?
        /// The ramp's curve; nil for linear.
        public var easing: Easing?
        /// For `lookupTable`: the `.cube` file, a path relative to the document's folder, an absolute path or a
        /// `file://` URL.
        public var file: String?

        /// An effect.
        public init(type: String, value: Double? = nil, to: Double? = nil, easing: Easing? = nil, file: String? = nil) {
            self.type = type
            self.value = value
            self.to = to
            self.easing = easing
            self.file = file
        }
    }
}
