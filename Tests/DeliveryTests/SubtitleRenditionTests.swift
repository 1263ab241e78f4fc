import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting
import Testing

/// WebVTT subtitle renditions in an adaptive-bitrate package: a 4 s picture with a SubRip track in English (three
/// cues, the second crossing the 2 s segment boundary) packaged in 2 s segments, read back by the `m3u8` package,
/// `ffmpeg`/`ffprobe` and Python's XML parser.
@Suite struct SubtitleRenditionTests {
    static let srt = """
        1
        00:00:00,500 --> 00:00:01,250
        One

        2
        00:00:01,600 --> 00:00:02,400
        Two across

        3
        00:00:02,900 --> 00:00:03,500
        Three

        """

    /// The three cues as `ffmpeg -f srt` writes them back.
    static let cues = ["00:00:00,500 --> 00:00:01,250 One", "00:00:01,600 --> 00:00:02,400 Two across",
                       "00:00:02,900 --> 00:00:03,500 Three"]

    /// `url`'s subtitle cues as `ffmpeg` reads and writes them as SubRip: one "START --> END TEXT" per cue.
    static func cues(of url: URL) async throws -> [String] {
        let srt = try await SecondReaders.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:s:0",
                                                         "-c:s", "srt", "-f", "srt", "-"]).output
        return srt.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n").map(String.init)
            guard lines.count >= 3 else { return nil }
            return lines[1] + " " + lines[2...].joined(separator: " ")
        }
    }

    /// `composition` packaged into `root` in 2 s segments with one small rendition (120p at 200 kb/s, x264
    /// `ultrafast`).
    static func package(_ composition: MutableComposition, to root: URL) async throws -> AdaptiveBitratePackage {
        let packager = AdaptiveBitratePackager(asset: composition)
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 120, bitRate: 200_000)])
        packager.segmentDuration = MediaTime(seconds: 2)
        packager.encoderPreset = "ultrafast"
        return try await packager.write(to: root)
    }

    /// `clip` with the SubRip file `srt` (written into `scratch`) in a subtitle track of its own, in English, from 0.
    static func withSubtitles(_ clip: Asset, srt: String, in scratch: ScratchDirectory) async throws -> (MutableComposition, Int32) {
        let captions = try await Asset.load(from: try scratch.write("captions.srt", srt))
        var composition = try MutableComposition(asset: clip)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(captions.tracks[0].timeRange, of: captions.tracks[0], at: .zero, intoTrackWithID: text)
        try composition.modifyTrack(withID: text) { $0.languageCode = "eng" }
        return (composition, text)
    }

    @Test("a SubRip track becomes a WebVTT rendition: HLS segments aligned with the video's with X-TIMESTAMP-MAP, a SUBTITLES group in the master, a text AdaptationSet in the MPD; ffmpeg reads the 3 cues back with exact times")
    func subtitleRendition() async throws {
        let scratch = try ScratchDirectory("abr-subtitles")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(4000), in: scratch.url, name: "clip")
        let (composition, text) = try await Self.withSubtitles(video, srt: Self.srt, in: scratch)
        let root = scratch.file("package")
        let package = try await Self.package(composition, to: root)

        let name = "subtitles-\(text)"
        #expect(package.subtitleRenditions.map(\.name) == [name])
        #expect(package.subtitleRenditions.first?.languageTag == "en")
        #expect(package.subtitleRenditions.first?.segmentDurations == [MediaTime(seconds: 2), MediaTime(seconds: 2)])
        let folder = root.appendingPathComponent(name)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
                == ["segment0.vtt", "segment1.vtt", "subtitles.vtt", "playlist.m3u8"])
        #expect(scratch.contents.sorted() == ["captions.srt", "clip.mov", "package"], "no staging folder is left")
        for index in 0..<2 {
            let segment = try TextFile.read(folder.appendingPathComponent("segment\(index).vtt"))
            #expect(segment.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\n"), "\(segment)")
        }

        // HLS: the m3u8 package reads the subtitles group, SUBTITLES on the variant, and the subtitle playlist.
        let parsed = try await PythonVerifier.run("""
            import os, sys, m3u8
            root = sys.argv[1]
            master = m3u8.load(os.path.join(root, 'master.m3u8'))
            subtitles = [m for m in master.media if m.type == 'SUBTITLES']
            for m in subtitles:
                print(m.group_id, m.language, m.name, m.default, m.autoselect, m.forced, m.uri)
            print(' '.join(str(p.stream_info.subtitles) for p in master.playlists))
            video = m3u8.load(os.path.join(root, master.playlists[0].uri))
            playlist = m3u8.load(os.path.join(root, subtitles[0].uri))
            print(' '.join(s.uri for s in playlist.segments), ' '.join('%.6f' % s.duration for s in playlist.segments),
                  '%.6f' % sum(s.duration for s in playlist.segments), '%.6f' % sum(s.duration for s in video.segments),
                  playlist.is_endlist, playlist.segment_map)
            """, [root.path])
        #expect(parsed == """
            subtitles en English NO YES NO \(name)/playlist.m3u8
            subtitles
            segment0.vtt segment1.vtt 2.000000 2.000000 4.000000 4.000000 True []

            """)

        // Each segment holds the cues overlapping it, whole: the second cue is in both; together, once each.
        let first = try await Self.cues(of: folder.appendingPathComponent("segment0.vtt"))
        let second = try await Self.cues(of: folder.appendingPathComponent("segment1.vtt"))
        #expect(first == Array(Self.cues[0...1]))
        #expect(second == Array(Self.cues[1...2]))
        var seen: Set<String> = []
        #expect((first + second).filter { seen.insert($0).inserted } == Self.cues)

        // ffprobe reads the subtitle playlist as one stream: the packets' times, deduplicated, are the 3 cues'.
        let packets = try await SecondReaders.run("ffprobe", [
            "-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0",
            folder.appendingPathComponent("playlist.m3u8").path]).output
        var times: [String] = []
        for line in packets.split(separator: "\n").map(String.init) where !times.contains(line) { times.append(line) }
        #expect(times == ["0.500000,0.750000", "1.600000,0.800000", "2.900000,0.600000"], "\(packets)")

        // DASH: a text AdaptationSet in English whose one Representation names the whole-programme file.
        let mpd = try await PythonVerifier.run("""
            import sys, xml.etree.ElementTree as ET
            ns = {'d': 'urn:mpeg:dash:schema:mpd:2011'}
            root = ET.parse(sys.argv[1]).getroot()
            for s in root.findall('d:Period/d:AdaptationSet', ns):
                if s.get('contentType') == 'text':
                    representations = s.findall('d:Representation', ns)
                    print(s.get('mimeType'), s.get('lang'), s.find('d:Role', ns).get('value'), len(representations),
                          representations[0].get('id'), representations[0].find('d:BaseURL', ns).text)
            """, [root.appendingPathComponent("manifest.mpd").path])
        #expect(mpd == "text/vtt en subtitle 1 \(name) \(name)/subtitles.vtt\n")
        #expect(try await Self.cues(of: folder.appendingPathComponent("subtitles.vtt")) == Self.cues)
    }

    /// A 4 s picture and tone with a SubRip track whose last cue (3.5–6 s) ends after them: the track lengthens the
    /// composition to 6 s.
    static func compositionWithLongSubtitles(in scratch: ScratchDirectory) async throws -> (MutableComposition, Int32) {
        let clip = try await SyntheticMedia.makeAsset(video: .testPattern(), audio: .tone(frequency: 440), duration: .ms(4000),
                                                      in: scratch.url, name: "clip")
        return try await withSubtitles(clip, srt: """
            1
            00:00:02,900 --> 00:00:03,400
            Before the end

            2
            00:00:03,500 --> 00:00:06,000
            Past the end

            """, in: scratch)
    }

    @Test("a subtitle track ending after the picture and sound does not lengthen the package: 4 s of video, audio and subtitle segments, the crossing cue cut at 4 s, read back by m3u8, ffprobe and ffmpeg")
    func subtitlesLongerThanVideo() async throws {
        let scratch = try ScratchDirectory("abr-subtitles-long")
        defer { scratch.remove() }
        let (composition, text) = try await Self.compositionWithLongSubtitles(in: scratch)
        #expect(composition.duration == .ms(6000))
        let root = scratch.file("package")
        let package = try await Self.package(composition, to: root)
        #expect(package.duration == .ms(4000))
        #expect(package.videoRenditions.map(\.segmentDurations) == [[MediaTime(seconds: 2), MediaTime(seconds: 2)]])
        // The sound's segments are cut on its AAC frames (1024 samples): 2.005 s + 1.995 s.
        #expect(package.audioRendition?.segmentDurations == [MediaTime(value: 96256, timescale: 48000),
                                                             MediaTime(value: 95744, timescale: 48000)])
        #expect(package.subtitleRenditions.map(\.segmentDurations) == [[MediaTime(seconds: 2), MediaTime(seconds: 2)]])
        let name = "subtitles-\(text)"
        let folder = root.appendingPathComponent(name)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
                == ["segment0.vtt", "segment1.vtt", "subtitles.vtt", "playlist.m3u8"])

        // The m3u8 package: every media playlist (video, audio, subtitles) has two 2 s segments adding up to 4 s.
        let parsed = try await PythonVerifier.run("""
            import os, sys, m3u8
            root = sys.argv[1]
            master = m3u8.load(os.path.join(root, 'master.m3u8'))
            uris = [master.playlists[0].uri] + [m.uri for m in master.media if m.type in ('AUDIO', 'SUBTITLES')]
            for uri in uris:
                playlist = m3u8.load(os.path.join(root, uri))
                print(uri.split('/')[0][:9], len(playlist.segments), '%.6f' % sum(s.duration for s in playlist.segments))
            """, [root.path])
        #expect(parsed == "120p-200k 2 4.000000\naudio-128 2 4.000000\nsubtitles 2 4.000000\n")

        // ffprobe: the programme (master playlist) lasts 4 s; the subtitle playlist's last cue ends at 4 s.
        let master = try await SecondReaders.run("ffprobe", [
            "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
            root.appendingPathComponent("master.m3u8").path]).output
        #expect(master.trimmingCharacters(in: .whitespacesAndNewlines) == "4.000000")
        let packets = try await SecondReaders.run("ffprobe", [
            "-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0",
            folder.appendingPathComponent("playlist.m3u8").path]).output
        var times: [String] = []
        for line in packets.split(separator: "\n").map(String.init) where !times.contains(line) { times.append(line) }
        #expect(times == ["2.900000,0.500000", "3.500000,0.500000"], "\(packets)")

        // ffmpeg: the cue crossing the end is cut at 4 s, in the last segment and in the whole-programme file.
        let cut = ["00:00:02,900 --> 00:00:03,400 Before the end", "00:00:03,500 --> 00:00:04,000 Past the end"]
        #expect(try await Self.cues(of: folder.appendingPathComponent("segment0.vtt")) == [])
        #expect(try await Self.cues(of: folder.appendingPathComponent("segment1.vtt")) == cut)
        #expect(try await Self.cues(of: folder.appendingPathComponent("subtitles.vtt")) == cut)
        let mpd = try TextFile.read(root.appendingPathComponent("manifest.mpd"))
        #expect(mpd.contains("mediaPresentationDuration=\"PT4.000S\""), "\(mpd)")
    }

    @Test("an MP4 export of a subtitle track ending after the picture keeps AVFoundation's rule: the file lasts as the longest track, 6 s, with the last cue whole")
    func exportKeepsTheLongestTrack() async throws {
        let scratch = try ScratchDirectory("export-subtitles-long")
        defer { scratch.remove() }
        let (composition, _) = try await Self.compositionWithLongSubtitles(in: scratch)
        let output = scratch.file("edit.mp4")
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = output
        try await session.export()
        let probe = try await SecondReaders.run("ffprobe", [
            "-v", "error", "-show_entries", "format=duration:stream=codec_type,duration", "-of", "csv=p=0", output.path]).output
        #expect(probe == "video,6.000000\naudio,6.000000\nsubtitle,6.000000\n6.000000\n")
        #expect(try await Self.cues(of: output) == ["00:00:02,900 --> 00:00:03,400 Before the end",
                                                    "00:00:03,500 --> 00:00:06,000 Past the end"])
        // After the clip, black pictures (no layer) and digital silence, as where an AVFoundation composition has no
        // media: the picture at 5 s has luma 16 (video range black), the sound after 4.1 s peaks at -91 dB (zero).
        let picture = try await SecondReaders.run("ffmpeg", [
            "-nostdin", "-v", "error", "-ss", "5", "-i", output.path, "-frames:v", "1",
            "-vf", "signalstats,metadata=mode=print:key=lavfi.signalstats.YMAX:file=-", "-f", "null", "-"]).output
        #expect(picture.contains("lavfi.signalstats.YMAX=16\n"), "\(picture)")
        let sound = try await SecondReaders.run("ffmpeg", [
            "-nostdin", "-v", "info", "-ss", "4.1", "-i", output.path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"]).errors
        #expect(sound.contains("max_volume: -91.0 dB"), "\(sound)")
    }

    @Test("each track's language, title and default/forced flags: two renditions, LANGUAGE/NAME/DEFAULT/FORCED in the master, lang and role in the MPD")
    func flagsAndNames() async throws {
        let scratch = try ScratchDirectory("abr-subtitle-flags")
        defer { scratch.remove() }
        guard let ffmpeg = Executable.required("ffmpeg") else { return }
        let srt = try scratch.write("captions.srt", Self.srt)
        let source = scratch.file("flagged.mkv")
        // Track 1: French, titled "Signs", default and forced; track 2: English, no title, no flag.
        _ = try await Executable.output(of: ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-i", srt.path,
            "-i", srt.path, "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-c:s", "srt",
            "-metadata:s:s:0", "language=fra", "-metadata:s:s:0", "title=Signs", "-disposition:s:0", "default+forced",
            "-metadata:s:s:1", "language=eng", "-disposition:s:1", "0", source.path,
        ])
        let asset = try await Asset.load(from: source)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(4000)), of: asset, at: .zero)
        let root = scratch.file("package")
        let package = try await Self.package(composition, to: root)
        let names = package.subtitleRenditions.map(\.name)
        #expect(names.count == 2)
        #expect(package.subtitleRenditions.map(\.languageCode) == ["fra", "eng"])
        guard names.count == 2 else { return }

        let parsed = try await PythonVerifier.run("""
            import os, sys, m3u8
            master = m3u8.load(os.path.join(sys.argv[1], 'master.m3u8'))
            for m in master.media:
                if m.type == 'SUBTITLES':
                    print(m.group_id, m.language, m.name, m.default, m.autoselect, m.forced, m.uri)
            """, [root.path])
        #expect(parsed == """
            subtitles fr Signs YES YES YES \(names[0])/playlist.m3u8
            subtitles en English NO YES NO \(names[1])/playlist.m3u8

            """)
        let mpd = try await PythonVerifier.run("""
            import sys, xml.etree.ElementTree as ET
            ns = {'d': 'urn:mpeg:dash:schema:mpd:2011'}
            for s in ET.parse(sys.argv[1]).getroot().findall('d:Period/d:AdaptationSet', ns):
                if s.get('contentType') == 'text':
                    print(s.get('lang'), s.find('d:Role', ns).get('value'), s.find('d:Representation/d:BaseURL', ns).text)
            """, [root.appendingPathComponent("manifest.mpd").path])
        #expect(mpd == "fr forced-subtitle \(names[0])/subtitles.vtt\nen subtitle \(names[1])/subtitles.vtt\n")
        for name in names {
            #expect(try await Self.cues(of: root.appendingPathComponent(name).appendingPathComponent("subtitles.vtt")) == Self.cues)
        }
    }
}
