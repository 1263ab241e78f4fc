import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Copies the tracks of a ``PassthroughPlan`` into one file, each track's pieces back to back, the tracks
/// interleaved by output decoding time; the export's subtitle tracks are encoded beside them (``SubtitleWriter``: the
/// cues placed as an encoding export places them) and its chapters added.
final class PassthroughWriter {
    /// One output stream: the pieces of one composition track, copied in order.
    private final class TrackCopier {
        let track: PassthroughPlan.Track
        let outputIndex: Int
        /// The output stream's time base once the header is written (muxers may change it).
        var outputTimeBase = AVRational(num: 1, den: 1)
        private let cancellation: CancellationFlag
        /// Audio: write each piece's pre-roll packet (``PassthroughPieceReader/isPreroll``). MP4 and MOV trim it with
        /// an edit list; Matroska would shift every stream instead, so there it is left out (as before: exact to
        /// the packet, the first decoded packet without its predecessor).
        private let keepsPreroll: Bool
        private var pieceIndex = 0
        private(set) var reader: PassthroughPieceReader?
        /// Output decoding timestamp of the last packet handed out, for monotonic timestamps across joins.
        private var lastDecodingTimestamp: Int64?
        /// Audio: the time base the cursor counts in — the sources' common time base, the one asked of the muxer. The
        /// muxer may choose a coarser one (Matroska: milliseconds), where a packet (AAC: 1024 samples, 21.33 ms at
        /// 48 kHz) is not a whole number of ticks; a cursor counted in it would drift by every packet's rounding.
        private let cursorTimeBase: AVRational
        /// Audio: output time where the next packet starts, in ``cursorTimeBase``; converted to the output time base
        /// (rounded to the nearest tick) only when a packet is stamped, so roundings never add up.
        private var audioCursor: Int64 = 0
        /// Audio: the length of the last packet stamped, in ``cursorTimeBase`` (the next piece's pre-roll has the same:
        /// the pieces' codec parameters are equal).
        private var lastAudioPacketLength: Int64 = 0
        /// Output timestamps of the waiting packet.
        private(set) var waitingTime = MediaTime.zero

        /// Opens each distinct source once to check that its codec parameters equal the first piece's, and adds
        /// the output stream with the first piece's parameters.
        init(track: PassthroughPlan.Track, output: OutputFile, fileType: FileType, cancellation: CancellationFlag) throws {
            self.track = track
            keepsPreroll = [.mp4, .mov, .m4a].contains(fileType)
            self.cancellation = cancellation
            guard let first = track.pieces.first else { throw ExportError.invalidComposition("track \(track.trackID) has nothing to copy") }
            let reference = try PassthroughPieceReader(piece: first, trackID: track.trackID, cancellation: cancellation)
            try PassthroughPlan.checkContainer(fileType, holds: reference, track: track.trackID)
            var checked: Set<String> = [first.source.sourceStreamKey]
            var timeBases = [reference.timeBase]
            for piece in track.pieces.dropFirst() {
                let key = piece.source.sourceStreamKey
                guard checked.insert(key).inserted else { continue }
                let other = try PassthroughPieceReader(piece: piece, trackID: track.trackID, cancellation: cancellation)
                try PassthroughPlan.checkJoinable(other, after: reference, track: track.trackID)
                timeBases.append(other.timeBase)
            }
            cursorTimeBase = AVRational.commonTimeBase(timeBases)
            outputIndex = try reference.source.withCodecParameters { [cursorTimeBase] in
                try output.addStream(copying: $0, timeBase: cursorTimeBase)
            }
            output.setTrackMetadata(track.metadata, onStream: outputIndex)
        }

        /// Fills the current reader's packet with the next packet to write, restamped into the output time base;
        /// false when the track is done.
        func advance() throws -> Bool {
            while pieceIndex < track.pieces.count {
                let piece = track.pieces[pieceIndex]
                if reader == nil {
                    if cancellation.isCancelled { throw CancellationError() }
                    reader = try PassthroughPieceReader(
                        piece: piece, trackID: track.trackID, startShift: startShift(of: piece), cancellation: cancellation)
                    if pieceIndex == 0 { audioCursor = cursor(piece.targetStart) }
                }
                if let reader, try reader.next() {
                    // Pre-roll is written only where the container can trim it (an edit list; see restamp).
                    if reader.isPreroll && !keepsPreroll { continue }
                    if try restamp(reader, piece: piece) { return true }
                }
                reader = nil
                pieceIndex += 1
            }
            return false
        }

