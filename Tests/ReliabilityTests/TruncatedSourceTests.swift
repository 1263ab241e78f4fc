import SpliceFFmpeg
import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// Sources cut short: a file truncated after it was loaded (or while an export reads it), or a file whose index
    /// lists more samples than its data holds. Every reader — the encoding export, passthrough, the loader and
    /// `AssetReader` — stops with a typed error naming the file, the track and the file time where the track's data
    /// ends, checked against `ffprobe`'s packet list of the whole file; no export holds its last picture to the end.
    @Suite("Sources cut short: a typed error naming the file and where its data ends")
    struct TruncatedSourceTests {
        /// What `ffprobe` says of one stream of the whole file, cut at `size` bytes: the decode time of the first
        /// packet the cut file does not hold whole, and of the last packet.
        struct StreamCut: Equatable {
            var dataEnd: MediaTime
            var indexedEnd: MediaTime
        }

        /// Each stream's ``StreamCut`` (by stream index) for `original` cut at `size` bytes, from `ffprobe -show_packets`
        /// of the uncut file (a second reader of the positions, sizes and times).
        static func cuts(of original: URL, at size: Int) async throws -> [Int: StreamCut] {
            let text = try await Executable.output(of: "ffprobe", [
                "-v", "error", "-show_entries", "stream=index,time_base:packet=stream_index,dts,pos,size", "-of", "json", original.path,
            ])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var timeBases: [Int: Int32] = [:]
            for stream in json["streams"] as? [[String: Any]] ?? [] {
                let parts = (stream["time_base"] as? String ?? "").split(separator: "/")
                if let index = stream["index"] as? Int, parts.count == 2, parts[0] == "1" { timeBases[index] = Int32(parts[1]) }
            }
            var firstMissing: [Int: Int64] = [:], last: [Int: Int64] = [:]
            for packet in json["packets"] as? [[String: Any]] ?? [] {
                guard let stream = packet["stream_index"] as? Int, let dts = packet["dts"] as? Int,
                      let position = Int(packet["pos"] as? String ?? ""), let bytes = Int(packet["size"] as? String ?? "") else { continue }
                last[stream] = max(last[stream] ?? Int64(dts), Int64(dts))
                if position + bytes > size { firstMissing[stream] = min(firstMissing[stream] ?? Int64(dts), Int64(dts)) }
            }
            var cuts: [Int: StreamCut] = [:]
            for (stream, missing) in firstMissing {
                guard let scale = timeBases[stream], let end = last[stream] else { continue }
                cuts[stream] = StreamCut(dataEnd: MediaTime(value: missing, timescale: scale), indexedEnd: MediaTime(value: end, timescale: scale))
            }
            return cuts
        }

        /// A copy of canonical/clipA.mp4 (4 s, H.264 + AAC, its index first) in `scratch`, loaded, then cut to
        /// `size` bytes: the loader saw the whole file, every reader after it sees the cut one.
        static func clipCutAfterLoading(to size: Int, in scratch: ScratchDirectory) throws -> (url: URL, load: () async throws -> Asset) {
            let copy = scratch.file("clipA.mp4")
            try FileManager.default.copyItem(at: Fixture.url("canonical/clipA.mp4"), to: copy)
            return (copy, {
                let asset = try await Asset.load(from: copy)
                #expect(truncate(copy.path, off_t(size)) == 0)
                return asset
            })
        }

        /// The whole of `asset` as a composition.
        static func composition(of asset: Asset) throws -> MutableComposition {
            var composition = MutableComposition()
            try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
            return composition
        }

        /// True when `error` is ``ExportError/sourceTruncated(_:trackID:dataEnd:indexedEnd:)`` for `url` with the
        /// times `cuts` gives for its track.
        static func isTruncation(_ error: any Error, of url: URL, cuts: [Int: StreamCut]) -> Bool {
            guard case ExportError.sourceTruncated(let named, let trackID, let dataEnd, let indexedEnd) = error else {
                Issue.record("not sourceTruncated: \(error)")
                return false
            }
            let expected = cuts[Int(trackID) - 1]
            #expect(expected == StreamCut(dataEnd: dataEnd, indexedEnd: indexedEnd), "track \(trackID): \(error)")
            return named == url && expected == StreamCut(dataEnd: dataEnd, indexedEnd: indexedEnd)
        }

        /// The message writes both times as every message of the package does: seconds with three decimals.
        @Test func theMessageWritesTheTimesWithThreeDecimals() {
            let error = ExportError.sourceTruncated(URL(fileURLWithPath: "/clips/a.mp4"), trackID: 2,
                                                    dataEnd: MediaTime(value: 48_270, timescale: 160_000),
                                                    indexedEnd: MediaTime(value: 39, timescale: 10))
            #expect("\(error)" == "source /clips/a.mp4 is cut short: the data of its track 2 ends at 0.302 s, though its "
                + "index lists samples up to 3.900 s")
        }

        static let cut = 226_318 * 3 / 10

        @Test(arguments: [false, true])
        func anExportOfASourceCutAfterLoadingFailsWhereItsDataEnds(passthrough: Bool) async throws {
            let scratch = try ScratchDirectory("cut-after-loading")
            defer { scratch.remove() }
            let cuts = try await Self.cuts(of: Fixture.url("canonical/clipA.mp4"), at: Self.cut)
            // The video's data ends at decode time 17408/15360 s (its 37th sample of 120), the sound's at 54272/48000 s.
            #expect(cuts[0]?.dataEnd == MediaTime(value: 17408, timescale: 15360) && cuts[1]?.dataEnd == MediaTime(value: 54272, timescale: 48000))
            let (input, load) = try Self.clipCutAfterLoading(to: Self.cut, in: scratch)
            let composition = try Self.composition(of: try await load())
            let output = scratch.file("out.mp4")
            let session = passthrough ? AssetExportSession(asset: composition, preset: .passthrough)
                                      : AssetExportSession(asset: composition, settings: FastSettings.make())
            session.outputURL = output
            await #expect { try await session.export() } throws: { Self.isTruncation($0, of: input, cuts: cuts) }
            #expect(session.status == .failed)
            #expect(scratch.contents == ["clipA.mp4"], "left behind: \(scratch.contents)")
        }

        @Test(arguments: [nil, AssetReaderOutputSettings.video(pixelFormat: .yuv420p)])
        func anAssetReaderOfASourceCutAfterLoadingFailsWhereItsDataEnds(settings: AssetReaderOutputSettings?) async throws {
            let scratch = try ScratchDirectory("cut-reader")
            defer { scratch.remove() }
            let cuts = try await Self.cuts(of: Fixture.url("canonical/clipA.mp4"), at: Self.cut)
            let (input, load) = try Self.clipCutAfterLoading(to: Self.cut, in: scratch)
            let asset = try await load()
            let reader = AssetReader(asset: asset)
            let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: settings)
            try reader.add(output)
            reader.startReading()
            var samples = 0
            do {
                for try await _ in output { samples += 1 }
                Issue.record("the reader ended without an error after \(samples) samples")
            } catch let error as AssetReaderError {
                guard case .readFailed(let url, let trackID, let time, let reason) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(url == input && trackID == 1 && time == cuts[0]?.dataEnd, "\(error)")
                #expect(reason.contains("cut short"), "\(reason)")
            }
            // The first 36 samples in decode order (decode times −1024 … 16896 ticks) are whole; the 37th, at 17408, is
            // the first the file does not hold. Decoded, the pictures the decoder still held when the read failed
            // (B-frames reordered, frame threads) are not handed out.
            #expect(settings == nil ? samples == 36 : (1...36).contains(samples), "\(samples) samples")
            #expect(reader.status == .failed)
        }

        /// The source is cut while the export reads it (at 5 % of the progress, long before it reaches the cut).
        @Test func anInputCutMidExportFailsWhereItsDataEndsAndLeavesTheExistingFile() async throws {
            let scratch = try ScratchDirectory("cut-mid-export")
            defer { scratch.remove() }
            let cuts = try await Self.cuts(of: Fixture.url("canonical/clipA.mp4"), at: Self.cut)
            let input = scratch.file("clipA.mp4")
            try FileManager.default.copyItem(at: Fixture.url("canonical/clipA.mp4"), to: input)
            let output = scratch.file("out.mp4")
            let session = try ExportFaultTests.session(try Self.composition(of: try await Asset.load(from: input)), output: output,
                                                       settings: ExportSettings(video: VideoSettings(encoderPreset: "medium")))
            let task = Task { try await session.export() }
            let truncated = await whenProgress(of: session, passes: 0.05) { truncate(input.path, off_t(Self.cut)) }
            #expect(truncated == 0, "the export ended before its input could be cut")
            await #expect { try await task.value } throws: { Self.isTruncation($0, of: input, cuts: cuts) }
            #expect(scratch.contents == ["clipA.mp4", "out.mp4"])
            #expect(try BinaryFile.read(output) == ExportFaultTests.precious)
        }

        /// A file cut exactly between two samples gives libavformat no damaged packet at all: a plain end of file
        /// (ffprobe lists 60 whole pictures and no error). The loader reads its index against its size and refuses
        /// it, naming the time.
        @Test func aFileCutBetweenSamplesIsRefusedByTheLoader() async throws {
            let scratch = try ScratchDirectory("cut-between-samples")
            defer { scratch.remove() }
            let original = Fixture.url("canonical/clipA.mp4")
            // The start of the 61st picture's data (in decode order): everything before it is whole.
            let packets = try await Executable.output(of: "ffprobe", [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos", "-of", "csv=p=0", original.path,
            ]).split(separator: "\n").compactMap { Int($0) }
            let size = try #require(packets.count == 120 ? packets[60] : nil, "\(packets.count) packets")
            let cuts = try await Self.cuts(of: original, at: size)
            let copy = scratch.file("cut.mp4")
            try Data(try BinaryFile.read(original).prefix(size)).write(to: copy)
            await #expect { _ = try await Asset.load(from: copy) } throws: { error in
                guard case AssetLoadingError.corruptOrTruncated(let url, let reason) = error else { return false }
                // Its decode time: 29696/15360 s (the picture shown at 2 s: decode times run two pictures, 1024 ticks, ahead).
                return url == copy && cuts[0]?.dataEnd == MediaTime(value: 29696, timescale: 15360)
                    && reason.contains("stream 0's data ends at 1.933 s, though the file's index lists samples up to 3.900 s")
                    && reason.contains("the file is cut short")
            }
        }

        /// A real phone clip (Android, index first) cut in its media data: refused by the loader with the time where
        /// its picture's data ends, as ffprobe lists the packets.
        @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
        func aCutPhoneClipIsRefusedNamingWhereItsDataEnds() async throws {
            let scratch = try ScratchDirectory("cut-phone-clip")
            defer { scratch.remove() }
            let original = Fixture.sharedMedia("M03_android_720p_rot180_vfr_aac-mono48k.mp4")
            let cuts = try await Self.cuts(of: original, at: 1_000_000)
            // ffprobe: frame 8 at 0.769933 s (69294/90000) is the first the file no longer holds whole.
            #expect(cuts[0]?.dataEnd == MediaTime(value: 69294, timescale: 90000))
            let copy = scratch.file("cut.mp4")
            try Data(try BinaryFile.read(original).prefix(1_000_000)).write(to: copy)
            await #expect { _ = try await Asset.load(from: copy) } throws: { error in
                guard case AssetLoadingError.corruptOrTruncated(let url, let reason) = error else { return false }
                return url == copy && reason.contains("stream 0's data ends at 0.770 s, though the file's index lists samples up to ")
            }
        }
    }
}
