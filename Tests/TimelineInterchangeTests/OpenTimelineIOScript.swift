import Foundation
import Splice
import SpliceTestSupport

/// The Python the interchange tests run with OpenTimelineIO's own package: the preludes every script shares, and the
/// run that builds a timeline over the framecode clips.
enum OpenTimelineIOScript {
    /// A script that builds a timeline: `body` after a prelude that imports `sys` and `otio`, names
    /// `RT`/`TR` (RationalTime, TimeRange), takes `path, a, b` from the arguments (the `.otio` to write, the two
    /// clips' URLs; more arguments from `sys.argv[4]`), sets `rate` (frames per second, a Python expression) and
    /// defines `media(url)` (64 frames at `rate`) and `clip(url, start, duration, **metadata)` (frames at `rate`).
    static func building(rate: String = "24000 / 1001", _ body: String) -> String {
        """
        import sys
        import opentimelineio as otio
        RT, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
        path, a, b = sys.argv[1:4]
        rate = \(rate)
        def media(url):
            return otio.schema.ExternalReference(target_url=url, available_range=TR(RT(0, rate), RT(64, rate)))
        def clip(url, start, duration, **metadata):
            return otio.schema.Clip(media_reference=media(url), source_range=TR(RT(start, rate), RT(duration, rate)), metadata=metadata)

        """ + body
    }

    /// A script that reads the timeline named by its first argument: `body` after a prelude that imports `sys` and
    /// `otio`, reads it into `timeline`, sets `rate` (a Python expression) and defines `f(time)`: the time in frames
    /// at `rate` as `%g`, rounded to 6 places.
    static func reading(rate: String = "24000 / 1001", _ body: String) -> String {
        """
        import sys
        import opentimelineio as otio
        timeline = otio.adapters.read_from_file(sys.argv[1])
        rate = \(rate)
        def f(time):
            return "%g" % round(time.value_rescaled_to(rate), 6)

        """ + body
    }

    /// Writes the framecode clips `a.mov` (blue 64) and `b.mov` (blue 192) into `scratch` at `frameDuration`, then
    /// runs `script` (``building(rate:_:)``) to write the timeline `name` there over them, `extra` after its
    /// arguments `path`, `a.mov`, `b.mov`.
    /// - Returns: the timeline's URL and what the script printed.
    /// - Throws: the clips' or the script's failure (``PythonVerifier``'s error with its output).
    static func buildTimeline(_ script: String, named name: String = "edit.otio", in scratch: ScratchDirectory,
                              frameDuration: MediaTime = InterchangeMedia.frameDuration,
                              _ extra: [String] = []) async throws -> (url: URL, printed: String) {
        try InterchangeMedia.framecodeClips(in: scratch, frameDuration: frameDuration)
        let url = scratch.file(name)
        let printed = try await PythonVerifier.run(script, [url.path, "a.mov", "b.mov"] + extra)
        return (url, printed)
    }
}
