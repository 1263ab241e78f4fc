import Foundation
import Testing
import Composition
@testable import VideoComposition

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

/// Component-wise closeness of two transforms, for values computed through trigonometry.
private func close(_ lhs: AffineTransform2D, _ rhs: AffineTransform2D, within tolerance: Double = 1e-12) -> Bool {
    [lhs.a - rhs.a, lhs.b - rhs.b, lhs.c - rhs.c, lhs.d - rhs.d, lhs.tx - rhs.tx, lhs.ty - rhs.ty].allSatisfy { abs($0) <= tolerance }
}

@Suite("VideoCompositionLayerInstruction: evaluators")
struct VideoCompositionLayerInstructionTests {
    @Test func defaultsBeforeAnythingIsSet() {
        let layer = VideoCompositionLayerInstruction(trackID: 1)
        #expect(layer.transform(at: s(5)) == .identity)
        #expect(layer.opacity(at: s(5)) == 1.0)
        #expect(layer.cropRectangle(at: s(5)) == nil)
    }

    @Test func opacityRampOverOneToThreeSeconds() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: range(s(1), s(3)))
        #expect(layer.opacity(at: s(1, 2)) == 1.0)
        #expect(layer.opacity(at: s(3, 2)) == 0.75)
        #expect(layer.opacity(at: s(3)) == 0.0)
        #expect(layer.opacity(at: s(7, 2)) == 0.0)
    }

    @Test func transformSetAtTwoSecondsThenRampedFromFourToSix() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        let moved = AffineTransform2D(translationX: 100, y: 50)
        let zoomed = AffineTransform2D(a: 2, b: 0, c: 0, d: 2, tx: 300, ty: 150)
        layer.setTransform(moved, at: s(2))
        layer.setTransformRamp(fromStart: moved, toEnd: zoomed, timeRange: range(s(4), s(6)))
        #expect(layer.transform(at: s(1)) == .identity)  // before: identity
        #expect(layer.transform(at: s(2)) == moved)
        #expect(layer.transform(at: s(3)) == moved)  // between: the set value holds
        #expect(layer.transform(at: s(4)) == moved)
        #expect(layer.transform(at: s(5)) == AffineTransform2D(a: 1.5, b: 0, c: 0, d: 1.5, tx: 200, ty: 100))
        #expect(layer.transform(at: s(11, 2)) == AffineTransform2D(a: 1.75, b: 0, c: 0, d: 1.75, tx: 250, ty: 125))
        #expect(layer.transform(at: s(6)) == zoomed)  // after: the end value holds
        #expect(layer.transform(at: s(60)) == zoomed)
    }

    @Test func cropRectangleRampsComponentwise() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        layer.setCropRectangleRamp(
            fromStartCropRectangle: Rect(x: 0, y: 0, width: 1280, height: 720),
            toEndCropRectangle: Rect(x: 320, y: 180, width: 640, height: 360), timeRange: range(s(2), s(4)))
        #expect(layer.cropRectangle(at: s(1)) == nil)
        #expect(layer.cropRectangle(at: s(2)) == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(layer.cropRectangle(at: s(3)) == Rect(x: 160, y: 90, width: 960, height: 540))
        #expect(layer.cropRectangle(at: s(4)) == Rect(x: 320, y: 180, width: 640, height: 360))
        layer.setCropRectangle(Rect(x: 10, y: 10, width: 20, height: 20), at: s(5))
        #expect(layer.cropRectangle(at: s(6)) == Rect(x: 10, y: 10, width: 20, height: 20))
    }

    @Test func keyframesWithEasing() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        layer.setOpacity(keyframes: [
            Keyframe(time: .zero, value: 0, easing: .easeOut), Keyframe(time: s(2), value: 1, easing: .hold),
            Keyframe(time: s(3), value: 0.5),
        ])
        #expect(layer.opacity(at: s(1)) == 0.75)  // easeOut at half-way: 1/2 · (2 − 1/2)
        #expect(layer.opacity(at: s(5, 2)) == 1)  // hold
        #expect(layer.opacity(at: s(3)) == 0.5)
        layer.setTransform(keyframes: [
            Keyframe(time: .zero, value: .identity, easing: .easeIn),
            Keyframe(time: s(4), value: AffineTransform2D(translationX: 64, y: 0)),
        ])
        #expect(layer.transform(at: s(1)) == AffineTransform2D(translationX: 4, y: 0))  // (1/4)² · 64
        layer.setCropRectangle(keyframes: [Keyframe(time: s(1), value: Rect(x: 0, y: 0, width: 8, height: 8))])
        #expect(layer.cropRectangle(at: s(2)) == Rect(x: 0, y: 0, width: 8, height: 8))
    }

    @Test func constancyForTheRenderer() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        layer.setTransform(AffineTransform2D(translationX: 10, y: 0), at: .zero)
        layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: range(s(2), s(3)))
        layer.setCropRectangle(Rect(x: 0, y: 0, width: 100, height: 100), at: s(4))
        #expect(layer.isTransformConstant(in: range(.zero, s(10))))
        #expect(!layer.isTransformConstant(in: range(s(-1), s(1))))  // identity before 0, then the translation
        #expect(layer.isOpacityConstant(in: range(.zero, s(2))))
        #expect(!layer.isOpacityConstant(in: range(.zero, s(5, 2))))
        #expect(layer.isOpacityConstant(in: range(s(3), s(10))))
        #expect(layer.isCropConstant(in: range(.zero, s(4))))
        #expect(!layer.isCropConstant(in: range(.zero, s(5))))
        #expect(layer.isCropConstant(in: range(s(4), s(5))))

        let opacity = layer.opacitySegments(in: range(.zero, s(4)))
        #expect(opacity.map(\.timeRange) == [range(.zero, s(2)), range(s(2), s(3)), range(s(3), s(4))])
        #expect(opacity.map(\.startValue) == [1, 1, 0])
        let crop = layer.cropRectangleSegments(in: range(s(3), s(5)), fullFrame: Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(crop.map(\.startValue) == [Rect(x: 0, y: 0, width: 1280, height: 720), Rect(x: 0, y: 0, width: 100, height: 100)])
        #expect(layer.transformSegments(in: range(.zero, s(1))).map(\.startValue) == [AffineTransform2D(translationX: 10, y: 0)])
    }
}

