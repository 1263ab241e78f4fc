import SpliceFFmpeg
internal import CMedia
import Composition
import Foundation

/// Builds an ``Composition/Asset`` from a file: opens it (``InputFile``), snapshots every stream (``StreamInfo``),
/// rejects what is not usable media with a typed error, scans the packets (``PacketScan``) and, for a still image,
/// decodes its one picture (``StillImageProbe``). Blocking; runs on the caller's thread (``Composition/Asset/load(from:)``
/// puts it on a dedicated one).
enum AssetProbe {
    /// The most packets (all streams together) one load reads: about 9 minutes of 30 fps video with 48 kHz AAC.
    /// Longer files get their durations from the container and no frame count.
    static let packetScanLimit = 50_000

    /// Demuxers that accept arbitrary text (libavformat's `tty` renders any `.txt` file as ANSI art): a file only
    /// they recognise is reported as not a media file.
    static let textDemuxers: Set<String> = ["tty"]

    /// Describes the media file at `url`.
    ///
    /// - Parameters:
    ///   - url: a `file:` URL.
    ///   - cancellation: polled during blocking I/O and between packets.
    ///   - packetScanLimit: see ``packetScanLimit`` (tests lower it).
    /// - Throws: ``AssetLoadingError``; `CancellationError` when `cancellation` is cancelled.
    static func load(url: URL, cancellation: CancellationFlag, packetScanLimit: Int = packetScanLimit) throws -> Asset {
        let file: InputFile
        do {
            file = try InputFile.open(url, cancellation: cancellation)
        } catch AssetLoadingError.notAMediaFile(let url, let reason) {
            // libavformat does not recognise a SubRip file whose timing lines lack their arrows: say where.
            if let kind = SubtitleTextFile.Kind(fileExtension: url.pathExtension) {
                _ = try SubtitleTextFile(url: url, kind: kind)
            }
            throw AssetLoadingError.notAMediaFile(url, reason: reason)
        }
        let formatName = file.formatName
        let confident = file.formatRecognisedByContent
        if textDemuxers.contains(formatName) {
            throw AssetLoadingError.notAMediaFile(url, reason: "only the '\(formatName)' text demuxer accepts it")
        }
        // StreamInfo snapshots the demuxer's own structs (AVStream, codecpar): reading them is the loader's job, so
        // it takes the context itself.
        let streams = (0..<file.streamCount).map { StreamInfo(stream: file.stream(at: $0), format: file.pointer) }
        let media = streams.filter { $0.mediaType == .video || $0.mediaType == .audio }
        if streams.isEmpty {
            if confident {
                throw AssetLoadingError.corruptOrTruncated(url, reason: "the \(formatName) container lists no tracks")
            }
            throw AssetLoadingError.notAMediaFile(url, reason: "no tracks found (guessed \(formatName))")
        }
        let subtitles = streams.filter { $0.mediaType == .subtitle && $0.hasDecoder }
        if media.isEmpty, !subtitles.isEmpty {
            // A sidecar subtitle file (.srt, .vtt, .ass) or a file of subtitle tracks only.
            if let kind = SubtitleTextFile.Kind(formatName: formatName) {
                _ = try SubtitleTextFile(url: url, kind: kind)
            }
            let tracks = try streams.map { info in
                info.mediaType == .subtitle && info.hasDecoder
                    ? try subtitleTrack(url: url, info: info, startTimeOffset: .zero, cancellation: cancellation)
                    : otherTrack(url: url, info: info)
            }
            let duration = tracks.filter { $0.mediaType == .subtitle }.map(\.timeRange.end).max() ?? .zero
            return Asset(url: url, duration: duration, tracks: tracks, metadata: metadata(of: file), formatName: formatName)
        }
        guard let firstMedia = media.first else { throw AssetLoadingError.noDecodableStream(url) }
        if !media.contains(where: \.hasDecoder) {
            throw AssetLoadingError.unsupportedCodec(url, trackID: Int32(firstMedia.index + 1), codec: firstMedia.codecName)
        }
        if !media.contains(where: { $0.hasDecoder && $0.hasParameters }) {
            let what = "no track could be decoded (picture size, pixel format, sample rate or sample format unknown)"
            if confident { throw AssetLoadingError.corruptOrTruncated(url, reason: what) }
            throw AssetLoadingError.notAMediaFile(url, reason: "guessed \(formatName) from the name, but \(what)")
        }

        let scan = try PacketScan(file: file, streams: media, limit: packetScanLimit)
        if scan.isComplete, let empty = media.first(where: { scan.packetCount[$0.index, default: 0] == 0 && ($0.duration ?? 0) > 0 }) {
            // The header declares samples but none could be read: a file cut off before (or inside) its media data.
            let declared = empty.duration.flatMap { MediaTime(pts: $0, timeBase: empty.timeBase) }?.seconds ?? 0
            throw AssetLoadingError.corruptOrTruncated(
                url, reason: "track \(empty.index + 1) declares \(declared) s of \(empty.mediaType.rawValue) but none of its samples could be read")
        }
        let isImageFormat = formatName == "image2" || formatName.hasSuffix("_pipe")
        var tracks: [AssetTrack] = []
        for info in streams {
            switch info.mediaType {
            case .video:
                let frames = scan.video[info.index] ?? PacketScan.Video()
                if isImageFormat, scan.isComplete, frames.frames.count + frames.untimedFrames == 1, info.hasDecoder,
                   info.hasParameters {
                    // Decoding needs the packets again: a fresh demuxer is simpler and safer than seeking image2.
                    let still = try StillImageProbe(file: InputFile.open(url, cancellation: cancellation), info: info)
                    tracks.append(stillTrack(url: url, info: info, still: still, bytes: scan.bytes[info.index]))
                } else {
                    var track = try videoTrack(url: url, info: info, scan: frames, complete: scan.isComplete,
                                               bytes: scan.bytes[info.index])
                    try completeHDRMetadata(of: &track, url: url, info: info, cancellation: cancellation)
                    tracks.append(track)
                }
            case .audio:
                tracks.append(try audioTrack(url: url, info: info, scan: scan.audio[info.index] ?? PacketScan.Audio(),
                                             complete: scan.isComplete, bytes: scan.bytes[info.index],
                                             cancellation: cancellation))
            default:
                tracks.append(otherTrack(url: url, info: info))
            }
        }
        // Subtitles keep the picture's clock: source time 0 is where the first video track's (else audio's) is.
        let clock = tracks.first { $0.mediaType == .video }?.startTimeOffset
            ?? tracks.first { $0.mediaType == .audio }?.startTimeOffset ?? .zero
        for index in tracks.indices where tracks[index].mediaType == .subtitle {
            let info = streams[tracks[index].streamIndex]
            if info.hasDecoder {
                tracks[index] = try subtitleTrack(url: url, info: info, startTimeOffset: clock, cancellation: cancellation)
            }
        }
        // Timed metadata Splice can read keeps the picture's clock too; boxed metadata (`mebx`) is listed as it is.
        for index in tracks.indices where tracks[index].mediaType == .metadata {
            let info = streams[tracks[index].streamIndex]
            if info.codecID == AV_CODEC_ID_MOV_TEXT {
                tracks[index] = try metadataTrack(url: url, info: info, startTimeOffset: clock, cancellation: cancellation)
            }
        }
        let composed = tracks.filter { $0.mediaType == .video || $0.mediaType == .audio }
        let duration = composed.map(\.timeRange.end).max() ?? .zero
        var asset = Asset(url: url, duration: duration, tracks: tracks, metadata: metadata(of: file), formatName: formatName)
        asset.chapterMetadataGroups = chapters(of: file, startTimeOffset: clock)
        return asset
    }

