import Composition

/// One machine-readable code found in one picture of the session (AVFoundation's `AVMetadataMachineReadableCodeObject`).
///
/// Positions are normalised to the picture the connection delivers — after its ``CaptureConnection/videoOrientation``
/// and mirroring — with (0, 0) at the top left, (1, 1) at the bottom right, x to the right and y down (a point's pixel
/// position is x × width, y × height).
public struct MachineReadableCodeObject: Sendable, Hashable {
    /// The kind of code.
    public let type: MetadataObjectType
    /// The decoded text (libzbar's bytes as UTF-8, invalid sequences replaced); nil when the code carries no text.
    public let stringValue: String?
    /// The code's corners, normalised. For a QR code the four corners of its outer modules in the code's own order:
    /// top left, bottom left, bottom right, top right (as the code is printed; turned with it). For a bar code (EAN,
    /// UPC, Code 39/93/128, Interleaved 2 of 5) the corners of the rectangle spanned by the scan lines that read it,
    /// from the top left clockwise: its width is the bars', its height only where the scanner crossed them.
    public let corners: [Point]
    /// The smallest upright rectangle holding ``corners``, normalised (AVFoundation's `bounds`).
    public let bounds: Rect
    /// When the picture was taken, on the session clock (microsecond timescale), as
    /// ``CaptureVideoFrame/presentationTime``; for a picture of a file or composition scanned by `AssetCodeScanner`,
    /// its presentation time there (the track's time, or composition time).
    public let time: MediaTime

    /// An object whose ``bounds`` are those of `corners`.
    package init(type: MetadataObjectType, stringValue: String?, corners: [Point], time: MediaTime) {
        self.type = type
        self.stringValue = stringValue
        self.corners = corners
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let (minX, minY) = (xs.min() ?? 0, ys.min() ?? 0)
        bounds = Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
        self.time = time
    }
}