        /// `time` in the output time base.
        private func output(_ time: MediaTime) -> Int64 { time.timestamp(in: outputTimeBase) ?? 0 }

        /// `time` in ``cursorTimeBase``.
        private func cursor(_ time: MediaTime) -> Int64 { time.timestamp(in: cursorTimeBase) ?? 0 }

        /// An audio cursor position (``cursorTimeBase``) in the output time base, rounded to the nearest tick.
        private func output(cursor position: Int64) -> Int64 { av_rescale_q(position, cursorTimeBase, outputTimeBase) }

        /// Audio: how far from its composition start (seconds) the current piece's first kept packet will be written —
        /// the output packet boundary after the previous piece's packets (and the piece's pre-roll in MP4/MOV) — so
        /// the reader keeps the source packet nearest that place and the piece's samples land within half a packet
        /// of their time. One rounding per join: the previous piece ends at the output boundary nearest its end, and
        /// the next starts with the source packet that fits that boundary (rounding each side to its own grid would
        /// add up to almost a packet). Zero for the first piece, which is placed exactly, and for video.
        private func startShift(of piece: PassthroughPlan.Piece) -> MediaTime {
            guard track.mediaType == .audio, pieceIndex > 0 else { return .zero }
            let firstKept = audioCursor + (keepsPreroll ? lastAudioPacketLength : 0)
            return MediaTime(pts: firstKept - cursor(piece.targetStart), timeBase: cursorTimeBase) ?? .zero
        }

        /// Sets the waiting packet's output timestamps; false when it falls past the piece (audio).
        private func restamp(_ reader: PassthroughPieceReader, piece: PassthroughPlan.Piece) throws -> Bool {
            let packet = reader.packet
            let duration = av_rescale_q(reader.packetDuration, reader.timeBase, outputTimeBase)
            let end = output(piece.targetEnd)
            if track.mediaType == .audio {
                // Counted in the sources' time base, where every packet length is exact (see cursorTimeBase).
                let length = av_rescale_q(reader.packetDuration, reader.timeBase, cursorTimeBase)
                if reader.isPreroll {
                    // The first piece's pre-roll (the source's priming) goes before the output's time 0 — the first
                    // kept packet then lands exactly where its samples belong, and the muxer writes an edit list
                    // that trims the pre-roll (media_time = its length, as the source had). Later pieces' pre-roll
                    // takes the place of the previous piece's last packet, and the reader chose the first kept packet
                    // to fit the boundary after it (startShift), so the piece is within half a packet of its time.
                    if pieceIndex == 0 {
                        audioCursor = cursor(piece.targetStart)
                            + av_rescale_q(reader.firstKeptOffset, reader.timeBase, cursorTimeBase) - length
                    }
                } else {
                    // Packets lie end to end; the piece takes the next one while its midpoint is before the piece's
                    // end — before the next piece's pre-roll (one packet) when another piece follows.
                    let reserve = keepsPreroll && pieceIndex + 1 < track.pieces.count ? length : 0
                    if 2 * audioCursor + length > 2 * (cursor(piece.targetEnd) - reserve) { return false }
                }
                let start = output(cursor: audioCursor)
                audioCursor += length
                lastAudioPacketLength = length
                packet.setTiming(presentation: start, decoding: start, duration: output(cursor: audioCursor) - start)
            } else {
                // Output time = target start + (source time − source start), exactly, then into the output base.
                let shift = piece.targetStart - piece.sourceRange.start - piece.source.startTimeOffset
                func restamped(_ timestamp: Int64) -> Int64? {
                    MediaTime(pts: timestamp, timeBase: reader.timeBase).flatMap { ($0 + shift).timestamp(in: outputTimeBase) }
                }
                guard let pts = reader.packet.presentationTimestamp.flatMap(restamped) else { return false }
                var dts = reader.packet.decodingTimestamp.flatMap(restamped) ?? pts
                if let last = lastDecodingTimestamp, dts <= last { dts = last + 1 }
                if dts > pts {
                    throw ExportError.passthroughNotPossible(
                        "\(piece.name(track: track.trackID)) cannot follow the previous segment without re-encoding: its "
                            + "pictures are reordered more deeply than the time between the join and its first picture allows")
                }
                // The last picture lasts until the piece's end, not beyond it.
                packet.setTiming(presentation: pts, decoding: dts,
                                 duration: duration > 0 && pts + duration > end ? max(end - pts, 1) : duration)
            }
            packet.prepareForMuxing(stream: outputIndex)
            let written = packet.decodingTimestamp ?? 0
            lastDecodingTimestamp = written
            waitingTime = MediaTime(pts: written, timeBase: outputTimeBase) ?? .zero
            return true
        }
    }

