import AssetIO
import AudioMix
import Composition
import Export
import Foundation
import SpliceFFmpeg
import VideoComposition
internal import CMedia

/// One rendition's encoder and segmenter: encoded packets cut into CMAF segments written as files in its folder
/// (`init.mp4`, `segment0.m4s`, …), with what each segment held.
final class RenditionWriter {
    let name: String
    let folder: URL
    let muxer: EncodingMuxer
    let encoder: Encoder
    let stream: Int
    private(set) var segmentBytes: [Int] = []
    private(set) var segmentStarts: [MediaTime] = []
    private(set) var segmentDurations: [MediaTime] = []

    /// Opens `configuration`'s encoder (plus `options`) into a segmenter cutting every `interval`, writing into
    /// `folder` (created here).
    /// - Throws: ``PackagingError/encodingFailed(rendition:reason:)`` when the encoder is missing or refuses the
    ///   settings, ``PackagingError/writeFailed(_:reason:)`` when the folder cannot be made.
    init(name: String, folder: URL, configuration: EncoderConfiguration, options: [String: String],
         interval: MediaTime) throws {
        self.name = name
        self.folder = folder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            throw PackagingError.writeFailed(folder, reason: FailureReason.words(for: error))
        }
        let recorder = SegmentFiles(folder: folder)
        do {
            encoder = try Encoder(configuration: configuration)
        } catch {
            throw PackagingError.encodingFailed(rendition: name, reason: "the encoder \(configuration.encoderName) is not available")
        }
        let segmenter = try FragmentedMP4Segmenter(profile: .cmaf, initialStart: .zero, interval: interval) { segment in
            try recorder.write(segment)
        }
        self.recorder = recorder
        muxer = try EncodingMuxer(segmenter: segmenter)
        do {
            stream = try muxer.addStream(encoder, options: options)
            try muxer.writeHeader()
            timescale = muxer.output.timeBase(ofStream: stream).den
        } catch {
            throw PackagingError.encodingFailed(rendition: name, reason: "\(configuration.encoderName) refused its settings: \(error)")
        }
    }

    private let recorder: SegmentFiles

    /// The track's time scale in the segments (`mdhd`).
    let timescale: Int32

    /// Encodes `frame` (nil: drains the encoder), setting each packet's duration with `adjust`.
    func encode(_ frame: Frame?, adjust: (Packet) -> Void = { _ in }) throws {
        do {
            try muxer.encode(frame, stream: stream, adjust: adjust)
        } catch let error as PackagingError {
            throw error
        } catch EncodingMuxer.Failure.encoding(let error) {
            throw PackagingError.encodingFailed(rendition: name, reason: "\(error)")
        } catch EncodingMuxer.Failure.writing(let error) {
            throw PackagingError.encodingFailed(rendition: name, reason: "writing a segment: \(error)")
        }
    }

    /// Drains the encoder (each packet given to `adjust` as in ``encode(_:adjust:)``), cuts the last segment and
    /// ends the muxer.
    func finish(adjust: (Packet) -> Void = { _ in }) throws {
        try encode(nil, adjust: adjust)
        do {
            try muxer.endStream(stream)
            try muxer.finish()
        } catch let error as PackagingError {
            throw error
        } catch {
            throw PackagingError.encodingFailed(rendition: name, reason: "writing the last segment: \(error)")
        }
        let segments = recorder.segments
        segmentBytes = segments.map(\.bytes)
        segmentStarts = segments.map(\.start)
        segmentDurations = segments.map(\.duration)
    }

    /// The segment files of one rendition, written as the segmenter delivers them.
    private final class SegmentFiles {
        let folder: URL
        var segments: [(bytes: Int, start: MediaTime, duration: MediaTime)] = []

        init(folder: URL) { self.folder = folder }

        func write(_ segment: FragmentedMP4Segmenter.Segment) throws {
            let name = segment.kind == .initialization ? "init.mp4" : "segment\(segment.sequenceNumber).m4s"
            let url = folder.appendingPathComponent(name)
            do {
                try Data(segment.bytes).write(to: url, options: .withoutOverwriting)
            } catch {
                throw PackagingError.writeFailed(url, reason: FailureReason.words(for: error))
            }
            if segment.kind == .media, let track = segment.tracks.first {
                segments.append((segment.bytes.count, track.earliestPresentationTime, track.duration))
            }
        }
    }
}

