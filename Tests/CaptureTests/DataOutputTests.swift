import Capture
import Composition
import Foundation
import SpliceTestSupport
import Testing

/// Video and audio data outputs fed by the virtual devices (real time, 30 fps, 48 kHz in 1024-sample buffers).
@Suite("Capture data outputs", .serialized)
struct DataOutputTests {
    @Test("video frames over 2 s: 60 frames at k/30 s on the session clock, scaled RGBA with the chart's colours")
    func videoFramesAndTimes() async throws {
        let output = CaptureVideoDataOutput()
        output.videoSettings = CaptureVideoSettings(pixelFormat: .rgba8, width: 320, height: 240)
        output.alwaysDiscardsLateVideoFrames = false  // a loaded machine must not lose frames from the count
        let frames = output.frames()
        let seen = try await withRunningSession([.virtualColorChart()], outputs: [output]) { _ in
            var seen: [CaptureVideoFrame] = []
            for await frame in frames {
                if frame.presentationTime >= MediaTime(seconds: 2) { break }
                seen.append(frame)
            }
            return seen
        }
        #expect(seen.count == 60)
        for (index, frame) in seen.enumerated() {
            let expected = (Double(index) * 1_000_000 / 30).rounded()
            #expect(abs(Double(frame.presentationTime.value) - expected) <= 1 && frame.presentationTime.timescale == 1_000_000,
                    "frame \(index) at \(frame.presentationTime)")
        }
        let first = try #require(seen.first)
        #expect(first.width == 320 && first.height == 240 && first.bytesPerRow == 1280 && first.pixels.count == 1280 * 240)
        for (x, y) in quadrantCentres(width: 320, height: 240) {
            let pixel = try #require(first.rgb(x: x, y: y))
            let expected = chartColor(x: x, y: y, width: 320, height: 240)
            #expect(close((Int(pixel.red), Int(pixel.green), Int(pixel.blue)), expected, within: 6),
                    "at (\(x), \(y)): \(pixel), expected \(expected)")
        }
    }

    @Test("alwaysDiscardsLateVideoFrames: a slow consumer gets the newest frame, every other frame counted as dropped")
    func slowConsumerDropsCounted() async throws {
        let output = CaptureVideoDataOutput()
        output.videoSettings = CaptureVideoSettings(pixelFormat: .gray8, width: 160, height: 120)
        let frames = output.frames()
        let seen = try await withRunningSession([.virtualCamera(markerInterval: nil)], outputs: [output]) { _ in
            // Late from the start: the consumer comes only once the camera has replaced a waiting frame (however
            // slow a loaded machine makes the camera), then takes a frame about every 150 ms (the camera: 33 ms).
            try await waitUntil("a frame dropped") { output.droppedFrameCount > 0 }
            var seen: [CaptureVideoFrame] = []
            for await frame in frames {
                seen.append(frame)
                if seen.count == 8 { break }
                try await Task.sleep(nanoseconds: 150_000_000)
            }
            return seen
        }
        #expect(seen.count == 8)
        // Every frame the camera made up to a delivered one was either delivered or counted as dropped.
        for (index, frame) in seen.enumerated() {
            let cameraFrame = Int((frame.presentationTime.seconds * 30).rounded())
            #expect(index + 1 + frame.droppedFrameCountBefore == cameraFrame + 1,
                    "delivered #\(index) is camera frame \(cameraFrame) with \(frame.droppedFrameCountBefore) dropped before it")
        }
        #expect((seen.first?.droppedFrameCountBefore ?? 0) > 0)
        #expect(output.peakQueuedFrameCount <= 1)
    }

    @Test("no discarding: a slow consumer gets every frame in order, the queue stays at its bound, nothing dropped")
    func slowConsumerBackPressure() async throws {
        let output = CaptureVideoDataOutput()
        output.videoSettings = CaptureVideoSettings(pixelFormat: .gray8, width: 160, height: 120)
        output.alwaysDiscardsLateVideoFrames = false
        output.maxQueuedFrameCount = 3
        let frames = output.frames()
        let seen = try await withRunningSession([.virtualCamera(markerInterval: nil)], outputs: [output]) { _ in
            // Late from the start: the consumer comes only once the queue is full (the session's thread then waits),
            // half a second later still, then takes a frame every 100 ms (the camera: 33 ms).
            try await waitUntil("the queue filled") { output.peakQueuedFrameCount >= 3 }
            try await Task.sleep(nanoseconds: 500_000_000)
            var seen: [CaptureVideoFrame] = []
            for await frame in frames {
                seen.append(frame)
                if seen.count == 10 { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            return seen
        }
        #expect(seen.count == 10)
        for (index, frame) in seen.enumerated() {
            #expect(Int((frame.presentationTime.seconds * 30).rounded()) == index, "delivered #\(index) at \(frame.presentationTime)")
            #expect(frame.droppedFrameCountBefore == 0)
        }
        #expect(output.droppedFrameCount == 0)
        // The queue filled to its bound and never beyond it, while the camera was held back, not dropped from.
        #expect(output.peakQueuedFrameCount == 3)
    }

    @Test("audio buffers over 2 s: sample counts add up to 2 s within one buffer, each starts where the last ended")
    func audioBuffers() async throws {
        let output = CaptureAudioDataOutput()
        let buffers = output.buffers()
        let seen = try await withRunningSession([.virtualMicrophone(markerInterval: nil)], outputs: [output]) { _ in
            var seen: [CaptureAudioBuffer] = []
            for await buffer in buffers {
                if buffer.presentationTime >= MediaTime(seconds: 2) { break }
                seen.append(buffer)
            }
            return seen
        }
        let total = seen.reduce(0) { $0 + $1.sampleCount }
        #expect(abs(total - 96_000) <= 1024, "\(total) samples in \(seen.count) buffers")
        var samplesBefore = 0
        for buffer in seen {
            let expected = (Double(samplesBefore) * 1_000_000 / 48_000).rounded()
            #expect(abs(Double(buffer.presentationTime.value) - expected) <= 1, "buffer at \(buffer.presentationTime), \(samplesBefore) samples before")
            #expect(buffer.sampleRate == 48_000 && buffer.channelCount == 2)
            samplesBefore += buffer.sampleCount
        }
        // The virtual microphone's tone peaks at 0.1 (−20 dBFS) on both channels.
        let peak = seen.flatMap { $0.channels.flatMap { $0 } }.map(abs).max() ?? 0
        #expect(abs(peak - 0.1) < 0.002, "peak \(peak)")
        #expect(output.peakQueuedBufferCount <= output.maxQueuedBufferCount)
        // The audio data output's connection meters its channels too (AVFoundation's audioChannels on any audio
        // connection): the 0.1 tone peaks at −20 dBFS, its RMS is −23.01 dBFS.
        let channels = try #require(output.connections.first?.audioChannels)
        #expect(channels.count == 2)
        for channel in channels {
            #expect(abs(channel.peakHoldLevel + 20) < 0.5 && abs(channel.averagePowerLevel + 23.01) < 0.5,
                    "peak hold \(channel.peakHoldLevel), average \(channel.averagePowerLevel) dBFS")
        }
    }

    /// Waits (120 s at most, watched from a plain thread: ``whenCondition(timeout:_:_:)``) until `condition` holds.
    /// - Throws: ``DeadlineExceeded`` naming `what`.
    private func waitUntil(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        guard await whenCondition(timeout: 120, condition, { true }) != nil || condition() else {
            throw DeadlineExceeded(what: what, seconds: 120)
        }
    }
}
