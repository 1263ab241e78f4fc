@testable import Capture
import Foundation
import SpliceTestSupport
import Testing

/// `CaptureConnection.audioChannels` levels: metered from the virtual microphone while a session runs, and the
/// meter's hold and decay rules on known blocks of samples.
@Suite("Capture audio levels", .serialized)
struct AudioLevelTests {
    @Test("a 440 Hz sine of amplitude 0.5: average −9.03 dBFS (RMS), peak hold −6.02 dBFS, both channels, ±0.5 dB")
    func sineLevels() async throws {
        let channels = try await meterWhileRunning(.virtualMicrophone(toneAmplitude: 0.5, markerInterval: nil))
        #expect(channels.count == 2)
        for (index, channel) in channels.enumerated() {
            #expect(abs(channel.average - -9.03) < 0.5, "channel \(index): average \(channel.average) dBFS")
            #expect(abs(channel.peak - -6.02) < 0.5, "channel \(index): peak hold \(channel.peak) dBFS")
        }
    }

    @Test("silence (amplitude 0): both levels at the −160 dBFS floor")
    func silenceLevels() async throws {
        let channels = try await meterWhileRunning(.virtualMicrophone(toneAmplitude: 0, markerInterval: nil))
        #expect(channels.count == 2)
        for (index, channel) in channels.enumerated() {
            #expect(channel.average <= -120, "channel \(index): average \(channel.average) dBFS")
            #expect(channel.peak <= -120, "channel \(index): peak hold \(channel.peak) dBFS")
        }
    }

    @Test("peak hold: held 1 s of sound after the peak, then falls 20 dB/s, to the floor; the average follows each block")
    func peakHoldDecay() {
        let rate = 48_000, block = rate / 10
        let sine = (0..<block).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let silence = [Float](repeating: 0, count: block)
        var meter = AudioLevelMeter()
        #expect(meter.averagePowerLevel == -160 && meter.peakHoldLevel == -160)
        meter.add(sine, sampleRate: rate)
        #expect(abs(meter.averagePowerLevel - -9.031) < 0.01, "\(meter.averagePowerLevel)")
        let peak = meter.peakHoldLevel
        #expect(abs(peak - -6.021) < 0.01, "\(peak)")
        for _ in 0..<10 { meter.add(silence, sampleRate: rate) }  // 1 s: held
        #expect(meter.averagePowerLevel == -160)
        #expect(meter.peakHoldLevel == peak)
        for _ in 0..<5 { meter.add(silence, sampleRate: rate) }  // 0.5 s more: −10 dB
        #expect(abs(meter.peakHoldLevel - (peak - 10)) < 0.001, "\(meter.peakHoldLevel)")
        // A quieter block (amplitude 0.05, −26.02 dBFS peak) stops the fall there, after (−6.02 − 10 − 26.02) / 20 s.
        for _ in 0..<100 { meter.add(sine.map { $0 / 10 }, sampleRate: rate) }
        #expect(abs(meter.peakHoldLevel - -26.02) < 0.01, "\(meter.peakHoldLevel)")
        #expect(abs(meter.averagePowerLevel - -29.03) < 0.01, "\(meter.averagePowerLevel)")
        for _ in 0..<100 { meter.add(silence, sampleRate: rate) }  // 10 s of silence: on the floor
        #expect(meter.peakHoldLevel == -160)
        #expect(meter.meteredSampleCount == 216 * block)
    }
}

/// Runs a session with `device` and a movie output (not recording), waits — 30 s at most — until the audio
/// connection has metered 0.5 s of sound, and returns each channel's levels (dBFS), read while the session runs.
private func meterWhileRunning(_ device: CaptureDevice) async throws -> [(average: Float, peak: Float)] {
    let session = CaptureSession()
    session.addInput(try CaptureDeviceInput(device: device))
    let output = CaptureMovieFileOutput()
    session.addOutput(output)
    session.startRunning()
    defer { session.stopRunning() }
    let connection = try #require(output.connections.first { $0.mediaType == .audio }, "no audio connection")
    let channels = connection.audioChannels
    try #require(!channels.isEmpty, "the audio connection has no channels")
    // Watched from a plain thread (``whenCondition(timeout:_:_:)``); the levels are read the moment 0.5 s is metered.
    let metered = await whenCondition(timeout: 30, {
        !channels.contains(where: { $0.meteredSampleCount < 24_000 }) || !session.isRunning
    }) { (counts: channels.map(\.meteredSampleCount), levels: channels.map { (average: $0.averagePowerLevel, peak: $0.peakHoldLevel) }) }
    let counts = channels.map(\.meteredSampleCount)
    let reading = try #require(metered, "only \(counts) samples metered after 30 s")
    try #require(!reading.counts.contains { $0 < 24_000 }, "the session stopped after \(reading.counts) samples metered")
    session.stopRunning()
    let stopped = await whenCondition(timeout: 30, { !session.isRunning }) { true }
    try #require(stopped != nil, "the session did not stop within 30 s")
    return reading.levels
}
