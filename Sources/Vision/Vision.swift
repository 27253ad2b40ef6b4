// On Linux, `import Vision` gives iOS code Vision's image-analysis requests, and, as the SDK's module
// does, the frameworks its declarations are written in: Foundation (NSObject, UUID), Core Video
// (CVPixelBuffer) and the Core Graphics values (CGImage, CGRect, CGPoint), which live with the
// capture API here.
@_exported import CoreVideo
@_exported import Foundation
@_exported import ObscuraAV
