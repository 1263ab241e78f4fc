import Foundation
import Composition
import VideoComposition
import Export

/// A picture or sound generator for test media, as an FFmpeg lavfi description that ``SyntheticMedia`` renders
/// in-process (no `ffmpeg` tool, no fixture file): colour fields, quadrant patterns for orientation checks, FFmpeg's
/// moving test pattern, tones, and flash / beep sync markers.
///
/// Every picture source states its size and frame rate; every sound source its sample rate and channel count.
/// Written with ``SyntheticMedia/PixelFormat/rgb`` (the default) the colours below are exact in the file.
///
/// ```swift
/// let asset = try await SyntheticMedia.makeAsset(
///     video: .colorField(Color(red: 1, green: 0, blue: 0)), audio: .tone(frequency: 1000),
///     duration: MediaTime(seconds: 2), in: scratchDirectory)
/// ```
public struct SyntheticSource: Sendable, Hashable, CustomStringConvertible {
    /// The lavfi description (FFmpeg `-filter_complex` syntax, one unlabelled output).
    public var description: String
    /// `.video` or `.audio`.
    public var mediaType: MediaType

    /// A source from a lavfi description of your own, e.g. `"mandelbrot=s=320x240:r=25"`.
    public init(description: String, mediaType: MediaType) {
        self.description = description
        self.mediaType = mediaType
    }

    // MARK: Pictures

    /// Every pixel `color` (its alpha is ignored; components rounded to 8 bits, `round(c × 255)`).
    /// - Parameters:
    ///   - color: the colour.
    ///   - size: pixels; 320 × 240 by default.
    ///   - frameRate: frames per second; 30 by default.
    public static func colorField(_ color: Color, size: Size = Size(width: 320, height: 240), frameRate: Int = 30) -> SyntheticSource {
        SyntheticSource(description: "color=c=\(hex(color)):s=\(size.width)x\(size.height):r=\(frameRate)", mediaType: .video)
    }

    /// Four colour quadrants of `size / 2` each — for checking orientation, flips and placement, where a colour
    /// field cannot tell. Defaults: top-left red (255, 0, 0), top-right green (0, 255, 0), bottom-left blue
    /// (0, 0, 255), bottom-right white (255, 255, 255).
    /// - Parameters:
    ///   - size: pixels, even width and height; 320 × 240 by default.
    ///   - frameRate: frames per second; 30 by default.
    public static func quadrants(
        topLeft: Color = Color(red: 1, green: 0, blue: 0), topRight: Color = Color(red: 0, green: 1, blue: 0),
        bottomLeft: Color = Color(red: 0, green: 0, blue: 1), bottomRight: Color = .white,
        size: Size = Size(width: 320, height: 240), frameRate: Int = 30
    ) -> SyntheticSource {
        let w = size.width / 2, h = size.height / 2
        let parts = [topLeft, topRight, bottomLeft, bottomRight].enumerated().map { index, color in
            "color=c=\(hex(color)):s=\(w)x\(h):r=\(frameRate),format=gbrp[q\(index)]"
        }
        return SyntheticSource(
            description: parts.joined(separator: ";") + ";[q0][q1][q2][q3]xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0",
            mediaType: .video)
    }

    /// FFmpeg's `testsrc2`: a moving colour pattern with a burnt-in timecode and frame counter, different in every
    /// frame (for digests and visual goldens, not for exact colour checks).
    /// - Parameters:
    ///   - size: pixels; 320 × 240 by default.
    ///   - frameRate: frames per second; 30 by default.
    public static func testPattern(size: Size = Size(width: 320, height: 240), frameRate: Int = 30) -> SyntheticSource {
        SyntheticSource(description: "testsrc2=s=\(size.width)x\(size.height):r=\(frameRate)", mediaType: .video)
    }

    /// Black (0, 0, 0) frames except frame `frame`, which is white (255, 255, 255): a visual sync marker at time
    /// `frame / frameRate` seconds.
    /// - Parameters:
    ///   - frame: the index of the white frame (≥ 0).
    ///   - size: pixels; 320 × 240 by default.
    ///   - frameRate: frames per second; 30 by default.
    public static func flash(atFrame frame: Int, size: Size = Size(width: 320, height: 240), frameRate: Int = 30) -> SyntheticSource {
        let field = "s=\(size.width)x\(size.height):r=\(frameRate)"
        let before = frame > 0 ? "color=c=black:\(field),trim=end_frame=\(frame),format=gbrp[f0];" : ""
        let flash = "color=c=white:\(field),trim=end_frame=1,format=gbrp[f1];"
        let after = "color=c=black:\(field),format=gbrp[f2];"
        let inputs = (frame > 0 ? "[f0]" : "") + "[f1][f2]"
        return SyntheticSource(
            description: before + flash + after + "\(inputs)concat=n=\(frame > 0 ? 3 : 2):v=1:a=0", mediaType: .video)
    }

