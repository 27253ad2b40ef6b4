import AVFoundation
import Foundation
import QuartzCore
import Testing

// Layer classes, contents gravity, named colour spaces and images made from bytes, as UI and
// image code writes them.

extension DropIn {
    @Suite struct CoreGraphicsImageIdiomTests {
        /// A layer subclass as apps declare one for a view's `layerClass`.
        final class OverlayLayer: CALayer, @unchecked Sendable {}

        @Test func layerClassMakesALayer() {
            let layerClass: CALayer.Type = OverlayLayer.self
            let layer = layerClass.init()
            #expect(layer is OverlayLayer)
            let preview: CALayer.Type = AVCaptureVideoPreviewLayer.self
            #expect(preview.init() is AVCaptureVideoPreviewLayer)
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
            #expect(CALayer(layer: layer).bounds == layer.bounds)
        }

        @Test func contentsGravity() {
            let layer = CALayer()
            #expect(layer.contentsGravity == .resize)
            layer.contentsGravity = .resizeAspectFill
            #expect(layer.contentsGravity == .resizeAspectFill && layer.contentsGravity.rawValue == "resizeAspectFill")
        }

        // Every name Core Graphics lists makes a space of its documented model; unknown names do not.
        @Test func namedColorSpaces() throws {
            let rgb = [
                CGColorSpace.sRGB, CGColorSpace.extendedSRGB, CGColorSpace.linearSRGB, CGColorSpace.extendedLinearSRGB,
                CGColorSpace.displayP3, CGColorSpace.extendedLinearDisplayP3, CGColorSpace.itur_709,
                CGColorSpace.itur_2020, CGColorSpace.dcip3, CGColorSpace.adobeRGB1998, CGColorSpace.genericRGBLinear,
                CGColorSpace.acescgLinear, CGColorSpace.rommrgb, CGColorSpace.itur_2100_PQ,
            ]
            for name in rgb {
                let space = try #require(CGColorSpace(name: name), "\(name)")
                #expect(space.model == .rgb && space.numberOfComponents == 3 && space.name == name)
            }
            for name in [CGColorSpace.genericGrayGamma2_2, CGColorSpace.linearGray, CGColorSpace.extendedGray] {
                let space = try #require(CGColorSpace(name: name), "\(name)")
                #expect(space.model == .monochrome && space.numberOfComponents == 1)
            }
            #expect(CGColorSpace(name: CGColorSpace.genericCMYK)?.numberOfComponents == 4)
            #expect(CGColorSpace(name: "kCGColorSpaceNoSuchThing") == nil)
        }

        // A confidence map's bytes become a grey image holding those pixels.
        @Test func imageFromADataProvider() throws {
            let (width, height) = (4, 3)
            let bytes = (0..<(width * height)).map { UInt8($0 * 20) }
            let provider = try #require(CGDataProvider(data: Data(bytes) as CFData))
            let image = try #require(
                CGImage(
                    width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: width,
                    space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue),
                    provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent))
            #expect(image.width == 4 && image.height == 3 && image.bytesPerRow == 4 && image.alphaInfo == .none)
            #expect(image.colorSpace?.model == .monochrome)
            let stored = try #require(image.dataProvider?.data) as Data
            #expect([UInt8](stored) == bytes)
            // Too few bytes for the rows: no image, as Core Graphics answers.
            #expect(
                CGImage(
                    width: width, height: height + 1, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: width,
                    space: CGColorSpaceCreateDeviceGray(), bitmapInfo: [], provider: provider, decode: nil,
                    shouldInterpolate: false, intent: .defaultIntent) == nil)
        }
    }
}
