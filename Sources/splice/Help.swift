/// The help texts of `splice` and its commands.
enum Help {
    static let version = "0.1.0"

    static let exitCodes = """
        Exit codes:
          0    success
          1    invalid input: a document, media file or plan has problems (each is printed with its place), a
               file or device that does not exist, settings that cannot be combined (--smart with --segments),
               an existing output without --overwrite, an output folder that does not exist
          2    usage: unknown command or option, missing or extra argument, an option value that does not parse
               or is outside its choices or range (a time beyond the composition, an index beyond the plan)
          3    failed while rendering or writing (an export, a frame, a segment, a join, a recording)
          130  cancelled (Ctrl-C / SIGINT or SIGTERM); no file was left behind
        """

    static let general = """
        splice \(version) — AVFoundation-style editing on Linux, rendered with FFmpeg

        Usage: splice COMMAND [ARGUMENTS] [OPTIONS]

        Commands:
          export DOC.json -o OUT.mp4   render a composition document to a file
          probe FILE…                  describe media files (tracks, durations, sizes); --loudness: EBU R128
          frame DOC.json --at T -o F   render one picture of a document as PNG (.jpg: a poster)
          storyboard DOC.json -o DIR   thumbnail sprite sheets (JPEG) and their WebVTT track
          graph DOC.json               print the FFmpeg filter graphs an export would use
          validate DOC.json            list every problem of a document (exit 0 when valid)
          expand DOC.json              print the full form of a (short-form) document
          convert IN -o OUT            convert between a document (.json) and an OpenTimelineIO timeline (.otio)
          devices                      list capture devices (cameras, audio sources, screens, virtual devices)
          record -o OUT.mp4            record from capture devices into a crash-safe movie
          repair MOVIE.mp4             cut the torn last fragment off a recording a crash left behind
          scan MOVIE                   print the QR and bar codes in a movie's pictures as JSON lines
          plan DOC.json --segments N -o PLAN.json       split an export into segments (docs/cli.md)
          render-segment PLAN.json --index I           render one segment (any machine, any order)
          join PLAN.json -o OUT.mp4                    check the parts and join them with the audio
          submit --slurm|--kubernetes PLAN.json -o OUT run the steps on Slurm / print a Kubernetes Job
          batch JOBS.jsonl --jobs N                    one export per line, N at a time, a JSON result per job
          help [COMMAND]               this text, or a command's

        Options: --help (-h) on any command; --version prints the version and the linked FFmpeg.

        Times are written 3.5s, 250ms, 00:01:02.5, 90f (frames at the document's rate) or 1001/30000.
        Documents are described in docs/ (docs/document-format.md). Wherever a command reads DOC.json it also reads
        an OpenTimelineIO timeline (EDIT.otio, docs/interchange.md).

        Examples:
          splice export Examples/canonical-edit.json -o canonical.mp4
          splice probe canonical.mp4
          splice frame Examples/canonical-edit.json --at 3.5s -o frame.png

        \(exitCodes)
        """

    static func text(for command: CommandLineArguments.Command) -> String {
        switch command {
        case .export: return export
        case .probe: return probe
        case .frame: return frame
        case .graph: return graph
        case .validate: return validate
        case .expand: return expand
        case .devices: return devices
        case .record: return record
        case .repair: return repair
        case .help: return general
        case .plan: return plan
        case .renderSegment: return renderSegment
        case .join: return join
        case .submit: return submit
        case .convert: return convert
        case .batch: return batch
        case .storyboard: return storyboard
        case .scan: return scan
        }
    }

