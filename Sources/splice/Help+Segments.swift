/// The help texts of the segmented export commands (docs/cli.md, "Segmented export").
extension Help {
    static let plan = """
        Usage: splice plan DOC.json --segments N -o PLAN.json [--parts DIR]

        Splits the export of DOC.json into N segments of the output timeline, cut at frame boundaries, balanced by
        duration and moved onto instruction boundaries when close, and writes the plan (JSON). Parts go to DIR
        (default: PLAN.parts beside PLAN.json); the plan holds absolute paths, so every worker must see the same
        files (a shared file system). The parts and the joined file use the document's export.fileType (default .mp4).

        Then: splice render-segment PLAN.json --index I   (each I, anywhere, in any order)
              splice join PLAN.json -o OUT.mp4

        \(exitCodes)
        """

    static let renderSegment = """
        Usage: splice render-segment PLAN.json [--index I]

        Renders segment I (0-based) of the plan: video only, an IDR picture first, closed GOPs, the plan's settings,
        written through a temporary file. A complete part already there is kept (nothing is rendered), so running a
        step twice is harmless. Without --index, I comes from $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX.

        \(exitCodes)
        """

    static let join = """
        Usage: splice join PLAN.json -o OUT [--overwrite] [--fragment-interval T]

        Renders the audio of the whole range once (kept if already there), checks every part — present, readable to
        the end, the same codec parameters, a key frame first, exactly one picture on each frame — and writes them
        back to back with the audio into OUT (faststart), without re-encoding. A missing or damaged part fails with
        its index (exit 3) and no file is written. --fragment-interval T writes OUT as a fragmented movie instead,
        a fragment beginning on the parts' first key frame at least T after the last (as splice export's option).

        \(exitCodes)
        """

    static let submit = """
        Usage: splice submit --slurm PLAN.json -o OUT [--overwrite]
               splice submit --kubernetes PLAN.json -o OUT [--image IMAGE]

        --slurm: submits a Slurm array job (one task per segment still missing, $SLURM_ARRAY_TASK_ID) running
        `splice render-segment`, and a join job depending on it (afterok); waits by polling squeue, then checks
        every job's final state itself (a cancelled join is a failure) and names the segments that failed. Run it
        again to render only what is missing. The plan's files must be on a file system every node shares.

        --kubernetes: prints an Indexed Job manifest for the segments (JOB_COMPLETION_INDEX) and a join Job, for
        `kubectl apply -f -`. Generated only; Splice does not run Kubernetes itself.

        \(exitCodes)
        """
}
