import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport
internal import CMedia

/// The encoder settings for re-encoded smart-rendering pieces, checked against what libx264 writes: the source's
/// profile and level, an SPS/PPS id the source does not use, parameter sets in-band at every key frame, an IDR
/// first, no B-frames.
@Suite("Smart rendering: matched encoding")
struct SmartRenderEncodingTests {
    /// The canonical clip's `avcC`: its profile, level and SPS id.
    @Test func sourceParametersAreReadFromTheDecoderConfiguration() async throws {
        let track = try #require(try await Fixture.asset("canonical/clipA.mp4").tracks(withMediaType: .video).first)
        let stream = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: CancellationFlag())
        let (extradata, profile, level) = stream.withCodecParameters { parameters in
            let p = parameters.pointee
            return (Array(UnsafeBufferPointer(start: p.extradata, count: Int(p.extradata_size))), Int(p.profile), Int(p.level))
        }
        let source = try #require(JoinableStreamParameters(avcC: extradata))
        #expect(source.profile == profile)
        #expect(source.level == level)
        #expect(source.parameterSetIDs == [0])
        #expect(source.freeParameterSetID == 1)
    }

    @Test func exponentialGolombCodes() {
        #expect(JoinableStreamParameters.exponentialGolomb([0b1000_0000]) == 0)
        #expect(JoinableStreamParameters.exponentialGolomb([0b0100_0000]) == 1)
        #expect(JoinableStreamParameters.exponentialGolomb([0b0110_0000]) == 2)
        #expect(JoinableStreamParameters.exponentialGolomb([0b0001_0110]) == 10)
    }

    /// Encodes 40 grey 320 × 240 frames (key frames every 30) for a Main 3.1 source whose SPS id is 0.
    @Test func x264WritesMatchedInBandParameterSets() throws {
        let size = Size(width: 320, height: 240)
        let video = VideoPlan(
            renderSize: size, outputSize: size, frameDuration: MediaTime(value: 1, timescale: 30),
            duration: MediaTime(seconds: 2), tracks: [], instructions: [])
        let source = JoinableStreamParameters(profile: 77, level: 31, parameterSetIDs: [0])
        #expect(SmartRenderEncoding.mismatch(source, video: video) == nil)
        var settings = VideoSettings(encoderPreset: "veryfast")
        settings.keyFrameInterval = 30
        var configuration = settings.encoderConfiguration(
            for: video, clock: EncoderClock(video), fileType: .mp4, joining: source)
        configuration.threadCount = 1
        let encoder = try Encoder(configuration: configuration)
        try encoder.open()
        let frame = try Frame()
        let packet = try Packet()
        var packets: [(pts: Int64, dts: Int64, key: Bool, data: [UInt8])] = []
        func drain() throws {
            while try encoder.receive(into: packet) == .packet {
                packets.append((packet.presentationTimestamp ?? -1, packet.decodingTimestamp ?? -1, packet.isKeyFrame, packet.data))
                packet.unref()
            }
        }
        for index in 0..<40 {
            try frame.allocatePicture(width: 320, height: 240, pixelFormat: AV_PIX_FMT_YUV420P)
            for plane in 0..<3 {
                let rows = plane == 0 ? 240 : 120
                if let data = frame.plane(plane) { memset(data, 128, frame.bytesPerRow(ofPlane: plane) * rows) }
            }
            frame.pts = Int64(index)
            _ = try encoder.send(frame)
            frame.unref()
            try drain()
        }
        _ = try encoder.send(nil)
        try drain()

        #expect(packets.count == 40)
        #expect(packets.map(\.pts) == (0..<40).map(Int64.init), "no B-frames: decoding order is presentation order")
        #expect(packets.map(\.key) == (0..<40).map { $0 % 30 == 0 })
        for packet in packets where packet.key {
            let units = Self.nalUnits(packet.data)
            #expect(units.map { $0[0] & 0x1F }.contains(7), "parameter sets in-band")
            #expect(units.contains { $0[0] & 0x1F == 5 }, "every key frame is an IDR picture")
            let sps = try #require(units.first { $0[0] & 0x1F == 7 })
            #expect(sps[1] == 77, "profile_idc")
            #expect(sps[3] == 31, "level_idc")
            #expect(JoinableStreamParameters.exponentialGolomb(Array(sps[4...])) == 1, "seq_parameter_set_id")
            let pps = try #require(units.first { $0[0] & 0x1F == 8 })
            #expect(JoinableStreamParameters.exponentialGolomb(Array(pps[1...])) == 1, "pic_parameter_set_id")
        }
    }

    /// H.264 pieces at a matched CRF are encoded with x264's `faster` preset, or the export's own when it is faster
    /// still; without a matched CRF and preset the export's preset is kept.
    @Test(arguments: [("medium", "faster"), ("veryslow", "faster"), ("faster", "faster"), ("veryfast", "veryfast"),
                      ("ultrafast", "ultrafast"), ("slow", "faster")])
    func matchedPiecesUseAFastPreset(export: String, piece: String) {
        let size = Size(width: 320, height: 240)
        let video = VideoPlan(
            renderSize: size, outputSize: size, frameDuration: MediaTime(value: 1, timescale: 30),
            duration: MediaTime(seconds: 2), tracks: [], instructions: [])
        var source = JoinableStreamParameters(profile: 100, level: 31, parameterSetIDs: [0])
        let settings = VideoSettings(encoderPreset: export)
        #expect(settings.encoderConfiguration(for: video, clock: EncoderClock(video), fileType: .mp4, joining: source)
            .options["preset"] == export, "no matched CRF: the export's preset")
        source.constantRateFactor = 15
        source.x264Preset = SmartRenderEncoding.x264Preset(exportPreset: export)
        let matched = settings.encoderConfiguration(for: video, clock: EncoderClock(video), fileType: .mp4, joining: source)
        #expect(matched.options["preset"] == piece)
        #expect(matched.options["crf"] == "15")
    }

    /// A source x264 cannot match is named.
    @Test func unmatchableSourcesAreNamed() {
        let size = Size(width: 320, height: 240)
        let video = VideoPlan(
            renderSize: size, outputSize: size, frameDuration: MediaTime(value: 1, timescale: 30),
            duration: MediaTime(seconds: 1), tracks: [], instructions: [])
        let high422 = JoinableStreamParameters(profile: 122, level: 40, parameterSetIDs: [0])
        #expect(SmartRenderEncoding.mismatch(high422, video: video) == "H.264 profile_idc 122 cannot be encoded by x264")
        let full = JoinableStreamParameters(profile: 100, level: 40, parameterSetIDs: Set(0..<32))
        #expect(SmartRenderEncoding.mismatch(full, video: video) == "the source uses every SPS id (0…31)")
        let high10 = JoinableStreamParameters(profile: 110, level: 40, parameterSetIDs: [0])
        #expect(SmartRenderEncoding.mismatch(high10, video: video) == "profile_idc 110 does not match the output's 8-bit canvas")
    }

    /// The NAL units of an Annex B access unit (start codes removed; emulation-prevention bytes kept).
    static func nalUnits(_ data: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var index = 0
        while index + 2 < data.count {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { offset, start in
            var end = offset + 1 < starts.count ? starts[offset + 1] - 3 : data.count
            while end > start, data[end - 1] == 0 { end -= 1 }
            return Array(data[start..<end])
        }.filter { !$0.isEmpty }
    }
}
