import Capture
import Composition
import Foundation
import SpliceTestSupport
import Testing

/// `CaptureConnection.isEnabled` and `CaptureAudioChannel.volume` on recordings of the virtual devices.
@Suite("Connection isEnabled and channel volume", .serialized)
struct ConnectionControlTests {
    /// Records `seconds` into `url` with a movie output; `prepare` sets its connections first (they exist once the
    /// session runs). Returns the result and the output's connections.
    private func recordMovie(_ devices: [CaptureDevice], seconds: Int, to url: URL,
                             prepare: @escaping @Sendable ([CaptureConnection]) throws -> Void) async throws
        -> (CaptureRecordingResult, [CaptureConnection]) {
        let output = CaptureMovieFileOutput()
        output.maxRecordedDuration = MediaTime(seconds: Int64(seconds))
        return try await withRunningSession(devices, outputs: [output]) { _ in
            try prepare(output.connections)
            var result: CaptureRecordingResult?
            for await event in output.startRecording(to: url) {
                if case .finished(let finished) = event { result = finished }
            }
            guard let result else { throw CaptureTestFailure.noResult }
            return (result, output.connections)
        }
    }

    @Test("volume 0.5 on the left channel: recorded 6.02 dB lower (−15.05 dBFS for a 0.5 sine), the right unchanged; out of range is a typed error")
    func channelVolume() async throws {
        let scratch = try ScratchDirectory("capture-volume")
        defer { scratch.remove() }
        let url = scratch.file("volume.mp4")
        let (result, connections) = try await recordMovie([.virtualMicrophone(toneAmplitude: 0.5, markerInterval: nil)],
                                                          seconds: 2, to: url) { connections in
            guard let channels = connections.first(where: { $0.mediaType == .audio })?.audioChannels, channels.count == 2 else {
                throw CaptureTestFailure.noStream("audio connection with two channels")
            }
            try channels[0].setVolume(0.5)
            #expect(throws: CaptureAudioChannelError.volumeOutOfRange(1.5)) { try channels[1].setVolume(1.5) }
            #expect(throws: CaptureAudioChannelError.volumeOutOfRange(-0.1)) { try channels[1].setVolume(-0.1) }
            #expect(throws: CaptureAudioChannelError.self) { try channels[1].setVolume(.nan) }
        }
        #expect(result.error == .maximumDurationReached)
        let channels = try #require(connections.first { $0.mediaType == .audio }?.audioChannels)
        #expect(channels.map(\.volume) == [0.5, 1], "the refused values left the volume as it was")

        // The file's left channel: a 0.5 sine at gain 0.5 is an RMS of 0.25/√2, −15.05 dBFS.
        let expected = 20 * log10(0.25 / 2.0.squareRoot())
        let movie = try decodeMovie(url)
        let level = movie.level(from: 0.25, to: 1.75)
        print("volume 0.5: file \(level) dBFS (expected \(expected)); meters \(channels.map(\.averagePowerLevel)) dBFS")
        #expect(abs(level - expected) <= 0.2, "\(level) dBFS")
        #expect(abs(movie.frequency(from: 0.25, to: 1.75) - 440) <= 1)
        // The meters read the sound as the connection delivers it: the left 6.02 dB below the right.
        #expect(abs(Double(channels[0].averagePowerLevel) - expected) <= 0.5, "left \(channels[0].averagePowerLevel) dBFS")
        #expect(abs(Double(channels[1].averagePowerLevel) - (expected + 6.02)) <= 0.5, "right \(channels[1].averagePowerLevel) dBFS")
    }

    @Test("audio connection disabled before recording: the movie has pictures and no audio track; its channels are not metered")
    func disabledAudioConnection() async throws {
        let scratch = try ScratchDirectory("capture-disabled")
        defer { scratch.remove() }
        let url = scratch.file("video-only.mp4")
        let (result, connections) = try await recordMovie([.virtualCamera(), .virtualMicrophone()], seconds: 1, to: url) { connections in
            for connection in connections where connection.mediaType == .audio { connection.isEnabled = false }
        }
        #expect(result.error == .maximumDurationReached)
        #expect(result.recordedDuration == MediaTime(seconds: 1))
        let movie = try decodeMovie(url)
        #expect(movie.frames.count == 30)
        #expect(movie.sampleRate == 0 && movie.samples.isEmpty, "an audio track with \(movie.samples.count) samples")
        let audio = try #require(connections.first { $0.mediaType == .audio })
        #expect(!audio.isEnabled)
        #expect(audio.audioChannels.allSatisfy { $0.averagePowerLevel == -160 }, "\(audio.audioChannels.map(\.averagePowerLevel))")
    }
}
