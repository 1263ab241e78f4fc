import Foundation
import Testing
@testable import Export
import Splice
import SpliceFFmpeg
import SpliceTesting
import SpliceTestSupport
internal import CMedia

/// Segmented export of a 60 s multi-clip edit: four cuts of three framecode sources made in-process
/// (160x90, 30 fps, each picture's own frame number and its clip's number drawn as bars), 1800 frames, exported
/// once in one process and as 1, 3 and 7 segments, losslessly (FFV1). The single export shows every source frame
/// the edit asks for, in order (read back from the framecode); each join is packet for packet the single export
/// (so no frame is duplicated or missing at a join), with a key frame at each segment start and bit-identical audio.
@Suite("Segmented export of a 60 s multi-clip edit", .serialized)
struct SegmentedLongEditTests {
    /// The edit: (clip number, first source frame, frames), back to back from 0: 450 + 600 + 300 + 450 = 1800.
    static let cuts: [(clip: Int, first: Int, count: Int)] = [(1, 60, 450), (2, 0, 600), (3, 150, 300), (1, 480, 450)]
    /// Source lengths in seconds (clip 1 is cut twice, up to frame 930).
    static let sourceSeconds = [1: 32, 2: 20, 3: 15]

    static func frames(_ count: Int) -> MediaTime { MediaTime(value: Int64(count), timescale: 30) }

    /// A grey picture whose top half shows the frame number in 16 bars of 10 px (bar b white when bit b is set) and
    /// whose bottom half shows `clip` the same way; a tone of `220 × clip` Hz.
    static func framecode(clip: Int) -> (video: String, audio: String) {
        let bits = "255*gt(bitand(if(lt(Y\\,45)\\,N\\,\(clip))\\,pow(2\\,floor(X/10)))\\,0)"
        return ("color=c=black:s=160x90:r=30,format=gray,geq=lum='\(bits)'", "sine=f=\(220 * clip):r=48000")
    }

    /// The number drawn in the top (`row` 22) or bottom (`row` 67) half of a decoded 8-bit luma plane.
    static func number(in luma: UnsafePointer<UInt8>, bytesPerRow: Int, row: Int) -> Int {
        (0..<16).reduce(0) { value, bit in luma[row * bytesPerRow + bit * 10 + 5] > 128 ? value | (1 << bit) : value }
    }

    /// (clip, source frame) of every picture of `url`'s video, in decoding order (FFV1: presentation order).
    static func framecodes(of url: URL) throws -> [(clip: Int, frame: Int)] {
        let input = try InputFile(url: url)
        let index = try #require(input.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO))
        let decoder = try Decoder(stream: input.stream(at: index), threads: 1)
        let packet = try Packet(), frame = try Frame()
        var codes: [(Int, Int)] = []
        func drain() throws {
            while try decoder.receive(into: frame) == .frame {
                guard let luma = frame.plane(0) else { continue }
                let row = frame.bytesPerRow(ofPlane: 0)
                codes.append((number(in: luma, bytesPerRow: row, row: 67), number(in: luma, bytesPerRow: row, row: 22)))
                frame.unref()
            }
        }
        while try input.readPacket(into: packet) {
            guard packet.streamIndex == index else { continue }
            while try !decoder.send(packet) { try drain() }
            try drain()
        }
        _ = try decoder.send(nil)
        try drain()
        return codes
    }

