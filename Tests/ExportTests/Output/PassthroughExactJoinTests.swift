import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// Passthrough audio joins exact to the sample (``PassthroughAudioCuts/exact``, the default): an audio track cut off
/// its source's AAC packet grid is rendered and encoded on its own while the video is copied, so every beep lands on
/// its flash and beeps keep their spacing across joins, as Splice's loader and the ffmpeg tool decode the file; a
/// track cut on the grid is still copied packet for packet.
///
/// Sources: `markers/flash-beep.mp4` (H.264 30 fps, key frames at 0, 1, 2 s, B-frames in runs of four so a piece
/// from frame 30 ends cleanly after 1 + 4k frames; AAC 48 kHz stereo, 1024 priming samples; white frame 30, 1 kHz beep
/// on samples 48000 ..< 49600); and a two-beep AAC file made here (beeps on samples 48000 and 68000: 20000 samples, 0.4167 s apart).
/// A beep's onset is the first sample above 0.05 (sin 0 = 0: one after the beep's first sample).
@Suite("Passthrough exact audio joins")
struct PassthroughExactJoinTests {
    static let samplesPerFrame = 1600
    static func frames(_ count: Int) -> MediaTime { MediaTime(value: Int64(count), timescale: 30) }
    static func samples(_ count: Int) -> MediaTime { MediaTime(value: Int64(count), timescale: 48_000) }

    /// Every beep onset of `samples` (``PassthroughAudioJoinTests/onsets(_:)``).
    static func onsets(_ samples: [Float]) -> [Int] { PassthroughAudioJoinTests.onsets(samples) }

    /// Channel 0 of `url`'s audio decoded by Splice's loader and by the ffmpeg tool (which `scripts/setup` installs;
    /// its absence fails the test).
    static func decoded(_ url: URL) async throws -> [(reader: String, samples: [Float])] {
        let ffmpeg = try #require(try await FFmpegCommandLine.audio(of: url), "the ffmpeg tool is not on PATH")
        return [("Splice", try await Readback.audio(of: url)[0]), ("ffmpeg", ffmpeg)]
    }

    /// The payloads of every packet of `url`'s first audio stream, in file order (the priming packet included).
    static func audioPackets(of url: URL) async throws -> [[UInt8]] {
        let track = try #require(try await Asset.load(from: url).tracks(withMediaType: .audio).first)
        let stream = try SourceStream(url: url, index: track.streamIndex, cancellation: CancellationFlag())
        let packet = try Packet()
        var payloads: [[UInt8]] = []
        while try stream.readPacket(into: packet) { payloads.append(packet.data) }
        return payloads
    }

    /// Pieces of flash-beep of `lengths` frames, each from the source's 1 s (off the packet grid: 46.875 packets),
    /// back to back from 0 (``PassthroughAudioJoinTests/composition(_:)``): each starts with its flash and its beep.
    static func flashBeepPieces(_ lengths: [Int]) async throws -> MutableComposition {
        try await PassthroughAudioJoinTests.composition(lengths)
    }

    @Test(arguments: [([13, 17, 9], FileType.mp4), ([13, 17, 9], .mov), ([13, 17, 9], .mkv), ([17, 13], .mp4)])
    func everyBeepIsOnItsFlashAcrossJoinsOffThePacketGrid(lengths: [Int], fileType: FileType) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("joined.\(fileType.rawValue)")
        let session = AssetExportSession(asset: try await Self.flashBeepPieces(lengths), preset: .passthrough)
        session.outputURL = output
        session.outputFileType = fileType
        try await session.export()
        let label = "\(fileType.rawValue), pieces \(lengths) frames"
        #expect(scratch.contents == [output.lastPathComponent], "\(label): the re-encoded audio's directory is removed")