/// The package's encodes, run on the calling thread (a worker thread): the composition's sound mixed once by the
/// export's mixer into one AAC rendition, then its pictures rendered once by the export's compositor and split by
/// one filter graph (`split`, then `scale` + `format` per rendition) into every rendition's encoder, each forcing an
/// IDR picture at every segment boundary (``SegmentKeyFrameSchedule``).
struct LadderEncoding {
    var composition: MutableComposition
    var videoComposition: MutableVideoComposition?
    var audioMix: MutableAudioMix?
    var ladder: AdaptiveBitrateLadder
    var segmentDuration: MediaTime
    var encoderPreset: String
    var audioSettings: AudioSettings

    /// Encodes everything into `folder` (an existing empty folder) and returns what was written, telling `progress`
    /// how far it is (0…0.95: the sound's share up to 0.05, then the pictures'; not always increasing by itself —
    /// the packager keeps the published value monotonic).
    func run(into folder: URL, cancellation: CancellationFlag, progress: (Double) -> Void) throws -> AdaptiveBitratePackage {
        let range = TimeRange(start: .zero, duration: Self.programmeDuration(of: composition))
        let videoIDs = composition.tracks(withMediaType: .video).map(\.trackID)
        let rendering: CompositionVideoRendering
        do {
            rendering = try CompositionVideoRendering(composition: composition, videoComposition: videoComposition,
                                                      trackIDs: videoIDs, timeRange: range, keepsHDR: false)
        } catch ExportError.invalidComposition {
            throw PackagingError.noVideo
        }
        let audioIDs = composition.tracks(withMediaType: .audio)
            .filter { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }.map(\.trackID)
        let audioShare = audioIDs.isEmpty ? 0 : 0.05
        let audio = try audioIDs.isEmpty ? nil : encodeAudio(trackIDs: audioIDs, range: range, into: folder, cancellation: cancellation) {
            progress($0 * audioShare)
        }
        let video = try encodeVideo(rendering, into: folder, cancellation: cancellation) {
            progress(audioShare + $0 * (0.95 - audioShare))
        }
        return AdaptiveBitratePackage(directory: folder, masterPlaylist: nil, dashManifest: nil, videoRenditions: video,
                                      audioRendition: audio, duration: range.duration, frameDuration: rendering.frameDuration)
    }

    /// How long a package of `composition` lasts: to the end of its last video or audio track. A subtitle or timed
    /// metadata track that ends later does not lengthen the package (its cues are cut there), unlike an export, whose
    /// file lasts as the composition's longest track (``MutableComposition/duration``, as AVFoundation's): a package
    /// has no picture to show beside a cue past the video's last segment.
    static func programmeDuration(of composition: MutableComposition) -> MediaTime {
        composition.tracks.filter { $0.mediaType == .video || $0.mediaType == .audio }.map(\.timeRange.end).max() ?? .zero
    }

    /// Mixes the sound once (the export's mixer) and encodes it as the AAC rendition `audio-BITRATEk`.
    private func encodeAudio(trackIDs: [Int32], range: TimeRange, into folder: URL, cancellation: CancellationFlag,
                             progress: (Double) -> Void) throws -> AdaptiveBitratePackage.Rendition {
        let mixing = try CompositionAudioMixing(composition: composition, audioMix: audioMix, trackIDs: trackIDs, timeRange: range,
                                                sampleRate: audioSettings.sampleRate, channelCount: audioSettings.channelCount)
        let name = "audio-\(audioSettings.bitRate / 1000)k"
        let configuration = audioSettings.encoderConfiguration(sampleRate: audioSettings.sampleRate, channelCount: audioSettings.channelCount)
        let writer = try RenditionWriter(name: name, folder: folder.appendingPathComponent(name), configuration: configuration,
                                         options: [:], interval: segmentDuration)
        let mixer = try CompositionAudioMixer(mixing, chunkSize: writer.encoder.frameSize > 0 ? writer.encoder.frameSize : 1024,
                                              cancellation: cancellation)
        let total = Double(max(mixing.sampleCount, 1))
        var mixed = 0
        while try mixer.next(emit: { frame in
            mixed += frame.sampleCount
            try writer.encode(frame)
        }) {
            if cancellation.isCancelled { throw CancellationError() }
            progress(min(1, Double(mixed) / total))
        }
        try writer.finish()
        // The presented sound starts at 0 (the encoder's priming is cut by the edit list) and ends at the range's
        // end: each segment lasts from its cut to the next one's.
        let starts = writer.segmentStarts.enumerated().map { $0.offset == 0 ? MediaTime.zero : max(.zero, $0.element) }
        let durations = starts.indices.map { index in
            (index + 1 < starts.count ? starts[index + 1] : range.duration) - starts[index]
        }
        return rendition(writer, size: nil, channelCount: audioSettings.channelCount, codecs: "mp4a.40.2",
                         targetBitRate: audioSettings.bitRate, durations: durations, total: range.duration)
    }

