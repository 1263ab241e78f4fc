import Foundation
import SpliceFFmpeg
internal import CMedia

extension CaptureDevice {
    /// A virtual camera showing the still picture in the file at `url` (any picture FFmpeg reads: PNG, JPEG, …) at
    /// its own size, the same picture every frame at `frameRate` fps, paced to real time (FFmpeg `lavfi`: `movie`,
    /// `loop`, `realtime`), delivered as 4:2:0. Marked ``isVirtual``; its ``uniqueID`` is `virtual:image:` and the
    /// path. For showing known content to a session — codes to a ``CaptureMetadataOutput``, a test card — in tests
    /// and demos. Not listed by discovery.
    /// - Throws: ``CaptureDeviceError/openFailed(device:reason:)`` naming the file when it cannot be read as a
    ///   picture, or its picture has an odd width or height (4:2:0 needs even ones).
    public static func virtualCamera(showingImageAt url: URL, frameRate: Int = 30) throws(CaptureDeviceError) -> CaptureDevice {
        let id = "virtual:image:\(url.path)"
        let size: (width: Int, height: Int)
        do {
            let input = try InputFile(url: url)
            guard let index = input.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO) else {
                throw CaptureDeviceError.openFailed(device: id, reason: "the file holds no picture")
            }
            let parameters = input.stream(at: index).pointee.codecpar.pointee
            size = (Int(parameters.width), Int(parameters.height))
        } catch let error as CaptureDeviceError {
            throw error
        } catch {
            throw .openFailed(device: id, reason: FailureReason.words(for: error))
        }
        guard size.width > 0, size.height > 0, size.width % 2 == 0, size.height % 2 == 0, frameRate > 0 else {
            throw .openFailed(device: id, reason: "a \(size.width)×\(size.height) picture at \(frameRate) fps cannot be "
                + "shown (even sizes and a positive rate only)")
        }
        // The path is an option value inside a filter's arguments inside a graph: escaped for both parsers.
        let option = escaped(url.path, special: "\\':=")
        let graph = "movie=filename=\(escaped(option, special: "\\'[],;")),loop=loop=-1:size=1:start=0"
            + ",settb=1/\(frameRate),setpts=N,format=yuv420p,realtime"
        let format = Format(pixelFormat: "yuv420p", width: size.width, height: size.height,
                            frameRateRanges: [FrameRateRange(framesPerSecond: Int32(frameRate))])
        return CaptureDevice(
            uniqueID: id, localizedName: "Virtual Camera (\(url.lastPathComponent))", modelID: "lavfi movie",
            deviceType: .virtualCamera, isVirtual: true, formats: [format], mediaTypes: [.video],
            source: CaptureSource(formatName: "lavfi", device: graph, options: [:], clock: .zeroAtOpen))
    }

    /// `text` with a backslash before each character of `special` (FFmpeg's `av_get_token` escaping).
    private static func escaped(_ text: String, special: String) -> String {
        var result = ""
        for character in text {
            if special.contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
