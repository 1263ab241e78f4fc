import Capture
import Composition
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
internal import CMedia

/// Runs a session with `devices` and one movie output recording to `url`, and returns how the recording ended.
/// - Parameters:
///   - configure: sets the output's limits before recording.
///   - stopAfter: calls `stopRecording()` after this many seconds (nil: a limit must end it).
///   - beside: more outputs the session feeds while it records.
func record(_ devices: [CaptureDevice], to url: URL, stopAfter seconds: Double? = nil, beside: [any CaptureOutput] = [],
            configure: (CaptureMovieFileOutput) -> Void = { _ in }) async throws -> CaptureRecordingResult {
    let session = CaptureSession()
    for device in devices { session.addInput(try CaptureDeviceInput(device: device)) }
    for output in beside { session.addOutput(output) }
    let output = CaptureMovieFileOutput()
    configure(output)
    session.addOutput(output)
    let events = session.events
    session.startRunning()
    let recording = output.startRecording(to: url)
    var stopper: Task<Void, any Error>?
    // A device that stops delivering must fail the test, not hang it.
    let watchdog = Task {
        try await Task.sleep(nanoseconds: 60_000_000_000)
        output.stopRecording()
        session.stopRunning()
    }
    defer { watchdog.cancel() }
    var result: CaptureRecordingResult?
    for await event in recording {
        switch event {
        case .started:
            // Timed from the first frame written, not from the request (opening devices takes a while under load).
            if let seconds {
                stopper = Task {
                    try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                    output.stopRecording()
                }
            }
        case .paused, .resumed: break
        case .finished(let finished): result = finished
        }
    }
    stopper?.cancel()
    session.stopRunning()
    for await event in events {
        if case .stopped = event { break }
    }
    guard let result else { throw CaptureTestFailure.noResult }
    return result
}

enum CaptureTestFailure: Error { case noResult, noStream(String) }

/// What a recorded movie holds, decoded with Splice's own owners.
struct DecodedMovie {
    /// Each picture's presentation time (s) and mean luma (0…255) of its Y plane.
    var frames: [(time: Double, luma: Double)] = []
    /// Channel 0 of the sound, in order, and its rate.
    var samples: [Float] = []
    var sampleRate = 0
    /// The container's metadata, and the first box types of the file.
    var formatName = ""
    /// The last picture's planes: Y at full size, Cb and Cr at half size (4:2:0), each row `width` (or half) bytes.
    var lastPicture: (width: Int, height: Int, y: [UInt8], cb: [UInt8], cr: [UInt8])?

    /// The (Y, Cb, Cr) values of the last picture at pixel (`x`, `y`).
    func ycbcr(x: Int, y: Int) -> (Int, Int, Int)? {
        guard let picture = lastPicture else { return nil }
        let chroma = (y / 2) * (picture.width / 2) + x / 2
        return (Int(picture.y[y * picture.width + x]), Int(picture.cb[chroma]), Int(picture.cr[chroma]))
    }

    /// The times (s) of the pictures brighter than `threshold` that follow a darker picture.
    func flashTimes(threshold: Double = 200) -> [Double] {
        var times: [Double] = []
        var previous = 0.0
        for frame in frames {
            if frame.luma > threshold && previous <= threshold { times.append(frame.time) }
            previous = frame.luma
        }
        return times
    }

    /// The times (s) at which the sound first rises above `threshold` after at least 0.2 s below it, or first after
    /// one of the `cuts` (s): a cut joins two moments of sound, so a beep just after it is a beep of its own even when
    /// the sound before the cut ended in another. The first 10 ms after a cut are not searched (the encoder's ringing
    /// of a beep ending at the cut), so a beep starting exactly at a cut is found 10 ms late.
    func beepTimes(threshold: Float = 0.4, cuts: [Double] = []) -> [Double] {
        var times: [Double] = []
        var lastLoud = -1_000_000
        var cutSamples = cuts.map { Int(($0 * Double(sampleRate)).rounded()) }.sorted()[...]
        // A plain loop over the buffer: a 10-minute movie has 28.8 million samples, and tests build unoptimised.
        samples.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if let cut = cutSamples.first, index >= cut {
                    lastLoud = -1_000_000
                    cutSamples.removeFirst()
                    index = max(index, cut + sampleRate / 100)
                    continue
                }
                if abs(buffer[index]) > threshold {
                    if index - lastLoud > sampleRate / 5 { times.append(Double(index) / Double(sampleRate)) }
                    lastLoud = index
                }
                index += 1
            }
        }
        return times
    }

    /// Root-mean-square level of the sound between `start` and `end` seconds, dBFS.
    func level(from start: Double, to end: Double) -> Double {
        let range = Int(start * Double(sampleRate))..<min(samples.count, Int(end * Double(sampleRate)))
        let power = range.reduce(0.0) { $0 + Double(samples[$1]) * Double(samples[$1]) } / Double(max(range.count, 1))
        return 10 * log10(power)
    }

    /// The dominant frequency between `start` and `end` seconds, Hz, from zero crossings (for a pure tone).
    func frequency(from start: Double, to end: Double) -> Double {
        let first = Int(start * Double(sampleRate)), last = min(samples.count, Int(end * Double(sampleRate)))
        var crossings: [Double] = []
        for index in (first + 1)..<last where samples[index - 1] < 0 && samples[index] >= 0 {
            let a = Double(samples[index - 1]), b = Double(samples[index])
            crossings.append(Double(index - 1) + a / (a - b))
        }
        guard let firstCrossing = crossings.first, let lastCrossing = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(sampleRate) / (lastCrossing - firstCrossing)
    }
}