        // The report names the audio track and the first cut off the grid: 1 s is 896 samples past a boundary.
        let report = try #require(session.passthroughReport)
        #expect(report.reencodedTrackIDs == [2], "\(label): \(report)")
        #expect(report.audioTracks.first?.reason.contains("starts at 1.000 s of its source, 896 samples past a packet boundary") == true,
                "\(label): \(report)")

        // The video is copied: the flashes on the pieces' first frames, the source's H.264.
        let starts = lengths.indices.map { lengths[..<$0].reduce(0, +) }
        let total = lengths.reduce(0, +)
        let copy = try await Asset.load(from: output)
        #expect(copy.tracks(withMediaType: .video).first?.codecName == "h264")
        let pictures = try await MeasuredExport.frames(of: output, frameDuration: Self.frames(1), count: total)
        #expect(Measure.whiteFrames(pictures) == starts, "\(label): white frames")

        // The audio lasts the pieces to the sample (the loader's timing, through libavformat). Matroska stores no
        // duration for the last packet, which then counts as a whole one (1024 samples).
        let audio = try #require(copy.tracks(withMediaType: .audio).first)
        #expect(audio.codecName == "aac")
        let expected = total * Self.samplesPerFrame
        let loaded = Int((audio.timeRange.duration.seconds * 48_000).rounded())
        #expect(fileType == .mkv ? (expected...(expected + 1024)).contains(loaded) : loaded == expected,
                "\(label): the loader's audio lasts \(loaded) samples, the pieces \(expected)")
        for (reader, samples) in try await Self.decoded(output) {
            let offsets = zip(Self.onsets(samples), starts).map { $0 - ($1 * Self.samplesPerFrame + 1) }
            print("\(label), \(reader): beep offsets \(offsets) samples")
            #expect(offsets.count == lengths.count, "\(label), \(reader): beep offsets \(offsets)")
            // Every beep after a join is exact. The first piece's beep starts on the track's first sample: in MP4/MOV
            // the edit list keeps the AAC priming before it, exact too; Matroska has no edit list, the priming
            // packet is left out and the first packet decodes without it, so the track's first 1024 samples are not
            // the composition's (the beep's onset within one packet).
            #expect(offsets.dropFirst().allSatisfy { abs($0) <= 1 }, "\(label), \(reader): beep offsets \(offsets) samples, bound 1")
            #expect(abs(offsets.first ?? .max) <= (fileType == .mkv ? 1024 : 1), "\(label), \(reader): first beep off by \(offsets)")
        }
    }

    /// An AAC file with beeps on samples 48000 and 68000 (0.4167 s apart), 2.5 s, made through an ordinary export.
    static func twoBeepSource(in scratch: ScratchDirectory) async throws -> Asset {
        let duration = MediaTime(seconds: 2.5, preferredTimescale: 48_000)
        let beeps = "if(between(n,48000,49599),0.5*sin(2*PI*1000*(n-48000)/48000),0)"
            + "+if(between(n,68000,69599),0.5*sin(2*PI*1000*(n-68000)/48000),0)"
        let lossless = try await SyntheticMedia.makeAsset(
            video: nil, audio: SyntheticSource(description: "aevalsrc=exprs='\(beeps)':s=48000:c=stereo:n=1024", mediaType: .audio),
            duration: duration, in: scratch.url, name: "beeps")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: duration), of: lossless, at: .zero)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: nil, audio: AudioSettings()))
        session.outputURL = scratch.file("beeps.m4a")
        try await session.export()
        return try await Asset.load(from: scratch.file("beeps.m4a"))
    }

    /// Pieces of the two-beep source (sample ranges, back to back from 0) and the beep onsets they must decode to.
    /// "split": [2.0, 2.31) s, then [0.9, 1.2) s holding the first beep, then [1.2, 1.8) s holding the second — the
    /// join between the beeps falls 0.31 s into the output, off the grid the source's packets would be laid on; the
    /// beeps at 19680 and 39680. "repeated": [0.9, 1.31) s holding the first beep, then [0.8933, 1.4933) s holding
    /// both — each beep 20000 samples after the previous one, across the join and within the piece.
    static let twoBeepEdits: [(name: String, pieces: [Range<Int>], onsets: [Int])] = [
        ("split", [96_000..<110_880, 43_200..<57_600, 57_600..<86_400], [19_681, 39_681]),
        ("repeated", [43_200..<62_880, 42_880..<71_680], [4_801, 24_801, 44_801]),
    ]

    @Test(arguments: [FileType.mp4, .mov, .mkv], twoBeepEdits.indices)
    func beepsKeepTheirSpacingAcrossAJoin(fileType: FileType, edit: Int) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (name, pieces, expected) = Self.twoBeepEdits[edit]
        let source = try await Self.twoBeepSource(in: scratch)
        let track = try #require(source.tracks(withMediaType: .audio).first)
        var composition = MutableComposition()
        let audio = try composition.addMutableTrack(withMediaType: .audio)
        var at = 0
        for piece in pieces {
            try composition.insertTimeRange(TimeRange(start: Self.samples(piece.lowerBound), end: Self.samples(piece.upperBound)),
                                            of: track, at: Self.samples(at), intoTrackWithID: audio)
            at += piece.count
        }
        let output = scratch.file("beeps-joined.\(fileType.rawValue)")
        try await PassthroughTests.export(composition, to: output) { $0.outputFileType = fileType }

        let label = "\(name), \(fileType.rawValue)"
        for (reader, samples) in try await Self.decoded(output) {
            let onsets = Self.onsets(samples)
            let spacings = zip(onsets, onsets.dropFirst()).map { $1 - $0 }
            print("\(label), \(reader): beep onsets \(onsets), spacings \(spacings)")
            #expect(onsets.count == expected.count, "\(label), \(reader): onsets \(onsets), expected \(expected)")
            #expect(spacings.allSatisfy { abs($0 - 20_000) <= 1 }, "\(label), \(reader): beeps \(spacings) samples apart")
            #expect(zip(onsets, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(label), \(reader): onsets \(onsets), expected \(expected)")
        }
    }

    /// Audio cut only on the source's packet grid (flash-beep samples [10240, 40960) then [61440, 92160): packets
    /// 10 ..< 40 and 60 ..< 90) is copied: the output's packets are the source's, byte for byte — packet 9 as the
    /// first piece's pre-roll, 10 ..< 39, packet 59 (the second piece's pre-roll, in place of packet 39), 60 ..< 90.
    @Test func audioCutOnThePacketGridIsCopiedByteForByte() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Fixture.asset("markers/flash-beep.mp4")
        let track = try #require(clip.tracks(withMediaType: .audio).first)
        var composition = MutableComposition()
        let audio = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(TimeRange(start: Self.samples(10_240), end: Self.samples(40_960)), of: track,
                                        at: .zero, intoTrackWithID: audio)
        try composition.insertTimeRange(TimeRange(start: Self.samples(61_440), end: Self.samples(92_160)), of: track,
                                        at: Self.samples(30_720), intoTrackWithID: audio)
        let output = scratch.file("on-grid.mp4")
        let session = AssetExportSession(asset: composition, preset: .passthrough)
        session.outputURL = output
        try await session.export()
        #expect(session.passthroughReport?.reencodedTrackIDs == [])
        #expect(session.passthroughReport?.audioTracks.first?.reason == "every cut is on its source's packet grid")

        // Source packets: index 0 is the priming packet, so source packet k (samples 1024k ..<) is at k + 1.
        let source = try await Self.audioPackets(of: Fixture.url("markers/flash-beep.mp4"))
        let copied = try await Self.audioPackets(of: output)
        let expected = [source[10]] + Array(source[11..<40]) + [source[60]] + Array(source[61..<91])
        #expect(copied.count == expected.count, "\(copied.count) packets, expected \(expected.count)")
        #expect(copied == expected, "the packets differ from the source's")
    }

    /// ``PassthroughAudioCuts/nearestPacket`` keeps the source's packets: the report says the track was copied and
    /// why the beeps may be off, and each beep stays within half a packet (512 samples) of its flash, as before.
    @Test func nearestPacketKeepsTheSourcePacketsWithinHalfAPacket() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let lengths = [13, 17, 9]
        let output = scratch.file("nearest.mp4")
        let session = AssetExportSession(asset: try await Self.flashBeepPieces(lengths), preset: .passthrough)
        session.outputURL = output
        session.passthroughAudioCuts = .nearestPacket
        try await session.export()
        let report = try #require(session.passthroughReport)
        #expect(report.reencodedTrackIDs == [])
        #expect(report.audioTracks.first?.reason.hasSuffix("placed at the nearest packet boundary (passthroughAudioCuts: nearestPacket)") == true,
                "\(report)")
        // The source's packets: the payloads of the first piece after its pre-roll are flash-beep's from 1 s on.
        let source = try await Self.audioPackets(of: Fixture.url("markers/flash-beep.mp4"))
        let copied = try await Self.audioPackets(of: output)
        #expect(copied.allSatisfy { source.contains($0) }, "every packet is one of the source's")

        let starts = lengths.indices.map { lengths[..<$0].reduce(0, +) }
        let offsets = zip(Self.onsets(try await Readback.audio(of: output)[0]), starts).map { $0 - ($1 * Self.samplesPerFrame + 1) }
        #expect(offsets.count == lengths.count && offsets.allSatisfy { abs($0) <= 512 }, "beep offsets \(offsets)")
        #expect(offsets.contains { abs($0) > 1 }, "off the grid, the copied packets cannot all be exact: \(offsets)")
    }

    /// The re-encoding settings: the source's rate and channels, its bit rate within 32–320 kb/s (the highest of the
    /// track's sources; 128 kb/s when none states one); the obstacles named.
    @Test func reencodingKeepsTheSourceFormatOrNamesTheObstacle() throws {
        func track(rate: Int = 44_100, channels: Int = 1, bitRate: Int? = nil) -> AssetTrack {
            AssetTrack(assetURL: URL(fileURLWithPath: "/clip.mov"), trackID: 2, mediaType: .audio,
                       timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)), naturalTimeScale: Int32(rate),
                       codecName: "aac", estimatedDataRate: bitRate, streamIndex: 1,
                       audio: AudioTrackFormat(sampleRate: rate, channelCount: channels, channelLayout: channels == 1 ? "mono" : "5.1"))
        }
        func settings(_ sources: [AssetTrack], _ fileType: FileType = .mp4) -> AudioSettings? {
            try? AssetExportSession.exactCutSettings(sources: sources, fileType: fileType).get()
        }
        func obstacle(_ sources: [AssetTrack], _ fileType: FileType = .mp4) -> String? {
            guard case .failure(let obstacle) = AssetExportSession.exactCutSettings(sources: sources, fileType: fileType) else { return nil }
            return obstacle.reason
        }
        #expect(settings([track(bitRate: 96_000), track(bitRate: 64_000)])
                == AudioSettings(codec: .aac, bitRate: 96_000, sampleRate: 44_100, channelCount: 1))
        #expect(settings([track()], .mkv)?.bitRate == 128_000)
        #expect(settings([track(bitRate: 8_000)])?.bitRate == 32_000)
        #expect(settings([track(bitRate: 1_411_200)])?.bitRate == 320_000)
        #expect(obstacle([track()], .webm) == "a .webm file cannot hold AAC")
        #expect(obstacle([track(channels: 6)]) == "6 channels; Splice encodes mono or stereo")
        #expect(obstacle([track(rate: 44_000)]) == "AAC cannot be encoded at 44000 Hz")
    }
}

