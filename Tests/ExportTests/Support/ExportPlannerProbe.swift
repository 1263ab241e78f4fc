@testable import Export
import Composition

/// Access to the planner's pure rules.
enum ExportPlannerProbe {
    static func outputSize(_ render: Size, _ preset: ExportPreset) -> Size {
        ExportPlanner.outputSize(renderSize: render, maximum: preset.settings?.video?.maximumSize)
    }
}

/// Access to the compiler's pure helpers.
enum FilterGraphProbe {
    static func filterNames(_ description: String) -> Set<String> { FilterGraphCompiler.filterNames(in: description) }
}