    private let plan: PassthroughPlan
    private let subtitles: [SubtitleTrackPlan]
    private let chapters: ChapterPlan
    private let timedMetadata: TimedMetadataPlan
    private let cancellation: CancellationFlag
    private let progress: (Double) -> Void

    /// - Parameters:
    ///   - subtitles: the subtitle tracks written beside the copied ones.
    ///   - chapters: the chapters written.
    ///   - timedMetadata: the timed metadata tracks written (``TimedMetadataWriter``).
    init(plan: PassthroughPlan, subtitles: [SubtitleTrackPlan] = [], chapters: ChapterPlan = ChapterPlan(),
         timedMetadata: TimedMetadataPlan = TimedMetadataPlan(), cancellation: CancellationFlag,
         progress: @escaping (Double) -> Void) {
        self.plan = plan
        self.subtitles = subtitles
        self.chapters = chapters
        self.timedMetadata = timedMetadata
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Writes the copy into `path`.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` (codec parameters, key frames, container);
    ///   ``ExportError/outputNotWritable(_:reason:)``; ``ExportError/writeFailed(_:reason:)``;
    ///   ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func run(path: String) throws {
        let output = try OutputFile.export(path: path, fileType: plan.fileType, for: plan.outputURL, cancellation: cancellation)
        let copiers = try plan.tracks.map {
            try TrackCopier(track: $0, output: output, fileType: plan.fileType, cancellation: cancellation)
        }
        let cues = subtitles.isEmpty ? nil
            : try SubtitleWriter(plans: subtitles, muxer: EncodingMuxer(output: output), cancellation: cancellation)
        let metadata = try CarriedMetadata.items(plan.metadata, carriedFrom: plan.sourceMetadataURL, cancellation: cancellation)
        let metadataKeySpace = output.setContainerMetadata(metadata)
        // Edit lists in the audio's sample rate, so the kept priming and the end trim are exact to the sample.
        let sampleRate = plan.tracks.first { $0.mediaType == .audio }?.pieces.first?.source.audio?.sampleRate
        let options = plan.fileType.muxerOptions(
            optimizeForNetworkUse: plan.optimizeForNetworkUse, movieFragmentInterval: plan.movieFragmentInterval,
            hasVideo: plan.tracks.contains { $0.mediaType == .video }, movieTimescale: sampleRate.map { Int32($0) },
            metadataKeySpace: metadataKeySpace)
        do {
            try output.addChapters(chapters, cancellation: cancellation)
            let groups = try TimedMetadataWriter(plan: timedMetadata, output: output, cancellation: cancellation)
            try output.writeHeader(options: options)
            try groups.write()
        } catch {
            throw ExportError.writing(error, to: plan.outputURL, cancelled: cancellation.isCancelled)
        }
        for copier in copiers { copier.outputTimeBase = output.timeBase(ofStream: copier.outputIndex) }

        var waiting = try copiers.filter { try $0.advance() }
        let total = plan.pieces.map(\.targetEnd).max() ?? .zero
        while let next = waiting.min(by: { $0.waitingTime < $1.waitingTime }), let reader = next.reader {
            if cancellation.isCancelled { throw CancellationError() }
            if total > .zero { progress(ExportProgress.rendering(min(max(next.waitingTime.seconds / total.seconds, 0), 1))) }
            try cues?.write(through: next.waitingTime, into: plan.outputURL, cancellation: cancellation)
            do {
                try output.write(reader.packet)
            } catch {
                throw ExportError.writing(error, to: plan.outputURL, cancelled: cancellation.isCancelled)
            }
            if try !next.advance() { waiting.removeAll { $0 === next } }
        }
        try cues?.write(through: .positiveInfinity, into: plan.outputURL, cancellation: cancellation)
        progress(ExportProgress.flushed)
        do {
            try output.finish()
        } catch {
            throw ExportError.writing(error, to: plan.outputURL, cancelled: cancellation.isCancelled)
        }
        progress(ExportProgress.finished)
    }
}
