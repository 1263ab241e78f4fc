import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Checks a smart-rendered file (``SmartRenderWriter``) before it is named, decoding only around the seams.
///
/// The output's video packets are read once (no decoding) beside each piece's own packets, in order:
/// - every packet must be byte-identical (``SpliceFFmpeg/Packet/hasPayload(equalTo:)``) to the packet it was copied from —
///   the source's, from the copied piece's first key frame, or the re-encoded piece file's — and be shown at the
///   output frame that packet was planned for; every frame of the output grid must be there exactly once;
/// - around every seam the pictures are decoded and compared (bit-identical, ``SpliceFFmpeg/Frame/pictureDigest()``):
///   one decoder runs through the output across the seam, from the last closed group of pictures before it to the
///   end of the first group after it (a re-encoded piece whole), and each side is compared with its own decode —
///   the source's decode of the same copied groups, or the piece file's decode. A copied group away from every seam
///   starts with an IDR picture and has the same packets before it as in the source, so its identical bytes decode
///   to identical pictures without being decoded here.
///
/// How close a re-encoded piece is to the composition's render is the encoder's matter: the piece file is the
/// encoder's output for the rendered pictures, and the tests measure it as PSNR (≥ 40 dB with the quality
/// ``SmartRenderEncoding`` picks). Runs on the calling (worker) thread; costs one read of the output and of the
/// copied sources' packets, and a decode of the groups beside each seam (twice: output and reference) and of the
/// re-encoded pieces (twice).
struct SmartRenderVerifier {
    let input: SmartRenderWriter.Input
    let frameCount: Int
    let cancellation: CancellationFlag

    /// What went wrong, as a sentence for ``SmartRenderReason/verificationFailed(_:)``.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a verification compared.
    struct Summary: Equatable {
        /// Output packets compared byte for byte with the packet they were copied from.
        var packetsCompared: Int
        /// Output pictures decoded (around the seams) and compared with their piece's own decode.
        var picturesDecoded: Int
    }

    /// Verifies the file at `path`. Pieces may be left out of ``input`` (tests): their frames are only checked to be
    /// there once.
    /// - Returns: what was compared.
    /// - Throws: ``Failure`` naming the first wrong packet or picture; the reading errors of ``SourceStream``;
    ///   `CancellationError`.
    @discardableResult
    func verify(path: String) throws -> Summary {
        let output = try SourceStream(bestVideoStreamOf: URL(fileURLWithPath: path), cancellation: cancellation)
        var pieceOfFrame = [Int](repeating: -1, count: frameCount)
        for (index, piece) in input.pieces.enumerated() {
            for frame in piece.frames where frame >= 0 && frame < frameCount { pieceOfFrame[frame] = index }
        }
        var seen = [Bool](repeating: false, count: frameCount)
        var written = PictureLog(), expected = PictureLog()
        var outputRun: PictureRun?
        var open: OpenPiece?
        var finished = Set<Int>()
        var compared = 0
        let packet = try Packet()
        while try readOutput(output, into: packet) {
            if cancellation.isCancelled { throw CancellationError() }
            guard let pts = packet.presentationTimestamp, let time = MediaTime(pts: pts, timeBase: output.timeBase) else {
                throw Failure(description: "a packet of the output has no presentation time")
            }
            let index = frameIndex(time)
            guard index >= 0, index < frameCount else {
                throw Failure(description: "a picture at \(seconds(time)) lies outside the \(frameCount) frames")
            }
            guard !seen[index] else { throw Failure(description: "frame \(index) is there twice") }
            seen[index] = true
            let pieceIndex = pieceOfFrame[index]
            if open?.index != pieceIndex {
                if let current = open { try current.finish(into: &expected) }
                open = nil
                if pieceIndex >= 0 {
                    guard finished.insert(pieceIndex).inserted else {
                        throw Failure(description: "frame \(index) of the \(kind(input.pieces[pieceIndex])) at frame \(input.pieces[pieceIndex].frames.lowerBound) lies apart from the piece's other frames")
                    }
                    open = try OpenPiece(index: pieceIndex, verifier: self)
                }
            }
            var decodes = false
            if let current = open {
                decodes = try current.compare(packet, outputIndex: index, into: &expected)
                compared += 1
            }
            if decodes {
                if outputRun == nil { outputRun = try PictureRun(output, label: "the smart-rendered video", index: frameIndex) }
                try outputRun?.send(packet, into: &written)
            } else if let run = outputRun {
                try run.finish(into: &written)
                outputRun = nil
            }
        }
        try outputRun?.finish(into: &written)
        try open?.finish(into: &expected)
        if let missing = seen.firstIndex(of: false) {
            throw Failure(description: "frame \(missing) (\(seconds(input.frameDuration * Int64(missing)))) is not in the file")
        }
        if let lost = input.pieces.indices.first(where: { !finished.contains($0) }) {
            throw Failure(description: "the \(kind(input.pieces[lost])) at frame \(input.pieces[lost].frames.lowerBound) is not in the file")
        }
        try compare(written, expected)
        return Summary(packetsCompared: compared, picturesDecoded: written.pictures.count)
    }

    /// Every picture decoded around the seams equals its piece's own decode, and the two decodes hold the same frames.
    private func compare(_ written: PictureLog, _ expected: PictureLog) throws {
        for (index, digest) in expected.pictures.sorted(by: { $0.key < $1.key }) {
            guard let actual = written.pictures[index] else {
                throw Failure(description: "frame \(index) (\(seconds(input.frameDuration * Int64(index)))) did not decode around its seam")
            }
            guard actual == digest else {
                let piece = input.pieces.first { $0.frames.contains(index) }
                throw Failure(description: "frame \(index) (\(seconds(input.frameDuration * Int64(index)))) differs from the \(piece.map(kind) ?? "piece")'s own decode")
            }
        }
        if let extra = written.pictures.keys.sorted().first(where: { expected.pictures[$0] == nil }) {
            throw Failure(description: "frame \(extra) decoded around a seam but not in its piece's own decode")
        }
    }

    /// Reads the output's next video packet (the demuxer marks none discarded: the writer copied only shown ones).
    private func readOutput(_ output: SourceStream, into packet: Packet) throws -> Bool {
        do {
            return try output.readPacket(into: packet)
        } catch where FFmpegError.isCancellation(error) {
            throw CancellationError()
        } catch {
            throw Failure(description: "the smart-rendered file cannot be read: \(error)")
        }
    }

    func kind(_ piece: SmartRenderPiece) -> String {
        if case .copied = piece.content { return "copied source" }
        return "re-encoded piece"
    }

    func seconds(_ time: MediaTime) -> String { time.secondsText }

    /// The output frame nearest to `time`.
    func frameIndex(_ time: MediaTime) -> Int {
        Int((time.seconds / input.frameDuration.seconds).rounded())
    }
}
