import Foundation
import Composition
import SpliceFFmpeg

/// A decoded or generated picture, as AVFoundation's `CVPixelBuffer`: its size, pixel format, planes with their
/// strides, and colour tags.
///
/// Owns its bytes, except a picture an ``AssetReaderOutput`` handed out with
/// ``AssetReaderOutput/alwaysCopiesSampleData`` false: its planes are views of the reader's decoded picture until the
/// output's next ``AssetReaderOutput/copyNextSampleBuffer()`` call. Row `y` of plane `p` starts at byte `y × planes[p].bytesPerRow` of `planes[p].bytes`.
public struct PixelBuffer: Sendable, Hashable {
    /// The layout of the pixels.
    public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
        /// One plane, 4 bytes per pixel: R, G, B, A (`kCVPixelFormatType_32RGBA`; FFmpeg `rgba`).
        case rgba8
        /// One plane, 4 bytes per pixel: B, G, R, A (`kCVPixelFormatType_32BGRA`; FFmpeg `bgra`).
        case bgra8
        /// Two planes: Y (width × height bytes), then interleaved Cb Cr at half width and half height
        /// (`420v`/`420f`; FFmpeg `nv12`).
        case nv12
        /// Three planes: Y, then Cb and Cr, each at half width and half height, rounded up (`y420`; FFmpeg
        /// `yuv420p`).
        case yuv420p
        /// Two planes like NV12 with 16-bit little-endian samples holding 10 bits in their high bits: Y (width ×
        /// height samples), then interleaved Cb Cr at half width and half height (`x420`/`xf20`; FFmpeg `p010le`).
        case p010
        /// One plane, 8 bytes per pixel: R, G, B, A as 16-bit little-endian values, full scale 65535
        /// (`kCVPixelFormatType_64RGBALE`; FFmpeg `rgba64le`).
        case rgba64

        /// Bits per sample of each component: 8, 10 (``p010``) or 16 (``rgba64``).
        public var bitDepth: Int {
            switch self {
            case .rgba8, .bgra8, .nv12, .yuv420p: return 8
            case .p010: return 10
            case .rgba64: return 16
            }
        }

        /// True for the Y'CbCr formats (their samples are read in the picture's matrix and range), false for RGB.
        public var isYCbCr: Bool { self == .nv12 || self == .yuv420p || self == .p010 }

        /// FFmpeg's name of the format.
        public var ffmpegName: String {
            switch self {
            case .rgba8: return "rgba"
            case .bgra8: return "bgra"
            case .nv12: return "nv12"
            case .yuv420p: return "yuv420p"
            case .p010: return "p010le"
            case .rgba64: return "rgba64le"
            }
        }

        /// The planes of a `width` × `height` picture: (bytes per row of visible pixels, rows) each.
        func planeShapes(width: Int, height: Int) -> [(rowBytes: Int, rows: Int)] {
            let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
            switch self {
            case .rgba8, .bgra8: return [(width * 4, height)]
            case .nv12: return [(width, height), (chromaWidth * 2, chromaHeight)]
            case .yuv420p: return [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
            case .p010: return [(width * 2, height), (chromaWidth * 4, chromaHeight)]
            case .rgba64: return [(width * 8, height)]
            }
        }
    }

    /// One plane of pixels: bytes the plane owns, or — for a picture an ``AssetReaderOutput`` handed out with
    /// ``AssetReaderOutput/alwaysCopiesSampleData`` false — a view of the reader's decoded picture, valid until the
    /// output's next ``AssetReaderOutput/copyNextSampleBuffer()`` call (see ``isValid``).
    public struct Plane: Sendable, Hashable {
        private var storage: Storage
        /// Bytes from one row to the next (at least the visible row's bytes).
        public var bytesPerRow: Int
        /// Rows.
        public var rows: Int

        private enum Storage: Sendable {
            case owned([UInt8])
            case view(SampleDataView, plane: Int)
        }

        /// A plane of `rows` rows `bytesPerRow` apart.
        public init(bytes: [UInt8], bytesPerRow: Int, rows: Int) {
            storage = .owned(bytes)
            self.bytesPerRow = bytesPerRow
            self.rows = rows
        }

        /// A view of plane `plane` of `view`'s picture.
        init(view: SampleDataView, plane: Int, bytesPerRow: Int, rows: Int) {
            storage = .view(view, plane: plane)
            self.bytesPerRow = bytesPerRow
            self.rows = rows
        }

