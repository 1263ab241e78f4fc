import Composition
import Foundation

/// A frame rate as an exact fraction of frames per second (`30`, `25`, `30000/1001`), for short-form documents.
///
/// Written as a number (`30`, `29.97` — exactly 2997/100, so write `"30000/1001"` for NTSC) or as a string
/// `"frames/seconds"`.
public struct FrameRate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Frames, per ``seconds``.
    public var frames: Int64
    /// Seconds the ``frames`` take (> 0).
    public var seconds: Int64

    /// `frames` frames every `seconds` seconds (e.g. 30000 per 1001 for NTSC).
    public init(frames: Int64, seconds: Int64 = 1) {
        self.frames = frames
        self.seconds = seconds
    }

    /// The duration of one frame, `seconds / frames`; nil when the rate is not positive or the duration does not fit
    /// a ``Composition/MediaTime``.
    public var frameDuration: MediaTime? {
        guard frames > 0, seconds > 0, let timescale = Int32(exactly: frames) else { return nil }
        return MediaTime(value: seconds, timescale: timescale)
    }

    /// Decodes a number or a `"frames/seconds"` string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for anything else, or for a rate that is not positive.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        if let number = try? container.decode(Double.self) {
            text = "\(number)"
        } else if let string = try? container.decode(String.self) {
            text = string
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a frame rate is a number (30) or a fraction (\"30000/1001\")")
        }
        let parts = text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let frames = Int64(parts[0]), let seconds = Int64(parts[1]) {
            self.init(frames: frames, seconds: seconds)
        } else if parts.count == 1, let (numerator, denominator) = TimeSyntax.fraction(decimal: parts[0]) {
            self.init(frames: numerator, seconds: denominator)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a frame rate: write a number (30) or a fraction (\"30000/1001\")")
        }
        guard frames > 0, seconds > 0, frameDuration != nil else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "the frame rate \(description) must be positive")
        }
    }

    /// Encodes a whole rate as a number, any other as `"frames/seconds"`.
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        if seconds == 1 { try container.encode(frames) } else { try container.encode("\(frames)/\(seconds)") }
    }

    /// `30` or `30000/1001`.
    public var description: String { seconds == 1 ? "\(frames)" : "\(frames)/\(seconds)" }
}
