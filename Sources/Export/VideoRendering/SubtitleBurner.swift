import Foundation
import SpliceFFmpeg
import Composition
internal import CMedia

/// Draws a subtitle file into rendered pictures with libass (FFmpeg's `ass` filter, fonts through fontconfig): one
/// graph `ass=filename=…` for the whole export, built on the first picture, fed the compositor's output frames with
/// their output frame index as `pts` in a time base of one frame duration, so libass shows each cue on the frames
/// whose time k × frame duration lies in its range.
///
/// Owns its ``FilterGraph`` and one output ``Frame``. Confined to the render thread.
final class SubtitleBurner {
    private let file: String
    private let frameDuration: MediaTime
    private var graph: FilterGraph?
    private let output: Frame

    /// A burner for the ASS file at `file`, for pictures `frameDuration` apart.
    init(file: String, frameDuration: MediaTime) throws {
        self.file = file
        self.frameDuration = frameDuration
        output = try Frame()
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
        let description = "[in]ass=filename=\(FilterGraphCompiler.escape(file)),format=\(format)[out]"
        let timeBase = AVRational(num: Int32(clamping: frameDuration.value), den: frameDuration.timescale)
        do {
            return try FilterGraph(
                description: description,
                sources: [.video(.init(label: "in", width: Int(frame.pointer.pointee.width), height: Int(frame.pointer.pointee.height),
                                       pixelFormat: frame.pointer.pointee.format, timeBase: timeBase, frameRate: nil))],
                sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        } catch {
            throw ExportError.renderingFailed(stage: "building the subtitle graph \(description)", reason: "\(error)")
        }
    }
}
