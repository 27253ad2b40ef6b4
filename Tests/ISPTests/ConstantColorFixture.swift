import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra

/// Shared helpers of the Constant Color tests: a profile pipeline and patch read-back.
enum ConstantColorFixture {
    /// What the phone recorded of a capture, as `ConstantColorPipeline.process` takes it: both frames' readouts
    /// (no ground truth) and the depth it measured.
    static func recorded(_ result: ConstantColorResult) -> ConstantColorCapture {
        let d = result.diagnostics
        return ConstantColorCapture(
            ambient: SensorReadout(d.ambientFrame), flash: SensorReadout(d.flashFrame), depth: d.measuredDepth)
    }

    static func device(_ id: String = "iphone-15-pro") throws -> DeviceProfile {
        try DeviceCatalog(directory: ChartFixture.profiles).profile(id)
    }

    /// The iPhone 15 Pro wide camera with its real noise, no lens distortion, at `width × height`, measuring depth
    /// as the device does (its LiDAR) unless `depthSensor` says otherwise.
    static func pipeline(
        width: Int = 160, height: Int = 120, device: DeviceProfile? = nil, depthSensor: ConstantColorDepthSensor? = nil,
        settings: ConstantColorPipeline.Settings = .init(developsFallback: false)
    ) throws -> ConstantColorPipeline {
        let profile = try device ?? self.device()
        let cameraProfile = try profile.camera(ofType: .builtInWideAngleCamera)
        let built = try ConstantColorPipeline(
            device: profile, camera: cameraProfile, width: width, height: height, settings: settings)
        var camera = built.camera
        camera.distortion = nil
        return ConstantColorPipeline(
            camera: camera, flash: built.flash, calibration: built.calibration, irradiance: built.irradiance,
            depthSensor: depthSensor ?? built.depthSensor, settings: settings)
    }

    /// The validation's chart pipeline (`ConstantColorValidation.chartPipeline`): the iPhone 15 Pro
    /// wide camera cropped to its central `width × height` pixels at native pitch, real noise, no device errors.
    static func chartPipeline(
        width: Int = 160, height: Int = 120, device: DeviceProfile? = nil,
        settings: ConstantColorPipeline.Settings = .init(developsFallback: false)
    ) throws -> ConstantColorPipeline {
        let profile = try device ?? self.device()
        var pipeline = try ConstantColorValidation.chartPipeline(
            device: profile, camera: try profile.camera(ofType: .builtInWideAngleCamera), width: width,
            height: height, settings: settings)
        // The chart tests check the pipeline itself: captured without the device's error sources.
        pipeline.captureErrors = .none
        return pipeline
    }

    /// The width of a chart that fills `fill` of a camera's horizontal view at `distance`.
    static func chartWidth(camera: CameraModel, distance: Double, fill: Double = 0.8) -> Double {
        fill * distance * Double(camera.width) / camera.fx
    }

    /// A ColorChecker square-on at `distance`, `width` wide (the Classic's 0.2794 m by default),
    /// under `illuminant` at `lux` from behind the camera.
    static func chartScene(illuminant: Spectrum, lux: Double, distance: Double = 0.3, width: Double = 0.2794)
        -> Scene
    {
        let chart = SceneObject(
            name: "chart", shape: .plane(width: width, height: width * 0.1905 / 0.2794),
            transform: Transform(position: Vector3(0, 0, -distance)), surface: Cards.colorChecker())
        return Scene(
            objects: [chart],
            ambient: AmbientLight(spectrum: illuminant, illuminance: lux, direction: Vector3(0.2, 0.3, 1)),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }

    /// Linear XYZ (Display P3 decoded with the 2.2 gamma) of a photo, averaged over the pixels whose
    /// visible material has `name` (eroded by one pixel so edges do not mix).
    static func xyz(_ photo: PixelPlane<UInt8>, frame: RawFrame, materials: [Material], name: String) -> SIMD3<Double>? {
        guard let id = materials.firstIndex(where: { $0.name == name }) else { return nil }
        let w = frame.width, h = frame.height
        var sum = SIMD3<Double>(0, 0, 0)
        var n = 0.0
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let p = y * w + x
                guard frame.materialIDs[p] == UInt16(id), frame.materialIDs[p - 1] == UInt16(id),
                    frame.materialIDs[p + 1] == UInt16(id), frame.materialIDs[p - w] == UInt16(id),
                    frame.materialIDs[p + w] == UInt16(id)
                else { continue }
                let rgb = SIMD3((0..<3).map { pow(Double(photo[x, y, $0]) / 255, 2.2) })
                sum += RGBColorSpace.displayP3.toXYZ * SIMD3(rgb[0], rgb[1], rgb[2])
                n += 1
            }
        }
        return n > 0 ? sum / n : nil
    }

    /// CIELAB (D65 white) of every ColorChecker patch in a photo, lightness scaled so that
    /// "neutral 5" has its D65 luminance (the photo's global exposure is arbitrary).
    static func chartLab(_ photo: PixelPlane<UInt8>, frame: RawFrame, materials: [Material]) -> [Lab?] {
        let values = ColorChecker.patches.map { xyz(photo, frame: frame, materials: materials, name: $0.name) }
        let grey = ColorChecker.patches.firstIndex { $0.name.hasPrefix("neutral 5") } ?? 21
        let reference = Colorimetry.xyz(reflectance: ColorChecker.patches[grey].reflectance, illuminant: Illuminants.d65)
        guard let g = values[grey], g.y > 0 else { return values.map { _ in nil } }
        let k = reference.Y / 100 / g.y
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        return values.map { v in v.map { Lab(XYZ($0 * k * 100), white: white) } }
    }
}