        /// The plane's bytes: `rows × bytesPerRow`. Reading them from a view copies them into an array the caller
        /// owns; setting them (or changing them in place) makes the plane own its bytes. A view that is no longer
        /// valid (``isValid`` false) has no bytes to give: reading them then stops the program (use
        /// ``withUnsafeBytes(_:)``, which throws instead).
        public var bytes: [UInt8] {
            get {
                switch storage {
                case .owned(let bytes): return bytes
                case .view:
                    do { return try withUnsafeBytes { Array($0) } } catch { preconditionFailure("\(error)") }
                }
            }
            set { storage = .owned(newValue) }
            _modify {
                var bytes = self.bytes
                storage = .owned([])
                defer { storage = .owned(bytes) }
                yield &bytes
            }
        }

        /// The reader's picture this plane is a view of; nil when it owns its bytes.
        var view: SampleDataView? {
            if case .view(let view, _) = storage { return view }
            return nil
        }

        /// Bytes the plane holds: `rows × bytesPerRow`.
        public var byteCount: Int {
            if case .owned(let bytes) = storage { return bytes.count }
            return rows * bytesPerRow
        }

        /// False once the plane is a view of a reader's picture that the reader has taken back (the output's next
        /// ``AssetReaderOutput/copyNextSampleBuffer()`` call, or the reader ended); true for a plane that owns its
        /// bytes.
        public var isValid: Bool {
            if case .view(let view, _) = storage { return view.isValid }
            return true
        }

        /// Calls `body` with the plane's bytes (`rows × bytesPerRow`) without copying them; the pointer is valid only
        /// inside `body`. A view stays valid while `body` runs.
        /// - Throws: ``AssetReaderError/sampleDataNoLongerValid(output:)`` for a view the reader has taken back;
        ///   what `body` throws.
        public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
            switch storage {
            case .owned(let bytes): return try bytes.withUnsafeBytes(body)
            case .view(let view, let plane): return try view.withPlane(plane, count: rows * bytesPerRow, body)
            }
        }

        /// The plane's own bytes (no copy); nil for a view of a reader's picture.
        var ownedBytes: [UInt8]? {
            if case .owned(let bytes) = storage { return bytes }
            return nil
        }

        /// Planes are equal when their shapes and bytes are (a view the reader has taken back equals only itself).
        public static func == (lhs: Plane, rhs: Plane) -> Bool {
            guard lhs.bytesPerRow == rhs.bytesPerRow, lhs.rows == rhs.rows else { return false }
            if case .view(let left, let leftPlane) = lhs.storage, case .view(let right, let rightPlane) = rhs.storage,
               left === right, leftPlane == rightPlane { return true }
            let equal = try? lhs.withUnsafeBytes { left in try rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
            return equal ?? false
        }

        /// Hashes the shape and the bytes (only the shape for a view the reader has taken back).
        public func hash(into hasher: inout Hasher) {
            hasher.combine(bytesPerRow)
            hasher.combine(rows)
            _ = try? withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Pixels.
    public var width: Int
    /// Pixels.
    public var height: Int
    public var pixelFormat: PixelFormat
    /// The planes, in the order ``PixelFormat`` lists them.
    public var planes: [Plane]
    /// The colour the samples are in: for YUV pictures the source's tags (matrix, range, primaries, transfer), for
    /// RGB pictures full range with the source's primaries and transfer; `bitDepth` is the format's.
    public var color: ColorProperties

    /// A picture of `width` × `height` pixels in `pixelFormat`, every byte 0, rows tightly packed.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, color: ColorProperties = ColorProperties()) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.color = color
        planes = pixelFormat.planeShapes(width: max(0, width), height: max(0, height)).map {
            Plane(bytes: [UInt8](repeating: 0, count: $0.rowBytes * $0.rows), bytesPerRow: $0.rowBytes, rows: $0.rows)
        }
    }

    /// A picture made of the given planes.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, planes: [Plane], color: ColorProperties = ColorProperties()) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.color = color
    }

    /// The reader's picture the planes are views of; nil when they own their bytes.
    var view: SampleDataView? { planes.lazy.compactMap(\.view).first }

    /// Makes every plane own its bytes (copies a reader's view; nothing to do for owned planes).
    /// - Throws: ``AssetReaderError/sampleDataNoLongerValid(output:)`` for a view the reader has taken back.
    mutating func ownBytes() throws {
        guard view != nil else { return }
        for index in planes.indices where planes[index].view != nil {
            planes[index] = Plane(bytes: try planes[index].withUnsafeBytes { Array($0) },
                                  bytesPerRow: planes[index].bytesPerRow, rows: planes[index].rows)
        }
    }

