import Composition
import Foundation
import Splice
import SpliceFFmpeg
import SpliceTestSupport
import Testing

/// `AssetWriter` streaming live (`init(liveStreamURL:)`) into nginx's RTMP module, which records what it receives
/// (`record all`): the server's file is read back with Splice's demuxer and decoders. Here beside the capture
/// session's streaming tests, whose RTMP server helpers it uses.
@Suite("AssetWriter to a live stream", .serialized)
struct AssetWriterStreamTests {
    @Test("90 generated pictures and 3 s of sound written to rtmp://…: nginx's recording holds 90 H.264 pictures 1/30 s apart (FLV's ms) and 3 s of AAC, the pictures' colours in order")
    func rtmpIntoNginx() async throws {
        try await withRTMPServer("AssetWriter streaming", scratch: "writer-rtmp", recording: true) { server, _ in
            let url = try server.url("writer")
            let writer = try AssetWriter(liveStreamURL: url)
            #expect(writer.outputURL == nil && writer.liveStreamURL == url)
            let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
                VideoSettings(codec: .h264, rateControl: .averageBitRate(1_000_000), encoderPreset: "ultrafast", keyFrameInterval: 30),
                size: Size(width: 320, height: 240)))
            let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
            let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac, bitRate: 128_000)))
            try writer.add(video)
            try writer.add(audio)
            try writer.startWriting()
            writer.startSession(atSourceTime: .zero)
            let format = FormatDescription(mediaType: .audio, codecName: "pcm_f32le", timeScale: 48_000, sampleRate: 48_000, channelCount: 2)
            // A second of red, one of green, one of blue; a 440 Hz tone at 0.25.
            let colours: [[UInt8]] = [[0, 0, 255, 255], [0, 255, 0, 255], [255, 0, 0, 255]]  // BGRA
            for index in 0..<90 {
                var picture = adaptor.makePixelBuffer()
                picture.fill(with: colours[index / 30])
                try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
                let samples = (0..<1600).flatMap { offset -> [Float] in
                    let value = Float(0.25 * sin(2 * Double.pi * 440 * Double(index * 1600 + offset) / 48_000))
                    return [value, value]
                }
                try await audio.append(SampleBuffer(
                    presentationTime: MediaTime(value: Int64(index * 1600), timescale: 48_000), duration: MediaTime(value: 1600, timescale: 48_000),
                    sampleCount: 1600, formatDescription: format, audioBuffer: AudioBuffer(float32: samples, sampleRate: 48_000, channelCount: 2)))
            }
            video.markAsFinished()
            audio.markAsFinished()
            try await writer.finishWriting()
            #expect(writer.status == .completed)
            // nginx closes its recording when the publisher has gone.
            let file = try #require(server.recordingFolder).appendingPathComponent("writer.flv")
            await LiveStreamTests.waitForServerRecording(file)
            let packets = try videoPackets(file)
            let times = packets.map(\.time)
            print("writer stream: nginx recorded \(packets.count) pictures from \(times.first ?? -1) s to \(times.last ?? -1) s")
            #expect(packets.count == 90 && packets.first?.isKeyFrame == true)
            let steps = zip(times.dropFirst(), times).map { $0.0 - $0.1 }
            #expect(steps.allSatisfy { abs($0 - 1.0 / 30) <= 0.0011 }, "steps \(steps)")
            #expect(abs(((times.last ?? 0) - (times.first ?? 0)) - 89.0 / 30) <= 0.001)
            let movie = try decodeMovie(file, lumaStride: 8, keepsLastPicture: false)
            #expect(movie.frames.count == 90)
            // Red, green, blue have BT.709 luma ≈ 63, 173, 32 (limited range).
            let lumas = movie.frames.map(\.luma)
            if lumas.count == 90 {
                #expect(abs(lumas[15] - 63) < 6 && abs(lumas[45] - 173) < 6 && abs(lumas[75] - 32) < 6, "luma \(lumas[15]) \(lumas[45]) \(lumas[75])")
            }
            // 3 s of sound: 144 000 samples, and the AAC frames' priming and padding (at most two frames more).
            #expect((144_000...146_048).contains(movie.samples.count), "\(movie.samples.count) samples")
        }
    }

    @Test("refused: an http:// or .mp4 destination at init; a port nobody listens on fails the writer with liveStreamFailed, no hang")
    func refusedDestinations() async throws {
        let http = try #require(URL(string: "http://127.0.0.1/live.flv"))
        #expect(throws: AssetWriterError.unsupportedLiveStreamDestination(http)) { try AssetWriter(liveStreamURL: http) }
        let file = URL(fileURLWithPath: "/tmp/out.mp4")
        #expect(throws: AssetWriterError.unsupportedLiveStreamDestination(file)) { try AssetWriter(liveStreamURL: file) }
        let url = try #require(URL(string: "rtmp://127.0.0.1:\(LoopbackPort.free())/live/nobody"))
        let writer = try AssetWriter(liveStreamURL: url)
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .h264, rateControl: .averageBitRate(500_000), encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let started = Date()
        var failure: (any Error)?
        // Pictures at real time until the writer reports the failure.
        for index in 0..<300 {
            do {
                try await adaptor.append(adaptor.makePixelBuffer(), withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
            } catch {
                failure = error
                break
            }
            try await Task.sleep(nanoseconds: 33_000_000)
        }
        if failure == nil {
            do { try await writer.finishWriting() } catch { failure = error }
        }
        let elapsed = Date().timeIntervalSince(started)
        print("writer stream: unreachable server reported after \(elapsed) s: \(String(describing: failure))")
        guard case .liveStreamFailed(let destination, let reason)? = failure as? AssetWriterError else {
            Issue.record("expected liveStreamFailed, got \(String(describing: failure))")
            return
        }
        #expect(destination == url.absoluteString && reason.contains("could not connect"), "\(reason)")
        // Alone this takes 0.07–0.2 s; beside the whole parallel suite the appending task itself wakes late, so the
        // bound here only tells a refusal from a hang (the connection timeout's own bound is the session's test).
        #expect(elapsed < 30)
        #expect(writer.status == .failed)
    }
}
