extension ExportPlan {
    /// The text of every filter graph the video export will build, compiled from the sources' described formats.
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
        }
        if let audio {
            parts.append("# audio: \(audio.tracks.count) track(s) → \(audio.format.sampleRate) Hz \(audio.format.layoutName), "
                         + "per segment: atrim → [atempo] → [pan] → aresample → aformat; mixed by summation")
        }
        return parts.joined(separator: "\n\n")
    }
}
