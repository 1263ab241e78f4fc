import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// Concurrency: four exports and an image generator at once in one process, each from its own task, all correct —
    /// no shared mutable state between sessions (Swift 6 strict concurrency checks the rest at compile time).
    @Suite("Concurrency: four exports and an image generator at once")
    struct ConcurrencyTests {
        /// One export job and what its file must hold.
        struct Job: Sendable {
            var name: String
            var composition: MutableComposition
            /// Set where `propertiesOf:` would not give 1/30 s frames (Matroska's millisecond timestamps: 33 ms).
            var frameDuration: MediaTime?
            var frames: Int
            var seconds: Int64
            var hasAudio: Bool
            /// A pixel area and its expected colour at a time (seconds), ± 8 per channel.
            var check: (time: MediaTime, area: Rect, color: (Double, Double, Double))
        }

        static let patch = Rect(x: 144, y: 80, width: 32, height: 32)

        static func jobs() async throws -> [Job] {
            let red = try await Fixture.asset("solid/red-2s-ffv1.mkv"), tone = try await Fixture.asset("tone/sine-1k-48k-stereo.wav")
            var solid = MutableComposition()
            try solid.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: red, at: .zero)
            let toneTrack = try solid.addMutableTrack(withMediaType: .audio)
            try solid.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: tone.tracks[0], at: .zero,
                                      intoTrackWithID: toneTrack)
            return [
                Job(name: "clipA", composition: try await Fixture.composition("canonical/clipA.mp4", seconds: 2), frames: 60, seconds: 2,
                    hasAudio: true, check: (MediaTime(seconds: 1), patch, (255, 0, 0))),
                Job(name: "clipB", composition: try await Fixture.composition("canonical/clipB.mp4", seconds: 2), frames: 60, seconds: 2,
                    hasAudio: true, check: (MediaTime(seconds: 1), patch, (0, 0, 255))),
                Job(name: "solid", composition: solid, frameDuration: MediaTime(value: 1, timescale: 30), frames: 60, seconds: 2, hasAudio: true,
                    check: (MediaTime(value: 3, timescale: 2), Rect(x: 100, y: 80, width: 100, height: 80), (255, 0, 0))),
                Job(name: "flash", composition: try await Fixture.composition("markers/flash-beep.mp4", seconds: 3), frames: 90,
                    seconds: 3, hasAudio: true, check: (MediaTime(seconds: 1), Rect(x: 100, y: 80, width: 100, height: 80), (255, 255, 255))),
            ]
        }

        static func matches(_ color: (red: Double, green: Double, blue: Double, alpha: Double), _ expected: (Double, Double, Double)) -> Bool {
            abs(color.red - expected.0) <= 8 && abs(color.green - expected.1) <= 8 && abs(color.blue - expected.2) <= 8
        }

        @Test func fourExportsAndAnImageGeneratorRunAtOnceAndAllAreCorrect() async throws {
            let scratch = try ScratchDirectory("concurrency")
            defer { scratch.remove() }
            let jobs = try await Self.jobs()
            let clipA = jobs[0].composition
            let times = (0..<12).map { MediaTime(value: Int64($0), timescale: 6) }  // 0 ... 11/6 s
            // Everything starts together; each export and the generator run on their own task (and worker thread).
            let pictures: [(MediaTime, VideoFrame)] = try await withThrowingTaskGroup(of: [(MediaTime, VideoFrame)].self) { group in
                for job in jobs {
                    group.addTask {
                        let session = AssetExportSession(asset: job.composition, settings: FastSettings.make())
                        session.outputURL = scratch.file("\(job.name).mp4")
                        if let frameDuration = job.frameDuration {
                            var video = MutableVideoComposition(propertiesOf: job.composition)
                            video.frameDuration = frameDuration
                            session.videoComposition = video
                        }
                        try await session.export()
                        return []
                    }
                }
                group.addTask {
                    var generator = AssetImageGenerator(asset: clipA)
                    generator.requestedTimeToleranceBefore = .zero
                    generator.requestedTimeToleranceAfter = .zero
                    var frames: [(MediaTime, VideoFrame)] = []
                    for try await item in generator.images(for: times) { frames.append((item.actualTime, item.image)) }
                    return frames
                }
                var all: [(MediaTime, VideoFrame)] = []
                for try await result in group { all += result }
                return all
            }
            #expect(scratch.contents == jobs.map { "\($0.name).mp4" }.sorted())

            // The generator's pictures: every requested time, clipA's red patch in each.
            #expect(pictures.map(\.0) == times)
            for (time, picture) in pictures {
                #expect(picture.width == 640 && picture.height == 360)
                #expect(Self.matches(picture.meanColor(in: Self.patch), (255, 0, 0)), "picture at \(time): \(picture.meanColor(in: Self.patch))")
            }
            // Each export, probed and looked at.
            for job in jobs {
                let output = scratch.file("\(job.name).mp4")
                let asset = try await Asset.load(from: output)
                let video = try #require(asset.tracks(withMediaType: .video).first, "\(job.name)")
                #expect(video.video?.frameCount == job.frames, "\(job.name)")
                #expect(video.timeRange.duration == MediaTime(seconds: job.seconds), "\(job.name)")
                #expect((asset.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(seconds: job.seconds)) == job.hasAudio,
                        "\(job.name)")
                var readback = MutableComposition()
                try readback.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
                var generator = AssetImageGenerator(asset: readback)
                generator.requestedTimeToleranceBefore = .zero
                generator.requestedTimeToleranceAfter = .zero
                let picture = try await generator.image(at: job.check.time).image
                #expect(Self.matches(picture.meanColor(in: job.check.area), job.check.color),
                        "\(job.name) at \(job.check.time): \(picture.meanColor(in: job.check.area)), expected \(job.check.color)")
            }
        }
    }
}
