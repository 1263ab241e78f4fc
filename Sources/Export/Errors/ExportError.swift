import Composition
import Foundation

/// Why an export (or a frame render) failed. Every case names the file, track, time or setting at fault and the
/// cause. Cancellation is reported as `CancellationError`, not as a case of this enum.
public enum ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file already exists at the output URL and the session was not told to replace it (AVFoundation's rule).
    case outputFileExists(URL)
    /// The output cannot be created there: missing directory, no permission, read-only file system; or the output is
    /// a directory, or a file the composition reads (replacing it would destroy the source).
    case outputNotWritable(URL, reason: String)
    /// Writing failed part-way (e.g. the disk is full); the partial file was removed.
    case writeFailed(URL, reason: String)
    /// The composition cannot be rendered as described (empty composition, invalid time range, …).
    case invalidComposition(String)
    /// The video composition failed validation; every problem is listed, with the instruction, overlay, track and
    /// time it concerns (``Composition/ValidationIssue``), in the order validation found them.
    case invalidVideoComposition([ValidationIssue])
    /// The audio mix failed validation; every problem is listed, with the track and time it concerns.
    case invalidAudioMix([ValidationIssue])
    /// A source file could not be opened, decoded or read at the needed time.
    case sourceUnreadable(URL, reason: String)
    /// A source file is cut short: the data of its track `trackID` ends at `dataEnd` though the file's index lists
    /// samples up to `indexedEnd` (both file times: the track's timestamps as the file states them, as ffprobe shows
    /// them). An export stops here rather than hold the last picture (or silence) to the end of the source range,
    /// which the `ffmpeg` CLI would do by ending its output early with a "partial file" warning; see
    /// docs/reliability.md.
    case sourceTruncated(URL, trackID: Int32, dataEnd: MediaTime, indexedEnd: MediaTime)
    /// The linked FFmpeg lacks an encoder the settings need (e.g. `libx265`).
    case encoderUnavailable(String)
    /// The linked FFmpeg lacks a filter the composition needs (e.g. `perspective` in an LGPL build).
    case filterUnavailable(String)
    /// The settings cannot produce the requested file (e.g. video settings for an `.m4a`, an unknown preset).
    case unsupportedSettings(String)
    /// Passthrough was requested but the composition needs re-encoding, for the reason given.
    case passthroughNotPossible(String)
    /// No installed font has `character` (written as itself and `U+XXXX`), which text overlay `text` draws: neither
    /// the font of `family` nor any font in fontconfig's fallback order for it. Install a font that covers it, or
    /// give the overlay a `fontFile` that has it.
    case noFontForCharacter(character: String, text: String, family: String)
    /// FFmpeg failed in the named stage for a reason Splice did not anticipate.
    case renderingFailed(stage: String, reason: String)
    /// The custom compositor (``VideoCompositing``) failed the frame at composition time `time`: it threw (`message`
    /// is the error's description) or returned a picture of the wrong size or format (`message` says which).
    case customCompositorFailed(time: MediaTime, message: String)

    /// One sentence naming what failed and why.
    public var description: String {
        switch self {
        case .outputFileExists(let url):
            return "a file already exists at \(url.path); remove it or set the session to replace it"
        case .outputNotWritable(let url, let reason): return "cannot write \(url.path): \(reason)"
        case .writeFailed(let url, let reason): return "writing \(url.path) failed: \(reason)"
        case .invalidComposition(let reason): return "invalid composition: \(reason)"
        case .invalidVideoComposition(let issues):
            return "invalid video composition: " + issues.map(\.description).joined(separator: "; ")
        case .invalidAudioMix(let issues): return "invalid audio mix: " + issues.map(\.description).joined(separator: "; ")
        case .sourceUnreadable(let url, let reason): return "cannot read source \(url.path): \(reason)"
        case .sourceTruncated(let url, let trackID, let dataEnd, let indexedEnd):
            return "source \(url.path) is cut short: the data of its track \(trackID) ends at \(dataEnd.secondsText), though "
                + "its index lists samples up to \(indexedEnd.secondsText)"
        case .encoderUnavailable(let name): return "the linked FFmpeg has no encoder '\(name)'"
        case .filterUnavailable(let name):
            return "the linked FFmpeg has no filter '\(name)' (an LGPL build lacks some GPL filters)"
        case .unsupportedSettings(let reason): return "unsupported export settings: \(reason)"
        case .passthroughNotPossible(let reason): return "passthrough is not possible: \(reason)"
        case .noFontForCharacter(let character, let text, let family):
            return "no installed font has the character \(character) of the text '\(text)' (font family '\(family)' and its "
                + "fontconfig fallbacks): install a font that covers it or set the overlay's font file"
        case .renderingFailed(let stage, let reason): return "rendering failed while \(stage): \(reason)"
        case .customCompositorFailed(let time, let message):
            return "the custom video compositor failed the frame at \(time): \(message)"
        }
    }
}