    // MARK: - Tracks

    private static func baseTrack(url: URL, info: StreamInfo, timeRange: TimeRange, startTimeOffset: MediaTime,
                                  dataRate: Int?) -> AssetTrack {
        var track = AssetTrack(
            assetURL: url, trackID: Int32(info.index + 1), mediaType: info.mediaType, timeRange: timeRange,
            naturalTimeScale: info.timeBase.den > 0 ? info.timeBase.den : 1, codecName: info.codecName,
            estimatedDataRate: info.bitRate ?? dataRate, isDecodable: info.hasDecoder && info.hasParameters,
            streamIndex: info.index, startTimeOffset: startTimeOffset, languageCode: info.language)
        track.metadata = info.metadata.isEmpty ? nil : info.metadata.map { MetadataItem(key: $0.key, value: $0.value) }
        return track
    }

    /// A time of `ticks` in the stream's time base; a value that overflows is reported as corrupt.
    private static func time(_ ticks: Int64, _ info: StreamInfo, url: URL) throws -> MediaTime {
        guard let time = MediaTime(pts: ticks, timeBase: info.timeBase) else {
            throw AssetLoadingError.corruptOrTruncated(
                url, reason: "track \(info.index + 1) has a timestamp out of range (\(ticks) × \(info.timeBase.num)/\(info.timeBase.den) s)")
        }
        return time
    }

    /// Bits per second from a byte count over a duration, when both are meaningful.
    private static func dataRate(bytes: Int64?, over duration: MediaTime) -> Int? {
        guard let bytes, bytes > 0, duration.isNumeric, duration > .zero else { return nil }
        return Int((Double(bytes) * 8 / duration.seconds).rounded())
    }

