import Devices
import Foundation
import ObscuraAV
import Testing

/// Scene files written for a test: a matte grey card filling the view, facing the camera, lit by
/// one ambient light arriving along the card's normal, so the card's illuminance is exactly `lux`
/// (Scenes/README.md: `lux` is the illuminance on a surface facing `direction`).
enum PhotoScenes {
    static func greyCard(
        lux: Double, distance: Double, reflectance: Double = 0.5, illuminant: String = "LED-B3"
    ) throws -> String {
        let text = """
            description: A matte grey card at \(distance) m, \(lux) lux of \(illuminant) light along its normal.
            device:
              position_m: [0.0, 0.0, \(distance)]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {illuminant: \(illuminant)}
              lux: \(lux)
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 0.0
            materials:
              - {name: grey, reflectance: \(reflectance)}
            objects:
              - {name: card, shape: plane, size_m: [8.0, 8.0], material: grey}
            """
        let dir = try TestScratch.folder("photo")
        let file = dir.appendingPathComponent("grey-\(lux)-\(distance)-\(reflectance)-\(illuminant).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The summed on-axis luminous intensity of a profile's flash modules, candela.
    static func flashCandela(_ device: String) throws -> Double {
        let profile = try DeviceCatalog().profile(device)
        return try #require(profile.flash).modules.reduce(0) { $0 + $1.intensityCD }
    }
}

/// Linear relative luminance (ITU-R BT.709 weights) of the central `fraction` of a BGRA photo,
/// decoding the sRGB transfer function (IEC 61966-2-1).
func centralLuminance(_ photo: AVCapturePhoto, fraction: Double = 0.2) throws -> Double {
    let buffer = try #require(photo.pixelBuffer)
    #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
    _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    let w = CVPixelBufferGetWidth(buffer), h = CVPixelBufferGetHeight(buffer)
    let stride = CVPixelBufferGetBytesPerRow(buffer)
    let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
    func linear(_ byte: UInt8) -> Double {
        let v = Double(byte) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
    let x0 = Int(Double(w) * (1 - fraction) / 2), y0 = Int(Double(h) * (1 - fraction) / 2)
    let x1 = w - x0, y1 = h - y0
    var sum = 0.0
    for y in y0..<y1 {
        for x in x0..<x1 {
            let p = base + y * stride + 4 * x
            sum += 0.2126 * linear(p[2]) + 0.7152 * linear(p[1]) + 0.0722 * linear(p[0])
        }
    }
    return sum / Double((x1 - x0) * (y1 - y0))
}
