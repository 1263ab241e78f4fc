import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
internal import CMedia

/// One decoded picture's Y'CbCr code values at their native depth (8-bit values 0…255, 10-bit 0…1023), read with
/// the engine's own decoder (``StreamDecoder``): the 16-bit read path the RGBA8 image generator cannot give.
struct PlanePicture {
    var width: Int
    var height: Int
    /// Bits per component of the decoded format (8 or 10).
    var bitDepth: Int
    /// FFmpeg's name of the decoded pixel format.
    var pixelFormat: String
    /// Frame colour tags as FFmpeg names them.
    var primaries: String
    var transfer: String
    var matrix: String
    var luma: [Int]
    var cb: [Int]
    var cr: [Int]
    /// Chroma plane width and the vertical / horizontal subsampling shifts.
    var chromaWidth: Int
    var chromaShift: (x: Int, y: Int)
    /// HDR10 side data on the picture.
    var masteringDisplay: MasteringDisplay?
    var contentLightLevel: ContentLightLevel?

    /// Frame `index` (0-based, decode order of presentation) of the first video track of `url`.
    static func read(_ url: URL, frame index: Int = 0) async throws -> PlanePicture {
        let asset = try await Asset.load(from: url)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let decoder = try StreamDecoder(track: track, threads: 1, cancellation: CancellationFlag())
        let frame = try Frame()
        var seen = 0
        while try decoder.decode(into: frame) {
            if seen == index { return try PlanePicture(frame) }
            seen += 1
        }
        throw ExportError.renderingFailed(stage: "reading \(url.lastPathComponent)", reason: "no frame \(index)")
    }

    init(_ frame: Frame) throws {
        let descriptor = try #require(av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.format)))
        width = frame.width
        height = frame.height
        bitDepth = Int(descriptor.pointee.comp.0.depth)
        pixelFormat = String(cString: descriptor.pointee.name)
        primaries = String(cString: av_color_primaries_name(AVColorPrimaries(rawValue: frame.colorPrimaries)))
        transfer = String(cString: av_color_transfer_name(AVColorTransferCharacteristic(rawValue: frame.colorTransfer)))
        matrix = String(cString: av_color_space_name(AVColorSpace(rawValue: frame.colorSpace)))
        chromaShift = (Int(descriptor.pointee.log2_chroma_w), Int(descriptor.pointee.log2_chroma_h))
        chromaWidth = (width + (1 << chromaShift.x) - 1) >> chromaShift.x
        let chromaHeight = (height + (1 << chromaShift.y) - 1) >> chromaShift.y
        let wide = bitDepth > 8
        func plane(_ index: Int, _ w: Int, _ h: Int) -> [Int] {
            guard let base = frame.plane(index) else { return [] }
            let stride = frame.bytesPerRow(ofPlane: index)
            var values: [Int] = []
            values.reserveCapacity(w * h)
            for y in 0..<h {
                let row = UnsafeRawPointer(base + y * stride)
                for x in 0..<w {
                    values.append(wide ? Int(row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)) : Int(row.load(fromByteOffset: x, as: UInt8.self)))
                }
            }
            return values
        }
        luma = plane(0, width, height)
        cb = plane(1, chromaWidth, chromaHeight)
        cr = plane(2, chromaWidth, chromaHeight)
        masteringDisplay = frame.masteringDisplay
        contentLightLevel = frame.contentLightLevel
    }

    /// Mean (Y, Cb, Cr) over the 12 × 12 block centred on (x, y), in code values.
    func mean(x: Int, y: Int, radius: Int = 6) -> (y: Double, cb: Double, cr: Double) {
        var sums = (0.0, 0.0, 0.0), n = 0.0, m = 0.0
        for j in (y - radius)..<(y + radius) {
            for i in (x - radius)..<(x + radius) {
                sums.0 += Double(luma[j * width + i]); n += 1
            }
        }
        for j in ((y - radius) >> chromaShift.y)..<((y + radius) >> chromaShift.y) {
            for i in ((x - radius) >> chromaShift.x)..<((x + radius) >> chromaShift.x) {
                sums.1 += Double(cb[j * chromaWidth + i]); sums.2 += Double(cr[j * chromaWidth + i]); m += 1
            }
        }
        return (sums.0 / n, sums.1 / m, sums.2 / m)
    }

    /// The largest luma code value of the picture.
    var maximumLuma: Int { luma.max() ?? 0 }

    /// The hue (degrees, HSV of R'G'B') of a limited-range Y'CbCr value at `bitDepth`, decoded with the matrix of
    /// luma coefficients (kr, kb): BT.709 (0.2126, 0.0722) or BT.2020 (0.2627, 0.0593).
    static func hue(_ value: (y: Double, cb: Double, cr: Double), bitDepth: Int, kr: Double, kb: Double) -> Double {
        let s = Double(1 << (bitDepth - 8))
        let y = (value.y - 16 * s) / (219 * s), cb = (value.cb - 128 * s) / (224 * s), cr = (value.cr - 128 * s) / (224 * s)
        let r = y + 2 * (1 - kr) * cr, b = y + 2 * (1 - kb) * cb, g = (y - kr * r - kb * b) / (1 - kr - kb)
        let degrees = atan2(3.0.squareRoot() * (g - b), 2 * r - g - b) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Bar i (0 … 7: 75 % white, yellow, cyan, green, magenta, red, blue, black) of the fixtures' layout, scaled
    /// to this picture's size.
    func bar(_ index: Int) -> (y: Double, cb: Double, cr: Double) {
        mean(x: (20 + 40 * index) * width / 320, y: 60 * height / 180)
    }

    /// Patch i (0 … 3: black, 50 %, 75 %, peak) of the fixtures' layout.
    func patch(_ index: Int) -> (y: Double, cb: Double, cr: Double) {
        mean(x: (40 + 80 * index) * width / 320, y: 150 * height / 180)
    }
}

/// The smallest difference between two angles in degrees.
func angleDistance(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
}
