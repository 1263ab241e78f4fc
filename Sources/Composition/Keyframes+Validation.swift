extension Keyframes {
    /// Every problem of the entries: values set at non-numeric times (``ValidationIssue/Kind/invalidKeyTime``),
    /// ramps with an invalid, non-numeric, zero or negative duration range (``ValidationIssue/Kind/invalidRampTimeRange``),
    /// ramps that overlap an earlier ramp (``ValidationIssue/Kind/overlappingRamps``), and whatever `checkValue`
    /// says about each value (ramps: start and end value). A value set inside a ramp is not a problem: it wins from
    /// its time, as documented on ``Keyframes``.
    ///
    /// Used by the validators of `VideoComposition` and `AudioMix`.
    ///
    /// - Parameters:
    ///   - location: names the parameter and its owner in the issues.
    ///   - checkValue: returns the kind and the reason (e.g. `"is 1.5, outside 0...1"`) for a bad value, nil for a good one.
    public func validationIssues(
        at location: ValidationIssue.Location, checkValue: (Value) -> (kind: ValidationIssue.Kind, reason: String)?
    ) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        func issue(_ kind: ValidationIssue.Kind, _ time: MediaTime?, _ text: String) {
            issues.append(ValidationIssue(
                kind: kind, instructionIndex: location.instructionIndex, overlayIndex: location.overlayIndex,
                trackID: location.trackID, time: time, message: "\(location.owner): \(text)"))
        }
        var latestRamp: KeyframeRamp<Value>?
        for entry in entries {
            switch entry {
            case .value(let value, let time):
                if !time.isNumeric {
                    issue(.invalidKeyTime, nil, "\(location.parameter) set at \(time), which is not a numeric time")
                }
                if let (kind, reason) = checkValue(value) {
                    issue(kind, time.isNumeric ? time : nil, "\(location.parameter) set at \(time): value \(reason)")
                }
            case .ramp(let ramp):
                let range = ramp.timeRange
                let start: MediaTime? = range.start.isNumeric ? range.start : nil
                if !ramp.hasValidTimeRange {
                    issue(.invalidRampTimeRange, start,
                          "\(location.parameter) ramp has time range (start \(range.start), duration \(range.duration)): "
                              + "a ramp needs a numeric start and a positive numeric duration"
                              + (range.duration < .zero
                                  ? " (a negative duration: an end before the start, or keyframes out of time order)" : ""))
                } else {
                    if let earlier = latestRamp, range.start < earlier.timeRange.end {
                        issue(.overlappingRamps, range.start,
                              "\(location.parameter) ramp over \(range) overlaps the \(location.parameter) ramp over "
                                  + "\(earlier.timeRange)")
                    }
                    if latestRamp.map({ range.end > $0.timeRange.end }) ?? true { latestRamp = ramp }
                }
                if let (kind, reason) = checkValue(ramp.startValue) {
                    issue(kind, start, "\(location.parameter) ramp over \(range): start value \(reason)")
                }
                if let (kind, reason) = checkValue(ramp.endValue) {
                    issue(kind, start, "\(location.parameter) ramp over \(range): end value \(reason)")
                }
            }
        }
        return issues
    }
}
