import Composition

extension MutableAudioMix {
    /// Every problem of this audio mix against `composition` (see ``validate(for:)-(CompositionSummary)``).
    public func validate(for composition: MutableComposition) -> [ValidationIssue] {
        validate(for: CompositionSummary(composition))
    }
}
