import AssetIO
import Capture
import Composition

/// The reading loop of one ``AssetCodeScanner`` stream: takes the decoded pictures of one reader output, skips those
/// inside the minimum interval, scans the luma plane of the others in place with libzbar (``CodeScanner``), and maps
/// the positions into the picture as shown. Lives in the one task that runs the stream.
struct PictureScanner {
    let settings: AssetCodeScanner
    let scanner: CodeScanner

    /// - Throws: ``CodeScanError/scannerUnavailable`` when libzbar cannot allocate its scanner.
    init(settings: AssetCodeScanner) throws(CodeScanError) {
        self.settings = settings
        do { scanner = try CodeScanner(types: Set(settings.metadataObjectTypes)) } catch {
            throw .scannerUnavailable
        }
    }

    /// Reads `output` of `reader` to its end, delivering every scanned picture; positions are mapped through
    /// `orientation` (a track's `preferredTransform`) into the shown picture.
    /// - Throws: `AssetReader`'s errors (adding the output, starting, reading), `CancellationError`.
    func read(_ reader: AssetReader, _ output: any AssetReaderOutput, orientation: AffineTransform2D,
              deliver: (AssetCodeScanner.ScannedPicture) -> Void) async throws {
        output.alwaysCopiesSampleData = false
        try reader.add(output)
        guard reader.startReading() else { throw reader.error ?? CancellationError() }
        defer { if reader.status == .reading { reader.cancelReading() } }
        var lastScanned: MediaTime?
        while let sample = await output.copyNextSampleBuffer() {
            try Task.checkCancellation()
            guard let picture = sample.imageBuffer, let luma = picture.planes.first else { continue }
            let time = sample.presentationTime
            if let lastScanned, settings.minimumScanInterval > .zero, time < lastScanned + settings.minimumScanInterval {
                continue
            }
            lastScanned = time
            let codes = try luma.withUnsafeBytes {
                scanner.codes(in: $0, width: picture.width, height: picture.height, bytesPerRow: luma.bytesPerRow,
                              rect: settings.rectOfInterest(in: picture, orientation: orientation), time: time)
            }
            deliver(AssetCodeScanner.ScannedPicture(
                time: time, codes: codes.map { Self.shown($0, width: picture.width, height: picture.height, orientation) }))
        }
        if reader.status == .failed, let error = reader.error { throw error }
        try Task.checkCancellation()
    }

    /// `code` with its corners moved from the stored `width` × `height` picture into the picture as shown through
    /// `orientation`, normalised to the shown picture's size.
    static func shown(_ code: MachineReadableCodeObject, width: Int, height: Int,
                      _ orientation: AffineTransform2D) -> MachineReadableCodeObject {
        guard orientation != .identity else { return code }
        let (w, h) = (Double(width), Double(height))
        let frame = orientation.apply(to: Rect(x: 0, y: 0, width: w, height: h))
        let corners = code.corners.map { corner -> Point in
            let shown = orientation.apply(to: Point(x: corner.x * w, y: corner.y * h))
            return Point(x: (shown.x - frame.minX) / frame.width, y: (shown.y - frame.minY) / frame.height)
        }
        return MachineReadableCodeObject(type: code.type, stringValue: code.stringValue, corners: corners, time: code.time)
    }
}

extension AssetCodeScanner {
    /// The rect of interest (given in the shown picture) in the stored picture, normalised: the rect taken back
    /// through `orientation`.
    func rectOfInterest(in picture: PixelBuffer, orientation: AffineTransform2D) -> Rect {
        guard orientation != .identity, let back = orientation.inverted() else { return rectOfInterest }
        let (w, h) = (Double(picture.width), Double(picture.height))
        let frame = orientation.apply(to: Rect(x: 0, y: 0, width: w, height: h))
        let shown = Rect(x: frame.minX + rectOfInterest.minX * frame.width, y: frame.minY + rectOfInterest.minY * frame.height,
                         width: rectOfInterest.width * frame.width, height: rectOfInterest.height * frame.height)
        let stored = back.apply(to: shown)
        let left = max(0, stored.minX / w), top = max(0, stored.minY / h)
        return Rect(x: left, y: top, width: min(1, stored.maxX / w) - left, height: min(1, stored.maxY / h) - top)
    }
}
