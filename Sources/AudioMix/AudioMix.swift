// AudioMix: volume ramps and mix parameters (pure Swift, no FFmpeg).
import Composition