    /// The video stream's duration as the container states it, in seconds.
    static func videoDuration(of url: URL) throws -> Double {
        let input = try InputFile(url: url)
        let stream = input.stream(at: try #require(input.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO))).pointee
        return Double(stream.duration) * Double(stream.time_base.num) / Double(stream.time_base.den)
    }

    /// The edit over freshly written sources in `scratch`, exported losslessly (FFV1 + PCM in QuickTime).
    static func makeExport(in scratch: ScratchDirectory) async throws -> SegmentedExport {
        var assets: [Int: Asset] = [:]
        for (clip, seconds) in sourceSeconds {
            let url = scratch.file("clip\(clip).mov"), code = framecode(clip: clip)
            try SyntheticMedia.write(video: code.video, audio: code.audio, duration: MediaTime(seconds: Int64(seconds)),
                                     pixelFormat: .yuv420p, to: url)
            assets[clip] = try await Asset.load(from: url)
        }
        var composition = MutableComposition()
        var at = 0
        for cut in cuts {
            let asset = try #require(assets[cut.clip])
            try composition.insertTimeRange(TimeRange(start: frames(cut.first), duration: frames(cut.count)), of: asset, at: frames(at))
            at += cut.count
        }
        return SegmentedExport(composition: composition, videoComposition: nil, audioMix: nil,
                               settings: ExportSettings(video: VideoSettings(codec: .ffv1), audio: AudioSettings()))
    }

    @Test func oneThreeAndSevenSegmentsJoinToTheSingleExportFrameForFrame() async throws {
        let scratch = try ScratchDirectory("segments-60s")
        defer { scratch.remove() }
        let export = try await Self.makeExport(in: scratch)
        let single = scratch.file("single.mov")
        let session = AssetExportSession(asset: export.composition, settings: export.settings)
        session.outputURL = single
        try await session.export()

        // The single export: every frame the edit asks for, once, in order.
        let expected: [(clip: Int, frame: Int)] = Self.cuts.flatMap { cut in (0..<cut.count).map { (cut.clip, cut.first + $0) } }
        let codes = try Self.framecodes(of: single)
        #expect(codes.count == 1800)
        let wrong = zip(codes, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        let firstWrong = wrong.first.map { "frame \($0.offset) shows \($0.element.0), not \($0.element.1)" } ?? ""
        #expect(wrong.isEmpty, "\(wrong.count) frames show another picture; first: \(firstWrong)")
        let singleVideo = try SegmentedExportTests.packets(of: single, type: AVMEDIA_TYPE_VIDEO)
        let singleAudio = try SegmentedExportTests.packets(of: single, type: AVMEDIA_TYPE_AUDIO)
        #expect(singleVideo.count == 1800)
        #expect(!singleAudio.isEmpty)

        for count in [1, 3, 7] {
            let plan = try export.makePlan(segmentCount: count, fileType: .mov, documentPath: scratch.file("edit.json").path,
                                           partsDirectory: scratch.file("parts\(count)"))
            #expect(plan.segments.count == count)
            #expect(plan.frameCount == 1800)
            #expect(plan.segments.last?.timeRange.end == MediaTime(seconds: 60))
            for segment in plan.segments { try await export.renderSegment(segment.index, of: plan) }
            let joined = scratch.file("joined\(count).mov")
            try await export.join(plan, to: joined)

            let video = try SegmentedExportTests.packets(of: joined, type: AVMEDIA_TYPE_VIDEO)
            #expect(video.count == 1800, "\(count) segments")
            let late = video.enumerated().filter { abs($0.element.time - Double($0.offset) / 30) > 1e-6 }
            #expect(late.isEmpty, "\(count) segments: frame \(late.first?.offset ?? -1) at \(late.first?.element.time ?? 0) s")
            for segment in plan.segments {
                #expect(video[segment.firstFrame].key, "\(count) segments: no key frame at segment \(segment.index)")
            }
            let differing = zip(video, singleVideo).enumerated().filter { $0.element.0.data != $0.element.1.data }.map(\.offset)
            #expect(differing.isEmpty, "\(count) segments: \(differing.count) pictures differ from the single export, first \(differing.first ?? -1)")
            #expect(try SegmentedExportTests.packets(of: joined, type: AVMEDIA_TYPE_AUDIO).map(\.data) == singleAudio.map(\.data),
                    "\(count) segments: the audio differs from the single export")
            let asset = try await Asset.load(from: joined)
            #expect(asset.tracks(withMediaType: .video).first?.timeRange.duration == MediaTime(seconds: 60))
            let stated = try Self.videoDuration(of: joined)
            #expect(abs(stated - 60) < 1e-6, "\(count) segments: the container says the video lasts \(stated) s")
            try FileManager.default.removeItem(at: joined)
            try FileManager.default.removeItem(at: scratch.file("parts\(count)"))
        }
    }
}
