import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
internal import CMedia
import SpliceTestSupport

@Suite("InputFile, Packet and CancellationFlag (FFmpeg owners)")
struct AssetLoadingInputFileTests {
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func readsEveryPacketOfEachStream() throws {
        let file = try InputFile(url: Fixture.sharedMedia("M08_h264_1280x720_29.97_nonzero-start.mp4"))
        #expect(file.streamCount == 2)
        #expect(file.stream(at: 1).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO)
        let packet = try Packet()
        var counts = [0, 0]
        var firstVideoPTS: Int64?
        while try file.readPacket(into: packet) {
            counts[packet.streamIndex] += 1
            if packet.streamIndex == 1, firstVideoPTS == nil { firstVideoPTS = packet.presentationTimestamp }
        }
        // ffprobe -count_packets: 119 audio packets, 82 video packets; the first video pts is 1001/30000 s.
        #expect(counts == [119, 82])
        #expect(firstVideoPTS == 1001)
        #expect(try file.readPacket(into: packet) == false)
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func seekLandsOnTheKeyFrameAtOrBefore() throws {
        // M09: key frames at 0, 2 and 3 s; time base 1/15360. Seeking to 2.5 s lands on the 2 s key frame.
        let file = try InputFile(url: Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4"))
        try file.seek(streamIndex: 0, toTimestamp: 15360 * 5 / 2)
        let packet = try Packet()
        var firstPTS: Int64?
        var firstIsKey = false
        while try file.readPacket(into: packet) {
            if packet.streamIndex == 0 { (firstPTS, firstIsKey) = (packet.presentationTimestamp, packet.isKeyFrame); break }
        }
        // The edit list (media_time 1024) shifts presentation timestamps by −1024: the 2 s key frame has pts 2·15360.
        #expect(firstPTS == Int64(2 * 15360))
        #expect(firstIsKey)
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func cancelledFlagStopsOpenAndReads() throws {
        let url = Fixture.sharedMedia("M03_android_720p_rot180_vfr_aac-mono48k.mp4")
        let early = CancellationFlag()
        early.cancel()
        #expect(throws: CancellationError.self) { try InputFile(url: url, cancellation: early) }

        let flag = CancellationFlag()
        let file = try InputFile(url: url, cancellation: flag)
        let packet = try Packet()
        #expect(try file.readPacket(into: packet))
        flag.cancel()
        #expect(flag.isCancelled)
        // The next read that reaches the file (past libavformat's I/O buffer) fails with AVERROR_EXIT, well before
        // the end of this 1.8 MB file.
        var reads = 0
        let error = #expect(throws: FFmpegError.self) {
            while try file.readPacket(into: packet) { reads += 1 }
        }
        #expect(error == .exit)
        #expect(reads < 131)
    }

    @Test func cancellationFlagIsSharedAcrossThreads() async {
        let flag = CancellationFlag()
        #expect(!flag.isCancelled)
        await Task.detached { flag.cancel() }.value
        #expect(flag.isCancelled)
        flag.cancel()
        #expect(flag.isCancelled)
    }

    @Test func packetStartsEmpty() throws {
        let packet = try Packet()
        #expect(packet.pointer.pointee.size == 0)
        #expect(packet.presentationTimestamp == nil)
        packet.unref()
        #expect(packet.pointer.pointee.data == nil)
    }
}