@Suite("Transform interpolation: matrix and decomposed")
struct VideoCompositionTransformInterpolationTests {
    /// A quarter turn about the centre of a 100 × 100 frame: (x, y) → (100 − y, x).
    let quarterTurn = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 100, ty: 0)

    @Test func matrixInterpolationShrinksMidRotationAsAVFoundation() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        layer.setTransformRamp(fromStart: .identity, toEnd: quarterTurn, timeRange: range(.zero, s(2)))
        let middle = layer.transform(at: s(1))
        #expect(middle == AffineTransform2D(a: 0.5, b: 0.5, c: -0.5, d: 0.5, tx: 50, ty: 0))
        #expect(middle.determinant == 0.5)  // area halves: the picture shrinks by √½
    }

    @Test func decomposedInterpolationStaysRigidAndKeepsThePivot() {
        var layer = VideoCompositionLayerInstruction(trackID: 1, transformInterpolation: .decomposed)
        layer.decomposedInterpolationPivot = Point(x: 50, y: 50)
        layer.setTransformRamp(fromStart: .identity, toEnd: quarterTurn, timeRange: range(.zero, s(2)))
        let middle = layer.transform(at: s(1))
        let half = 0.5.squareRoot()
        #expect(close(middle, AffineTransform2D(a: half, b: half, c: -half, d: half, tx: 50, ty: 50 - 100 * half)))
        #expect(abs(middle.determinant - 1) < 1e-12)
        let pivot = middle.apply(to: Point(x: 50, y: 50))
        #expect(abs(pivot.x - 50) < 1e-12 && abs(pivot.y - 50) < 1e-12)
        #expect(layer.transform(at: .zero) == .identity)
        #expect(layer.transform(at: s(2)) == quarterTurn)
    }

    @Test func decomposedInterpolationAboutTheOriginMovesTheTranslationLinearly() {
        let middle = AffineTransform2D.identity.interpolatedDecomposed(to: quarterTurn, fraction: 0.5)
        let half = 0.5.squareRoot()
        #expect(close(middle, AffineTransform2D(a: half, b: half, c: -half, d: half, tx: 50, ty: 0)))
    }

    @Test func rotationTakesTheShortestWay() {
        let from = AffineTransform2D(rotationAngle: 170 * .pi / 180)
        let to = AffineTransform2D(rotationAngle: -170 * .pi / 180)
        let middle = from.interpolatedDecomposed(to: to, fraction: 0.5)
        #expect(close(middle, AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)))  // through 180°, not 0°
        // A half turn goes clockwise; its middle is an exact quarter turn.
        let halfTurn = AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        #expect(AffineTransform2D.identity.interpolatedDecomposed(to: halfTurn, fraction: 0.5)
            == AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
    }

    @Test func scaleInterpolatesWithoutRotation() {
        let middle = AffineTransform2D(scaleX: 1, y: 1).interpolatedDecomposed(to: AffineTransform2D(scaleX: 3, y: 2), fraction: 0.5)
        #expect(middle == AffineTransform2D(a: 2, b: 0, c: 0, d: 1.5, tx: 0, ty: 0))
    }

    @Test func decompositionRoundTripsPhoneOrientationsExactly() {
        let orientations = [
            AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0),  // iPhone, rotation −90
            AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 1280, ty: 720),  // Android, rotation 180
            AffineTransform2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 1920),  // rotation +90
            AffineTransform2D(a: 2, b: 0, c: 0.5, d: 3, tx: 7, ty: -4),  // scale with shear
            AffineTransform2D(a: -1, b: 0, c: 0, d: 1, tx: 640, ty: 0),  // mirror
        ]
        for transform in orientations {
            #expect(AffineTransform2D(transform.decomposition) == transform, "\(transform.decomposition)")
        }
        #expect(orientations[0].decomposition == .init(scaleX: 1, scaleY: 1, shear: 0, rotation: .pi / 2, translation: Point(x: 320, y: 0)))
    }
}
