@_exported import CoreVideo
import CoreImage
import Foundation
import Imaging
import ObscuraAV

/// `VTCreateCGImageFromCVPixelBuffer`: a `CGImage` of a pixel buffer's picture, as Apple's Constant Color
/// sample makes one of a photo's confidence map to show it.
///
/// A one-component 8-bit buffer (a confidence map, a matte) becomes an 8-bit grey image of the same bytes, in the
/// linear grey space its values are in; any other format Core Image reads becomes 8-bit RGBA, sRGB-encoded, as
/// `CIContext.createCGImage` renders it. `options` must be nil, as Apple documents. Returns `noErr`, or
/// `kVTParameterErr` (−12902, leaving `imageOut` nil) for a buffer whose format cannot be read.
@discardableResult
public func VTCreateCGImageFromCVPixelBuffer(
    _ pixelBuffer: CVPixelBuffer, options: CFDictionary?, imageOut: UnsafeMutablePointer<CGImage?>
) -> OSStatus {
    imageOut.pointee = nil
    if let grey = MatteRepresentation.plane(of: pixelBuffer) {
        guard let space = CGColorSpace(name: CGColorSpace.linearGray),
            let provider = CGDataProvider(data: Data(grey.packedElements) as CFData),
            let image = CGImage(
                width: grey.width, height: grey.height, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: grey.width,
                space: space, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue), provider: provider,
                decode: nil, shouldInterpolate: true, intent: .defaultIntent)
        else { return kVTParameterErr }
        imageOut.pointee = image
        return noErr
    }
    let picture = CIImage(cvPixelBuffer: pixelBuffer)
    guard !picture.extent.isEmpty, let image = CIContext().createCGImage(picture, from: picture.extent) else {
        return kVTParameterErr
    }
    imageOut.pointee = image
    return noErr
}

/// `kVTParameterErr`: a parameter was not valid.
public let kVTParameterErr: OSStatus = -12902
