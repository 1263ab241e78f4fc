import Composition
import Foundation

/// What smart rendering (``AssetExportSession/smartRendering``) decided for each stretch of the output's video: which
/// spans copy the source's packets unchanged and which are re-encoded, and why.
///
/// Spans are in output time (seconds from the start of the exported range), in order, back to back, covering the
/// whole video; their boundaries lie on the output frame grid. A copied span holds whole groups of pictures of one
/// source, each starting at an IDR picture, so no reordered B-frame run is ever split.
public struct SmartRenderReport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What happens to one span.
    public enum Action: String, Sendable, Hashable, Codable {
        /// The source's packets are copied (no decoding, no encoding).
        case copy
        /// The span is rendered and encoded.
        case reencode
    }

    /// One span of the output video.
    public struct Span: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Output time, exact; on the output frame grid.
        public var timeRange: TimeRange
        /// Copy or re-encode.
        public var action: Action
        /// Why a span is re-encoded; nil for a copied span.
        public var reason: SmartRenderReason?
        /// Copied spans: the number of whole groups of pictures copied (0 for re-encoded spans).
        public var copiedGroupCount: Int
        /// Output frames in the span.
        public var frameCount: Int

        /// A span.
        public init(timeRange: TimeRange, action: Action, reason: SmartRenderReason?, copiedGroupCount: Int, frameCount: Int) {
            self.timeRange = timeRange
            self.action = action
            self.reason = reason
            self.copiedGroupCount = copiedGroupCount
            self.frameCount = frameCount
        }

        /// "copy 0.000–2.000 s (60 frames, 2 groups of pictures)" or "re-encode 2.000–3.000 s (30 frames): overlay …".
        public var description: String {
            let range = "\(MediaTime.formatSeconds(timeRange.start))–\(timeRange.end.secondsText)"
            switch action {
            case .copy:
                return "copy \(range) (\(frameCount) frames, \(copiedGroupCount) groups of pictures)"
            case .reencode:
                return "re-encode \(range) (\(frameCount) frames)" + (reason.map { ": \($0)" } ?? "")
            }
        }
    }

    /// The spans, in output time order, back to back.
    public var spans: [Span]
    /// Set when the export re-encoded everything although some spans could be copied (or when nothing could be
    /// copied at all): the reason. nil when the spans were written as planned.
    public var fallback: SmartRenderReason?
    /// What happened to the audio: copied or re-encoded, and why (``SmartRenderAudioReport``); nil without audio,
    /// before the audio is planned, and when the export was re-encoded as a whole (``fallback`` set).
    public var audio: SmartRenderAudioReport?

    /// A report.
    public init(spans: [Span], fallback: SmartRenderReason?, audio: SmartRenderAudioReport? = nil) {
        self.spans = spans
        self.fallback = fallback
        self.audio = audio
    }

    /// Copied groups of pictures in all spans.
    public var copiedGroupCount: Int { spans.reduce(0) { $0 + $1.copiedGroupCount } }

    /// Output frames in copied spans.
    public var copiedFrameCount: Int { spans.filter { $0.action == .copy }.reduce(0) { $0 + $1.frameCount } }

    /// One line per span, then the audio's spans, then the fallback if any.
    public var description: String {
        var lines = spans.map(\.description)
        if let audio { lines += audio.spans.map(\.description) }
        if let fallback { lines.append("everything was re-encoded: \(fallback)") }
        return lines.joined(separator: "\n")
    }
}

/// Why smart rendering re-encodes a span (or the whole export). Times are output times in seconds, exact.
public enum SmartRenderReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The span holds only part of a group of pictures of its source: a cut falls inside the group (at `cut`).
    case partialGroup(cut: MediaTime)
    /// The group of pictures starting at `at` is open (its key frame is no IDR picture, or pictures shown before it
    /// depend on the previous group): a decoder cannot start there.
    case openGroup(at: MediaTime)
    /// The span's pictures are the leading pictures of the HEVC CRA picture at `at` where a copy starts: shown before
    /// it and decoded after it, they may need the group before it, which is not copied.
    case leadingPictures(at: MediaTime)
    /// An overlay is drawn over the span (`range`: the overlay's time in the output).
    case overlay(TimeRange)
    /// The layer on screen is transformed (moved, scaled, rotated) rather than identity.
    case transform
    /// The layer's opacity is not 1, or ramps.
    case opacity
    /// The layer is cropped.
    case crop
    /// The layer draws effects (colour, lookup table, blur, sharpen, vignette).
    case effects
    /// More than one layer is visible.
    case multipleLayers
    /// No source picture is on screen (a gap: background colour).
    case noSource
    /// The segment plays at a speed other than 1.
    case speed
    /// The segment shows a still image.
    case stillImage
    /// The source's pictures differ from the output's (codec, size, pixel format, colour tags, pixel aspect ratio,
    /// frame rate): the description names the first difference.
    case formatMismatch(String)
    /// Something the smart-rendering writer does not handle (e.g. "smart rendering writes MP4 and MOV files only, not .mkv").
    case notSupported(String)
    /// The written file did not decode as planned (a copied picture differing from the source's own decode, a
    /// re-encoded one from its piece's, a picture missing): the export was re-encoded instead. The description
    /// names the first difference.
    case verificationFailed(String)

    /// A sentence for logs and `splice export --smart`.
    public var description: String {
        func seconds(_ time: MediaTime) -> String { time.secondsText }
        switch self {
        case .partialGroup(let cut): return "partial group of pictures at the cut at \(seconds(cut))"
        case .openGroup(let at): return "open GOP at \(seconds(at))"
        case .leadingPictures(let at): return "leading pictures of the CRA picture at \(seconds(at)) where the copy starts"
        case .overlay(let range): return "overlay from \(seconds(range.start)) to \(seconds(range.end))"
        case .transform: return "the layer is transformed"
        case .opacity: return "the layer's opacity is not 1"
        case .crop: return "the layer is cropped"
        case .effects: return "the layer draws effects"
        case .multipleLayers: return "more than one layer is visible"
        case .noSource: return "no source picture (gap)"
        case .speed: return "the segment plays at a changed speed"
        case .stillImage: return "the segment shows a still image"
        case .formatMismatch(let detail): return "the source does not match the output: \(detail)"
        case .notSupported(let detail): return detail
        case .verificationFailed(let detail): return "the smart-rendered file failed verification: \(detail)"
        }
    }
}
