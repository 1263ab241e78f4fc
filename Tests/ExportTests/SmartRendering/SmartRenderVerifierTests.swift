import Foundation
import SpliceFFmpeg
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// The smart-render verifier decodes only beside the seams: every other copied packet is compared byte for byte
/// with the source's, which catches a change no decode was spent on.
@Suite("Smart rendering: the seam-only verifier")
struct SmartRenderVerifierTests {
    /// 12 s of closed 1 s groups (B-pyramid), one cut at 0.5 s: 0.5 s re-encoded, then 11 whole groups copied.
    /// Verifying the copied piece compares its 330 packets and decodes only the 30 pictures of the group after the
    /// seam; one byte changed in a packet at 6 s (far from the seam, never decoded) is found by its bytes.
    @Test func decodesOnlyBesideTheSeamAndComparesTheRestByBytes() async throws {
        let scratch = try ScratchDirectory("smart-verify")
        defer { scratch.remove() }
        let sourceURL = try SmartRenderEdit.source(.h264, openGOP: false, named: "closed.mov", in: scratch)
        let asset = try await Asset.load(from: sourceURL)
        let output = scratch.file("cut.mp4")
        let (session, _) = try SmartRenderWriterTests.session(asset, pieces: [(0.5, 12)], title: nil, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 11)
        #expect(report.copiedFrameCount == 330)

        let track = try #require(asset.tracks(withMediaType: .video).first)
        let groups = try #require(try GroupOfPicturesScan.scan(track, cancellation: CancellationFlag())).groups
        let input = SmartRenderWriter.Input(
            source: track, pieces: [SmartRenderPiece(content: .copied(source: track, groups: Array(groups[1...])), frames: 15..<345)],
            audioURL: nil, frameDuration: SmartRenderWriterTests.frame, fileType: .mp4, metadata: [],
            optimizeForNetworkUse: true, outputURL: output)
        let verifier = SmartRenderVerifier(input: input, frameCount: 345, cancellation: CancellationFlag())
        #expect(try verifier.verify(path: output.path) == .init(packetsCompared: 330, picturesDecoded: 30))

        // One byte of the packet shown at output 6 s changed in a copy of the file.
        let stream = try SourceStream(bestVideoStreamOf: output, cancellation: CancellationFlag())
        let packet = try Packet()
        var position: Int64 = -1
        while try stream.readPacket(into: packet) {
            let time = MediaTime(pts: packet.presentationTimestamp ?? -1, timeBase: stream.timeBase)
            if time == MediaTime(seconds: 6) {
                position = packet.pointer.pointee.pos + Int64(packet.size / 2)
                break
            }
        }
        #expect(position > 0, "no packet at 6 s")
        var bytes = try BinaryFile.read(output)
        let index = Int(position)
        try #require(index > 0 && index < bytes.count)
        bytes[index] ^= 0x55
        let damaged = scratch.file("damaged.mp4")
        try bytes.write(to: damaged)
        do {
            try verifier.verify(path: damaged.path)
            Issue.record("the verifier accepted a file with a changed packet at 6 s")
        } catch let failure as SmartRenderVerifier.Failure {
            #expect(failure.description.contains("differs from the packet it was copied from"), "\(failure)")
        }
    }
}
