import Composition

extension CodeScanner {
    /// The codes of a gray picture found inside `rect`, as code objects at `time`: positions normalised to the
    /// `width` × `height` picture (origin top left, y down), a QR code's four corners in its own order, a bar code's
    /// corners the rectangle its scan lines spanned.
    /// - Parameters:
    ///   - pixels: one byte per pixel, row `y` starting at byte `y × bytesPerRow`.
    ///   - rect: the part searched, normalised (the unit square for all of it).
    ///   - time: the picture's time, carried into every object.
    package func codes(in pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, rect: Rect,
                       time: MediaTime) -> [MachineReadableCodeObject] {
        let (w, h) = (Double(width), Double(height))
        let left = Int((rect.minX * w).rounded(.down)), top = Int((rect.minY * h).rounded(.down))
        let right = Int((rect.maxX * w).rounded(.up)), bottom = Int((rect.maxY * h).rounded(.up))
        let whole = left == 0 && top == 0 && right >= width && bottom >= height
        let symbols = scan(pixels, width: width, height: height, bytesPerRow: bytesPerRow,
                           crop: whole ? nil : (left, top, max(1, right - left), max(1, bottom - top)))
        return symbols.map { symbol in
            let points = symbol.points.map { Point(x: Double($0.x) / w, y: Double($0.y) / h) }
            let corners: [Point]
            if symbol.type == .qr && points.count == 4 {
                corners = points
            } else {
                // A bar code's polygon is the ends of the scan lines that crossed it: its bounding rectangle.
                let xs = points.map(\.x), ys = points.map(\.y)
                let (minX, maxX, minY, maxY) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
                corners = [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)]
            }
            return MachineReadableCodeObject(type: symbol.type, stringValue: symbol.text, corners: corners, time: time)
        }
    }
}
