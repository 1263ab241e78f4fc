/// The picture of a transition between two overlapping clips: the cross-dissolve built from opacity ramps, and the
/// transitions of FFmpeg's `xfade` filter (libavfilter 8.44, FFmpeg 5.1: every `transition` value but `custom`).
///
/// Raw values are the names documents use: `crossDissolve`, and otherwise `xfade`'s own names (`wipeleft`,
/// `circleopen`, …), so a transition is looked up in FFmpeg's documentation by the name it has in a document.
/// Where FFmpeg defines the picture, the definition is `vf_xfade.c`'s for the progress `p` (0 at the transition's
/// start, 1 at its end) — the eased progress of ``VideoTransition/progress(at:in:)``. For a `w × h` canvas:
///
/// | family | styles | picture at progress `p` |
/// |---|---|---|
/// | dissolve | ``crossDissolve`` | outgoing layer's opacity ramps 1 → 0 over the incoming one (not `xfade`) |
/// | fades | ``fade``, ``fadeBlack``, ``fadeWhite``, ``fadeGrays``, ``fadeFast``, ``fadeSlow`` | `fade`: `(1 − p)·A + p·B`; through black/white/grey |
/// | wipes | ``wipeLeft``, ``wipeRight``, ``wipeUp``, ``wipeDown`` | `wipeleft`: B where `x > w·(1 − p)`; `wiperight`: B where `x ≤ w·p` (up/down likewise in y) |
/// | corner wipes | ``wipeTopLeft``, ``wipeTopRight``, ``wipeBottomLeft``, ``wipeBottomRight`` | `wipetl`: A inside the `w(1 − p) × h(1 − p)` box at the top-left corner, B elsewhere |
/// | diagonals | ``diagonalTopLeft`` … ``diagonalBottomRight`` | a soft diagonal edge sweeping from the named corner |
/// | slide (push) | ``slideLeft``, ``slideRight``, ``slideUp``, ``slideDown`` | both pictures move together by `p·w` (or `p·h`): B pushes A out |
/// | shapes | ``circleOpen``, ``circleClose``, ``circleCrop``, ``rectCrop``, ``vertOpen``, ``vertClose``, ``horzOpen``, ``horzClose`` | B inside (open) / outside (close) a growing circle or band |
/// | noise | ``dissolve`` | each pixel switches from A to B at its own random threshold |
/// | zoom | ``zoomIn`` | A zooms in about the centre while fading into B |
/// | others | ``pixelize``, ``radial``, ``distance``, smooth wipes, slices, ``horizontalBlur``, squeezes | as `xfade` |
public enum VideoTransitionStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// The outgoing layer fades out (opacity ramp 1 → 0) over the incoming one: Splice's own dissolve, drawn with the
    /// layer opacity path (see ``VideoCompositionInstruction/crossDissolve(from:to:timeRange:outgoingTransform:incomingTransform:easing:)``).
    case crossDissolve
    /// `xfade` `fade`: a linear mix `(1 − p)·A + p·B`.
    case fade = "fade"
    /// `xfade` `fadeblack`: through black.
    case fadeBlack = "fadeblack"
    /// `xfade` `fadewhite`: through white.
    case fadeWhite = "fadewhite"
    /// `xfade` `fadegrays`: through the pictures' grey versions.
    case fadeGrays = "fadegrays"
    /// `xfade` `fadefast`.
    case fadeFast = "fadefast"
    /// `xfade` `fadeslow`.
    case fadeSlow = "fadeslow"
    /// `xfade` `wipeleft`: the edge moves right to left, B where `x > w·(1 − p)`.
    case wipeLeft = "wipeleft"
    /// `xfade` `wiperight`: the edge moves left to right, B where `x ≤ w·p`.
    case wipeRight = "wiperight"
    /// `xfade` `wipeup`: the edge moves bottom to top, B where `y > h·(1 − p)`.
    case wipeUp = "wipeup"
    /// `xfade` `wipedown`: the edge moves top to bottom, B where `y ≤ h·p`.
    case wipeDown = "wipedown"
    /// `xfade` `wipetl`: A shrinks into the top-left corner.
    case wipeTopLeft = "wipetl"
    /// `xfade` `wipetr`: A shrinks into the top-right corner.
    case wipeTopRight = "wipetr"
    /// `xfade` `wipebl`: A shrinks into the bottom-left corner.
    case wipeBottomLeft = "wipebl"
    /// `xfade` `wipebr`: A shrinks into the bottom-right corner.
    case wipeBottomRight = "wipebr"
    /// `xfade` `diagtl`: a diagonal edge from the top-left corner.
    case diagonalTopLeft = "diagtl"
    /// `xfade` `diagtr`.
    case diagonalTopRight = "diagtr"
    /// `xfade` `diagbl`.
    case diagonalBottomLeft = "diagbl"
    /// `xfade` `diagbr`.
    case diagonalBottomRight = "diagbr"
    /// `xfade` `slideleft`: both pictures move left by `p·w` (a push).
    case slideLeft = "slideleft"
    /// `xfade` `slideright`.
    case slideRight = "slideright"
    /// `xfade` `slideup`.
    case slideUp = "slideup"
    /// `xfade` `slidedown`.
    case slideDown = "slidedown"
    /// `xfade` `smoothleft`: a soft-edged wipe.
    case smoothLeft = "smoothleft"
    /// `xfade` `smoothright`.
    case smoothRight = "smoothright"
    /// `xfade` `smoothup`.
    case smoothUp = "smoothup"
    /// `xfade` `smoothdown`.
    case smoothDown = "smoothdown"
    /// `xfade` `circleopen`: B inside a circle about the centre growing to the corners.
    case circleOpen = "circleopen"
    /// `xfade` `circleclose`: A inside a circle shrinking to the centre.
    case circleClose = "circleclose"
    /// `xfade` `circlecrop`: through the background colour (black) inside a circle.
    case circleCrop = "circlecrop"
    /// `xfade` `rectcrop`: through black inside a rectangle.
    case rectCrop = "rectcrop"
    /// `xfade` `vertopen`: B in a vertical band opening from the centre.
    case vertOpen = "vertopen"
    /// `xfade` `vertclose`.
    case vertClose = "vertclose"
    /// `xfade` `horzopen`: B in a horizontal band opening from the centre.
    case horzOpen = "horzopen"
    /// `xfade` `horzclose`.
    case horzClose = "horzclose"
    /// `xfade` `dissolve`: a noise dissolve, each pixel changing at its own random threshold.
    case dissolve = "dissolve"
    /// `xfade` `pixelize`.
    case pixelize = "pixelize"
    /// `xfade` `radial`: a clock wipe.
    case radial = "radial"
    /// `xfade` `distance`.
    case distance = "distance"
    /// `xfade` `hlslice`.
    case horizontalLeftSlice = "hlslice"
    /// `xfade` `hrslice`.
    case horizontalRightSlice = "hrslice"
    /// `xfade` `vuslice`.
    case verticalUpSlice = "vuslice"
    /// `xfade` `vdslice`.
    case verticalDownSlice = "vdslice"
    /// `xfade` `hblur`.
    case horizontalBlur = "hblur"
    /// `xfade` `squeezeh`.
    case squeezeHorizontal = "squeezeh"
    /// `xfade` `squeezev`.
    case squeezeVertical = "squeezev"
    /// `xfade` `zoomin`: A zooms in about the centre while fading into B.
    case zoomIn = "zoomin"

    /// The `xfade` `transition` value that draws this style, or nil for ``crossDissolve`` (drawn with opacity).
    public var xfadeName: String? { self == .crossDissolve ? nil : rawValue }
}
