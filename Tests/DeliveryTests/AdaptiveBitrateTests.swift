import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting
import Testing

/// Adaptive-bitrate packages of a 4 s synthetic programme (320 × 180 test pattern at 30 fps, a 440 Hz tone): two
/// H.264 renditions and an AAC rendition in 1 s CMAF segments, read back by the `m3u8` package, `ffprobe`, and
/// `ffmpeg` over HTTP from a server on 127.0.0.1.
@Suite struct AdaptiveBitrateTests {
    static let ladder = AdaptiveBitrateLadder(renditions: [
        .init(height: 180, bitRate: 400_000),
        .init(height: 120, bitRate: 200_000),
    ])

    /// A 4 s composition of a moving test pattern with a tone, lossless.
    static func programme(in scratch: ScratchDirectory) async throws -> MutableComposition {
        let url = scratch.file("programme.mkv")
        try SyntheticMedia.write(video: "testsrc2=s=320x180:r=30", audio: "sine=frequency=440:sample_rate=48000",
                                 duration: MediaTime(seconds: 4), to: url)
        let asset = try await Asset.load(from: url)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        return composition
    }

    /// Packages the programme with ``ladder`` in 1 s segments into `scratch/package`.
    static func package(in scratch: ScratchDirectory) async throws -> AdaptiveBitratePackage {
        let packager = AdaptiveBitratePackager(asset: try await programme(in: scratch))
        packager.ladder = ladder
        packager.segmentDuration = MediaTime(seconds: 1)
        packager.encoderPreset = "veryfast"
        packager.audioSettings.bitRate = 96_000
        return try await packager.write(to: scratch.file("package"))
    }

