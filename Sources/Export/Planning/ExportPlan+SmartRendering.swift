import SpliceFFmpeg
import Composition
internal import CMedia

/// What smart rendering will do with an export's video: the report, and — when the spans can be written as
/// planned (``SmartRenderReport/fallback`` nil) — what ``SmartRenderWriter`` needs: the spans with their groups of
/// pictures, the one copied source and the encoder parameters matched to it.
struct SmartRenderDecision: Sendable {
    /// The report; its fallback says why everything is re-encoded, if it is.
    var report: SmartRenderReport
    /// The planned spans in output order (the report's spans with the copied groups).
    var spans: [SmartRenderPlanner.PlannedSpan]
    /// The sources whose packets are copied, by ``AssetTrack/sourceStreamKey``, with their groups of pictures in
    /// decoding order (``SmartRenderPlanner/PlannedSpan/groups`` index them); all have the same `avcC`.
    var sources: [String: (track: AssetTrack, groups: [SmartRenderSource.Group])] = [:]
    /// What the re-encoded pieces must match.
    var parameters: SmartRenderEncoding.SourceParameters?

    /// True when the planned spans will be written: copied packets and re-encoded pieces in one stream.
    var writesSpans: Bool { report.fallback == nil && !sources.isEmpty && parameters != nil }
}

extension ExportPlan {
    /// What smart rendering would copy and re-encode in this export's video, and why (``SmartRenderReport``).
    /// Runs on the calling (worker) thread; see ``smartRenderDecision(cancellation:)``.
    /// - Returns: nil when the export has no video.
    func smartRenderReport(cancellation: CancellationFlag) throws -> SmartRenderReport? {
        try smartRenderDecision(cancellation: cancellation)?.report
    }

    /// Plans smart rendering: reads each H.264 source stream on screen once by packets (``GroupOfPicturesScan``),
    /// plans the spans (``SmartRenderPlanner``), then checks that the writer can join them: an MP4 or MOV output,
    /// copied spans from source streams with one `avcC` the re-encoded pieces can match (profile x264 encodes, a free
    /// SPS/PPS id, 4-byte NAL lengths), no file length limit. When it cannot, the report's fallback is the reason and
    /// the export re-encodes everything; when no span can be copied the fallback is the first span's reason.
    /// - Returns: nil when the export has no video.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func smartRenderDecision(cancellation: CancellationFlag) throws -> SmartRenderDecision? {
        guard let video, let codec = settings.video?.codec else { return nil }
        var sources: [String: SmartRenderSource] = [:]
        var tracks: [String: AssetTrack] = [:]
        for track in video.tracks {
            for segment in track.segments {
                guard let source = segment.source, source.codecName == "h264", sources[source.sourceStreamKey] == nil
                else { continue }
                if let scanned = try GroupOfPicturesScan.scan(source, cancellation: cancellation) {
                    sources[source.sourceStreamKey] = scanned
                    tracks[source.sourceStreamKey] = source
                }
            }
        }
        let planned = SmartRenderPlanner(video: video, outputCodec: codec, sources: sources).plan()
        let spans = planned.map(\.span)
        func fallback(_ reason: SmartRenderReason) -> SmartRenderDecision {
            SmartRenderDecision(report: SmartRenderReport(spans: spans, fallback: reason), spans: planned)
        }
        let keys = planned.compactMap { $0.span.action == .copy ? $0.sourceKey : nil }
        guard !keys.isEmpty else { return fallback(spans.first?.reason ?? .noSource) }
        guard fileType == .mp4 || fileType == .mov else {
            return fallback(.notSupported("smart rendering writes MP4 and MOV files only, not .\(fileType.rawValue)"))
        }
        if fileLengthLimit != nil { return fallback(.notSupported("smart rendering does not take a file length limit")) }
        var copied: [String: (track: AssetTrack, groups: [SmartRenderSource.Group])] = [:]
        var avcC: [UInt8] = []
        for key in keys where copied[key] == nil {
            guard let track = tracks[key], let groups = sources[key]?.groups else { return fallback(.noSource) }
            let configuration = try Self.decoderConfiguration(of: track, cancellation: cancellation)
            if copied.isEmpty {
                avcC = configuration
            } else if configuration != avcC {
                // One sample entry holds one avcC: the copied packets refer to its SPS/PPS by id.
                return fallback(.notSupported(
                    "the copied sources \(copied.values.first?.track.assetURL.lastPathComponent ?? "") and "
                        + "\(track.assetURL.lastPathComponent) have different parameter sets (avcC); copying both into "
                        + "one H.264 stream is not supported yet"))
            }
            copied[key] = (track, groups)
        }
        guard var parameters = SmartRenderEncoding.SourceParameters(avcC: avcC) else {
            return fallback(.formatMismatch("its decoder configuration is not an avcC record with an SPS"))
        }
        guard avcC[4] & 3 == 3 else {
            return fallback(.formatMismatch("its NAL units have \(Int(avcC[4] & 3) + 1)-byte lengths, the re-encoded pieces 4"))
        }
        if let mismatch = SmartRenderEncoding.mismatch(parameters, video: video) { return fallback(.formatMismatch(mismatch)) }
        // The pieces' quality from the copied sources' bits per pixel (all their groups).
        let groups = copied.values.flatMap(\.groups)
        let pixels = Double(video.outputSize.width * video.outputSize.height) * Double(groups.reduce(0) { $0 + $1.frameCount })
        let bits = 8 * Double(groups.reduce(0) { $0 + $1.byteCount })
        if pixels > 0 { parameters.constantRateFactor = SmartRenderEncoding.constantRateFactor(bitsPerPixel: bits / pixels) }
        return SmartRenderDecision(
            report: SmartRenderReport(spans: spans, fallback: nil), spans: planned, sources: copied, parameters: parameters)
    }

    /// The extradata (`avcC` for H.264 in MP4/MOV) of `track`'s stream.
    private static func decoderConfiguration(of track: AssetTrack, cancellation: CancellationFlag) throws -> [UInt8] {
        let stream = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: cancellation)
        return stream.withCodecParameters { parameters in
            guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
        }
    }
}
