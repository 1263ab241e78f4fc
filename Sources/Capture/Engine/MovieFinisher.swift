import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia

/// Turns a finished fragmented movie into a regular one (one `moov` with every sample table), by stream copy into a
/// temporary file beside it that then replaces it (`rename`, atomic): what a clean stop leaves, as AVFoundation
/// leaves a normal movie. Players that cannot read fragments can then play it.
enum MovieFinisher {
    /// Rewrites the movie at `url` in place, moving every stream `audioPriming` samples (at `sampleRate`) earlier
    /// again: the fragmenting muxer had moved them all later so the AAC priming would not start before 0. The
    /// picture starts at 0 again and the priming lands before 0, written as an edit list (players skip it).
    /// `metadata` is the recording's container items, written again as the fragments had them.
    /// - Throws: ``FFmpegError`` or ``InputFileError``; the original file is untouched then.
    static func rewriteAsRegularMovie(at url: URL, audioPriming: Int64, sampleRate: Int, metadata: [MetadataItem]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).finishing")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            let input = try InputFile(url: url)
            let output = try OutputFile(path: temporary.path, formatName: url.pathExtension.lowercased() == "mov" ? "mov" : "mp4",
                                        cancellation: CancellationFlag())
            var inputTimeBases: [AVRational] = []
            var isAudio: [Bool] = []
            for index in 0..<input.streamCount {
                let stream = input.stream(at: index)
                inputTimeBases.append(stream.pointee.time_base)
                isAudio.append(stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO)
                let copy = try output.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
                if let matrix = input.displayMatrix(ofStream: index) { try output.setDisplayMatrix(matrix, onStream: copy) }
            }
            // The recording's own items as given (the demuxer would read a location back from `loci` in its own
            // form), by the same rule as the fragments.
            let keySpace = output.setContainerMetadata(metadata)
            try output.writeHeader(options: keySpace ? ["movflags": "+use_metadata_tags"] : [:])
            let packet = try Packet()
            while try input.readPacket(into: packet) {
                let index = packet.streamIndex
                guard index < inputTimeBases.count else { continue }
                if audioPriming > 0 {
                    let shift = av_rescale_q(audioPriming, AVRational(num: 1, den: Int32(sampleRate)), inputTimeBases[index])
                    packet.shiftTimestamps(earlierBy: shift)
                    // The fragmenting muxer kept the first picture at 0 (stretching its duration) while moving the
                    // others: it goes back to 0, where it was shown (no B-frames: its dts is its pts).
                    if !isAudio[index], let pts = packet.presentationTimestamp, pts < 0 {
                        packet.setTiming(presentation: 0, decoding: 0, duration: packet.duration)
                    }
                }
                packet.rescaleTimestamps(from: inputTimeBases[index], to: output.timeBase(ofStream: index))
                packet.prepareForMuxing(stream: index)
                try output.write(packet)
            }
            try output.finish()
        }
        guard rename(temporary.path, url.path) == 0 else { throw FFmpegError.posix(errno) }
    }
}