    static let export = """
        Usage: splice export DOC.json -o OUT.mp4 [--overwrite] [--smart] [--segments N] [--fragment-interval T]
                             [--loudness LUFS] [--true-peak DBTP] [--limit-true-peak]
                             [--progress bar|plain|json|none]
               splice export DOC.json --hls DIR [--dash DIR] [--ladder HEIGHT:RATE,…] [--segment-duration T]
                             [--overwrite] [--progress bar|plain|json|none]
               splice export DOC.json -o CAPTIONS.srt|.vtt|.ass [--track ID] [--overwrite]

        Renders the composition document DOC.json (full or short form) to OUT. The container comes from the
        document's export.fileType or OUT's extension (.mp4, .mov, .m4a, .mkv). The file is written beside OUT
        under a temporary name and moved into place only when complete: a failure or Ctrl-C leaves no file.
        With the Passthrough preset, an audio track cut off its packet grid is re-encoded so every cut is exact
        (export.passthroughAudioCuts: "nearestPacket" copies it instead) and named on stderr with the cut.
        An output ending in .srt, .vtt or .ass gets one subtitle track of the document alone (--track ID, else
        the first), its cues placed and timed as an export of the document places them.

        Options:
          -o, --output FILE     the file to write (required)
          --overwrite           replace FILE if it exists (otherwise an existing file is an error)
          --smart               smart rendering (export.smartRendering): copy the groups of pictures of H.264 and
                                HEVC sources that the edit leaves untouched, re-encode only the rest, and print
                                each span (copied or re-encoded, with the reason) on stderr; not with --segments
          --segments N          render the video as N segments at once and join them (export.concurrentSegments);
                                costs the memory of about N exports, pays only when the encoder cannot use the
                                cores by itself; never automatic; not with --smart
          --fragment-interval T write a fragmented .mp4/.mov (export.movieFragmentInterval, e.g. 2s): the moov
                                first, then a fragment beginning on a key frame every T, each flushed to OUT as it
                                ends; memory stays flat however long the export, and a killed export leaves OUT
                                playable up to its last fragment (splice repair cuts a torn one). OUT is written
                                under its own name from the start (removed on failure or Ctrl-C); not with
                                export.fileLengthLimit, a subtitle text track, nor other containers
          --loudness LUFS       normalise the audio mix to this EBU R128 integrated loudness (-70…0; e.g. -23,
                                -16) in two passes: the mix is rendered and measured, then exported with one linear
                                gain (export.loudness); a gain that would lift the true peak over the ceiling is
                                refused (exit 1), never limited silently
          --true-peak DBTP      the true-peak ceiling for --loudness (-70…0, default -1); needs --loudness
          --limit-true-peak     when the gain would lift the true peak over the ceiling, hold the peaks under it
                                with a true-peak limiter (4x oversampled alimiter) instead of refusing
          --hls DIR             write an adaptive-bitrate package into the folder DIR instead of a file: one
                                H.264 rendition per ladder rung no taller than the picture, one AAC rendition,
                                CMAF segments with an IDR picture at every segment start, DIR/master.m3u8 and a
                                media playlist per rendition (written last; DIR appears only when complete)
          --dash DIR            the same package with a DASH manifest, DIR/manifest.mpd; with --hls, the same DIR
                                (both manifests over the same segments)
          --ladder LIST         the renditions, HEIGHT:RATE[:hevc] separated by commas, e.g. 720p:3M,480p:1200k
                                (default 1080p:5M,720p:3M,480p:1.2M); heights even, rates positive; :hevc for an
                                HEVC rendition (hvc1) instead of H.264
          --segment-duration T  the segment duration for --hls/--dash (default 6s), e.g. 4s
                                A document whose export.package asks for a package ({"hls": DIR, "dash": DIR,
                                "ladder": …, "segmentDuration": …}) is packaged without -o; these options win
          --progress MODE       bar: a progress bar with percentage, elapsed time and ETA (default on a terminal)
                                plain: a line at every 5 % (default when stderr is not a terminal)
                                json: one JSON object per line on stdout, for services:
                                  {"event":"started","output":"/abs/out.mp4","duration":8}
                                  {"event":"progress","progress":0.42,"elapsed":1.3,"eta":1.8}
                                  {"event":"completed","output":…,"elapsed":3.1,"bytes":1234567}
                                  {"event":"failed","exitCode":3,"error":…} / {"event":"cancelled","exitCode":130}
                                none: nothing but errors

        Ctrl-C (SIGINT) or SIGTERM cancels cleanly (exit 130); a second Ctrl-C quits at once.

        Examples:
          splice export Examples/canonical-edit.json -o canonical.mp4
          splice export edit.json -o out.mov --overwrite --progress plain
          splice export edit.json -o out.mp4 --progress json > events.jsonl
          splice export edit.json --hls show --dash show --ladder 720p:3M,480p:1200k --segment-duration 4s

        \(exitCodes)
        """

