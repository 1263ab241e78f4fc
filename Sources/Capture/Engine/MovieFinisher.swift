import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia

/// Turns a finished fragmented movie into a regular one (one `moov` with every sample table), by stream copy into a
/// temporary file beside it that then replaces it (`rename`, atomic): what a clean stop leaves, as AVFoundation
/// leaves a normal movie. Players that cannot read fragments can then play it.
enum MovieFinisher {
    /// Rewrites the movie at `url` in place, packets and timestamps as they are: the fragments' edit lists (the AAC
    /// priming before 0) become the regular movie's, in a movie timescale of the sound's sample rate. `metadata` is
    /// the recording's container items, written again as the fragments had them.
    /// - Throws: ``FFmpegError`` or ``InputFileError``; the original file is untouched then.
    static func rewriteAsRegularMovie(at url: URL, metadata: [MetadataItem]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).finishing")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            let input = try InputFile(url: url)
            let output = try OutputFile(path: temporary.path, formatName: url.pathExtension.lowercased() == "mov" ? "mov" : "mp4",
                                        cancellation: CancellationFlag())
            var inputTimeBases: [AVRational] = []
            for index in 0..<input.streamCount {
                let stream = input.stream(at: index)
                inputTimeBases.append(stream.pointee.time_base)
                let copy = try output.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
                if let matrix = input.displayMatrix(ofStream: index) { try output.setDisplayMatrix(matrix, onStream: copy) }
            }
            // The recording's own items as given (the demuxer would read a location back from `loci` in its own
            // form), by the same rule as the fragments.
            let keySpace = output.setContainerMetadata(metadata)
            var options = keySpace ? ["movflags": "+use_metadata_tags"] : [:]
            // The fragments' edit lists, exact to the sample, stay so in the regular movie's timescale.
            if let rate = output.firstAudioSampleRate { options["movie_timescale"] = "\(rate)" }
            try output.writeHeader(options: options)
            let packet = try Packet()
            while try input.readPacket(into: packet) {
                let index = packet.streamIndex
                guard index < inputTimeBases.count else { continue }
                packet.rescaleTimestamps(from: inputTimeBases[index], to: output.timeBase(ofStream: index))
                packet.prepareForMuxing(stream: index)
                try output.write(packet)
            }
            try output.finish()
        }
        guard rename(temporary.path, url.path) == 0 else { throw FFmpegError.posix(errno) }
    }
}
