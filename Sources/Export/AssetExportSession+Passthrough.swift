import Foundation
import Composition
import SpliceFFmpeg

extension AssetExportSession {
    /// How a passthrough export (``ExportPreset/passthrough``) treats an audio track cut off its source's packet
    /// grid: ``PassthroughAudioCuts/exact`` (the default) renders and encodes such a track so every cut is exact to
    /// the sample, while the video and the other tracks are copied; ``PassthroughAudioCuts/nearestPacket`` copies
    /// the source's packets untouched, each cut placed at the nearest packet boundary. Ignored with encoder settings.
    public var passthroughAudioCuts: PassthroughAudioCuts {
        get { request.withLock { $0.passthroughAudioCuts } }
        set { request.withLock { $0.passthroughAudioCuts = newValue } }
    }

    /// What a passthrough export did with each audio track (copied, or re-encoded and why), once ``export()`` has
    /// read the sources; nil for other exports and before then.
    public var passthroughReport: PassthroughReport? { state.withLock { $0.passthroughReport } }

    /// ``export()`` with the passthrough preset: checks every cut, finds the audio tracks cut off their packet grid
    /// and, under ``PassthroughAudioCuts/exact``, renders each of them alone (as an ordinary export renders that
    /// track: one session per track, into a hidden directory beside the output, removed afterwards), then copies the
    /// video, the other tracks and the rendered audio into the file. Progress: the rendered tracks up to 0.3, the copy.
    /// - Returns: false (no file length limit applies).
    /// - Throws: the errors of ``export()``; `CancellationError`.
    func exportPassthrough(_ plan: ExportPlan, _ passthrough: PassthroughPlan) async throws -> Bool {
        let cancellation = self.cancellation
        let rule = request.withLock { $0.passthroughAudioCuts }
        let cuts = try await WorkerThread.run(name: "splice.passthrough-check") {
            try passthrough.checkSources(cancellation: cancellation)
            return try passthrough.offGridAudioCuts(cancellation: cancellation)
        }
        var entries: [PassthroughReport.AudioTrack] = []
        var toRender: [(trackID: Int32, settings: AudioSettings)] = []
        for (trackID, cut) in cuts {
            guard let cut else {
                entries.append(.init(trackID: trackID, isReencoded: false,
                                     reason: "every cut is on its source's packet grid"))
                continue
            }
            guard rule == .exact else {
                entries.append(.init(trackID: trackID, isReencoded: false,
                                     reason: "\(cut); placed at the nearest packet boundary "
                                        + "(passthroughAudioCuts: nearestPacket)"))
                continue
            }
            let sources = passthrough.tracks.first { $0.trackID == trackID }?.pieces.map(\.source) ?? []
            switch Self.exactCutSettings(sources: sources, fileType: plan.fileType) {
            case .success(let settings):
                entries.append(.init(trackID: trackID, isReencoded: true, reason: cut))
                toRender.append((trackID, settings))
            case .failure(let obstacle):
                entries.append(.init(trackID: trackID, isReencoded: false,
                                     reason: "\(cut); placed at the nearest packet boundary: \(obstacle.reason)"))
            }
        }
        state.withLock { $0.passthroughReport = PassthroughReport(audioTracks: entries) }

        var copied = plan
        let output = plan.outputURL
        let directory = output.deletingLastPathComponent()
            .appendingPathComponent(".\(output.lastPathComponent).passthrough-\(UUID().uuidString)", isDirectory: true)
        defer { if !toRender.isEmpty { try? FileManager.default.removeItem(at: directory) } }
        if !toRender.isEmpty {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw ExportError.outputNotWritable(
                    directory, reason: "the directory for re-encoded audio cannot be made: \(error.localizedDescription)")
            }
        }
        let range = request.withLock { $0.timeRange }
        for (index, (trackID, settings)) in toRender.enumerated() {
            // The track alone, at unit volume: the copy it replaces carries no volume either.
            var alone = asset
            for track in asset.tracks where track.trackID != trackID { try alone.removeTrack(withTrackID: track.trackID) }
            try alone.updateTrack(withTrackID: trackID) { $0.preferredVolume = 1 }
            let url = directory.appendingPathComponent("track-\(trackID).m4a")
            let share = 0.3 / Double(toRender.count)
            try await renderPart(ExportSettings(video: nil, audio: settings), of: alone, range: range, to: url,
                                 fileType: .m4a, piece: nil, progress: (share * Double(index))...(share * Double(index + 1)))
            guard let rendered = try await Asset.load(from: url).tracks(withMediaType: .audio).first,
                  let planned = copied.passthrough else {
                throw ExportError.writeFailed(url, reason: "the re-encoded audio of track \(trackID) has no audio track")
            }
            copied.passthrough = planned.replacingPieces(ofTrack: trackID, with: rendered)
        }
        let final = copied
        return try await WorkerThread.run(name: "splice.export") { [self] in
            try ExportJob(plan: final).run(cancellation: cancellation) { [self] value in publish(progress: value) }
        }
    }

    /// Why an audio track cut off its packet grid cannot be re-encoded for exact cuts.
    struct ExactCutObstacle: Error {
        var reason: String
    }

    /// The settings that re-encode an audio track made of `sources` for exact cuts: AAC (what MP4, MOV, M4A and
    /// Matroska hold), the first source's sample rate and channel count, the highest bit rate the sources state
    /// (within 32–320 kb/s; 128 kb/s when none does); or the obstacle: a WebM output (no AAC), more than two
    /// channels, a sample rate AAC has no index for.
    static func exactCutSettings(sources: [AssetTrack], fileType: FileType) -> Result<AudioSettings, ExactCutObstacle> {
        guard let format = sources.first?.audio else { return .failure(.init(reason: "the source states no audio format")) }
        if fileType == .webm { return .failure(.init(reason: "a .webm file cannot hold AAC")) }
        guard (1...2).contains(format.channelCount) else {
            return .failure(.init(reason: "\(format.channelCount) channels; Splice encodes mono or stereo"))
        }
        let aacRates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]
        guard aacRates.contains(format.sampleRate) else {
            return .failure(.init(reason: "AAC cannot be encoded at \(format.sampleRate) Hz"))
        }
        let stated = sources.compactMap(\.estimatedDataRate).max()
        let bitRate = stated.map { min(max($0, 32_000), 320_000) } ?? 128_000
        return .success(AudioSettings(
            codec: .aac, bitRate: bitRate, sampleRate: format.sampleRate, channelCount: format.channelCount))
    }
}
