import Devices
import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The device-profile adapter, checked against the numbers written in DeviceProfiles/*.yaml.
struct DeviceProfileAdapterTests {
    static let profiles = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DeviceProfiles").path

    static func profile(_ id: String) throws -> DeviceProfile {
        try DeviceCatalog(directory: profiles).profile(id)
    }

    /// iphone-15-pro back-wide: fx_px 5590.94 at reference_px [8064, 6048].
    @Test func intrinsicsScaleWithOutputSize() throws {
        let device = try Self.profile("iphone-15-pro")
        let wide = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        let small = try CameraModel(device: device, camera: wide, width: 252, height: 189)
        let large = try CameraModel(device: device, camera: wide, width: 1008, height: 756)
        #expect(abs(large.fx - 5590.94 * 1008 / 8064) < 1e-9)
        #expect(abs(large.fy - 5590.94 * 756 / 6048) < 1e-9)
        #expect(abs(large.fx / small.fx - 4) < 1e-12)
        #expect(abs(large.cx - 4035.5 * 1008 / 8064) < 1e-9)
        #expect(abs(large.cy - 3022 * 756 / 6048) < 1e-9)
        // The distortion centre (center_px [4037, 3021]) scales with the image.
        let centre = try #require(large.distortion?.center)
        #expect(abs(centre.x - 4037.0 / 8) < 1e-9 && abs(centre.y - 3021.0 / 8) < 1e-9)
        #expect(large.fNumber == 1.78 && large.pixelPitchMicrometres == 1.22)
        #expect(large.noise.fullWellElectrons == 6500 && large.noise.baseISO == 50)
        #expect(abs(large.noise.prnu - 0.007) < 1e-12)
    }

    /// A 16:9 output is a centred crop of the 4:3 sensor: fx follows the width, cy the crop.
    @Test func wideAspectOutputIsACentredCrop() throws {
        let device = try Self.profile("iphone-15-pro")
        let wide = try device.camera(ofType: .builtInWideAngleCamera)
        let camera = try CameraModel(device: device, camera: wide, width: 1920, height: 1080)
        let s = 1920.0 / 8064
        #expect(abs(camera.fx - 5590.94 * s) < 1e-9 && abs(camera.fy - camera.fx) < 1e-9)
        #expect(abs(camera.cy - (3022 * s - (6048 * s - 1080) / 2)) < 1e-9)
    }

    /// Sensitivities: red [{600, 30, 0.52}, {450, 20, 0.03}], green [{535, 36, 0.6}],
    /// blue [{462, 24, 0.48}] (iphone-15-pro back-wide), evaluated by hand from the Gaussians.
    @Test func sensitivitiesReachTheCameraModel() throws {
        let device = try Self.profile("iphone-15-pro")
        let camera = try CameraModel(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 64, height: 48)
        func g(_ l: Double, _ peak: Double, _ sigma: Double, _ qe: Double) -> Double {
            qe * exp(-0.5 * ((l - peak) / sigma) * ((l - peak) / sigma))
        }
        #expect(abs(camera.quantumEfficiency.green.value(at: 535) - 0.6) < 1e-9)
        #expect(abs(camera.quantumEfficiency.green.value(at: 500) - g(500, 535, 36, 0.6)) < 1e-9)
        #expect(abs(camera.quantumEfficiency.red.value(at: 450) - (0.03 + g(450, 600, 30, 0.52))) < 1e-9)
        #expect(abs(camera.quantumEfficiency.blue.value(at: 460) - g(460, 462, 24, 0.48)) < 1e-9)
    }

    /// iPhone 7 Plus: the dual camera renders through its wide constituent.
    @Test func dualCameraRendersThroughTheWide() throws {
        let device = try Self.profile("iphone-7-plus")
        let dual = try device.camera(ofType: .builtInDualCamera)
        let wide = try device.camera(ofType: .builtInWideAngleCamera)
        #expect(try device.renderingCamera(for: dual).id == wide.id)
        let a = try CameraModel(device: device, camera: dual, width: 320, height: 240)
        let b = try CameraModel(device: device, camera: wide, width: 320, height: 240)
        #expect(a == b)
    }

    @Test func missingCameraTypeIsAClearError() throws {
        let device = try Self.profile("ipad-10th-gen")
        do {
            _ = try device.camera(ofType: .builtInTelephotoCamera)
            Issue.record("an iPad 10th generation has no telephoto camera")
        } catch let error as DeviceCameraError {
            #expect(error.description.contains("builtInTelephotoCamera"))
            #expect(error.description.contains("ipad-10th-gen"))
        }
    }

    /// The flash uses the true modules (45 cd LED-B5 / 38 cd LED-B2, 80° beams on iphone-15-pro),
    /// not the calibration; front cameras have none.
    @Test func flashUsesTheTrueModules() throws {
        let device = try Self.profile("iphone-15-pro")
        let back = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        let flash = try #require(FlashModel(device: device, camera: back))
        let hardware = try #require(device.flash)
        #expect(flash.modules.count == hardware.modules.count)
        #expect(flash.modules[0].intensityCandela == 45 && flash.modules[1].intensityCandela == 38)
        #expect(flash.modules[0].beamHalfAngleDegrees == 40)
        #expect(flash.modules[0].spectrum == Illuminants.cie(.b5))
        #expect(abs(flash.modules[0].positionInCamera.x - (-0.021)) < 1e-12)
        let front = try device.camera(ofType: .builtInWideAngleCamera, position: .front)
        #expect(FlashModel(device: device, camera: front) == nil)
    }
}
