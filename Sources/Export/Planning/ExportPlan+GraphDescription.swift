import Composition

extension ExportPlan {
    /// The text of every filter graph the video export will build, compiled from the sources' described formats,
    /// then the composition's colour space and each source's conversion into it (the `zscale`/`tonemap` or `scale`
    /// steps appear in the graphs themselves) and the audio line. Each graph starts with `# from TIME`.
    func describeGraphs() throws -> String {
        var parts: [String] = []
        if let passthrough {
            return passthrough.tracks.flatMap { track in
                track.pieces.map {
                    "# stream copy (no filter graph): track \(track.trackID) segments[\($0.segmentIndex)] ← "
                        + "\($0.source.assetURL.lastPathComponent) track \($0.source.trackID) \($0.sourceRange) at \($0.targetStart)"
                }
            }.joined(separator: "\n")
        }
        if let video {
            parts.append(contentsOf: try VideoGraphPreview(plan: video).descriptions())
            parts.append(video.colorSummary)
        }
        if let audio {
            parts.append("# audio: \(audio.tracks.count) track(s) → \(audio.format.sampleRate) Hz \(audio.format.layoutName), "
                         + "per segment: atrim → [atempo] → [pan] → aresample → aformat; mixed by summation")
        }
        return parts.joined(separator: "\n\n")
    }
}

extension VideoPlan {
    /// `# colour: HDR (HLG) BT.2020 10-bit; clip.mov track 1 (SDR bt709) → BT.2408 mapping (zscale)`, one clause
    /// per distinct source.
    var colorSummary: String {
        var seen: Set<String> = []
        var clauses: [String] = []
        for source in tracks.flatMap({ $0.segments.compactMap(\.source) }) {
            guard let video = source.video else { continue }
            let name = "\(source.assetURL.lastPathComponent) track \(source.trackID)"
            guard seen.insert(name).inserted else { continue }
            let range = video.isStillImage ? DynamicRange.sdr : video.color.dynamicRange
            let conversion: String
            switch (range == .sdr, color.isHDR) {
            case (true, false): conversion = "matrix and range (scale)"
            case (false, false): conversion = "tone mapping to SDR (zscale, tonemap mobius)"
            case (true, true): conversion = "BT.2408 mapping into \(color.dynamicRange.displayName) (zscale)"
            case (false, true):
                conversion = range == color.dynamicRange ? "matrix, range and depth (scale)" : "HLG ↔ PQ (zscale)"
            }
            clauses.append("\(name) (\(range.displayName) \(video.color.primaries)/\(video.color.transfer)) → \(conversion)")
        }
        return "# colour: \(color.summary)" + clauses.map { "\n#   \($0)" }.joined()
    }
}
