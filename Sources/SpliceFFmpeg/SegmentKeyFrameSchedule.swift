internal import CMedia
import Composition

/// Which pictures an encoder must make key frames of so that segments cut at every boundary
/// `initialStart + k × interval` (k = 1, 2, …) start exactly there, rounded up to the picture grid: the first picture
/// presented at or after each boundary. Given to the encoder as the frame's picture type
/// (`pict_type = AV_PICTURE_TYPE_I`, ``Frame/forceKeyFrame()``) with the encoder's ``encoderOptions(encoderName:)``, so
/// libx264 and libx265 make it an IDR picture (a closed group of pictures: nothing after it refers to a picture
/// before it), which is what ``FragmentedMP4Segmenter`` cuts on and what lets renditions of one ladder switch at
/// every segment start. Pictures are asked about in presentation order.
package struct SegmentKeyFrameSchedule: Sendable, Hashable {
    /// Where the segments' timeline starts.
    package let initialStart: MediaTime
    /// The segment duration asked for (positive).
    package let interval: MediaTime
    private var nextBoundary: MediaTime

    /// A schedule of boundaries every `interval` (positive, numeric) after `initialStart`.
    package init(initialStart: MediaTime = .zero, interval: MediaTime) {
        self.initialStart = initialStart
        self.interval = interval
        nextBoundary = initialStart + interval
    }

    /// True when the picture presented at `time` is the first at or after the next boundary (it must be a key
    /// frame); the schedule then moves past every boundary up to `time`.
    package mutating func forcesKeyFrame(at time: MediaTime) -> Bool {
        guard interval > .zero, time >= nextBoundary else { return false }
        while nextBoundary <= time { nextBoundary = nextBoundary + interval }
        return true
    }

    /// The private options that make `encoderName` honour a forced key frame as an IDR picture: libx264's and
    /// libx265's `forced-idr` (without it they may make a forced picture an open-GOP I picture, which a segment
    /// cannot start on). Other encoders make every forced picture a key frame already.
    package static func encoderOptions(encoderName: String) -> [String: String] {
        encoderName == "libx264" || encoderName == "libx265" ? ["forced-idr": "1"] : [:]
    }
}

extension Frame {
    /// Asks the encoder to make this picture a key frame (`pict_type = AV_PICTURE_TYPE_I`); see
    /// ``SegmentKeyFrameSchedule/encoderOptions(encoderName:)`` for an IDR picture.
    package func forceKeyFrame() {
        pointer.pointee.pict_type = AV_PICTURE_TYPE_I
    }
}