    private static func videoTrack(url: URL, info: StreamInfo, scan: PacketScan.Video, complete: Bool,
                                   bytes: Int64?) throws -> AssetTrack {
        let timing = try VideoTiming(scan: scan, info: info, complete: complete, url: url)
        let size = Size(width: info.width, height: info.height)
        var format = VideoTrackFormat(
            naturalSize: size, pixelAspectRatio: info.pixelAspectRatio, preferredTransform: .identity,
            nominalFrameRate: timing.nominalFrameRate, minFrameDuration: timing.minFrameDuration,
            hasVariableFrameRate: timing.hasVariableFrameRate, frameCount: timing.frameCount,
            pixelFormat: info.pixelFormatName, color: info.color, isStillImage: false)
        if let matrix = info.displayMatrix {
            format.preferredTransform = DisplayOrientation.preferredTransform(displayMatrix: matrix, size: format.squarePixelSize)
        }
        var track = baseTrack(url: url, info: info, timeRange: TimeRange(start: .zero, duration: timing.duration),
                              startTimeOffset: timing.startTimeOffset, dataRate: dataRate(bytes: bytes, over: timing.duration))
        track.video = format
        return track
    }

    private static func stillTrack(url: URL, info: StreamInfo, still: StillImageProbe, bytes: Int64?) -> AssetTrack {
        var format = VideoTrackFormat(
            naturalSize: still.size.width > 0 && still.size.height > 0 ? still.size : Size(width: info.width, height: info.height),
            pixelAspectRatio: info.pixelAspectRatio, preferredTransform: .identity, nominalFrameRate: 0,
            minFrameDuration: .positiveInfinity, hasVariableFrameRate: false, frameCount: 1,
            pixelFormat: still.pixelFormat, color: info.color, isStillImage: true)
        if let matrix = still.displayMatrix ?? info.displayMatrix {
            format.preferredTransform = DisplayOrientation.preferredTransform(displayMatrix: matrix, size: format.squarePixelSize)
        } else if let orientation = still.exifOrientation,
                  let transform = DisplayOrientation.preferredTransform(exifOrientation: orientation, size: format.squarePixelSize) {
            format.preferredTransform = transform
        }
        var track = baseTrack(url: url, info: info, timeRange: TimeRange(start: .zero, duration: .positiveInfinity),
                              startTimeOffset: .zero, dataRate: nil)
        track.video = format
        return track
    }

    private static func audioTrack(url: URL, info: StreamInfo, scan: PacketScan.Audio, complete: Bool,
                                   bytes: Int64?, cancellation: CancellationFlag) throws -> AssetTrack {
        var start = MediaTime.zero
        var duration = MediaTime.zero
        let sampleRate = Int32(clamping: info.sampleRate)
        if let first = scan.firstPresentedPTS {
            // Where libavcodec puts the first frame kept: the skipped samples rescaled to the stream's ticks and
            // rounded (`decode.c`), so the decoded frames land where the loader says the sound starts (Matroska's
            // millisecond ticks round Opus's 312 samples of pre-skip to 7 ms).
            var ticks = first
            if scan.skipAtFirstPresented > 0, sampleRate > 0 {
                ticks += av_rescale_q(scan.skipAtFirstPresented, AVRational(num: 1, den: sampleRate), info.timeBase)
            }
            start = try time(ticks, info, url: url)
        } else if let streamStart = info.startTime {
            start = try time(streamStart, info, url: url)
        }
        if complete, !scan.hasUncountedPackets, sampleRate > 0 {
            var samples = scan.presentedSamples
            if let decoded = try decodedSampleCount(url: url, info: info, cancellation: cancellation), decoded < samples {
                samples = decoded
            }
            duration = inStreamTimescale(MediaTime(value: samples, timescale: sampleRate), info)
        } else if let declared = try declaredEnd(info, url: url) {
            duration = max(.zero, declared - start)
        }
        var track = baseTrack(url: url, info: info, timeRange: TimeRange(start: .zero, duration: duration),
                              startTimeOffset: start, dataRate: dataRate(bytes: bytes, over: duration))
        track.audio = AudioTrackFormat(sampleRate: info.sampleRate, channelCount: info.channelCount,
                                       channelLayout: info.channelLayout, sampleFormat: info.sampleFormat)
        return track
    }

    private static func otherTrack(url: URL, info: StreamInfo) -> AssetTrack {
        let start = info.startTime.flatMap { MediaTime(pts: $0, timeBase: info.timeBase) } ?? .zero
        let duration = info.duration.flatMap { MediaTime(pts: $0, timeBase: info.timeBase) } ?? .zero
        return baseTrack(url: url, info: info, timeRange: TimeRange(start: .zero, duration: duration),
                         startTimeOffset: start, dataRate: nil)
    }

