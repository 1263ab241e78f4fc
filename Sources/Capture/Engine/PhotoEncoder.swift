import Foundation
import SpliceFFmpeg
internal import CMedia

/// Encodes one converted picture as a JPEG (`mjpeg`, from `yuvj420p`) or PNG (`png`, from `rgb24`) file's bytes.
enum PhotoEncoder {
    /// The file bytes of `picture` (already in the codec's pixel format).
    /// - Throws: ``FFmpegError`` (the encoder missing, refusing the picture).
    static func encode(_ picture: Frame, codec: CapturePhotoSettings.Codec) throws -> Data {
        let format = codec == .jpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_RGB24
        var configuration = EncoderConfiguration(encoderName: codec == .jpeg ? "mjpeg" : "png", media: .video(.init(
            width: picture.width, height: picture.height, pixelFormat: format,
            timeBase: AVRational(num: 1, den: 1), frameRate: AVRational(num: 1, den: 1))))
        if codec == .jpeg, case .video(var video) = configuration.media {
            video.color = ColorTags(range: AVCOL_RANGE_JPEG, primaries: AVCOL_PRI_UNSPECIFIED, transfer: AVCOL_TRC_UNSPECIFIED,
                                    matrix: AVCOL_SPC_BT470BG)
            configuration.media = .video(video)
            // One frame at 1 fps: 4 Mbit/s is 500 kB for the picture, far more than a 640 × 480 JPEG needs.
            configuration.bitRate = 4_000_000
        }
        configuration.threadCount = 1
        let copy = try picture.clone()
        copy.resetPictureType()
        return Data(try Encoder(configuration: configuration).encodeSinglePicture(copy))
    }
}
