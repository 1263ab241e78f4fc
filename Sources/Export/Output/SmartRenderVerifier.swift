import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Checks a smart-rendered file (``SmartRenderWriter``) before it is named: decodes its video with Splice's own
/// decoder and compares every picture with what it must be — a copied picture with the source's own decode of the
/// same picture (bit-identical), a re-encoded picture with its piece's decode (bit-identical: the join changed
/// nothing; how close the piece is to the composition's render is the encoder's matter, measured by the tests as
/// PSNR). Every frame of the output grid must be there exactly once. Runs on the calling (worker) thread; costs one
/// decode of the output, of the copied groups in the source and of the encoded pieces.
struct SmartRenderVerifier {
    let input: SmartRenderWriter.Input
    let frameCount: Int
    let cancellation: CancellationFlag

    /// What went wrong, as a sentence for ``SmartRenderReason/verificationFailed(_:)``.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Verifies the file at `path`.
    /// - Throws: ``Failure`` naming the first wrong picture; the reading errors of ``StreamDecoder``;
    ///   `CancellationError`.
    func verify(path: String) throws {
        let url = URL(fileURLWithPath: path)
        var written = [Int?](repeating: nil, count: frameCount)
        let output = try SourceStream(bestVideoStreamOf: url, cancellation: cancellation)
        try decode(StreamDecoder(source: output, label: "the smart-rendered video", strict: true)) { time, digest in
            let index = frameIndex(time)
            guard index >= 0, index < frameCount else {
                throw Failure(description: "a picture at \(seconds(time)) lies outside the \(frameCount) frames")
            }
            guard written[index] == nil else { throw Failure(description: "frame \(index) is there twice") }
            written[index] = digest
            return true
        }
        if let missing = written.firstIndex(where: { $0 == nil }) {
            throw Failure(description: "frame \(missing) (\(seconds(input.frameDuration * Int64(missing)))) did not decode")
        }
        for piece in input.pieces {
            var expected = [Int?](repeating: nil, count: piece.frames.count)
            let start = input.frameDuration * Int64(piece.frames.lowerBound)
            switch piece.content {
            case .copied(let source, let groups):
                guard let first = groups.first, let end = groups.last?.end else { continue }
                let decoder = try StreamDecoder(track: source, cancellation: cancellation)
                let offset = source.startTimeOffset
                if let key = (first.keyFrameTime + offset).timestamp(in: decoder.timeBase) {
                    try decoder.seek(toTimestamp: key, describedAs: first.keyFrameTime)
                }
                try decode(decoder) { time, digest in
                    let source = time - offset
                    guard source < end else { return false }
                    let index = frameIndex(start + (source - first.start)) - piece.frames.lowerBound
                    if source >= first.start, expected.indices.contains(index) { expected[index] = digest }
                    return true
                }
            case .encoded(let url):
                let stream = try SourceStream(bestVideoStreamOf: url, cancellation: cancellation)
                try decode(StreamDecoder(source: stream, label: "a re-encoded piece", strict: true)) { time, digest in
                    let index = frameIndex(time)
                    if expected.indices.contains(index) { expected[index] = digest }
                    return true
                }
            }
            for (offset, digest) in expected.enumerated() {
                let index = piece.frames.lowerBound + offset
                guard let digest else {
                    throw Failure(description: "frame \(index) of the \(kind(piece)) could not be decoded for comparison")
                }
                if written[index] != digest {
                    throw Failure(description: "frame \(index) (\(seconds(input.frameDuration * Int64(index)))) differs from the \(kind(piece))'s own decode")
                }
            }
        }
    }

    private func kind(_ piece: SmartRenderPiece) -> String {
        if case .copied = piece.content { return "copied source" }
        return "re-encoded piece"
    }

    private func seconds(_ time: MediaTime) -> String { String(format: "%.3f s", time.seconds) }

    /// The output frame nearest to `time`.
    private func frameIndex(_ time: MediaTime) -> Int {
        Int((time.seconds / input.frameDuration.seconds).rounded())
    }

    /// Decodes every picture, giving `body` its presentation time and digest, until `body` returns false.
    private func decode(_ decoder: StreamDecoder, _ body: (MediaTime, Int) throws -> Bool) throws {
        let frame = try Frame()
        while try decoder.decode(into: frame) {
            if cancellation.isCancelled { throw CancellationError() }
            let timestamp = frame.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? frame.bestEffortTimestamp : frame.pts
            guard let time = MediaTime(pts: timestamp, timeBase: decoder.timeBase) else { continue }
            let digest: Int
            do {
                digest = try frame.pictureDigest()
            } catch {
                throw Failure(description: "a picture at \(seconds(time)) has no pixels (\(error))")
            }
            guard try body(time, digest) else { return }
        }
    }
}