/// Decodes every picture and sound sample of the movie at `url`.
/// - Parameters:
///   - lumaStride: each picture's mean luma is taken over every `lumaStride`-th pixel of every `lumaStride`-th row
///     (1: all; a flash is the whole picture white, so 32 finds it as well, for a 10-minute movie).
///   - keepsLastPicture: false to skip copying each picture's planes for ``DecodedMovie/lastPicture``.
///   - threads: decoding threads per stream (0: FFmpeg's choice).
func decodeMovie(_ url: URL, lumaStride: Int = 1, keepsLastPicture: Bool = true, threads: Int32 = 1) throws -> DecodedMovie {
    let input = try InputFile(url: url)
    var movie = DecodedMovie()
    movie.formatName = input.formatName
    var decoders: [Int: Decoder] = [:]
    for index in 0..<input.streamCount {
        decoders[index] = try Decoder(stream: input.stream(at: index), threads: threads)
    }
    let packet = try Packet()
    let frame = try Frame()
    func drain(_ decoder: Decoder, index: Int) throws {
        while try decoder.receive(into: frame) == .frame {
            let stream = input.stream(at: index)
            let timeBase = stream.pointee.time_base
            let time = Double(frame.bestEffortTimestamp) * Double(timeBase.num) / Double(timeBase.den)
            if stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
                var sum = 0, count = 0
                let rowBytes = frame.bytesPerRow(ofPlane: 0)
                if let plane = frame.plane(0) {
                    for y in stride(from: 0, to: frame.height, by: lumaStride) {
                        for x in stride(from: 0, to: frame.width, by: lumaStride) { sum += Int(plane[y * rowBytes + x]) }
                        count += (frame.width + lumaStride - 1) / lumaStride
                    }
                }
                movie.frames.append((time, Double(sum) / Double(max(count, 1))))
                guard keepsLastPicture else { continue }
                func copy(_ plane: Int, width: Int, height: Int) -> [UInt8] {
                    guard let base = frame.plane(plane) else { return [] }
                    let stride = frame.bytesPerRow(ofPlane: plane)
                    return (0..<height).flatMap { row in Array(UnsafeBufferPointer(start: base + row * stride, count: width)) }
                }
                movie.lastPicture = (frame.width, frame.height, copy(0, width: frame.width, height: frame.height),
                                     copy(1, width: frame.width / 2, height: frame.height / 2),
                                     copy(2, width: frame.width / 2, height: frame.height / 2))
            } else {
                movie.sampleRate = frame.sampleRate
                if let channel = frame.plane(0) {
                    channel.withMemoryRebound(to: Float.self, capacity: frame.sampleCount) { floats in
                        movie.samples.append(contentsOf: UnsafeBufferPointer(start: floats, count: frame.sampleCount))
                    }
                }
            }
        }
    }
    while try input.readPacket(into: packet) {
        let index = packet.streamIndex
        guard let decoder = decoders[index] else { continue }
        _ = try decoder.send(packet)
        try drain(decoder, index: index)
    }
    for (index, decoder) in decoders {
        _ = try decoder.send(nil)
        try drain(decoder, index: index)
    }
    return movie
}

/// The types of the top-level boxes of an ISO media file, in order.
func topLevelBoxes(_ url: URL) throws -> [String] {
    let data = try BinaryFile.read(url)
    var types: [String] = []
    var offset = 0
    while offset + 8 <= data.count {
        let length = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        types.append(String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self))
        guard length >= 8 else { break }
        offset += length
    }
    return types
}

/// The video packets of the file at `url` in stored order: whether each is a key frame, its payload, and its
/// presentation time in seconds.
func videoPackets(_ url: URL) throws -> [(isKeyFrame: Bool, payload: [UInt8], time: Double)] {
    let input = try InputFile(url: url)
    let packet = try Packet()
    var packets: [(isKeyFrame: Bool, payload: [UInt8], time: Double)] = []
    while try input.readPacket(into: packet) {
        let stream = input.stream(at: packet.streamIndex)
        guard stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { continue }
        let timeBase = stream.pointee.time_base
        let time = Double(packet.presentationTimestamp ?? 0) * Double(timeBase.num) / Double(timeBase.den)
        packets.append((packet.isKeyFrame, packet.data, time))
    }
    return packets
}
