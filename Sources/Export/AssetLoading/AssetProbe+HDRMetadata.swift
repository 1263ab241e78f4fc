import SpliceFFmpeg
import Composition
import Foundation

extension AssetProbe {
    /// Fills an HDR video track's mastering display and content light level from its first decoded picture when
    /// the container states neither: x265 and most phones write them only as HEVC SEI, which FFmpeg 5.1 exposes as
    /// frame side data, never as stream side data. SDR tracks and tracks whose container has an `mdcv` or `clli`
    /// box are left alone (no decoding).
    ///
    /// - Throws: `CancellationError` only; a picture that cannot be decoded leaves the track as it is (the export
    ///   reports the failure where it reads there).
    static func completeHDRMetadata(of track: inout AssetTrack, url: URL, info: StreamInfo,
                                    cancellation: CancellationFlag) throws {
        guard var color = track.video?.color, color.dynamicRange != .sdr, info.hasDecoder, info.hasParameters,
              color.masteringDisplay == nil, color.contentLightLevel == nil else { return }
        do {
            let decoder = try StreamDecoder(
                input: InputFile.open(url, cancellation: cancellation), streamIndex: info.index,
                label: "video track \(info.index + 1) (\(info.codecName))", threads: 1)
            let frame = try Frame()
            guard try decoder.decode(into: frame) else { return }
            color.masteringDisplay = frame.masteringDisplay
            color.contentLightLevel = frame.contentLightLevel
            track.video?.color = color
        } catch let error as CancellationError {
            throw error
        } catch {
            if cancellation.isCancelled { throw CancellationError() }
        }
    }
}
