import Composition

extension MutableAudioMix {
    /// Every problem that would stop this audio mix from being applied to `composition`, in the order of
    /// ``inputParameters``; empty when the mix is valid.
    ///
    /// Per input parameters: the track exists (``ValidationIssue/Kind/unknownTrack``), is audio
    /// (``ValidationIssue/Kind/wrongMediaType``) and has no other parameters (``ValidationIssue/Kind/duplicateTrack``);
    /// volumes are finite (``ValidationIssue/Kind/nonFiniteValue``) and not negative
    /// (``ValidationIssue/Kind/negativeVolume``); set times are numeric; ramps have a positive duration and do not
    /// overlap one another. Then per crossfade (``ValidationIssue/Kind/invalidTransition``): two different audio
    /// tracks of the composition and a valid range with a positive duration.
    ///
    /// - Parameter composition: the facts of the composition this mix is for.
    public func validate(for composition: CompositionSummary) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        var seen: Set<Int32> = []
        for (index, parameters) in inputParameters.enumerated() {
            let trackID = parameters.trackID
            let owner = "input parameters \(index) for track \(trackID)"
            if let track = composition.track(withTrackID: trackID) {
                if track.mediaType != .audio {
                    issues.append(ValidationIssue(
                        kind: .wrongMediaType, trackID: trackID,
                        message: "\(owner): track \(trackID) has media type \(track.mediaType.rawValue), not audio"))
                }
            } else {
                issues.append(ValidationIssue(
                    kind: .unknownTrack, trackID: trackID, message: "\(owner): the composition has no track \(trackID)"))
            }
            if !seen.insert(trackID).inserted {
                issues.append(ValidationIssue(
                    kind: .duplicateTrack, trackID: trackID,
                    message: "\(owner): the mix already has input parameters for track \(trackID)"))
            }
            let location = ValidationIssue.Location(parameter: "volume", owner: owner, trackID: trackID)
            issues += parameters.volumes.validationIssues(at: location) { volume in
                if !volume.isFinite { return (.nonFiniteValue, "is \(volume), not a finite gain") }
                if volume < 0 { return (.negativeVolume, "is \(volume), a negative gain") }
                return nil
            }
        }
        for (index, crossfade) in crossfades.enumerated() {
            issues += crossfadeIssues(crossfade, at: index, for: composition)
        }
        return issues
    }

    private func crossfadeIssues(_ crossfade: AudioCrossfade, at index: Int, for composition: CompositionSummary) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let owner = "crossfade \(index)"
        let range = crossfade.timeRange
        if !range.isValid || !range.start.isNumeric || !range.duration.isNumeric || range.duration <= .zero {
            issues.append(ValidationIssue(kind: .invalidTransition, message: "\(owner): the time range \(range) must have a positive duration"))
        }
        if crossfade.fromTrackID == crossfade.toTrackID {
            issues.append(ValidationIssue(kind: .invalidTransition, trackID: crossfade.fromTrackID,
                                          message: "\(owner): fades track \(crossfade.fromTrackID) into itself"))
        }
        for trackID in [crossfade.fromTrackID, crossfade.toTrackID] {
            guard let track = composition.track(withTrackID: trackID) else {
                issues.append(ValidationIssue(kind: .unknownTrack, trackID: trackID, message: "\(owner): the composition has no track \(trackID)"))
                continue
            }
            if track.mediaType != .audio {
                issues.append(ValidationIssue(kind: .wrongMediaType, trackID: trackID,
                                              message: "\(owner): track \(trackID) has media type \(track.mediaType.rawValue), not audio"))
            }
        }
        return issues
    }

    /// Returns `self` when ``validate(for:)`` finds no problem.
    ///
    /// - Throws: ``AudioMixError/invalid(_:)`` with every problem found.
    @discardableResult
    public func validated(for composition: CompositionSummary) throws(AudioMixError) -> MutableAudioMix {
        let issues = validate(for: composition)
        guard issues.isEmpty else { throw .invalid(issues) }
        return self
    }
}