    static let probe = """
        Usage: splice probe FILE… [--json] [--loudness]

        Describes media files as Splice sees them: container, duration, and per track its ID (what documents call
        "track"), type, codec, size (and upright display size when rotated), frame rate, frame count, colour,
        sample rate and channels. Times are exact (seconds, and the fraction).

        Options:
          --json      print the Asset model as JSON (an object for one file, an array for several)
          --loudness  measure each file's sound instead (EBU R128 through FFmpeg's ebur128): integrated
                      loudness (LUFS), loudness range (LU), true peak (dBTP); with --json, an array of
                      {"path", "integratedLoudness", "loudnessRange", "truePeak"} (null for silence)

        Examples:
          splice probe clip.mov
          splice probe Fixtures/media/canonical/*.mp4
          splice probe out.mp4 --json

        \(exitCodes)
        """

    static let frame = """
        Usage: splice frame DOC.json --at TIME -o FRAME.png|POSTER.jpg [--dynamic-range force-sdr|match-source] [--overwrite]

        Renders the picture the export of DOC.json shows at TIME (the output frame containing it), through the
        same compositor, and writes it as an RGBA PNG of the render size: 8-bit SDR, or with match-source 16-bit
        in the composition's own colour space (BT.2100 HLG/PQ code values for an HDR composition, not tone-mapped).
        A FILE ending in .jpg or .jpeg is a poster frame instead: the same picture as a baseline JPEG (8-bit SDR).

        Options:
          --at TIME             composition time: 3.5s, 250ms, 00:00:03.5, 90f or 7/2
          -o, --output FILE     the PNG, or JPEG poster, to write (required)
          --dynamic-range R     force-sdr (default) or match-source (AssetImageGenerator's dynamicRangePolicy)
          --overwrite           replace FILE if it exists

        Examples:
          splice frame Examples/canonical-edit.json --at 3.5s -o frame.png
          splice frame edit.json --at 90f -o poster.png --overwrite

        \(exitCodes)
        """

    static let graph = """
        Usage: splice graph DOC.json

        Prints the FFmpeg filter graphs the export of DOC.json would run — one per stretch of the timeline with a
        distinct configuration — compiled from the models without decoding anything. For debugging, and for people
        who know FFmpeg.

        Example:
          splice graph Examples/canonical-edit.json

        \(exitCodes)
        """

    static let validate = """
        Usage: splice validate DOC.json [-o OUT] [--json]

        Makes every check `splice export` makes before it writes (the same code): JSON syntax, fields, times, every
        source file (opened and probed), the composition edits, the video composition and audio mix against the
        composition, the export settings against the container, encoder and filter availability, and for
        passthrough each cut (key frames, B-frame reordering) — and prints every problem with its place:
          edit.json:7:17: clips[1].source: no such file 'b.mov' (/home/me/b.mov)
          edit.json:31:24: videoComposition.instructions[2].timeRange: instruction 2 starts at 4.000 s …
        Exits 0 when the document is valid, 1 otherwise.

        Options:
          -o OUT    check for this output as export would (its extension picks the container; the file is not
                    touched and may exist); without it, the document's fileType, else .mp4
          --json    print {"valid": true|false, "problems": [{"path", "line", "column", "message"}…]}

        Examples:
          splice validate edit.json
          splice validate edit.json --json

        \(exitCodes)
        """

    static let expand = """
        Usage: splice expand DOC.json

        Prints the full form of DOC.json: for a short-form document (clips, music, overlays), the composition,
        video composition, audio mix and export settings it stands for — the Codable form of Splice's models, with
        segments naming their source files. The output is itself a document that exports the same way.

        Examples:
          splice expand Examples/canonical-edit.json
          splice expand slideshow.json > slideshow-full.json

        \(exitCodes)
        """

    static let convert = """
        Usage: splice convert IN -o OUT [--overwrite] [--drop-unsupported-effects]

        Converts between a composition document (.json, full or short form) and an OpenTimelineIO timeline (.otio),
        the direction given by the names: IN is loaded as export loads it (every media file described, every
        problem listed with its place), then written as OUT. A document written as .otio keeps what OpenTimelineIO
        has no field for under metadata.splice, so converting it back gives the same composition; a timeline
        written as .json is the full form. Media paths are written relative to OUT's folder.

        Options:
          -o, --output FILE             the .json or .otio file to write (required)
          --overwrite                   replace FILE if it exists
          --drop-unsupported-effects    leave out a timeline's effects Splice does not render (each is listed)

        Examples:
          splice convert edit.otio -o edit.json
          splice convert Examples/canonical-edit.json -o canonical.otio

        \(exitCodes)
        """
}