    /// Renders the pictures once and encodes every rendition of the ladder that fits the render size.
    private func encodeVideo(_ rendering: CompositionVideoRendering, into folder: URL, cancellation: CancellationFlag,
                             progress: (Double) -> Void) throws -> [AdaptiveBitratePackage.Rendition] {
        let frameDuration = rendering.frameDuration
        let rungs = ladder.renditions(forSourceSize: rendering.renderSize)
        let timeScale = frameDuration.timescale
        let ticksPerFrame = frameDuration.value
        let lastIndex = Int64(max(rendering.frameCount - 1, 0))
        let endTicks = rendering.timeRange.duration.convertScale(timeScale).value
        let lastDuration = max(1, endTicks - lastIndex * ticksPerFrame)
        let timeBase = AVRational(num: 1, den: timeScale)

        var writers: [RenditionWriter] = []
        for (rendition, size) in rungs {
            var settings = VideoSettings(codec: rendition.codec, rateControl: .averageBitRate(rendition.bitRate),
                                         encoderPreset: encoderPreset)
            settings.keyFrameInterval = nil
            let configuration = settings.encoderConfiguration(size: size, frameDuration: frameDuration, timeScale: timeScale, fileType: .mp4)
            var options = SegmentKeyFrameSchedule.encoderOptions(encoderName: configuration.encoderName)
            // A VBV bounds the peak: 1.5 × the average over a 2 s buffer, so BANDWIDTH stays near the asked rate.
            options["maxrate"] = "\(rendition.bitRate * 3 / 2)"
            options["bufsize"] = "\(rendition.bitRate * 2)"
            writers.append(try RenditionWriter(name: rendition.name, folder: folder.appendingPathComponent(rendition.name),
                                               configuration: configuration, options: options, interval: segmentDuration))
        }
        var schedules = writers.map { _ in SegmentKeyFrameSchedule(interval: segmentDuration) }

        let renderer = CompositionVideoRenderer(rendering, feedsEncoder: true, cancellation: cancellation)
        defer { renderer.stop() }
        var graph: FilterGraph?
        let scaled = try Frame()

        func adjust(_ packet: Packet) {
            if let pts = packet.presentationTimestamp { packet.duration = pts >= lastIndex * ticksPerFrame ? lastDuration : ticksPerFrame }
        }
        func drain(_ graph: FilterGraph) throws {
            for index in writers.indices {
                while try graph.pull(from: index, into: scaled) == .frame {
                    scaled.resetPictureType()
                    if schedules[index].forcesKeyFrame(at: MediaTime(value: scaled.pts, timescale: timeScale)) {
                        scaled.forceKeyFrame()
                    }
                    try writers[index].encode(scaled, adjust: adjust)
                    scaled.unref()
                }
            }
        }

        let pictureCount = Double(max(rendering.frameCount, 1))
        var rendered = 0
        while let frame = try renderer.next() {
            if cancellation.isCancelled { throw CancellationError() }
            if graph == nil {
                graph = try Self.splitGraph(width: frame.width, height: frame.height, pixelFormat: frame.format,
                                            timeBase: timeBase, sizes: rungs.map(\.size))
            }
            frame.pts = frame.pts * ticksPerFrame
            frame.markSquarePixels()
            try graph!.push(frame, to: 0, keepReference: true)
            renderer.recycle(frame)
            try drain(graph!)
            rendered += 1
            progress(min(1, Double(rendered) / pictureCount))
        }
        if let graph {
            try graph.push(nil, to: 0)
            try drain(graph)
        }
        renderer.stop()
        for writer in writers { try writer.finish(adjust: adjust) }

        return zip(writers, rungs).map { writer, rung in
            rendition(writer, size: rung.size, channelCount: nil,
                      codecs: rung.rendition.codec == .hevc ? Self.hevcCodecs(of: writer.encoder) : Self.avcCodecs(of: writer.encoder),
                      targetBitRate: rung.rendition.bitRate, durations: writer.segmentDurations, total: rendering.timeRange.duration)
        }
    }

