import Composition
import Foundation

/// What smart rendering (``AssetExportSession/smartRendering``) did with an export's audio: copied (the source's
/// AAC packets, no decoding, no encoding) or re-encoded (mixed and encoded as in an ordinary export), and why.
///
/// Spans are in output time (seconds from the start of the exported range), in order, back to back, covering the
/// audio's whole duration. Copied AAC is kept only when one span covers the whole audio track (one source, untouched):
/// FFmpeg's MP4/MOV muxer writes one edit list per track, so it can trim the copied source's priming at the start and
/// the last packet at the end, but not the priming of a re-encoded piece in the middle, and an AAC packet decodes
/// with the previous one (MDCT overlap), so a seam between copied and re-encoded packets is not sample-exact. When
/// any span must be re-encoded, every span is, and an untouched one says so
/// (``SmartRenderAudioReason/reencodedWithTheTrack``).
public struct SmartRenderAudioReport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One span of the output audio.
    public struct Span: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Output time, exact (the composition's segment boundaries, shifted by the export range's start).
        public var timeRange: TimeRange
        /// Copy or re-encode.
        public var action: SmartRenderReport.Action
        /// Why the span is re-encoded; nil for a copied span.
        public var reason: SmartRenderAudioReason?

        /// A span.
        public init(timeRange: TimeRange, action: SmartRenderReport.Action, reason: SmartRenderAudioReason?) {
            self.timeRange = timeRange
            self.action = action
            self.reason = reason
        }

        /// "audio copy 0.000–10.000 s" or "audio re-encode 3.000–5.000 s: volume ramp from 3.000 s to 5.000 s".
        public var description: String {
            let range = "\(MediaTime.formatSeconds(timeRange.start))–\(timeRange.end.secondsText)"
            switch action {
            case .copy: return "audio copy \(range) (AAC packets of the source)"
            case .reencode: return "audio re-encode \(range)" + (reason.map { ": \($0)" } ?? "")
            }
        }
    }

    /// The spans, in output time order, back to back.
    public var spans: [Span]

    /// A report.
    public init(spans: [Span]) {
        self.spans = spans
    }

    /// True when the source's AAC packets were copied (one copied span covering the whole audio).
    public var isCopied: Bool { !spans.isEmpty && spans.allSatisfy { $0.action == .copy } }

    /// One line per span.
    public var description: String { spans.map(\.description).joined(separator: "\n") }
}

/// Why smart rendering re-encodes a span of the audio. Times are output times in seconds, exact.
public enum SmartRenderAudioReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The track's volume (audio mix, or the track's preferred volume) is not 1 or ramps over `range`.
    case volume(TimeRange)
    /// The track takes part in a crossfade over `range`.
    case crossfade(TimeRange)
    /// No audio plays (an empty segment, or no audio track covering the time): silence is encoded.
    case silence
    /// Audio from more than one track is mixed.
    case multipleTracks
    /// The segment plays at a speed other than 1, or has a time effect (reverse, freeze, ramp).
    case speed
    /// The source's audio does not match the output's (codec, AAC profile, sample rate, channels, a start between
    /// samples, audio ending before the segment): the description names the first difference.
    case formatMismatch(String)
    /// Something smart rendering does not copy (e.g. an output codec other than AAC).
    case notSupported(String)
    /// The span itself is untouched, but another span of the track must be re-encoded, so the whole track is
    /// (one output track holds either copied or re-encoded AAC, see ``SmartRenderAudioReport``); `because` is that
    /// other span's reason.
    case reencodedWithTheTrack(because: String)

    /// A sentence for logs and `splice export --smart`.
    public var description: String {
        func seconds(_ time: MediaTime) -> String { time.secondsText }
        switch self {
        case .volume(let range): return "volume is not 1 from \(seconds(range.start)) to \(seconds(range.end))"
        case .crossfade(let range): return "crossfade from \(seconds(range.start)) to \(seconds(range.end))"
        case .silence: return "no audio plays (silence)"
        case .multipleTracks: return "more than one audio track plays"
        case .speed: return "the segment plays at a changed speed or has a time effect"
        case .formatMismatch(let detail): return "the source does not match the output: \(detail)"
        case .notSupported(let detail): return detail
        case .reencodedWithTheTrack(let because):
            return "untouched, but re-encoded with the rest of the track (copied AAC only for a whole untouched "
                + "track; elsewhere: \(because))"
        }
    }
}
