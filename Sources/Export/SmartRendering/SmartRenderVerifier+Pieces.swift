import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

extension SmartRenderVerifier {
    /// Picture digests by output frame index, each frame at most once.
    struct PictureLog {
        private(set) var pictures: [Int: Int] = [:]

        mutating func record(_ digest: Int, at index: Int, label: String) throws {
            guard pictures.updateValue(digest, forKey: index) == nil else {
                throw Failure(description: "frame \(index) decoded twice from \(label)")
            }
        }
    }

    /// One decoder run over consecutive packets of one stream, from a picture a decoder can start at (an IDR key
    /// frame of a closed group) to its end, where the decoder is drained: every picture it gives is logged under
    /// its output frame index (``index``). Strict (`AV_EF_EXPLODE`): a picture with decoding errors is a failure.
    final class PictureRun {
        private let decoder: Decoder
        private let frame: Frame
        private let label: String
        private let index: (MediaTime) -> Int

        /// - Parameters:
        ///   - stream: the stream the packets come from (its codec parameters open the decoder).
        ///   - index: the output frame index of a picture's presentation time in `stream`.
        init(_ stream: SourceStream, label: String, index: @escaping (MediaTime) -> Int) throws {
            do {
                decoder = try stream.makeDecoder(threads: 0, strict: true)
            } catch {
                throw Failure(description: "\(label) cannot be decoded: \(error)")
            }
            frame = try Frame()
            self.label = label
            self.index = index
        }

        /// Sends `packet` (nil: drains) and logs the pictures the decoder gives back.
        func send(_ packet: Packet?, into log: inout PictureLog) throws {
            while true {
                let accepted: Bool
                do {
                    accepted = try decoder.send(packet)
                } catch {
                    throw Failure(description: "\(label) does not decode: \(error)")
                }
                try receive(into: &log)
                if accepted { return }
            }
        }

        /// Drains the decoder: the pictures it held come out.
        func finish(into log: inout PictureLog) throws {
            try send(nil, into: &log)
        }

        private func receive(into log: inout PictureLog) throws {
            while true {
                let output: Decoder.Output
                do {
                    output = try decoder.receive(into: frame)
                } catch {
                    throw Failure(description: "\(label) does not decode: \(error)")
                }
                guard output == .frame else { return }
                let timestamp = frame.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? frame.bestEffortTimestamp : frame.pts
                guard let time = MediaTime(pts: timestamp, timeBase: decoder.timeBase) else {
                    throw Failure(description: "a picture of \(label) has no time")
                }
                let digest: Int
                do {
                    digest = try frame.pictureDigest()
                } catch {
                    throw Failure(description: "a picture of \(label) at \(time.secondsText) has no pixels (\(error))")
                }
                try log.record(digest, at: index(time), label: label)
            }
        }
    }

    /// One piece being compared with the output: its own packets (the source's from the copied piece's first key
    /// frame, or the re-encoded piece file's) in decoding order, which packets to decode (those beside a seam), and
    /// the decoder run over them.
    final class OpenPiece {
        let index: Int
        private let piece: SmartRenderPiece
        private let name: String
        private let stream: SourceStream
        private var pending: Packet?
        private let packet: Packet
        /// Copied pieces: the packets the groups hold; nil for a re-encoded piece (all of its file's).
        private let total: Int?
        private var handedOut = 0
        /// Copied pieces: the key frame's presentation timestamp (its leading pictures are not copied).
        private let keyTimestamp: Int64?
        /// Packet indices (decoding order, from the piece's first) to decode.
        private let decoded: [Range<Int>]
        private let outputIndex: (MediaTime) -> Int
        private var run: PictureRun?

