import Composition
import Foundation

/// A photo taken by a ``CapturePhotoOutput`` (AVFoundation's `AVCapturePhoto`): the encoded file and what it shows.
///
/// The picture is the first frame the session read after the request, turned and mirrored as the video
/// connection's ``CaptureConnection/videoOrientation`` and ``CaptureConnection/isVideoMirrored`` say (the pixels are
/// turned, so the file needs no orientation tag and shows upright in any viewer).
public struct CapturePhoto: Sendable, Hashable {
    /// The format of ``fileDataRepresentation()``.
    public let codec: CapturePhotoSettings.Codec
    /// Width in pixels of the oriented picture (AVFoundation's `resolvedSettings.photoDimensions.width`).
    public let width: Int
    /// Height in pixels of the oriented picture.
    public let height: Int
    /// When the frame was taken, on the session clock (AVFoundation's `timestamp`; microsecond timescale).
    public let timestamp: MediaTime
    /// When the photo was taken, on the wall clock (written into the file: EXIF `DateTimeOriginal` in UTC, or the
    /// PNG's `Creation Time`).
    public let creationDate: Date
    /// The orientation the pixels were turned to.
    public let orientation: CaptureVideoOrientation
    /// True when the pixels were mirrored left to right.
    public let isMirrored: Bool
    /// The device that took it (its ``CaptureDevice/uniqueID``).
    public let deviceID: String
    let fileData: Data

    init(codec: CapturePhotoSettings.Codec, width: Int, height: Int, timestamp: MediaTime, creationDate: Date,
         orientation: CaptureVideoOrientation, isMirrored: Bool, deviceID: String, fileData: Data) {
        self.codec = codec
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.creationDate = creationDate
        self.orientation = orientation
        self.isMirrored = isMirrored
        self.deviceID = deviceID
        self.fileData = fileData
    }

    /// The photo as the bytes of a JPEG or PNG file (AVFoundation's `fileDataRepresentation()`), with its metadata
    /// in it: a JPEG's EXIF block holds ImageDescription (the device and the session-clock time), Orientation 1,
    /// DateTimeOriginal (UTC), PixelXDimension and PixelYDimension; a PNG's `tEXt` chunks hold `Description` and
    /// `Creation Time`.
    public func fileDataRepresentation() -> Data { fileData }

    /// The photo's description as AVFoundation's `metadata` dictionary would give it, as strings: `PixelWidth`,
    /// `PixelHeight` (pixels), `Timestamp` (seconds on the session clock), `DateTimeOriginal` (UTC, EXIF's
    /// `YYYY:MM:DD HH:MM:SS`), `Orientation` (EXIF 1 — the pixels are already upright), `Mirrored`
    /// (`true`/`false`), `Device`.
    public var metadata: [String: String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return ["PixelWidth": "\(width)", "PixelHeight": "\(height)", "Timestamp": String(format: "%.6f", timestamp.seconds),
                "DateTimeOriginal": formatter.string(from: creationDate), "Orientation": "1",
                "Mirrored": isMirrored ? "true" : "false", "Device": deviceID]
    }
}
