import Composition
import Foundation

extension MutableVideoComposition {
    /// Every problem that would stop this video composition from rendering `composition` as written, each naming
    /// the instruction (index), overlay (index), track and time concerned. Empty when the video composition is valid.
    ///
    /// Checked, in this order:
    /// - the render size: width and height > 0 (``ValidationIssue/Kind/invalidRenderSize``) and even
    ///   (``ValidationIssue/Kind/oddRenderSize``); the frame duration: numeric and > 0; the background colour;
    /// - the instructions tile the composition, as AVFoundation requires: each range valid and non-empty, the first
    ///   starting at or before 0, each next one starting exactly where the previous ended (a gap or an overlap is
    ///   reported at the instruction where it occurs), the last ending at or after the composition's duration;
    /// - per instruction: its background colour; per layer instruction: the track exists, is video and has one layer
    ///   in the instruction; transforms finite; opacities in 0...1; crop rectangles finite, non-empty and inside the
    ///   track's coded frame (when its natural size is known); set times numeric; ramps with a positive duration
    ///   and not overlapping other ramps of the same parameter; a transition joins two distinct tracks that are the
    ///   instruction's only two layers, in a style other than ``VideoTransitionStyle/crossDissolve`` (which is
    ///   written as opacity ramps);
    /// - per overlay: an image file that exists and is readable (a `FileManager` check, the file is not opened);
    ///   a readable font file; a positive finite font size and non-negative padding; valid colours; a finite,
    ///   non-empty frame; a valid time range; opacities in 0...1; finite positions, scales and rotations; valid
    ///   animation times and ramps.
    ///
    /// - Parameter composition: the facts of the composition this video composition is for.
    /// - Returns: the issues, in the order above.
    public func validate(for composition: CompositionSummary) -> [ValidationIssue] {
        var issues = settingsIssues(for: composition)
        issues += coverageIssues(for: composition)
        for (index, instruction) in instructions.enumerated() {
            issues += Self.issues(of: instruction, at: index, for: composition)
            issues += Self.transitionIssues(of: instruction, at: index)
        }
        for (index, overlay) in overlays.enumerated() {
            issues += Self.issues(of: overlay, at: index)
        }
        return issues
    }

    /// Returns `self` when ``validate(for:)`` finds no problem.
    ///
    /// - Throws: ``VideoCompositionError/invalid(_:)`` with every problem found.
    @discardableResult
    public func validated(for composition: CompositionSummary) throws(VideoCompositionError) -> MutableVideoComposition {
        let issues = validate(for: composition)
        guard issues.isEmpty else { throw .invalid(issues) }
        return self
    }

    // MARK: - Composition-wide settings

