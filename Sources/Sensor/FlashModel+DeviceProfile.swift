import Devices
import Imaging
import Scenes
import Spectra

extension FlashModel {
    /// The flash the renderer fires for a camera of a device: the modules' *true* spectra,
    /// intensities and beams. The factory calibration is deliberately ignored here; it is what the
    /// ISP believes (How the physics works, “The flash, true and believed”).
    ///
    /// Module positions are given in the back reference camera's frame (DeviceProfiles/README.md,
    /// Flash), so the camera's own translation is subtracted. A profile's beam angle is the full
    /// angle at half intensity; the model wants the half angle.
    ///
    /// Returns nil when the device has no flash or the camera does not face it (front cameras).
    public init?(device: DeviceProfile, camera: CameraProfile) {
        guard let hardware = device.flash, device.hasFlash(camera), !hardware.modules.isEmpty else { return nil }
        var cameraOffset = Vector3.zero
        if let physical = try? device.renderingCamera(for: camera), let extrinsics = physical.extrinsics,
            extrinsics.translationMM.count == 3
        {
            let t = extrinsics.translationMM
            cameraOffset = Vector3(t[0], t[1], t[2]) / 1000
        }
        self.init(
            modules: hardware.modules.map { module in
                let p = module.positionMM.count == 3 ? module.positionMM : [0, 0, 0]
                return Module(
                    spectrum: module.spectrum.spectrum, intensityCandela: module.intensityCD,
                    beamHalfAngleDegrees: module.beamAngleDeg / 2,
                    positionInCamera: Vector3(p[0], p[1], p[2]) / 1000 - cameraOffset)
            })
    }
}
