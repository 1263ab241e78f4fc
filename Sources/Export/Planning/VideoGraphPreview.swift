import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Compiles the graphs of a ``VideoPlan`` without decoding anything: picture formats come from the asset
/// descriptions (natural size, pixel format, colour properties). Used by `filterGraphDescription()`.
struct VideoGraphPreview {
    let plan: VideoPlan

    /// One description per distinct graph, in timeline order, each headed by the time it starts.
    func descriptions() throws -> [String] {
        var times: [MediaTime] = []
        for instruction in plan.instructions {
            times.append(instruction.timeRange.start)
            // An opacity ramp is compiled differently from the constant opacity around it.
            for layer in instruction.layers { times += layer.opacityRamps.flatMap { [$0.start, $0.end] } }
        }
        for track in plan.tracks { times.append(contentsOf: track.segments.map(\.mapping.target.start)) }
        for overlay in plan.imageOverlays { times.append(overlay.timeRange.start) }
        for overlay in plan.textOverlays { times.append(overlay.timeRange.start) }
        let sorted = Array(Set(times.filter { $0 >= .zero && $0 < plan.duration })).sorted()

        var seen: Set<String> = []
        var result: [String] = []
        for time in sorted {
            let (configuration, _, _) = try plan.configuration(
                at: time, instructionIndex: plan.instructionIndex(at: time),
                picture: { trackID in
                    describedFormat(trackID: trackID, at: time).map { ($0, Size(width: $0.width, height: $0.height)) }
                },
                image: { _ in PictureFormat(width: 1, height: 1, pixelFormat: AV_PIX_FMT_RGBA.rawValue) })
            let compiled: CompiledGraph
            do {
                compiled = try FilterGraphCompiler.compile(configuration)
            } catch FilterGraphCompilerError.geometryOutOfRange(let value) {
                throw ExportError.unsupportedSettings("a layer or overlay position or size of \(value) pixels cannot be rendered")
            } catch FilterGraphCompilerError.effectNotRenderable(let reason) {
                throw ExportError.unsupportedSettings("a layer effect cannot be drawn: \(reason)")
            }
            guard seen.insert(compiled.description).inserted else { continue }
            result.append("# from \(time)\n" + compiled.description)
        }
        return result
    }

    private func describedFormat(trackID: Int32, at time: MediaTime) -> PictureFormat? {
        guard let track = plan.tracks.first(where: { $0.trackID == trackID }),
              let index = track.segmentIndex(containing: time, from: 0),
              let source = track.segments[index].source, let video = source.video else { return nil }
        var format = PictureFormat(
            width: video.naturalSize.width, height: video.naturalSize.height,
            pixelFormat: av_get_pix_fmt(video.pixelFormat).rawValue)
        // Nothing assumed: what the description leaves unknown stays unspecified, as in an untagged frame.
        format.colorRange = AVCOL_RANGE_UNSPECIFIED.rawValue
        format.colorSpace = AVCOL_SPC_UNSPECIFIED.rawValue
        format.colorPrimaries = AVCOL_PRI_UNSPECIFIED.rawValue
        format.colorTransfer = AVCOL_TRC_UNSPECIFIED.rawValue
        return format.applying(video.color)
    }
}

extension PictureFormat {
    /// A described picture: limited-range BT.709 unless the caller says otherwise.
    init(width: Int, height: Int, pixelFormat: Int32) {
        self.init(width: width, height: height)
        self.pixelFormat = pixelFormat
    }
}