    // MARK: Sound

    /// A sine tone `amplitude · sin(2π · frequency · t)` on every channel.
    /// - Parameters:
    ///   - frequency: hertz.
    ///   - amplitude: linear peak, 0…1; 0.5 (−6 dBFS) by default.
    ///   - sampleRate: samples per second; 48 000 by default.
    ///   - channelCount: 1 or 2; 2 by default.
    public static func tone(frequency: Double, amplitude: Double = 0.5, sampleRate: Int = 48_000, channelCount: Int = 2) -> SyntheticSource {
        evaluated("\(number(amplitude))*sin(2*PI*\(number(frequency))*t)", sampleRate: sampleRate, channelCount: channelCount)
    }

    /// Silence on every channel.
    /// - Parameters:
    ///   - sampleRate: samples per second; 48 000 by default.
    ///   - channelCount: 1 or 2; 2 by default.
    public static func silence(sampleRate: Int = 48_000, channelCount: Int = 2) -> SyntheticSource {
        evaluated("0", sampleRate: sampleRate, channelCount: channelCount)
    }

    /// Silence except a tone burst on samples `start ..< start + length`: `amplitude · sin(2π · frequency ·
    /// (n − start) / sampleRate)` (phase 0 at `start`) — an audible sync marker, the partner of ``flash(atFrame:size:frameRate:)``.
    /// - Parameters:
    ///   - start: first sample of the beep.
    ///   - length: samples; 1600 (one 30 fps frame at 48 kHz) by default.
    ///   - frequency: hertz; 1000 by default.
    ///   - amplitude: linear peak; 0.5 by default.
    ///   - sampleRate: samples per second; 48 000 by default.
    ///   - channelCount: 1 or 2; 2 by default.
    public static func beep(
        atSample start: Int, length: Int = 1600, frequency: Double = 1000, amplitude: Double = 0.5,
        sampleRate: Int = 48_000, channelCount: Int = 2
    ) -> SyntheticSource {
        let expression = "if(between(n,\(start),\(start + length - 1)),"
            + "\(number(amplitude))*sin(2*PI*\(number(frequency))*(n-\(start))/\(sampleRate)),0)"
        return evaluated(expression, sampleRate: sampleRate, channelCount: channelCount)
    }

    private static func evaluated(_ expression: String, sampleRate: Int, channelCount: Int) -> SyntheticSource {
        let layout = channelCount == 1 ? "mono" : "stereo"
        return SyntheticSource(
            description: "aevalsrc=exprs='\(expression)':s=\(sampleRate):c=\(layout):n=1024", mediaType: .audio)
    }

    private static func hex(_ color: Color) -> String {
        "0x" + String(color.hexString.dropFirst().prefix(6))
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.9g", value)
    }
}

extension SyntheticMedia {
    /// Writes synthetic media with ``write(video:audio:duration:pixelFormat:to:)`` and loads it as an ``Asset``.
    ///
    /// - Parameters:
    ///   - video: the picture source, or nil.
    ///   - audio: the sound source, or nil.
    ///   - duration: positive, exact.
    ///   - pixelFormat: ``SyntheticMedia/PixelFormat/rgb`` (exact colours) by default.
    ///   - directory: an existing directory; the file is named `name` (a fresh UUID name by default) with `.mov`
    ///     (exact timestamps: a 30 fps source has frames of exactly 1/30 s).
    /// - Returns: the loaded asset.
    /// - Throws: the errors of ``write(video:audio:duration:pixelFormat:to:)`` and `Asset.load(from:)`; a source
    ///   of the wrong media type is reported as ``ExportError/unsupportedSettings(_:)``.
    public static func makeAsset(
        video: SyntheticSource?, audio: SyntheticSource? = nil, duration: MediaTime, pixelFormat: PixelFormat = .rgb,
        in directory: URL, name: String? = nil
    ) async throws -> Asset {
        if let video, video.mediaType != .video {
            throw ExportError.unsupportedSettings("'\(video)' is not a picture source")
        }
        if let audio, audio.mediaType != .audio {
            throw ExportError.unsupportedSettings("'\(audio)' is not a sound source")
        }
        let url = directory.appendingPathComponent((name ?? UUID().uuidString) + ".mov")
        try write(video: video?.description, audio: audio?.description, duration: duration, pixelFormat: pixelFormat, to: url)
        return try await Asset.load(from: url)
    }
}
