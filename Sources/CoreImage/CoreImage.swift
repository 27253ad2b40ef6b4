// On Linux, `import CoreImage` gives iOS image code Core Image's names over Obscura's image operations,
// and, as the SDK's module does, the frameworks its declarations are written in: Foundation, CoreVideo
// (CVPixelBuffer) and the CoreGraphics values (CGImage, CGRect, CGAffineTransform) the capture API holds.
@_exported import CoreVideo
@_exported import Foundation
@_exported import ObscuraAV
