@testable import Export
import Composition

/// Access to the planner's pure rules.
enum ExportPlannerProbe {
    static func outputSize(_ render: Size, _ preset: ExportPreset) -> Size {
        ExportPlanner.outputSize(renderSize: render, maximum: preset.settings?.video?.maximumSize)
    }
}