    /// A subtitle track: its cues read (``SubtitleCueReader``) to find where the last one ends (the track's duration)
    /// and how many there are; its title, default and forced flags from the container.
    /// - Throws: ``AssetLoadingError/corruptOrTruncated(_:reason:)`` when the cues cannot be read; `CancellationError`.
    private static func subtitleTrack(url: URL, info: StreamInfo, startTimeOffset: MediaTime,
                                      cancellation: CancellationFlag) throws -> AssetTrack {
        let cues: SubtitleCues
        do {
            cues = try SubtitleCueReader.read(url: url, streamIndex: info.index, startTimeOffset: startTimeOffset,
                                              cancellation: cancellation)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw AssetLoadingError.corruptOrTruncated(url, reason: "\(error)")
        }
        let end = cues.cues.map(\.timeRange.end).max() ?? .zero
        var track = baseTrack(url: url, info: info, timeRange: TimeRange(start: .zero, duration: max(end, .zero)),
                              startTimeOffset: startTimeOffset, dataRate: nil)
        track.subtitle = SubtitleTrackFormat(
            title: info.title, isDefault: info.disposition & AV_DISPOSITION_DEFAULT != 0,
            isForced: info.disposition & AV_DISPOSITION_FORCED != 0, cueCount: cues.cues.count)
        return track
    }

    /// A timed metadata track Splice writes (SpliceFFmpeg's `TimedMetadataTrack`): its groups read to find where the
    /// last one ends (the track's duration), in source time from `startTimeOffset`.
    /// - Throws: ``AssetLoadingError/corruptOrTruncated(_:reason:)`` naming the track and the time when a sample is
    ///   not a timed metadata sample, or the cause when the file cannot be read; `CancellationError`.
    private static func metadataTrack(url: URL, info: StreamInfo, startTimeOffset: MediaTime,
                                      cancellation: CancellationFlag) throws -> AssetTrack {
        let groups: [TimedMetadataGroup]
        do {
            groups = try TimedMetadataTrack.groups(in: InputFile.open(url, cancellation: cancellation), streamIndex: info.index,
                                                   startTimeOffset: startTimeOffset)
        } catch {
            if cancellation.isCancelled { throw CancellationError() }
            throw AssetLoadingError.corruptOrTruncated(
                url, reason: error is TimedMetadataTrack.MalformedSample ? "\(error)" : "timed metadata track \(info.index + 1): \(error)")
        }
        let end = groups.map(\.timeRange.end).max() ?? .zero
        return baseTrack(url: url, info: info, timeRange: TimeRange(start: .zero, duration: max(end, .zero)),
                         startTimeOffset: startTimeOffset, dataRate: nil)
    }

    /// The samples decoding the audio stream gives, decoded as the export engine decodes it (``StreamDecoder``:
    /// corrupt packets skipped, the decoder drained), or nil when it cannot be decoded to the end.
    ///
    /// The packet count can promise more than there is: a decoder may turn a packet into nothing (a libfaac-encoded file's first AAC
    /// packet, which carries libfaac's signature, decodes to no samples: 118 of its 119 packets give sound). A track
    /// lasts what both the container and the decoder allow, so the loader takes the smaller count; the container's
    /// is the smaller one where it trims the last packet (an iPhone clip's last packet: 906 of 1024 samples).
    ///
    /// - Throws: `CancellationError` only; any other failure gives nil (the export reports it when it reads there).
    static func decodedSampleCount(url: URL, info: StreamInfo, cancellation: CancellationFlag) throws -> Int64? {
        do {
            let decoder = try StreamDecoder(
                input: InputFile.open(url, cancellation: cancellation), streamIndex: info.index,
                label: "audio track \(info.index + 1) (\(info.codecName))", threads: 1)
            let frame = try Frame()
            var samples: Int64 = 0
            while try decoder.decode(into: frame) {
                samples += Int64(frame.sampleCount)
            }
            return samples
        } catch let error as CancellationError {
            throw error
        } catch {
            if cancellation.isCancelled { throw CancellationError() }
            return nil
        }
    }

    /// `start_time + duration` of the stream as the container declares it, when both are known.
    static func declaredEnd(_ info: StreamInfo, url: URL) throws -> MediaTime? {
        guard let duration = info.duration else { return nil }
        return try time((info.startTime ?? 0).addingReportingOverflow(duration).partialValue, info, url: url)
    }

    /// `time` in the stream's own timescale when that is exact (e.g. samples at 48 kHz in a 1/48000 time base).
    static func inStreamTimescale(_ time: MediaTime, _ info: StreamInfo) -> MediaTime {
        guard info.timeBase.num == 1, info.timeBase.den > 0 else { return time }
        let converted = time.convertScale(info.timeBase.den)
        return converted.hasBeenRounded ? time : converted
    }

    /// Container metadata (`AVFormatContext.metadata`) in FFmpeg's order.
    private static func metadata(of file: InputFile) -> [MetadataItem] {
        file.metadata.map { MetadataItem(key: $0.key, value: $0.value) }
    }
}