/// Real phone clips (`../shared/media`) cut off their audio's packet grid: the re-encoded track keeps the source's
/// sample rate and channel count, lasts the pieces to the sample, and each piece's sound lies exactly where the
/// composition puts it (cross-correlated with the source's own decode).
@Suite("Passthrough exact audio joins: real footage", .enabled(if: Fixture.sharedMediaIsAvailable))
struct PassthroughExactJoinFootageTests {
    /// M01: iPhone 4S, AAC mono 44.1 kHz in MOV (1 s is 43.07 packets); M03: Android, AAC mono 48 kHz in MP4 (46.875).
    /// Both H.264 without B-frames, a key frame at 0.
    @Test(arguments: ["M01_iphone4s_rot-90_ts600_aac-mono44k.mov", "M03_android_720p_rot180_vfr_aac-mono48k.mp4"])
    func theFirstSecondTwiceKeepsTheSourceFormatAndTiming(file: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = Fixture.sharedMedia(file)
        let clip = try await Asset.load(from: url)
        let sourceAudio = try #require(clip.tracks(withMediaType: .audio).first)
        let format = try #require(sourceAudio.audio)
        var composition = MutableComposition()
        let second = MediaTime(seconds: 1)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: second), of: clip, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: second), of: clip, at: second)
        let output = scratch.file("twice.mp4")
        let session = AssetExportSession(asset: composition, preset: .passthrough)
        session.outputURL = output
        try await session.export()
        let audioTrackID = try #require(composition.tracks(withMediaType: .audio).first?.trackID)
        #expect(session.passthroughReport?.reencodedTrackIDs == [audioTrackID], "\(String(describing: session.passthroughReport))")

        let copy = try await Asset.load(from: output)
        let audio = try #require(copy.tracks(withMediaType: .audio).first)
        #expect(audio.codecName == "aac")
        #expect(audio.audio?.sampleRate == format.sampleRate)
        #expect(audio.audio?.channelCount == format.channelCount)
        #expect(audio.timeRange.duration == MediaTime(seconds: 2), "\(file): audio lasts \(audio.timeRange.duration)")
        #expect(copy.tracks(withMediaType: .video).first?.codecName == "h264")

        // Each piece's sound where the composition puts it: the source's decode from 0.25 s matches the output's at
        // 0.25 s and at 1.25 s, to the sample.
        let rate = format.sampleRate
        let source = try await Readback.audio(of: url, sampleRate: rate)[0]
        let joined = try await Readback.audio(of: output, sampleRate: rate)[0]
        for piece in 0..<2 {
            let found = Measure.lag(of: source, in: joined, expected: piece * rate, search: 1100, window: rate / 2,
                                    referenceStart: rate / 4)
            print("\(file): piece \(piece) lag \(found.lag) (expected \(piece * rate)), correlation \(found.correlation)")
            #expect(found.lag == piece * rate && found.correlation > 0.9, "\(file): piece \(piece): \(found)")
        }
    }
}