        init(index: Int, verifier: SmartRenderVerifier) throws {
            self.index = index
            let piece = verifier.input.pieces[index]
            self.piece = piece
            name = "the \(verifier.kind(piece)) at frame \(piece.frames.lowerBound)"
            packet = try Packet()
            let start = verifier.input.frameDuration * Int64(piece.frames.lowerBound)
            let afterSeam = piece.frames.lowerBound > 0
            let beforeSeam = piece.frames.upperBound < verifier.frameCount
            switch piece.content {
            case .copied(let source, let groups):
                guard let first = groups.first else { throw Failure(description: "\(name) has no group of pictures") }
                let (stream, key) = try SmartRenderPacketSource.openCopiedPiece(
                    source, group: first, parameterSetsInBand: verifier.input.parameterSetsInBand,
                    cancellation: verifier.cancellation)
                self.stream = stream
                pending = key
                keyTimestamp = key.presentationTimestamp ?? Int64.min
                var counts = groups.map(\.frameCount)
                counts[0] -= first.leadingFrameCount
                let count = SmartRenderPacketSource.copiedPacketCount(groups)
                total = count
                // After a seam: the first group; before one: from the last group a decoder can start at to the end.
                var ranges: [Range<Int>] = []
                if afterSeam { ranges.append(0..<counts[0]) }
                if beforeSeam {
                    let closed = groups.lastIndex { $0.isClosed } ?? 0
                    let from = counts[..<closed].reduce(0, +)
                    if let head = ranges.first, head.upperBound >= from { ranges = [0..<count] } else { ranges.append(from..<count) }
                }
                decoded = ranges
                let offset = source.startTimeOffset
                outputIndex = { verifier.frameIndex(start + ($0 - offset - first.keyFrameTime)) }
            case .encoded(let url):
                let lower = piece.frames.lowerBound
                stream = try SourceStream(bestVideoStreamOf: url, cancellation: verifier.cancellation)
                total = nil
                keyTimestamp = nil
                decoded = [0..<Int.max]
                outputIndex = { verifier.frameIndex($0) + lower }
            }
        }

        /// Compares the output's next packet of this piece (shown at output frame `outputIndex`) with the piece's
        /// next own packet, and decodes the latter when it lies beside a seam.
        /// - Returns: whether the output's packet must be decoded too.
        func compare(_ written: Packet, outputIndex shownAt: Int, into log: inout PictureLog) throws -> Bool {
            guard try next() else {
                throw Failure(description: "the output holds more pictures of \(name) than its \(handedOut)")
            }
            guard packet.hasPayload(equalTo: written) else {
                throw Failure(description: "packet \(handedOut) of \(name) (output frame \(shownAt)) differs from the packet it was copied from")
            }
            guard let pts = packet.presentationTimestamp, let time = MediaTime(pts: pts, timeBase: stream.timeBase) else {
                throw Failure(description: "packet \(handedOut) of \(name) has no presentation time")
            }
            let planned = outputIndex(time)
            guard planned == shownAt else {
                throw Failure(description: "packet \(handedOut) of \(name) is shown at output frame \(shownAt), not at \(planned)")
            }
            let decodes = decoded.contains { $0.contains(handedOut) }
            if decodes {
                if run == nil { run = try PictureRun(stream, label: name, index: outputIndex) }
                try run?.send(packet, into: &log)
            } else if let current = run {
                try current.finish(into: &log)
                run = nil
            }
            handedOut += 1
            return decodes
        }

        /// Ends the piece: drains its decoder and checks that the output held all of its packets.
        func finish(into log: inout PictureLog) throws {
            try run?.finish(into: &log)
            run = nil
            if try next() {
                throw Failure(description: "the output holds \(handedOut) pictures of \(name), which has more")
            }
        }

        /// Reads the piece's next own packet into ``packet``; false at the piece's end.
        private func next() throws -> Bool {
            if let total, handedOut >= total { return false }
            if let key = pending {
                packet.swapContents(with: key)
                pending = nil
                return true
            }
            // The writer copies the packets that are shown (SmartRenderPacketSource), a piece file all of them.
            if let keyTimestamp {
                return try SmartRenderPacketSource.readCopied(stream, into: packet, keyTimestamp: keyTimestamp)
            }
            return try SmartRenderPacketSource.readCounted(stream, into: packet)
        }
    }
}
