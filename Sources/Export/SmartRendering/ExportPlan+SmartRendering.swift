import SpliceFFmpeg
import Composition
internal import CMedia

/// What smart rendering will do with an export's video: the report, and — when the spans can be written as
/// planned (``SmartRenderReport/fallback`` nil) — what ``SmartRenderWriter`` needs: the spans with their groups of
/// pictures, the copied sources, the one whose decoder configuration is the sample entry, the encoder parameters
/// matched to it, and whether parameter sets travel in-band.
struct SmartRenderDecision: Sendable {
    /// The report; its fallback says why everything is re-encoded, if it is.
    var report: SmartRenderReport
    /// The planned spans in output order (the report's spans with the copied groups).
    var spans: [SmartRenderPlanner.PlannedSpan]
    /// The sources whose packets are copied, by ``AssetTrack/sourceStreamKey``, with their groups of pictures in
    /// decoding order (``SmartRenderPlanner/PlannedSpan/groups`` index them).
    var sources: [String: (track: AssetTrack, groups: [SmartRenderSource.Group])] = [:]
    /// The copied source whose decoder configuration (`avcC`, `hvcC`) is the output's sample entry: the first copied
    /// span's.
    var sampleEntrySource: AssetTrack?
    /// What the re-encoded pieces must match (the sample entry source's profile and level).
    var parameters: JoinableStreamParameters?
    /// True when the copied pieces carry their source's parameter sets in-band (``SmartRenderParameterSets``):
    /// HEVC (x265's pieces reuse id 0), or copied sources whose decoder configurations differ.
    var parameterSetsInBand = false
    /// The sample entry's four-character code when it is not the muxer's default: `hev1` for HEVC and `avc3` for
    /// H.264 with parameter sets that change in-band (ISO/IEC 14496-15: parameter sets may also be in the samples).
    var codecTag: String?

    /// True when the planned spans will be written: copied packets and re-encoded pieces in one stream.
    var writesSpans: Bool { report.fallback == nil && sampleEntrySource != nil && parameters != nil }
}

extension ExportPlan {
    /// What smart rendering would copy and re-encode in this export's video, and why (``SmartRenderReport``).
    /// Runs on the calling (worker) thread; see ``smartRenderDecision(cancellation:)``.
    /// - Returns: nil when the export has no video.
    func smartRenderReport(cancellation: CancellationFlag) throws -> SmartRenderReport? {
        try smartRenderDecision(cancellation: cancellation)?.report
    }

    /// Plans smart rendering: reads each H.264 and HEVC source stream on screen once by packets
    /// (``GroupOfPicturesScan``), plans the spans (``SmartRenderPlanner``), then checks that the writer can join them:
    /// an MP4 or MOV output, copied sources whose decoder configurations (`avcC`, `hvcC`) hold their parameter sets
    /// with 4-byte NAL lengths, re-encoded pieces that can match the first copied source (x264: its profile and a free
    /// SPS/PPS id; x265: Main or Main 10), no file length limit. Copied sources whose configurations differ each send
    /// their own parameter sets in-band (``SmartRenderParameterSets``), as HEVC always does. When the plan cannot be
    /// written, the report's fallback is the reason and the export re-encodes everything; when no span can be copied
    /// the fallback is the first span's reason.
    /// - Returns: nil when the export has no video.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func smartRenderDecision(cancellation: CancellationFlag) throws -> SmartRenderDecision? {
        guard let video, let codec = settings.video?.codec else { return nil }
        var sources: [String: SmartRenderSource] = [:]
        var tracks: [String: AssetTrack] = [:]
        for track in video.tracks {
            for segment in track.segments {
                guard let source = segment.source, source.codecName == "h264" || source.codecName == "hevc",
                      sources[source.sourceStreamKey] == nil else { continue }
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
        var configurations: [[UInt8]] = []
        var usedIDs: Set<Int> = []
        for key in keys where copied[key] == nil {
            guard let track = tracks[key], let groups = sources[key]?.groups else { return fallback(.noSource) }
            let configuration = try Self.decoderConfiguration(of: track, cancellation: cancellation)
            let name = track.assetURL.lastPathComponent
            guard SmartRenderParameterSets(decoderConfiguration: configuration, codec: codec) != nil else {
                let record = codec == .hevc ? "hvcC" : "avcC"
                return fallback(.formatMismatch("the decoder configuration of \(name) is not an \(record) record with parameter sets"))
            }
            let lengthSize = GroupOfPicturesScan.nalLengthSize(configuration, codec: codec) ?? 0
            guard lengthSize == 4 else {
                return fallback(.formatMismatch("the NAL units of \(name) have \(lengthSize)-byte lengths, the re-encoded pieces 4"))
            }
            if codec == .h264, let ids = JoinableStreamParameters(avcC: configuration)?.parameterSetIDs {
                usedIDs.formUnion(ids)
            }
            if !configurations.contains(configuration) { configurations.append(configuration) }
            copied[key] = (track, groups)
        }
        guard let first = configurations.first, let sampleEntry = tracks[keys[0]],
              var parameters = codec == .hevc
                ? JoinableStreamParameters(hvcC: first) : JoinableStreamParameters(avcC: first)
        else {
            return fallback(.formatMismatch("its decoder configuration is not an avcC or hvcC record with an SPS"))
        }
        if codec == .h264 { parameters.parameterSetIDs = usedIDs }  // the pieces' id is free in every copied source
        if let mismatch = SmartRenderEncoding.mismatch(parameters, video: video) { return fallback(.formatMismatch(mismatch)) }
        let inBand = codec == .hevc || configurations.count > 1
        // H.264 pieces' quality from the copied sources' bits per pixel: the most demanding source's (the highest),
        // so a piece never gets less than the source it is cut from, whichever that is. The rule is calibrated for
        // x264 only, so HEVC pieces keep the export's rate control.
        if codec == .h264 {
            let area = Double(video.outputSize.width * video.outputSize.height)
            let bitsPerPixel = copied.values.compactMap { source -> Double? in
                let pixels = area * Double(source.groups.reduce(0) { $0 + $1.frameCount })
                return pixels > 0 ? 8 * Double(source.groups.reduce(0) { $0 + $1.byteCount }) / pixels : nil
            }.max()
            if let bitsPerPixel {
                parameters.constantRateFactor = SmartRenderEncoding.constantRateFactor(bitsPerPixel: bitsPerPixel)
                parameters.x264Preset = SmartRenderEncoding.x264Preset(exportPreset: settings.video?.encoderPreset ?? "medium")
            }
        }
        return SmartRenderDecision(
            report: SmartRenderReport(spans: spans, fallback: nil), spans: planned, sources: copied,
            sampleEntrySource: sampleEntry, parameters: parameters, parameterSetsInBand: inBand,
            codecTag: codec == .hevc ? "hev1" : (inBand ? "avc3" : nil))
    }

    /// The extradata (`avcC` for H.264 in MP4/MOV) of `track`'s stream.
    static func decoderConfiguration(of track: AssetTrack, cancellation: CancellationFlag) throws -> [UInt8] {
        let stream = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: cancellation)
        return stream.withCodecParameters { parameters in
            guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
        }
    }
}