    /// One graph from the rendered canvas to every rendition: `split` into one branch per size, each `scale`d
    /// (bicubic) to its size in 4:2:0.
    static func splitGraph(width: Int, height: Int, pixelFormat: Int32, timeBase: AVRational, sizes: [Size]) throws -> FilterGraph {
        let source = FilterGraph.VideoSource(label: "in", width: width, height: height, pixelFormat: pixelFormat, timeBase: timeBase)
        let branches = sizes.indices.map { "[s\($0)]" }
        let split = sizes.count == 1 ? "[in]null[s0]" : "[in]split=\(sizes.count)" + branches.joined()
        let scales = sizes.enumerated().map { index, size in
            "[s\(index)]scale=\(size.width):\(size.height):flags=bicubic,format=yuv420p,setsar=1[out\(index)]"
        }
        return try FilterGraph(description: ([split] + scales).joined(separator: ";"), sources: [.video(source)],
                               sinkLabels: sizes.indices.map { "out\($0)" }, sinkIsAudio: sizes.map { _ in false })
    }

    /// RFC 6381's `avc1.PPCCLL` of an opened H.264 encoder: profile, constraint flags and level from its sequence
    /// parameter set (the extradata, as an `avcC` record or Annex B start codes).
    static func avcCodecs(of encoder: Encoder) -> String {
        let context = encoder.pointer.pointee
        guard let data = context.extradata, context.extradata_size > 4 else { return "avc1.640028" }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(context.extradata_size)))
        var sps: ArraySlice<UInt8>?
        if bytes[0] == 1, bytes.count >= 4 {
            sps = bytes[1...3]
        } else {
            var index = 0
            while index + 4 < bytes.count {
                if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1, bytes[index + 3] & 0x1F == 7, index + 6 < bytes.count {
                    sps = bytes[(index + 4)...(index + 6)]
                    break
                }
                index += 1
            }
        }
        guard let sps else { return "avc1.640028" }
        return "avc1." + sps.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// RFC 6381's `hvc1.P.C.TL.B…` of an opened HEVC encoder (ISO/IEC 14496-15 annex E): profile space and
    /// profile, the 32 compatibility flags bit-reversed in hex, tier and level, then the constraint bytes without
    /// the trailing zero ones — read from the profile_tier_level of its sequence parameter set (Annex B
    /// extradata, emulation-prevention bytes removed).
    static func hevcCodecs(of encoder: Encoder) -> String {
        let context = encoder.pointer.pointee
        let fallback = "hvc1.1.6.L93.B0"
        guard let data = context.extradata, context.extradata_size > 4 else { return fallback }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(context.extradata_size)))
        var index = 0
        var payload: [UInt8] = []
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1, (bytes[index + 3] >> 1) & 0x3F == 33 {
                // The SPS: 2 header bytes, then one byte of IDs and flags, then 12 bytes of profile_tier_level.
                var zeros = 0
                for byte in bytes[(index + 5)...] {
                    if zeros >= 2 && byte == 3 { zeros = 0; continue }
                    payload.append(byte)
                    zeros = byte == 0 ? zeros + 1 : 0
                    if payload.count == 13 { break }
                }
                break
            }
            index += 1
        }
        guard payload.count == 13 else { return fallback }
        let space = ["", "A", "B", "C"][Int(payload[1] >> 6)]
        let tier = payload[1] & 0x20 != 0 ? "H" : "L"
        let profile = payload[1] & 0x1F
        var flags: UInt32 = 0
        for byte in payload[2...5] { flags = flags << 8 | UInt32(byte) }
        var reversed: UInt32 = 0
        for bit in 0..<32 where flags & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
        var constraints = Array(payload[6...11])
        while constraints.last == 0 { constraints.removeLast() }
        let level = payload[12]
        return "hvc1.\(space)\(profile).\(String(reversed, radix: 16, uppercase: true)).\(tier)\(level)"
            + constraints.map { "." + String($0, radix: 16, uppercase: true) }.joined()
    }

    private func rendition(_ writer: RenditionWriter, size: Size?, channelCount: Int?, codecs: String, targetBitRate: Int,
                           durations: [MediaTime], total: MediaTime) -> AdaptiveBitratePackage.Rendition {
        var peak = 0.0
        for (bytes, duration) in zip(writer.segmentBytes, durations) where duration > .zero {
            peak = max(peak, Double(bytes * 8) / duration.seconds)
        }
        let average = total > .zero ? Double(writer.segmentBytes.reduce(0, +) * 8) / total.seconds : 0
        return AdaptiveBitratePackage.Rendition(
            name: writer.name, size: size, channelCount: channelCount, codecs: codecs, targetBitRate: targetBitRate,
            peakBitRate: Int(peak.rounded(.up)), averageBitRate: Int(average.rounded(.up)), segmentDurations: durations,
            timescale: writer.timescale)
    }
}
