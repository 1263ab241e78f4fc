import Splice

/// The passthrough loop several writer tests share: every video and audio track of an asset read as stored packets
/// and appended unchanged to a writer.
enum PassthroughCopy {
    /// Adds a nil-settings output and input per video and audio track of `asset`, starts reading and writing (the
    /// session at 0), copies every sample, marks the inputs finished and finishes the writer.
    /// - Returns: the reader, for its status.
    @discardableResult
    static func copy(_ asset: Asset, into writer: AssetWriter) async throws -> AssetReader {
        let reader = AssetReader(asset: asset)
        var pairs: [(AssetReaderTrackOutput, AssetWriterInput)] = []
        for track in asset.tracks where track.mediaType == .video || track.mediaType == .audio {
            let output = AssetReaderTrackOutput(track: track, outputSettings: nil)
            let input = AssetWriterInput(mediaType: track.mediaType, outputSettings: nil)
            try reader.add(output)
            try writer.add(input)
            pairs.append((output, input))
        }
        reader.startReading()
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (output, input) in pairs {
                group.addTask {
                    for try await sample in output { try await input.append(sample) }
                    input.markAsFinished()
                }
            }
            try await group.waitForAll()
        }
        try await writer.finishWriting()
        return reader
    }
}
