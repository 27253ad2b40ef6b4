import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra

/// A ColorChecker photographed square-on by a profile camera, rendered without noise.
enum ChartFixture {
    static let profiles = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DeviceProfiles").path

    /// Noise off: no read noise, PRNU, DSNU or dark current; a deep well and 16-bit ADC so shot
    /// noise (~0.1 % at the signals used) and quantisation vanish in patch means.
    static let quiet = NoiseParameters(
        fullWellElectrons: 4e6, readNoiseElectrons: 0, prnu: 0, dsnuElectrons: 0, darkCurrentElectronsPerSecond: 0,
        adcBits: 16, blackLevel: 0, whiteLevel: 65535, baseISO: 100)

    /// The iPhone 15 Pro wide camera at 160×120, with its profile sensitivities and quiet noise.
    static func camera() throws -> CameraModel {
        let device = try DeviceCatalog(directory: profiles).profile("iphone-15-pro")
        var camera = try CameraModel(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 160, height: 120)
        camera.noise = quiet
        camera.distortion = nil
        // The chart tests measure colour, not the residual fall-off the profile's partial correction
        // leaves (LensShadingCorrectionTests checks that): here the correction is complete.
        camera.shading?.correctedFraction = 1
        return camera
    }

    /// The chart 0.3 m in front of the camera, lit square-on by `illuminant` at 500 lux.
    static func scene(illuminant: Spectrum) -> Scene {
        let chart = SceneObject(
            name: "chart", shape: .plane(width: 0.2794, height: 0.1905),
            transform: Transform(position: Vector3(0, 0, -0.3)), surface: Cards.colorChecker())
        return Scene(
            objects: [chart],
            ambient: AmbientLight(
                spectrum: illuminant, illuminance: 500, direction: Vector3(0, 0, 1), diffuseFraction: 0),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }

    /// A frame whose white patch (19) reaches about half of the clipping level in green.
    static func frame(renderer: Renderer) -> RawFrame {
        let probe = renderer.render(Exposure(time: 0.01, iso: 100))
        let white = patchMean(probe.dn.map(Float.init), frame: probe, renderer: renderer, patch: "white 9.5 (.05 D)")
        return renderer.render(Exposure(time: 0.01 * 32_767 / white.y, iso: 100))
    }

    /// The mean of an interleaved RGB buffer over the pixels showing a ColorChecker patch.
    static func patchMean(_ values: [Float], frame: RawFrame, renderer: Renderer, patch name: String) -> SIMD3<Double> {
        guard let id = renderer.materials.firstIndex(where: { $0.name == name }) else { return .zero }
        var sum = SIMD3<Double>.zero
        var n = 0.0
        for p in 0..<(frame.width * frame.height) where frame.materialIDs[p] == UInt16(id) {
            sum += SIMD3(Double(values[3 * p]), Double(values[3 * p + 1]), Double(values[3 * p + 2]))
            n += 1
        }
        return n > 0 ? sum / n : .zero
    }

    /// Develops the chart and returns each patch's CIELAB (D65 white) read back from the 16-bit
    /// encoded picture, exposure-normalised so that patch 19 has its reference luminance.
    static func developedLab(illuminant: Spectrum, space: BasicDevelop.OutputSpace = .sRGB) throws -> [Lab] {
        let camera = try camera()
        let renderer = Renderer(scene: scene(illuminant: illuminant), camera: camera, flash: nil)
        let frame = frame(renderer: renderer)
        let develop = BasicDevelop(
            camera: camera, whiteBalance: WhiteBalance(illuminant: illuminant, camera: camera),
            settings: .init(outputSpace: space, toneCurve: .linear, exposureScale: 1))
        let picture = develop.develop(frame, as: UInt16.self)
        // Decode the transfer function, as a viewer of the file would.
        let colorSpace = space.colorSpace
        let linear = picture.packedElements.map { Float(colorSpace.transfer.decode(Double($0.normalizedValue))) }
        let white = ColorCorrectionMatrix.d65White
        let xyz = ColorChecker.patches.map {
            colorSpace.toXYZ * patchMean(linear, frame: frame, renderer: renderer, patch: $0.name)
        }
        let reference = ColorChecker.patches.map {
            Colorimetry.xyz(reflectance: $0.reflectance, illuminant: Illuminants.d65)
        }
        let k = reference[18].Y / 100 / xyz[18].y
        return xyz.map { Lab(XYZ($0 * k), white: white) }
    }

    /// The reference: CIELAB of every patch under D65 from the CIE 1931 observer (independent of
    /// the camera and the pipeline).
    static let referenceLab: [Lab] = ColorChecker.patches.map {
        Colorimetry.lab(reflectance: $0.reflectance, illuminant: Illuminants.d65)
    }
}
