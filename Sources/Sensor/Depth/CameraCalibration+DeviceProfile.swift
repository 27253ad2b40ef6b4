import Devices
import Imaging

extension CameraCalibration {
    /// The calibration of a profile camera, as its maps and photos report it.
    ///
    /// Virtual cameras report the physical camera that renders their pictures
    /// (`DeviceProfile.renderingCamera(for:)`). A camera without a distortion table gets empty
    /// tables and a zero centre, Apple's "uncalibrated" (spec §10 [D]).
    public init(device: DeviceProfile, camera: CameraProfile) throws {
        let physical = try device.renderingCamera(for: camera)
        guard let optics = physical.optics, let k = physical.intrinsics else {
            throw DeviceCameraError(
                description: "\(device.sourceFile): camera \(physical.id) of \(device.id) has no optics or intrinsics")
        }
        var rotation: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        var translation = SIMD3<Double>.zero
        if let e = physical.extrinsics, e.rotation.count == 3, e.rotation.allSatisfy({ $0.count == 3 }),
            e.translationMM.count == 3
        {
            rotation = e.rotation.map { SIMD3($0[0], $0[1], $0[2]) }
            translation = SIMD3(e.translationMM[0], e.translationMM[1], e.translationMM[2])
        }
        let d = physical.distortion
        self.init(
            fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, referenceWidth: Double(k.reference.width),
            referenceHeight: Double(k.reference.height), rotation: rotation, translationMM: translation,
            pixelSizeMM: optics.pixelSizeUM / 1000, lookupTable: d?.lookupTable ?? [],
            inverseLookupTable: d?.inverseLookupTable ?? [],
            distortionCenter: d.map { SIMD2($0.centerX, $0.centerY) } ?? .zero)
    }
}
