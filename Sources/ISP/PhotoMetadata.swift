import Foundation
import Imaging
import Sensor

/// What a developed photo says about itself in its file: one set of PNG text keys for every
/// photo Obscura writes, whether it came through the capture API or `obscura render`.
///
/// Keys are `Obscura.<Name>` (PNG keywords are free text up to 79 Latin-1 characters; the prefix
/// keeps them apart from the registered keywords such as `Software`). Numbers are written with
/// Swift's shortest round-tripping form, so a reader gets back the exact value used.
public struct PhotoMetadata: Sendable, Hashable {
    /// The program that wrote the file (`Software`).
    public var software: String
    /// The scene's name or file.
    public var scene: String
    /// The device profile's id and the device's name.
    public var device: String
    public var deviceName: String
    /// The camera's id in the profile and its device type.
    public var camera: String
    public var deviceType: String
    /// Picture size in pixels.
    public var width: Int
    public var height: Int
    /// The encoding's name (`sRGB`, `Display P3`).
    public var colorSpace: String
    /// The exposure used.
    public var exposure: Exposure
    /// Whether the flash fired.
    public var flashFired: Bool
    /// The noise seed.
    public var seed: UInt64
    /// The camera matrix of the picture's pixels (`Obscura.Intrinsics`: `fx fy cx cy`), so tools can recover true
    /// shapes from the picture (a scanned print's aspect ratio); nil when unknown.
    public var intrinsics: PinholeIntrinsics?
    /// Further entries a path adds (Constant Color confidence, depth units), written after the rest.
    public var extra: [PNGText]

    /// Metadata of one photo.
    public init(
        software: String, scene: String, device: String, deviceName: String, camera: String, deviceType: String,
        width: Int, height: Int, colorSpace: String, exposure: Exposure, flashFired: Bool, seed: UInt64,
        intrinsics: PinholeIntrinsics? = nil, extra: [PNGText] = []
    ) {
        self.software = software
        self.scene = scene
        self.device = device
        self.deviceName = deviceName
        self.camera = camera
        self.deviceType = deviceType
        self.width = width
        self.height = height
        self.colorSpace = colorSpace
        self.exposure = exposure
        self.flashFired = flashFired
        self.seed = seed
        self.intrinsics = intrinsics
        self.extra = extra
    }

    /// The text entries, in a fixed order.
    public var pngText: [PNGText] {
        [
            PNGText(key: "Software", value: software),
            PNGText(key: "Obscura.Scene", value: scene),
            PNGText(key: "Obscura.Device", value: device),
            PNGText(key: "Obscura.DeviceName", value: deviceName),
            PNGText(key: "Obscura.Camera", value: camera),
            PNGText(key: "Obscura.DeviceType", value: deviceType),
            PNGText(key: "Obscura.Dimensions", value: "\(width)x\(height)"),
            PNGText(key: "Obscura.ColorSpace", value: colorSpace),
            PNGText(key: "Obscura.ExposureTime", value: String(exposure.time)),
            PNGText(key: "Obscura.ISO", value: String(exposure.iso)),
            PNGText(key: "Obscura.Flash", value: flashFired ? "fired" : "did not fire"),
            PNGText(key: "Obscura.Seed", value: String(seed)),
        ] + (intrinsics.map { [PNGText(key: PinholeIntrinsics.pngTextKey, value: $0.pngTextValue)] } ?? []) + extra
    }
}
