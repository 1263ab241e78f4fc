// VideoComposition: layer instructions, ramps, overlays (pure Swift, no FFmpeg).
import Composition
