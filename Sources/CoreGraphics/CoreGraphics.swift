// On Linux, `import CoreGraphics` gives camera code the geometry and image types it is written in: CGFloat, CGPoint,
// CGSize and CGRect (Foundation's), and CGAffineTransform, CGPath, CGColor, CGColorSpace, CGImage and CGContext,
// which live with the capture API that hands them out.
@_exported import Foundation
@_exported import ObscuraAV
