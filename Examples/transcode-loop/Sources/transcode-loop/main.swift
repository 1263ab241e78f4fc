// transcode-loop INPUT OUTPUT.mp4 [BITS_PER_SECOND]
//
// Reads INPUT's first video track as planar 4:2:0 pictures and its first audio track as Float32 PCM, and writes them
// to OUTPUT as H.264 at BITS_PER_SECOND (2000000 unless given) and AAC at 128 kb/s: the transcode loop of
// docs/reading-writing.md, the one AVFoundation ports are written on (AVAssetReader → AVAssetWriter). Prints the
// pictures and sample frames written. Exits 1 with the library's error when anything fails.
import Foundation
import Splice

struct Failure: Error, CustomStringConvertible {
    var description: String
}

func transcode(input: URL, output: URL, bitRate: Int) async throws -> (pictures: Int, sampleFrames: Int) {
    let asset = try await Asset.load(from: input)
    guard let video = asset.tracks(withMediaType: .video).first, let size = video.naturalSize,
          let timing = video.video else {
        throw Failure(description: "\(input.path) has no video track")
    }
    let audio = asset.tracks(withMediaType: .audio).first

    let reader = AssetReader(asset: asset)
    let pictures = AssetReaderTrackOutput(track: video, outputSettings: .video(pixelFormat: .yuv420p))
    try reader.add(pictures)
    let writer = try AssetWriter(outputURL: output, fileType: .mp4)
    let videoInput = AssetWriterInput(mediaType: .video, outputSettings: .video(
        VideoSettings(codec: .h264, rateControl: .averageBitRate(bitRate), encoderPreset: "veryfast"),
        size: size, frameDuration: timing.minFrameDuration, timeScale: video.naturalTimeScale))
    try writer.add(videoInput)
    var pairs: [(AssetReaderTrackOutput, AssetWriterInput)] = [(pictures, videoInput)]
    if let audio {
        let sound = AssetReaderTrackOutput(track: audio, outputSettings: .audio(sampleFormat: .float32))
        let audioInput = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac, bitRate: 128_000)))
        try reader.add(sound)
        try writer.add(audioInput)
        pairs.append((sound, audioInput))
    }

    guard reader.startReading() else { throw reader.error ?? Failure(description: "the reader did not start") }
    try writer.startWriting()
    writer.startSession(atSourceTime: .zero)
    let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
        for (output, input) in pairs {
            group.addTask {
                var samples = 0, sampleFrames = 0
                for try await sample in output {
                    try await input.append(sample)
                    samples += 1
                    if sample.audioBuffer != nil { sampleFrames += sample.sampleCount }
                }
                input.markAsFinished()
                return output.mediaType == .video ? (samples, 0) : (0, sampleFrames)
            }
        }
        return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }
    try await writer.finishWriting()
    return counts
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 || arguments.count == 3,
      let bitRate = arguments.count == 3 ? Int(arguments.last!) : 2_000_000, bitRate > 0 else {
    FileHandle.standardError.write(Data("usage: transcode-loop INPUT OUTPUT.mp4 [BITS_PER_SECOND]\n".utf8))
    exit(2)
}
let input = URL(fileURLWithPath: arguments[arguments.startIndex])
let output = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
do {
    let (pictures, sampleFrames) = try await transcode(input: input, output: output, bitRate: bitRate)
    print("\(pictures) pictures, \(sampleFrames) sample frames at \(bitRate) b/s → \(output.path)")
} catch {
    FileHandle.standardError.write(Data("transcode-loop: \(error)\n".utf8))
    exit(1)
}
