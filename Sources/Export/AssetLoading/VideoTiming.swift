import SpliceFFmpeg
internal import CMedia
import Composition
import Foundation

/// The exact timing of a video track, from the presentation timestamps a ``PacketScan`` collected.
///
/// - Source time 0 is the first presented picture: ``startTimeOffset`` is its timestamp.
/// - ``duration`` = last picture's pts + its packet duration − first pts (the last picture is shown for its own
///   duration; when the container gives none, until the stream's declared end, else for the shortest interval).
/// - ``minFrameDuration`` is the shortest interval between consecutive pictures (the last picture's duration only
///   counts for a one-picture track: an edit list often trims it, as in an iPhone Live Photo movie where it is 19/600 s).
/// - ``hasVariableFrameRate`` is true when some interval exceeds the shortest by more than one tick of the stream's
///   clock (one tick of jitter is timestamp rounding: 33/34 ms at 29.97 fps in a 1/1000 time base, or an iPhone clip's single
///   21/600 s frame among 20/600 s ones).
/// - When the scan stopped at its limit, the end comes from the container (`start_time + duration`), the frame rate
///   from the scanned part, and ``frameCount`` is nil.
struct VideoTiming {
    var startTimeOffset: MediaTime
    var duration: MediaTime
    var minFrameDuration: MediaTime
    var hasVariableFrameRate: Bool
    var frameCount: Int?
    var nominalFrameRate: Double

    init(scan: PacketScan.Video, info: StreamInfo, complete: Bool, url: URL) throws {
        func time(_ ticks: Int64) throws -> MediaTime {
            guard let value = MediaTime(pts: ticks, timeBase: info.timeBase) else {
                throw AssetLoadingError.corruptOrTruncated(url, reason: "track \(info.index + 1) has a timestamp out of range")
            }
            return value
        }
        let declaredEnd = try AssetProbe.declaredEnd(info, url: url)
        let averageRate = info.averageFrameRate
        let declaredInterval: MediaTime? = averageRate.num > 0 && averageRate.den > 0
            ? MediaTime(value: Int64(averageRate.den), timescale: averageRate.num) : nil
        frameCount = complete ? scan.frames.count + scan.untimedFrames : nil

        let timestamps = scan.frames.map(\.pts).sorted()
        guard let first = timestamps.first, let last = timestamps.last else {
            // No timed picture: an empty track, or one whose packets carry no timestamps at all.
            let start = try info.startTime.map(time) ?? .zero
            startTimeOffset = start
            duration = declaredEnd.map { max(.zero, $0 - start) } ?? .zero
            minFrameDuration = declaredInterval ?? .invalid
            hasVariableFrameRate = false
            nominalFrameRate = averageRate.num > 0 && averageRate.den > 0 ? Double(averageRate.num) / Double(averageRate.den) : 0
            return
        }
        var intervals: [Int64] = []
        intervals.reserveCapacity(timestamps.count)
        for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
            let (gap, overflow) = later.subtractingReportingOverflow(earlier)
            if !overflow, gap > 0 { intervals.append(gap) }
        }
        let shortest = intervals.min()
        // The packet duration of the picture with the latest timestamp (the last one presented).
        let lastDuration = scan.frames.last(where: { $0.pts == last })?.duration ?? 0

        startTimeOffset = try time(first)
        let lastTime = try time(last)
        var end: MediaTime
        if lastDuration > 0 {
            end = lastTime + (try time(lastDuration))
        } else if let declaredEnd, declaredEnd > lastTime {
            end = declaredEnd
        } else if let shortest {
            end = lastTime + (try time(shortest))
        } else {
            end = lastTime + (declaredInterval ?? .zero)
        }
        if !complete, let declaredEnd, declaredEnd > end { end = declaredEnd }
        duration = end - startTimeOffset
        guard duration.isNumeric, !duration.hasBeenRounded else {
            throw AssetLoadingError.corruptOrTruncated(url, reason: "track \(info.index + 1) has timestamps out of range")
        }
        if let shortest {
            minFrameDuration = try time(shortest)
            hasVariableFrameRate = intervals.contains { $0 - shortest > 1 }
        } else {
            minFrameDuration = lastDuration > 0 ? try time(lastDuration) : (declaredInterval ?? duration)
            hasVariableFrameRate = false
        }
        // Pictures ÷ time shown, with the last picture counted for at least the shortest interval: an edit list
        // often shortens it (an export of 3.98 s at 30 fps has 120 frames, the last 0.4 frame long, and 120 ÷ 3.98 s
        // would read 30.15 fps).
        let lastOwn = lastDuration > 0 ? try time(lastDuration) : MediaTime.zero
        let lastShown = max(lastOwn, shortest != nil ? minFrameDuration : .zero)
        let shownSpan = complete ? max(duration, lastTime + lastShown - startTimeOffset) : lastTime + lastShown - startTimeOffset
        nominalFrameRate = shownSpan.seconds > 0 ? Double(timestamps.count) / shownSpan.seconds : 0
    }
}
