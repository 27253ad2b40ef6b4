import Devices
import Scenes
import Sensor
import Spectra

extension WhiteBalance {
    /// The white balance of a phone that knows its lights: the scene's ambient illuminant and the
    /// flash, mixed in proportion to the mean green signal each gives in `frame`.
    ///
    /// The flash part uses the profile's factory calibration (what the phone believes about its own
    /// flash), never the true spectrum. Needs a frame that carries its noise-free components' means
    /// (`RawFrame.meanAmbientElectrons`, kept with the components or alone); without them, or
    /// without any light, the balance is D65.
    public static func knownLights(_ frame: RawFrame, scene: Scene, flash: FlashHardware?, camera: CameraModel)
        -> WhiteBalance
    {
        var parts: [(spectrum: Spectrum, weight: Double)] = []
        let time = frame.exposure.time
        if let ambient = scene.ambient, let mean = frame.meanAmbientElectrons {
            parts.append((ambient.spectrum, mean.y / time))
        }
        if frame.exposure.flash, let mean = frame.meanFlashElectrons, let hardware = flash {
            var believed = Spectrum.constant(0)
            for entry in hardware.calibration { believed += entry.spectrum.spectrum.peakNormalized * entry.intensityCD }
            parts.append((believed, mean.y / time))
        }
        let mixed = WhiteBalance.mix(parts)
        return WhiteBalance(illuminant: mixed.maximum > 0 ? mixed : Illuminants.d65, camera: camera)
    }
}
