import CoreGraphics
import Testing

// This file imports CoreGraphics alone, as geometry helpers of camera apps do.

extension DropIn {
    @Suite struct CoreGraphicsImportTests {
        @Test func coreGraphicsBringsItsGeometryAndPaths() {
            let rect = CGRect(x: 0, y: 0, width: 4, height: 3)
            let turned = rect.applying(CGAffineTransform(rotationAngle: .pi / 2))
            #expect(abs(turned.width - 3) < 1e-9 && abs(turned.height - 4) < 1e-9)
            let path = CGMutablePath()
            path.addRect(rect)
            #expect(path.contains(CGPoint(x: 2, y: 1)))
            #expect(CGColor(gray: 0.5, alpha: 1).numberOfComponents == 4)
        }
    }
}
