import Foundation
import SpliceFFmpeg
import Composition
import VideoComposition
internal import CMedia

/// Draws a subtitle file into rendered pictures with libass (FFmpeg's `ass` filter, fonts through fontconfig): one
/// graph `ass=filename=…` for the whole export, built on the first picture, fed the compositor's output frames with
/// their output frame index as `pts` in a time base of one frame duration, so libass shows each cue on the frames
/// whose time k × frame duration lies in its range. With a ``VideoComposition/SubtitleStyle`` the graph is
/// `subtitles=filename=…:force_style=…` instead: the same libass rendering with the style given as libass's style
/// overrides, on a script as large as the picture (`PlayResX`, `PlayResY`), so its sizes are pixels.
///
/// Owns its ``FilterGraph`` and one output ``Frame``. Confined to the render thread.
final class SubtitleBurner {
    private let file: String
    private let frameDuration: MediaTime
    private let style: SubtitleStyle?
    private var graph: FilterGraph?
    private let output: Frame

    /// A burner for the ASS file at `file`, for pictures `frameDuration` apart, drawing its cues in `style` (nil:
    /// the file's own styles).
    init(file: String, frameDuration: MediaTime, style: SubtitleStyle? = nil) throws {
        self.file = file
        self.frameDuration = frameDuration
        self.style = style
        output = try Frame()
    }

    /// libass's style overrides (`force_style`) for `style` on a `width` × `height` picture: the script resolution
    /// set to the picture's, so font size, outline and margin are pixels; colours as ASS writes them (`&HAABBGGRR`,
    /// alpha 0 opaque).
    static func overrides(for style: SubtitleStyle, width: Int, height: Int) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
        }
        func color(_ color: Color) -> String {
            let bytes = [1 - color.alpha, color.blue, color.green, color.red].map { Int(($0 * 255).rounded()) }
            return "&H" + bytes.map { String(format: "%02X", $0) }.joined()
        }
        // libass takes an override's alignment in SSA's numbering (2 bottom centre, 10 middle centre, 6 top centre),
        // not the numpad numbering of an ASS `Style:` line, which it converts only there.
        let alignment = switch style.position {
        case .bottom: 2
        case .middle: 10
        case .top: 6
        }
        return [
            "PlayResX=\(width)", "PlayResY=\(height)", "FontName=\(style.fontFamily)", "FontSize=\(number(style.fontSize))",
            "PrimaryColour=\(color(style.color))", "OutlineColour=\(color(style.outlineColor))", "BorderStyle=1",
            "Outline=\(number(style.outlineWidth))", "Shadow=0", "Alignment=\(alignment)", "MarginV=\(number(style.margin))",
        ].joined(separator: ",")
    }

    /// Draws the cues showing at `frame`'s time into it and hands the result to `emit` (`frame`'s `pts` is its output
    /// frame index; the emitted frame keeps it).
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` when libass's graph cannot be built or refuses the
    ///   picture; what `emit` throws.
    func burn(_ frame: Frame, emit: (Frame) throws -> Void) throws {
        let graph = try self.graph ?? makeGraph(for: frame)
        self.graph = graph
        do {
            try graph.push(frame, to: 0, keepReference: true)
            while try graph.pull(from: 0, into: output) == .frame {
                try emit(output)
                output.unref()
            }
        } catch let error as FFmpegError {
            throw ExportError.renderingFailed(stage: "drawing subtitles into frame \(frame.pts)", reason: "\(error)")
        }
    }

    private func makeGraph(for frame: Frame) throws -> FilterGraph {
        let format = av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.pointer.pointee.format)).map { String(cString: $0) } ?? "yuv420p"
        let width = Int(frame.pointer.pointee.width), height = Int(frame.pointer.pointee.height)
        let drawing = style.map {
            "subtitles=filename=\(FilterGraphCompiler.escape(file)):force_style="
                + FilterGraphCompiler.escape(Self.overrides(for: $0, width: width, height: height))
        } ?? "ass=filename=\(FilterGraphCompiler.escape(file))"
        let description = "[in]\(drawing),format=\(format)[out]"
        let timeBase = AVRational(num: Int32(clamping: frameDuration.value), den: frameDuration.timescale)
        do {
            return try FilterGraph(
                description: description,
                sources: [.video(.init(label: "in", width: width, height: height,
                                       pixelFormat: frame.pointer.pointee.format, timeBase: timeBase, frameRate: nil))],
                sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        } catch {
            throw ExportError.renderingFailed(stage: "building the subtitle graph \(description)", reason: "\(error)")
        }
    }
}
