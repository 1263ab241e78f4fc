/// The help text of the delivery commands (docs/delivery.md).
extension Help {
    static let batch = """
        Usage: splice batch JOBS.jsonl [--jobs N]

        Runs one export per line of JOBS.jsonl (JSON Lines; blank lines and lines starting with # are skipped),
        N at a time in this process (default 1). A line is {"document": PATH, "output": PATH} with the export's
        options as fields: "overwrite": true, "smartRendering": true, "loudness": {"integratedLoudness": -16,
        "truePeakCeiling": -1}. Relative paths are read from the folder of JOBS.jsonl.

        Prints one JSON line per job on stdout as it ends, then a count on stderr:
          {"line":3,"status":"completed","document":…,"output":…,"duration":8,"elapsed":2.4}
          {"line":4,"status":"failed",…,"error":"…","place":"edits/b.json:5:14 clips[0].source"}
        status is completed, skipped (the output is already there and reads as media: a rerun finishes only
        what is left), failed (the others go on) or cancelled.

        Every export writes a temporary file and names it only when complete, so Ctrl-C, SIGTERM or even a kill
        leaves no partial output; Ctrl-C cancels every running export and starts no more (exit 130).

        Options:
          -j, --jobs N    exports at once, 1…64

        Exit: 0 when every job completed or was skipped, 1 when one failed, 130 when cancelled.

        \(exitCodes)
        """
}