    private func settingsIssues(for composition: CompositionSummary) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let size = "\(renderSize.width) × \(renderSize.height)"
        if renderSize.width <= 0 || renderSize.height <= 0 {
            issues.append(ValidationIssue(
                kind: .invalidRenderSize, message: "render size \(size) pixels: width and height must be greater than 0"))
        } else if renderSize.width % 2 != 0 || renderSize.height % 2 != 0 {
            let odd = [renderSize.width % 2 != 0 ? "width" : nil, renderSize.height % 2 != 0 ? "height" : nil].compactMap { $0 }
            issues.append(ValidationIssue(
                kind: .oddRenderSize,
                message: "render size \(size) pixels: the \(odd.joined(separator: " and ")) must be even for 4:2:0 output"))
        }
        if !frameDuration.isNumeric || frameDuration <= .zero {
            issues.append(ValidationIssue(
                kind: .invalidFrameDuration, message: "frame duration \(frameDuration) must be a positive numeric time"))
        }
        if let reason = Self.colorProblem(backgroundColor) {
            issues.append(ValidationIssue(kind: .invalidColor, message: "background colour \(reason)"))
        }
        return issues
    }

    // MARK: - Instruction tiling

    private func coverageIssues(for composition: CompositionSummary) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let duration = composition.duration
        var previous: (index: Int, range: TimeRange)?
        var coveredEnd: MediaTime?
        for (index, instruction) in instructions.enumerated() {
            let range = instruction.timeRange
            guard range.isValid, range.start.isNumeric, range.duration > .zero,
                  range.duration.isNumeric || range.duration.isPositiveInfinity
            else {
                issues.append(ValidationIssue(
                    kind: .invalidInstructionTimeRange, instructionIndex: index,
                    time: range.start.isNumeric ? range.start : nil,
                    message: "instruction \(index) has time range \(range): it needs a numeric start and a positive duration"))
                continue
            }
            if let previous {
                if range.start > previous.range.end {
                    issues.append(ValidationIssue(
                        kind: .gapBetweenInstructions, instructionIndex: index, time: previous.range.end,
                        message: "instruction \(index) starts at \(range.start) but instruction \(previous.index) ends at "
                            + "\(previous.range.end): nothing covers \(TimeRange(start: previous.range.end, end: range.start))"))
                } else if range.start < previous.range.end {
                    issues.append(ValidationIssue(
                        kind: .overlappingInstructions, instructionIndex: index, time: range.start,
                        message: "instruction \(index) starts at \(range.start), before instruction \(previous.index) "
                            + "ends at \(previous.range.end) (instructions must be in time order without overlap)"))
                }
            } else if range.start > .zero {
                issues.append(ValidationIssue(
                    kind: .instructionsStartLate, instructionIndex: index, time: .zero,
                    message: "the first instruction (\(index)) starts at \(range.start): nothing covers "
                        + "\(TimeRange(start: .zero, end: range.start))"))
            }
            previous = (index, range)
            coveredEnd = coveredEnd.map { Swift.max($0, range.end) } ?? range.end
        }
        if duration.isNumeric, duration > .zero {
            if instructions.isEmpty {
                issues.append(ValidationIssue(
                    kind: .noInstructions, time: .zero,
                    message: "the video composition has no instruction but the composition lasts \(duration)"))
            } else if let previous, let coveredEnd, coveredEnd < duration {
                issues.append(ValidationIssue(
                    kind: .instructionsEndEarly, instructionIndex: previous.index, time: coveredEnd,
                    message: "the last instruction (\(previous.index)) ends at \(coveredEnd) but the composition lasts "
                        + "\(duration): nothing covers \(TimeRange(start: coveredEnd, end: duration))"))
            }
        }
        return issues
    }

    // MARK: - Instructions and layers

    private static func issues(
        of instruction: VideoCompositionInstruction, at index: Int, for composition: CompositionSummary
    ) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if let color = instruction.backgroundColor, let reason = colorProblem(color) {
            issues.append(ValidationIssue(
                kind: .invalidColor, instructionIndex: index, time: instruction.timeRange.start,
                message: "instruction \(index): background colour \(reason)"))
        }
        var seen: Set<Int32> = []
        for layer in instruction.layerInstructions {
            let trackID = layer.trackID
            let owner = "instruction \(index), layer instruction for track \(trackID)"
            let track = composition.track(withTrackID: trackID)
            if let track {
                if track.mediaType != .video {
                    issues.append(ValidationIssue(
                        kind: .wrongMediaType, instructionIndex: index, trackID: trackID, time: instruction.timeRange.start,
                        message: "\(owner): track \(trackID) has media type \(track.mediaType.rawValue), not video"))
                }
            } else {
                issues.append(ValidationIssue(
                    kind: .unknownTrack, instructionIndex: index, trackID: trackID, time: instruction.timeRange.start,
                    message: "\(owner): the composition has no track \(trackID)"))
            }
            if !seen.insert(trackID).inserted {
                issues.append(ValidationIssue(
                    kind: .duplicateTrack, instructionIndex: index, trackID: trackID, time: instruction.timeRange.start,
                    message: "\(owner): the instruction already has a layer instruction for track \(trackID)"))
            }
            func location(_ parameter: String) -> ValidationIssue.Location {
                .init(parameter: parameter, owner: owner, instructionIndex: index, trackID: trackID)
            }
            issues += layer.transforms.validationIssues(at: (location("transform"))) { transform in
                transform.isFinite ? nil : (.nonFiniteTransform, "has a non-finite component: \(describe(transform))")
            }
            issues += layer.opacities.validationIssues(at: location("opacity"), checkValue: opacityProblem)
            let frame = track.flatMap { $0.naturalSize.width > 0 && $0.naturalSize.height > 0 ? $0.naturalSize : nil }
            issues += layer.cropRectangles.validationIssues(at: (location("crop rectangle"))) { rect in
                cropProblem(rect, sourceSize: frame)
            }
            issues += effectIssues(of: layer, owner: owner, instructionIndex: index, start: instruction.timeRange.start)
        }
        return issues
    }

    // MARK: - Overlays

    private static func issues(of overlay: OverlayLayer, at index: Int) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let owner = "overlay \(index)"
        let start: MediaTime? = overlay.timeRange.start.isNumeric ? overlay.timeRange.start : nil
        func issue(_ kind: ValidationIssue.Kind, _ text: String) {
            issues.append(ValidationIssue(kind: kind, overlayIndex: index, time: start, message: "\(owner): \(text)"))
        }
        switch overlay.content {
        case .image(let url):
            if let reason = unreadableFileReason(url) { issue(.overlayImageUnreadable, "image \(reason)") }
        case .text(let text):
            if let fontFile = text.fontFile, let reason = unreadableFileReason(fontFile) {
                issue(.overlayFontUnreadable, "font file \(reason)")
            }
            if !(text.fontSize.isFinite && text.fontSize > 0) {
                issue(.invalidTextAttributes, "font size \(text.fontSize) pixels must be a finite number greater than 0")
            }
            if !(text.padding.isFinite && text.padding >= 0) {
                issue(.invalidTextAttributes, "padding \(text.padding) pixels must be a finite number of at least 0")
            }
            if let reason = colorProblem(text.color) { issue(.invalidColor, "text colour \(reason)") }
            if let box = text.backgroundColor, let reason = colorProblem(box) {
                issue(.invalidColor, "text background colour \(reason)")
            }
        }
        if !(overlay.frame.isFinite && overlay.frame.width > 0 && overlay.frame.height > 0) {
            issue(.invalidOverlayFrame, "frame \(describe(overlay.frame)) must be finite with a width and height greater than 0")
        }
        let range = overlay.timeRange
        if !(range.isValid && range.start.isNumeric && range.duration > .zero
            && (range.duration.isNumeric || range.duration.isPositiveInfinity)) {
            issue(.invalidOverlayTimeRange, "time range \(range) needs a numeric start and a positive duration")
        }
        if let (kind, reason) = opacityProblem(overlay.opacity) { issue(kind, "opacity \(reason)") }
        func location(_ parameter: String) -> ValidationIssue.Location {
            .init(parameter: parameter, owner: owner, overlayIndex: index)
        }
        issues += overlay.positions.validationIssues(at: (location("position"))) { point in
            point.x.isFinite && point.y.isFinite ? nil : (.nonFiniteValue, "is (\(point.x), \(point.y)), not finite")
        }
        issues += overlay.scales.validationIssues(at: location("scale"), checkValue: finiteProblem)
        issues += overlay.rotations.validationIssues(at: location("rotation"), checkValue: finiteProblem)
        issues += overlay.opacities.validationIssues(at: location("opacity"), checkValue: opacityProblem)
        return issues
    }

    // MARK: - Value checks

    private static func opacityProblem(_ value: Double) -> (kind: ValidationIssue.Kind, reason: String)? {
        (0...1).contains(value) ? nil : (.opacityOutOfRange, "is \(value), outside 0...1")
    }

    private static func finiteProblem(_ value: Double) -> (kind: ValidationIssue.Kind, reason: String)? {
        value.isFinite ? nil : (.nonFiniteValue, "is \(value), not finite")
    }

    private static func cropProblem(_ rect: Rect, sourceSize: Size?) -> (kind: ValidationIssue.Kind, reason: String)? {
        guard rect.isFinite, rect.width > 0, rect.height > 0 else {
            return (.invalidCropRectangle, "is \(describe(rect)): it must be finite with a width and height greater than 0")
        }
        if let sourceSize, !sourceSize.bounds.contains(rect) {
            return (.invalidCropRectangle,
                    "is \(describe(rect)), which extends beyond the \(sourceSize.width) × \(sourceSize.height) source frame")
        }
        return nil
    }

    private static func colorProblem(_ color: Color) -> String? {
        color.isValid ? nil
            : "(red \(color.red), green \(color.green), blue \(color.blue), alpha \(color.alpha)) has a component outside 0...1"
    }

    /// Why `url` cannot be read as a file, or nil when it can (a `FileManager` check; the file is not opened).
    private static func unreadableFileReason(_ url: URL) -> String? {
        guard url.isFileURL else { return "\(url.absoluteString) is not a file URL" }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return "\(url.path) does not exist"
        }
        if isDirectory.boolValue { return "\(url.path) is a directory, not a file" }
        return FileManager.default.isReadableFile(atPath: url.path) ? nil : "\(url.path) is not readable"
    }

    private static func describe(_ rect: Rect) -> String {
        "(x \(rect.x), y \(rect.y), width \(rect.width), height \(rect.height))"
    }

    private static func describe(_ transform: AffineTransform2D) -> String {
        "(a \(transform.a), b \(transform.b), c \(transform.c), d \(transform.d), tx \(transform.tx), ty \(transform.ty))"
    }
}
