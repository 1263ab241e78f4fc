import Foundation
import Composition
import Export

/// How far one RGBA8 picture is from another: PSNR, the largest channel difference, and where it is.
///
/// - PSNR is over the red, green and blue channels: `10 · log10(255² / MSE)` dB, with MSE the mean squared
///   difference over every pixel and those three channels; `+∞` when they are equal. 40 dB is a typical
///   "visually identical" threshold for encoded video, 50 dB and above means differences of a level or two.
/// - The channel differences (maximum, mean) include alpha in the maximum, so a wrong transparency is caught.
public struct FrameComparison: Sendable, Hashable, CustomStringConvertible {
    /// A pixel position, x to the right and y down from the top-left, in pixels.
    public struct Pixel: Sendable, Hashable, Codable {
        /// Column.
        public var x: Int
        /// Row.
        public var y: Int

        /// The pixel at column `x`, row `y`.
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// Width of both pictures, pixels.
    public let width: Int
    /// Height of both pictures, pixels.
    public let height: Int
    /// Peak signal-to-noise ratio over R, G, B, in dB; `Double.infinity` when the pictures are equal.
    public let psnr: Double
    /// The largest absolute difference of any channel (R, G, B or A) at any pixel, 0…255.
    public let maximumDifference: Int
    /// Where ``maximumDifference`` first occurs (row by row), or nil when the pictures are equal.
    public let maximumDifferenceAt: Pixel?
    /// The mean absolute difference over R, G, B at every pixel, 0…255.
    public let meanAbsoluteDifference: Double
    /// How many pixels differ in any channel.
    public let differingPixelCount: Int

    /// Compares `actual` with `expected`, pixel by pixel.
    /// - Throws: ``GoldenFrameError/sizeMismatch(actual:expected:)`` when the sizes differ.
    public init(actual: VideoFrame, expected: VideoFrame) throws {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw GoldenFrameError.sizeMismatch(
                actual: Size(width: actual.width, height: actual.height),
                expected: Size(width: expected.width, height: expected.height))
        }
        let width = actual.width, height = actual.height
        self.width = width
        self.height = height
        var squares: UInt64 = 0, absolutes: UInt64 = 0, maximum = 0, differing = 0
        var worst: Pixel?
        actual.pixels.withUnsafeBufferPointer { a in
            expected.pixels.withUnsafeBufferPointer { e in
                for y in 0..<height {
                    let rowA = y * actual.bytesPerRow, rowE = y * expected.bytesPerRow
                    for x in 0..<width {
                        var pixelDiffers = false
                        for channel in 0..<4 {
                            let d = abs(Int(a[rowA + 4 * x + channel]) - Int(e[rowE + 4 * x + channel]))
                            guard d > 0 else { continue }
                            pixelDiffers = true
                            if channel < 3 {
                                squares += UInt64(d * d)
                                absolutes += UInt64(d)
                            }
                            if d > maximum {
                                maximum = d
                                worst = Pixel(x: x, y: y)
                            }
                        }
                        if pixelDiffers { differing += 1 }
                    }
                }
            }
        }
        let samples = Double(width * height * 3)
        let mse = Double(squares) / samples
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        maximumDifference = maximum
        maximumDifferenceAt = worst
        meanAbsoluteDifference = Double(absolutes) / samples
        differingPixelCount = differing
    }

    /// True when every pixel is equal.
    public var isIdentical: Bool { maximumDifference == 0 }

    /// `PSNR 43.21 dB, max difference 7 at (12, 40), 310 of 76800 pixels differ`.
    public var description: String {
        let psnrText = psnr.isInfinite ? "PSNR ∞ dB" : String(format: "PSNR %.2f dB", psnr)
        guard let worst = maximumDifferenceAt else { return "\(psnrText), identical" }
        return "\(psnrText), max difference \(maximumDifference) at (\(worst.x), \(worst.y)), "
            + "\(differingPixelCount) of \(width * height) pixels differ"
    }

    /// A picture of where two pictures differ: each R, G, B channel is `|actual − expected| × gain` (clamped to
    /// 255), alpha is opaque; equal pixels are black. With the default gain of 8 a difference of 1 shows as 8.
    /// - Throws: ``GoldenFrameError/sizeMismatch(actual:expected:)`` when the sizes differ.
    public static func differenceImage(actual: VideoFrame, expected: VideoFrame, gain: Int = 8) throws -> VideoFrame {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw GoldenFrameError.sizeMismatch(
                actual: Size(width: actual.width, height: actual.height),
                expected: Size(width: expected.width, height: expected.height))
        }
        let width = actual.width, height = actual.height
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    let d = abs(Int(actual.pixels[y * actual.bytesPerRow + 4 * x + channel])
                                - Int(expected.pixels[y * expected.bytesPerRow + 4 * x + channel]))
                    pixels[(y * width + x) * 4 + channel] = UInt8(min(255, d * gain))
                }
            }
        }
        guard let frame = VideoFrame(width: width, height: height, bytesPerRow: width * 4, pixels: pixels) else {
            throw GoldenFrameError.invalidShape(Size(width: width, height: height))
        }
        return frame
    }
}