    /// The 4 bytes of the pixel at column `x`, row `y` of a packed RGBA8 or BGRA8 picture, in the format's order;
    /// nil for other formats, a position outside the picture, or a view the reader has taken back (``isValid``).
    public func pixel(x: Int, y: Int) -> [UInt8]? {
        guard pixelFormat == .rgba8 || pixelFormat == .bgra8, (0..<width).contains(x), (0..<height).contains(y) else {
            return nil
        }
        let start = y * planes[0].bytesPerRow + x * 4
        return try? planes[0].withUnsafeBytes { Array($0[start..<start + 4]) }
    }

    /// The 4 components of the pixel at column `x`, row `y` of an RGBA64 picture (R, G, B, A; 0 ... 65535); nil for
    /// other formats, a position outside the picture, or a view the reader has taken back (``isValid``).
    public func rgba64Pixel(x: Int, y: Int) -> [UInt16]? {
        guard pixelFormat == .rgba64, (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let start = y * planes[0].bytesPerRow + x * 8
        return try? planes[0].withUnsafeBytes { bytes in
            (0..<4).map { UInt16(bytes[start + 2 * $0]) | UInt16(bytes[start + 2 * $0 + 1]) << 8 }
        }
    }

    /// False once the picture is a view the reader has taken back (``AssetReaderOutput/alwaysCopiesSampleData``
    /// false, then the output's next ``AssetReaderOutput/copyNextSampleBuffer()`` call); true for a picture that owns
    /// its bytes.
    public var isValid: Bool { planes.allSatisfy(\.isValid) }

    /// Sets the pixel at column `x`, row `y` of a packed RGBA8 or BGRA8 picture to `bytes` (4 values in the format's
    /// order); does nothing for other formats or a position outside the picture.
    public mutating func setPixel(x: Int, y: Int, to bytes: [UInt8]) {
        guard pixelFormat == .rgba8 || pixelFormat == .bgra8, (0..<width).contains(x), (0..<height).contains(y),
              bytes.count == 4 else { return }
        let start = y * planes[0].bytesPerRow + x * 4
        planes[0].bytes.replaceSubrange(start..<start + 4, with: bytes)
    }

    /// Fills the rectangle of `rectWidth` × `rectHeight` pixels at (`x`, `y`) (clipped to the picture) of a packed
    /// RGBA8 or BGRA8 picture with `bytes` (4 values in the format's order).
    public mutating func fill(x: Int = 0, y: Int = 0, width rectWidth: Int? = nil, height rectHeight: Int? = nil, with bytes: [UInt8]) {
        guard pixelFormat == .rgba8 || pixelFormat == .bgra8, bytes.count == 4 else { return }
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + (rectWidth ?? width)), y1 = min(height, y + (rectHeight ?? height))
        guard x0 < x1, y0 < y1 else { return }
        let stride = planes[0].bytesPerRow
        planes[0].bytes.withUnsafeMutableBufferPointer { buffer in
            for row in y0..<y1 {
                for column in x0..<x1 {
                    let start = row * stride + column * 4
                    buffer[start] = bytes[0]; buffer[start + 1] = bytes[1]
                    buffer[start + 2] = bytes[2]; buffer[start + 3] = bytes[3]
                }
            }
        }
    }

    /// "1280×720 bgra8": the size and format, for messages.
    public var summary: String { "\(width)×\(height) \(pixelFormat.rawValue)" }
}

/// A decoded picture a reader lends out without copying (``AssetReaderOutput/alwaysCopiesSampleData`` false): holds a
/// reference to the converted frame's buffers until ``invalidate()``, which hands them back to FFmpeg's buffer pool
/// for the next pictures. Reads and the invalidation are serialised by a lock.
final class SampleDataView: @unchecked Sendable {
    private let lock = NSLock()
    private var frame: Frame?
    /// "track 1": whose picture it is, for the error.
    private let output: String

    /// A view of `frame`'s buffers (moved out of `frame`, which is left empty).
    init(takingFrom frame: Frame, output: String) throws {
        let own = try Frame()
        own.take(from: frame)
        self.frame = own
        self.output = output
    }

    var isValid: Bool { lock.withLock { frame != nil } }

    /// Drops the reference to the picture's buffers; later reads throw.
    func invalidate() { lock.withLock { frame = nil } }

    func withPlane<Result>(_ plane: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        try lock.withLock {
            guard let frame else { throw AssetReaderError.sampleDataNoLongerValid(output: output) }
            return try body(UnsafeRawBufferPointer(start: frame.plane(plane), count: frame.plane(plane) == nil ? 0 : count))
        }
    }
}
