import Testing
import Composition
@testable import Export

/// FFmpeg display matrix / EXIF orientation → AVFoundation's preferredTransform (pure math, no files).
@Suite("Asset loading: display orientation")
struct AssetLoadingOrientationTests {
    /// A display matrix with the given 16.16 linear part and translation, as libavformat stores it.
    private func matrix(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32, tx: Int32 = 0, ty: Int32 = 0) -> [Int32] {
        [a, b, 0, c, d, 0, tx, ty, 1 << 30]
    }

    private let one: Int32 = 65536

    @Test func iPhonePortraitMatchesAVFoundation() {
        // M01: rotation −90 on 568 × 320; the file's own matrix has tx = 320 (20971520 / 65536).
        let size = Size(width: 568, height: 320)
        let expected = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)
        #expect(DisplayOrientation.preferredTransform(displayMatrix: matrix(0, one, -one, 0, tx: 20_971_520), size: size) == expected)
        // Writers that leave the translation 0 get the same, anchored transform.
        #expect(DisplayOrientation.preferredTransform(displayMatrix: matrix(0, one, -one, 0), size: size) == expected)
    }

    @Test func quarterTurnsAndMirrors() {
        let size = Size(width: 100, height: 60)
        let cases: [([Int32], AffineTransform2D)] = [
            (matrix(one, 0, 0, one), .identity),
            (matrix(-one, 0, 0, -one), AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 100, ty: 60)),  // 180°
            (matrix(0, -one, one, 0), AffineTransform2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 100)),     // +90 (CCW)
            (matrix(-one, 0, 0, one), AffineTransform2D(a: -1, b: 0, c: 0, d: 1, tx: 100, ty: 0)),     // mirror x
            (matrix(one, 0, 0, -one), AffineTransform2D(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 60)),      // mirror y
        ]
        for (displayMatrix, expected) in cases {
            let transform = DisplayOrientation.preferredTransform(displayMatrix: displayMatrix, size: size)
            #expect(transform == expected, "\(displayMatrix)")
            // The transformed picture always lands on (0, 0, displayWidth, displayHeight).
            let box = transform.apply(to: size.bounds)
            #expect(box.minX == 0 && box.minY == 0)
        }
    }

    @Test func scaleIsLeftToThePixelAspectRatio() {
        // A matrix that also scales by 2 keeps only its rotation.
        let transform = DisplayOrientation.preferredTransform(displayMatrix: matrix(0, 2 * one, -2 * one, 0), size: Size(width: 40, height: 30))
        #expect(transform == AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 30, ty: 0))
    }

    @Test func degenerateMatricesGiveIdentity() {
        #expect(DisplayOrientation.preferredTransform(displayMatrix: matrix(0, 0, 0, one), size: Size(width: 4, height: 4)) == .identity)
        #expect(DisplayOrientation.preferredTransform(displayMatrix: matrix(one, 0, one, 0), size: Size(width: 4, height: 4)) == .identity)
        #expect(DisplayOrientation.preferredTransform(displayMatrix: [1, 2, 3], size: Size(width: 4, height: 4)) == .identity)
    }

    @Test func exifOrientationsFollowTheTIFFDefinition() throws {
        // Stored 4 × 2; where stored pixel (0, 0) (top-left) and (3, 0) (top-right) land on the display.
        let size = Size(width: 4, height: 2)
        let expectations: [Int: (topLeft: Point, topRight: Point, display: Size)] = [
            1: (Point(x: 0, y: 0), Point(x: 3, y: 0), Size(width: 4, height: 2)),
            2: (Point(x: 4, y: 0), Point(x: 1, y: 0), Size(width: 4, height: 2)),   // mirrored: row 0 is the top, read right to left
            3: (Point(x: 4, y: 2), Point(x: 1, y: 2), Size(width: 4, height: 2)),   // row 0 at the bottom, right to left
            4: (Point(x: 0, y: 2), Point(x: 3, y: 2), Size(width: 4, height: 2)),   // row 0 at the bottom
            5: (Point(x: 0, y: 0), Point(x: 0, y: 3), Size(width: 2, height: 4)),   // row 0 is the left side, top down
            6: (Point(x: 2, y: 0), Point(x: 2, y: 3), Size(width: 2, height: 4)),   // row 0 is the right side, top down
            7: (Point(x: 2, y: 4), Point(x: 2, y: 1), Size(width: 2, height: 4)),   // row 0 is the right side, bottom up
            8: (Point(x: 0, y: 4), Point(x: 0, y: 1), Size(width: 2, height: 4)),   // row 0 is the left side, bottom up
        ]
        for (orientation, expected) in expectations {
            let transform = try #require(DisplayOrientation.preferredTransform(exifOrientation: orientation, size: size))
            #expect(transform.apply(to: Point(x: 0, y: 0)) == expected.topLeft, "orientation \(orientation)")
            #expect(transform.apply(to: Point(x: 3, y: 0)) == expected.topRight, "orientation \(orientation)")
            let box = transform.apply(to: size.bounds)
            #expect(Size(width: Int(box.width), height: Int(box.height)) == expected.display, "orientation \(orientation)")
        }
        #expect(DisplayOrientation.preferredTransform(exifOrientation: 0, size: size) == nil)
        #expect(DisplayOrientation.preferredTransform(exifOrientation: 9, size: size) == nil)
    }
}
