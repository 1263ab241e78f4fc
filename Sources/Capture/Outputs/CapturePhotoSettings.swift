/// How one photo is taken (AVFoundation's `AVCapturePhotoSettings`): the file format.
public struct CapturePhotoSettings: Sendable, Hashable, Codable {
    /// The photo's file format (AVFoundation's `AVVideoCodecType` for photos).
    public enum Codec: String, Sendable, Hashable, Codable, CaseIterable {
        /// Baseline JPEG/JFIF, 4:2:0, BT.601 full range (libavcodec's `mjpeg` encoder).
        case jpeg
        /// PNG, 8-bit RGB, lossless after the conversion from the camera's Y'CbCr (libavcodec's `png` encoder).
        case png

        /// The file name extension: `jpg` or `png`.
        public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    /// The format (default ``Codec/jpeg``).
    public var codec: Codec

    /// Settings for a photo in `codec`.
    public init(codec: Codec = .jpeg) { self.codec = codec }
}
