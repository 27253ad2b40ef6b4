// On Linux, `import QuartzCore` gives iOS code `CALayer` and the CoreGraphics values its geometry
// is written in. The layer lives with the capture API, whose preview layer is a `CALayer`.
@_exported import Foundation
@_exported import ObscuraAV
