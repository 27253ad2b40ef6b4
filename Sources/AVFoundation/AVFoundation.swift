// On Linux, `import AVFoundation` gives iOS capture code the emulated API, and, as the SDK's
// module does, the frameworks its declarations are written in: Foundation (URL, Data, NSObject),
// CoreMedia (CMTime, CMSampleBuffer), CoreVideo (CVPixelBuffer) and QuartzCore (CALayer).
@_exported import CoreMedia
@_exported import CoreVideo
@_exported import Foundation
@_exported import ObscuraAV
@_exported import QuartzCore