    @Test("HLS: the m3u8 package parses master and media playlists; EXTINFs add up to 4 s; BANDWIDTH within 10 % above the peak segment bit rate; an IDR at every segment start of every rendition")
    func hlsPackage() async throws {
        let scratch = try ScratchDirectory("abr-hls")
        defer { scratch.remove() }
        let package = try await Self.package(in: scratch)
        #expect(package.videoRenditions.map(\.name) == ["180p-400k", "120p-200k"])
        #expect(package.videoRenditions.map(\.size) == [Size(width: 320, height: 180), Size(width: 214, height: 120)])
        #expect(package.audioRendition?.name == "audio-96k")
        #expect(package.videoRenditions.allSatisfy { $0.segmentDurations == Array(repeating: MediaTime(seconds: 1), count: 4) })
        let root = scratch.file("package")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
                == ["master.m3u8", "manifest.mpd", "180p-400k", "120p-200k", "audio-96k"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("120p-200k").path))
                == ["init.mp4", "segment0.m4s", "segment1.m4s", "segment2.m4s", "segment3.m4s", "playlist.m3u8"])
        #expect(scratch.contents.sorted() == ["package", "programme.mkv"], "no staging folder is left beside the package")

        let parsed = try await PythonVerifier.run("""
            import os, sys, m3u8
            root = sys.argv[1]
            master = m3u8.load(os.path.join(root, 'master.m3u8'))
            print(master.is_variant, master.is_independent_segments, len(master.playlists))
            audio = [m for m in master.media if m.type == 'AUDIO']
            print(len(audio), audio[0].group_id, audio[0].uri, audio[0].channels, audio[0].default)
            def measured(uri):
                playlist = m3u8.load(os.path.join(root, uri))
                folder = os.path.dirname(os.path.join(root, uri))
                rates = [os.path.getsize(os.path.join(folder, s.uri)) * 8 / s.duration for s in playlist.segments]
                return playlist, max(rates)
            audio_playlist, audio_peak = measured(audio[0].uri)
            print('audio', '%.6f' % sum(s.duration for s in audio_playlist.segments), audio_playlist.segment_map[0].uri)
            for variant in master.playlists:
                info = variant.stream_info
                playlist, peak = measured(variant.uri)
                peak += audio_peak
                print(variant.uri, info.resolution[0], info.resolution[1], info.codecs, '%.3f' % info.frame_rate,
                      info.audio, info.average_bandwidth <= info.bandwidth,
                      playlist.version, playlist.target_duration, playlist.playlist_type, playlist.is_endlist,
                      playlist.is_independent_segments, playlist.segment_map[0].uri,
                      ' '.join('%.6f' % s.duration for s in playlist.segments),
                      '%.6f' % sum(s.duration for s in playlist.segments),
                      peak <= info.bandwidth <= 1.1 * peak)
            """, [root.path])
        let lines = parsed.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(parsed)")
        #expect(lines.first == "True True 2")
        #expect(lines.dropFirst().first == "1 audio audio-96k/playlist.m3u8 2 YES")
        #expect(lines.dropFirst(2).first == "audio 4.000000 init.mp4")
        let codecs = package.videoRenditions.map(\.codecs)
        #expect(codecs.allSatisfy { $0.hasPrefix("avc1.") && $0.count == 11 }, "\(codecs)")
        #expect(lines.dropFirst(3).first == "180p-400k/playlist.m3u8 320 180 \(codecs[0]),mp4a.40.2 30.000 audio True "
                + "6 1 vod True True init.mp4 1.000000 1.000000 1.000000 1.000000 4.000000 True")
        #expect(lines.dropFirst(4).first == "120p-200k/playlist.m3u8 214 120 \(codecs[1]),mp4a.40.2 30.000 audio True "
                + "6 1 vod True True init.mp4 1.000000 1.000000 1.000000 1.000000 4.000000 True")

        // ffprobe: in every rendition, each segment (read after its initialization segment) starts with an IDR
        // picture at k s, the same time in both.
        for rendition in package.videoRenditions {
            let folder = root.appendingPathComponent(rendition.name)
            for index in 0..<4 {
                let joined = scratch.file("\(rendition.name)-\(index).mp4")
                try (BinaryFile.read(folder.appendingPathComponent("init.mp4"))
                     + BinaryFile.read(folder.appendingPathComponent("segment\(index).m4s"))).write(to: joined)
                let first = try await SecondReaders.run("ffprobe", [
                    "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries",
                    "frame=key_frame,pict_type,pts_time", "-of", "csv=p=0", joined.path]).output
                // key_frame, pts_time, pict_type
                #expect(first.split(separator: "\n").first?.hasPrefix("1,\(index).000000,I") == true,
                        "\(rendition.name) segment \(index): \(first)")
                let flags = try await SecondReaders.run("ffprobe", [
                    "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries", "packet=flags",
                    "-of", "csv=p=0", joined.path]).output
                #expect(flags.hasPrefix("K"), "\(rendition.name) segment \(index): \(flags)")
            }
        }
    }

    @Test("a real client: ffmpeg reads the master playlist over HTTP from 127.0.0.1 and decodes every rendition without an error line; the MPD parses as XML and ffmpeg decodes it",
          .enabled(if: PythonVerifier.isAvailable))
    func servedOverHTTPAndDASH() async throws {
        let scratch = try ScratchDirectory("abr-http")
        defer { scratch.remove() }
        let package = try await Self.package(in: scratch)
        let root = scratch.file("package")

        let (server, base, log) = try await SecondReaders.serve(root, in: scratch)
        defer { server.stop() }
        let decoded = try await SecondReaders.run("ffmpeg", ["-v", "error", "-i", "\(base)/master.m3u8", "-map", "0",
                                                             "-f", "null", "-"])
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        for rendition in package.videoRenditions {
            let frames = try await SecondReaders.run("ffprobe", [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=width,height,nb_read_frames",
                "-of", "csv=p=0", "\(base)/\(rendition.name)/playlist.m3u8"])
            #expect(frames.output.split(separator: "\n").first.map(String.init)
                    == "\(rendition.size!.width),\(rendition.size!.height),120")
            #expect(frames.errors.isEmpty)
        }
        let requests = TextFile.text(of: log)
        #expect(requests.contains("GET /master.m3u8"))
        #expect(requests.contains("GET /120p-200k/segment3.m4s"))

        let mpd = try await PythonVerifier.run("""
            import sys, xml.etree.ElementTree as ET
            ns = {'d': 'urn:mpeg:dash:schema:mpd:2011'}
            mpd = ET.parse(sys.argv[1]).getroot()
            print(mpd.get('type'), mpd.get('mediaPresentationDuration'), mpd.get('profiles'))
            for aset in mpd.findall('d:Period/d:AdaptationSet', ns):
                for rep in aset.findall('d:Representation', ns):
                    template = rep.find('d:SegmentTemplate', ns)
                    scale = int(template.get('timescale'))
                    total = sum(int(s.get('d')) * (1 + int(s.get('r', '0'))) for s in template.findall('d:SegmentTimeline/d:S', ns))
                    count = sum(1 + int(s.get('r', '0')) for s in template.findall('d:SegmentTimeline/d:S', ns))
                    print(aset.get('contentType'), rep.get('id'), rep.get('codecs'), rep.get('width'), rep.get('height'),
                          template.get('media'), template.get('startNumber'), count, '%.6f' % (total / scale))
            """, [root.appendingPathComponent("manifest.mpd").path])
        #expect(mpd == """
            static PT4.000S urn:mpeg:dash:profile:isoff-live:2011
            video 180p-400k \(package.videoRenditions[0].codecs) 320 180 $RepresentationID$/segment$Number$.m4s 0 4 4.000000
            video 120p-200k \(package.videoRenditions[1].codecs) 214 120 $RepresentationID$/segment$Number$.m4s 0 4 4.000000
            audio audio-96k mp4a.40.2 None None $RepresentationID$/segment$Number$.m4s 0 4 4.000000

            """)
        let dash = try await SecondReaders.run("ffmpeg", ["-v", "error", "-i", root.appendingPathComponent("manifest.mpd").path,
                                                          "-map", "0", "-f", "null", "-"])
        #expect(dash.errors.isEmpty, "\(dash.errors)")
    }

    @Test("bad settings are refused by name before anything is rendered; an existing folder unless overwriting is asked")
    func refusals() async throws {
        let scratch = try ScratchDirectory("abr-refused")
        defer { scratch.remove() }
        let packager = AdaptiveBitratePackager(asset: MutableComposition())
        let output = scratch.file("out")
        packager.ladder = AdaptiveBitrateLadder(renditions: [])
        #expect(throws: PackagingError.emptyLadder) { try packager.validate(output: output) }
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 720, bitRate: 3_000_000), .init(height: 361, bitRate: 800_000)])
        #expect(throws: PackagingError.invalidRendition(index: 1, reason: "height 361 is not a positive even number of pixels")) {
            try packager.validate(output: output)
        }
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 360, bitRate: 800_000, codec: .vp9)])
        #expect(throws: PackagingError.invalidRendition(index: 0, reason: "codec vp9 is not packaged (H.264 or HEVC)")) {
            try packager.validate(output: output)
        }
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 360, bitRate: 0)])
        #expect(throws: PackagingError.invalidRendition(index: 0, reason: "bit rate 0 is not a positive number of bits per second")) {
            try packager.validate(output: output)
        }
        packager.ladder = .default
        packager.segmentDuration = .zero
        #expect(throws: PackagingError.invalidSegmentDuration(.zero)) { try packager.validate(output: output) }
        packager.segmentDuration = MediaTime(seconds: 2)
        packager.manifestFormats = []
        #expect(throws: PackagingError.noManifestFormat) { try packager.validate(output: output) }
        packager.manifestFormats = [.hls]
        #expect(throws: PackagingError.outputParentMissing(scratch.file("missing/out"))) {
            try packager.validate(output: scratch.file("missing/out"))
        }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        await #expect(throws: PackagingError.outputExists(output)) { _ = try await packager.write(to: output) }
        packager.overwritesExistingOutput = true
        // An empty composition: nothing to package, and the existing folder is left as it was.
        await #expect(throws: PackagingError.noVideo) { _ = try await packager.write(to: output) }
        #expect(scratch.contents == ["out"])
    }

    @Test("an HEVC rendition: tagged hvc1, CODECS from its SPS as ffprobe reads it, an IDR at every segment start, decoded silently")
    func hevcRendition() async throws {
        let scratch = try ScratchDirectory("abr-hevc")
        defer { scratch.remove() }
        let packager = AdaptiveBitratePackager(asset: try await Self.programme(in: scratch))
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 180, bitRate: 300_000, codec: .hevc)])
        packager.segmentDuration = MediaTime(seconds: 2)
        packager.encoderPreset = "veryfast"
        packager.manifestFormats = [.hls]
        let package = try await packager.write(to: scratch.file("package"))
        let rendition = try #require(package.videoRenditions.first)
        #expect(rendition.name == "180p-300k-hevc")
        #expect(rendition.segmentDurations == [MediaTime(seconds: 2), MediaTime(seconds: 2)])
        let playlist = scratch.file("package/180p-300k-hevc/playlist.m3u8")
        let stream = try await SecondReaders.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                             "stream=codec_name,codec_tag_string,profile,level", "-of",
                                                             "csv=p=0", scratch.file("package/180p-300k-hevc/init.mp4").path])
        let fields = stream.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        #expect(fields.prefix(3) == ["hevc", "Main", "hvc1"], "\(fields)")
        // The profile_tier_level fields as FFmpeg's trace_headers reads them from the stream's parameter sets.
        let trace = try await SecondReaders.run("ffmpeg", ["-hide_banner", "-i", scratch.file("package/180p-300k-hevc/init.mp4").path,
                                                           "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"]).errors
        func field(_ name: String) -> Int? {
            guard let line = trace.split(separator: "\n").first(where: { $0.contains(" \(name) ") }) else { return nil }
            return line.split(separator: "=").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        let profile = field("general_profile_idc") ?? -1, level = field("general_level_idc") ?? -1
        let compatibility = (0..<32).reduce(0) { $0 | ((field("general_profile_compatibility_flag[\($1)]") ?? 0) << $1) }
        let constraints = ["progressive_source", "interlaced_source", "non_packed_constraint", "frame_only_constraint"]
            .enumerated().reduce(0) { $0 | ((field("general_\($1.element)_flag") ?? 0) << (7 - $1.offset)) }
        #expect(String(level) == fields.last)
        #expect(rendition.codecs == "hvc1.\(profile).\(String(compatibility, radix: 16, uppercase: true)).L\(level)."
                + String(constraints, radix: 16, uppercase: true), "\(rendition.codecs)")
        let master = try TextFile.read(scratch.file("package/master.m3u8"))
        #expect(master.contains("CODECS=\"\(rendition.codecs),mp4a.40.2\""), "\(master)")
        let keyFrames = try await SecondReaders.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey",
                                                                "-show_entries", "frame=pts_time,pict_type", "-of", "csv=p=0",
                                                                playlist.path])
        let times = keyFrames.output.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: ",")
            return parts.count >= 2 && parts[1].hasPrefix("I") ? String(parts[0]) : nil
        }
        #expect(times.contains("0.000000") && times.contains("2.000000"), "\(times)")
        let decoded = try await SecondReaders.run("ffmpeg", ["-v", "error", "-i", scratch.file("package/master.m3u8").path,
                                                             "-map", "0", "-f", "null", "-"])
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    }

    @Test("cancelled once the first segments are written (task cancellation, or cancelPackaging()): CancellationError, progress stops short of 1, and nothing is left beside the source",
          arguments: [false, true])
    func cancelledLeavesNothing(byCancelPackaging: Bool) async throws {
        let scratch = try ScratchDirectory("abr-cancel")
        defer { scratch.remove() }
        let url = scratch.file("long.mkv")
        try SyntheticMedia.write(video: "testsrc2=s=320x180:r=30", audio: "sine=frequency=440:sample_rate=48000",
                                 duration: MediaTime(seconds: 20), to: url)
        let asset = try await Asset.load(from: url)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        let packager = AdaptiveBitratePackager(asset: composition)
        packager.ladder = Self.ladder
        packager.segmentDuration = MediaTime(seconds: 1)
        let task = Task { [packager] in try await packager.write(to: scratch.file("package")) }
        // Cancel as soon as a video segment exists in the hidden staging folder, from a plain thread: a task polling
        // beside the whole parallel suite may wake only once the package is nearly done.
        let sawSegment = await whenCondition(timeout: 60, {
            let staging = scratch.contents.first { $0.hasPrefix(".splice-package-") }
            return staging.map {
                FileManager.default.fileExists(atPath: scratch.file("\($0)/180p-400k/segment0.m4s").path)
            } ?? false
        }) {
            if byCancelPackaging { packager.cancelPackaging() } else { task.cancel() }
            return true
        } ?? false
        #expect(sawSegment, "no segment was written into a staging folder")
        if !sawSegment { task.cancel() }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(scratch.contents == ["long.mkv"])
        #expect(packager.progress > 0 && packager.progress < 0.95, "\(packager.progress)")
        var after: [Double] = []
        for await value in packager.progressUpdates { after.append(value) }
        #expect(after == [packager.progress], "a stream made after the end gives the last value and finishes")
    }

    @Test("progress: from 0 to 1 through progressUpdates while packaging, monotonic, 1 only once the package is in place")
    func progressReachesOneAtTheEnd() async throws {
        let scratch = try ScratchDirectory("abr-progress")
        defer { scratch.remove() }
        let packager = AdaptiveBitratePackager(asset: try await Self.programme(in: scratch))
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 120, bitRate: 200_000)])
        packager.segmentDuration = MediaTime(seconds: 1)
        packager.encoderPreset = "ultrafast"
        packager.manifestFormats = [.hls]
        #expect(packager.progress == 0)
        let updates = packager.progressUpdates
        let collected = Task {
            var values: [Double] = []
            for await value in updates {
                values.append(value)
                if value == 1 { #expect(FileManager.default.fileExists(atPath: scratch.file("package/master.m3u8").path)) }
            }
            return values
        }
        _ = try await packager.write(to: scratch.file("package"))
        let values = await collected.value
        #expect(packager.progress == 1)
        #expect(values.last == 1, "the newest value is kept for a slow reader, and the last is 1: \(values)")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "monotonic: \(values)")
        #expect(values.allSatisfy { (0...1).contains($0) })
        var after: [Double] = []
        for await value in packager.progressUpdates { after.append(value) }
        #expect(after == [1], "a stream made after the end gives 1 and finishes")
        await #expect(throws: PackagingError.alreadyWritten) { try await packager.write(to: scratch.file("again")) }
        #expect(packager.progress == 1)
    }

    @Test("the default ladder is never above the source: 720p gives 720p and 480p; a 360p source one 360p rendition")
    func defaultLadder() {
        let ladder = AdaptiveBitrateLadder.default
        let hd = ladder.renditions(forSourceSize: Size(width: 1280, height: 720))
        #expect(hd.map(\.rendition.name) == ["720p-3000k", "480p-1200k"])
        #expect(hd.map(\.size) == [Size(width: 1280, height: 720), Size(width: 854, height: 480)])
        let small = ladder.renditions(forSourceSize: Size(width: 640, height: 360))
        #expect(small.map(\.rendition) == [.init(height: 360, bitRate: 1_200_000)])
        #expect(small.map(\.size) == [Size(width: 640, height: 360)])
    }
}
