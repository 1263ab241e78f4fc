import Foundation
import Splice
import SpliceFFmpeg

/// Compositors the custom-compositor tests hand to the engine.
enum TestCompositors {
    /// The top-most source picture with every colour channel inverted (255 − x), alpha kept.
    struct Inverting: VideoCompositing {
        func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
            guard let id = request.sourceTrackIDs.first, let source = request.sourceFrame(byTrackID: id) else {
                throw Failure(message: "no source picture at \(request.compositionTime)")
            }
            var pixels = source.pixels
            for row in 0..<source.height {
                for x in 0..<source.width {
                    let o = row * source.bytesPerRow + x * 4
                    pixels[o] = 255 - pixels[o]
                    pixels[o + 1] = 255 - pixels[o + 1]
                    pixels[o + 2] = 255 - pixels[o + 2]
                }
            }
            guard let frame = VideoFrame(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow,
                                         pixels: pixels) else { throw Failure(message: "bad shape") }
            return frame
        }
    }

    /// Returns the top-most source picture unchanged.
    struct PassThrough: VideoCompositing {
        func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
            guard let id = request.sourceTrackIDs.first, let source = request.sourceFrame(byTrackID: id) else {
                throw Failure(message: "no source picture at \(request.compositionTime)")
            }
            return source
        }
    }

    /// Passes pictures through and throws from `failureTime` on; concurrently (several frames in flight) or not.
    struct Throwing: VideoCompositing {
        let failureTime: MediaTime
        var supportsConcurrentRendering = false
        func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
            if request.compositionTime >= failureTime { throw Failure(message: "boom at the requested frame") }
            return try PassThrough().renderFrame(for: request)
        }
    }

    /// A flat grey picture whose level is the output frame index × 4 (so the frame order can be read back), counting
    /// the requests in flight. A request waits (at most `overlapDeadline` seconds) until two requests have been in
    /// flight at once — which a concurrent engine brings about at once, and a serial one never.
    final class Counting: VideoCompositing {
        let supportsConcurrentRendering: Bool
        let frameDuration: MediaTime
        let overlapDeadline: Double
        private struct State { var inFlight = 0; var maximum = 0; var times: [MediaTime] = [] }
        private let state = Locked(State())

        init(concurrent: Bool, frameDuration: MediaTime, overlapDeadline: Double) {
            supportsConcurrentRendering = concurrent
            self.frameDuration = frameDuration
            self.overlapDeadline = overlapDeadline
        }

        /// The most requests seen in flight at once.
        var maximumInFlight: Int { state.withLock { $0.maximum } }
        /// Every composition time requested, in call order.
        var requestedTimes: [MediaTime] { state.withLock { $0.times } }

        func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
            state.withLock { s in
                s.inFlight += 1
                s.maximum = max(s.maximum, s.inFlight)
                s.times.append(request.compositionTime)
            }
            defer { state.withLock { $0.inFlight -= 1 } }
            let deadline = Date().addingTimeInterval(overlapDeadline)
            while state.withLock({ $0.maximum }) < 2 && Date() < deadline { usleep(1_000) }
            let index = Int(request.compositionTime.value * Int64(frameDuration.timescale)
                            / (Int64(request.compositionTime.timescale) * frameDuration.value))
            // Finish out of order: later frames are sometimes quicker than earlier ones.
            usleep(UInt32((index * 7) % 5) * 1_000)
            let level = UInt8(clamping: index * 4)
            let size = request.renderSize
            var pixels = [UInt8](repeating: level, count: size.width * size.height * 4)
            for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
            guard let frame = VideoFrame(width: size.width, height: size.height, bytesPerRow: size.width * 4, pixels: pixels)
            else { throw Failure(message: "bad shape") }
            return frame
        }
    }

    /// A compositor's error, whose description the export error carries.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
