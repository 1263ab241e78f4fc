// The umbrella module: `import Splice` gives a user every public module at once.
@_exported import AssetIO
@_exported import AudioMix
@_exported import Capture
@_exported import CodeScanning
@_exported import Composition
@_exported import Delivery
@_exported import Export
@_exported import SpliceFFmpeg
@_exported import SpliceDocument
@_exported import TimelineInterchange
@_exported import VideoComposition
