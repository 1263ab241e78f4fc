/// One problem found by validating a video composition or an audio mix against a composition, naming where it is:
/// the instruction (by index), the overlay (by index), the track, the composition time, and a message a person can
/// act on.
///
/// Validation reports every problem it finds, in a stable order (composition-wide settings first, then
/// instructions in order, then overlays; for an audio mix, input parameters in order), never a generic "invalid".
public struct ValidationIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The render size has a zero or negative width or height, or exceeds what the engine renders.
        case invalidRenderSize
        /// The render size has an odd width or height (4:2:0 output needs even sizes).
        case oddRenderSize
        /// The frame duration is not a positive numeric time, or lies outside what the engine renders (1/1000 s to
        /// 60 s).
        case invalidFrameDuration
        /// The composition has a duration but the video composition has no instruction.
        case noInstructions
        /// An instruction's time range is invalid, not numeric, or empty.
        case invalidInstructionTimeRange
        /// The first instruction starts after time 0, leaving the start of the composition uncovered.
        case instructionsStartLate
        /// An instruction starts after the previous one ends.
        case gapBetweenInstructions
        /// An instruction starts before the previous one ends (instructions must be in time order and not overlap).
        case overlappingInstructions
        /// The last instruction ends before the composition's duration.
        case instructionsEndEarly
        /// A track ID names no track of the composition.
        case unknownTrack
        /// A track ID names a track of the wrong media type (a layer instruction for an audio track, input
        /// parameters for a video track, …).
        case wrongMediaType
        /// Two layer instructions of one instruction, or two input parameters of an audio mix, name the same track.
        case duplicateTrack
        /// A value was set at a time that is not numeric.
        case invalidKeyTime
        /// A ramp's time range is invalid, not numeric, or has zero or negative duration.
        case invalidRampTimeRange
        /// Two ramps of one parameter overlap in time.
        case overlappingRamps
        /// A transform has a non-finite component.
        case nonFiniteTransform
        /// An opacity is outside 0...1 or not finite.
        case opacityOutOfRange
        /// A crop rectangle is not finite or has a zero or negative width or height.
        case invalidCropRectangle
        /// A colour component is outside 0...1 or not finite.
        case invalidColor
        /// An overlay's image file does not exist or is not readable.
        case overlayImageUnreadable
        /// A text overlay's font file does not exist or is not readable.
        case overlayFontUnreadable
        /// An overlay's frame is not finite or has a zero or negative width or height.
        case invalidOverlayFrame
        /// An overlay's time range is invalid, not numeric at its start, or empty.
        case invalidOverlayTimeRange
        /// A text overlay's font size or padding is not a finite positive (padding: non-negative) number of pixels.
        case invalidTextAttributes
        /// A number (position, scale, rotation, volume) is not finite.
        case nonFiniteValue
        /// A volume (linear gain) is negative.
        case negativeVolume
        /// An instruction draws more layers than the engine composites at once.
        case tooManyLayers
        /// A transition (a video instruction's or an audio crossfade) names tracks it cannot join: the same track
        /// twice, a track the instruction does not draw, or an instruction with other layers besides the two.
        case invalidTransition
        /// A layer effect's amount is outside its parameter's range or not finite (``VideoEffectParameter`` in
        /// `VideoComposition` gives each range).
        case effectOutOfRange
        /// A layer's lookup-table effect names a `.cube` file that is missing, unreadable or malformed (the message
        /// names the file and line).
        case invalidLookupTable
    }

    /// Where a keyframed parameter sits, for the issues ``Keyframes/validationIssues(at:checkValue:)`` reports.
    public struct Location: Sendable, Hashable {
        /// The parameter's name in messages (`"opacity"`, `"volume"`).
        public var parameter: String
        /// What owns it, as the start of a message (`"instruction 2, layer of track 3"`).
        public var owner: String
        /// The instruction index to put in issues.
        public var instructionIndex: Int?
        /// The overlay index to put in issues.
        public var overlayIndex: Int?
        /// The track ID to put in issues.
        public var trackID: Int32?

        /// A location.
        public init(parameter: String, owner: String, instructionIndex: Int? = nil, overlayIndex: Int? = nil, trackID: Int32? = nil) {
            self.parameter = parameter
            self.owner = owner
            self.instructionIndex = instructionIndex
            self.overlayIndex = overlayIndex
            self.trackID = trackID
        }
    }

    /// What is wrong.
    public var kind: Kind
    /// The index of the video composition instruction concerned, if any.
    public var instructionIndex: Int?
    /// The index of the overlay layer concerned, if any.
    public var overlayIndex: Int?
    /// The track concerned, if any.
    public var trackID: Int32?
    /// The composition time at which the problem lies, if it has one.
    public var time: MediaTime?
    /// A full sentence naming the problem, its place and values.
    public var message: String

    /// An issue.
    public init(
        kind: Kind, instructionIndex: Int? = nil, overlayIndex: Int? = nil, trackID: Int32? = nil,
        time: MediaTime? = nil, message: String
    ) {
        self.kind = kind
        self.instructionIndex = instructionIndex
        self.overlayIndex = overlayIndex
        self.trackID = trackID
        self.time = time
        self.message = message
    }

    /// `kind: message`, e.g. `gapBetweenInstructions: instruction 2 starts at 4.000 s (4/1) but instruction 1 ends
    /// at 3.000 s (3/1): nothing is drawn in [3.000 s (3/1), 4.000 s (4/1))`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
