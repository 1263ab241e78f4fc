/// The help text of the delivery commands (docs/delivery.md).
extension Help {
    static let storyboard = """
        Usage: splice storyboard DOC.json -o DIR [--every T] [--grid CxR] [--width W] [--name NAME] [--overwrite]

        Writes a scrubbing storyboard of the composition into the existing folder DIR: a thumbnail every T (default
        10s; thumbnail i shows the picture the export shows at i x T), COLUMNS x ROWS to a JPEG sprite sheet (default
        5x5; NAME-0.jpg, NAME-1.jpg, …), each W pixels wide (default 160, even; height from the aspect ratio), and
        NAME.vtt (default name: storyboard), the WebVTT thumbnail track players read: one cue per thumbnail, from its
        time to the next one's, its text NAME-k.jpg#xywh=x,y,w,h. Files are moved into place only when all are done.

        Options:
          -o, --output DIR  the folder (required, must exist)
          --every T         time between thumbnails (3.5s, 250ms, 90f, 1001/30000)
          --grid CxR        thumbnails across and down a sheet, 1…64 each
          --width W         thumbnail width in pixels, even, 16…1920
          --name NAME       the files' base name
          --overwrite       replace files already there

        \(exitCodes)
        """

    static let batch = """
        Usage: splice batch JOBS.jsonl [--jobs N]

        Runs one export per line of JOBS.jsonl (JSON Lines; blank lines and lines starting with # are skipped),
        N at a time in this process (default 1). A line is {"document": PATH, "output": PATH} with the export's
        options as fields: "overwrite": true, "smartRendering": true, "loudness": {"integratedLoudness": -16,
        "truePeakCeiling": -1}; or, instead of or beside "output", a package with export's flags as fields:
        "hls": DIR, "dash": DIR, "ladder": "720p:3M,480p:1200k", "segmentDuration": "4s". Relative paths are
        read from the folder of JOBS.jsonl.

        Prints one JSON line per job on stdout as it ends, then a count on stderr:
          {"line":3,"status":"completed","document":…,"output":…,"duration":8,"elapsed":2.4}
          {"line":4,"status":"failed",…,"error":"…","place":"edits/b.json:5:14 clips[0].source"}
        status is completed, skipped (the output is already there and reads as media, the package folder has
        its manifests: a rerun finishes only what is left), failed (the others go on) or cancelled.

        Every export writes a temporary file and names it only when complete, so Ctrl-C, SIGTERM or even a kill
        leaves no partial output; Ctrl-C cancels every running export and starts no more (exit 130).

        Options:
          -j, --jobs N    exports at once, 1…64

        Exit: 0 when every job completed or was skipped, 1 when one failed, 130 when cancelled.

        \(exitCodes)
        """
}
