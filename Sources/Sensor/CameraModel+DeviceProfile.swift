import Devices
import Imaging
import Scenes
import Spectra

/// Why a device profile cannot give a renderable camera.
public struct DeviceCameraError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The message, naming the profile file, the device and the camera.
    public var description: String
}

extension DeviceProfile {
    /// The camera of this device with an Apple device type (and position, when given): the
    /// first one in profile order, as `AVCaptureDevice.default(_:for:position:)` picks.
    public func camera(ofType type: DeviceType, position: CameraPosition? = nil) throws -> CameraProfile {
        let matches = cameras.filter { $0.deviceType == type && (position == nil || $0.position == position) }
        guard let camera = matches.first else {
            let available = cameras.map { "\($0.deviceType.rawValue) (\($0.position.rawValue))" }
            let place = position.map { " at the \($0.rawValue)" } ?? ""
            throw DeviceCameraError(
                description: "\(sourceFile): \(id) has no \(type.rawValue)\(place); it has "
                    + available.joined(separator: ", "))
        }
        return camera
    }

    /// The lens that renders `camera`'s pictures (`renderingCamera(for:)`'s), or the camera's own where that fails:
    /// what a photo's or frame's Exif names.
    public func renderingOptics(for camera: CameraProfile) -> CameraOptics? {
        (try? renderingCamera(for: camera))?.optics ?? camera.optics
    }

    /// The physical camera whose sensor renders `camera`'s pictures.
    ///
    /// A multi-camera device renders through its wide constituent (Apple's virtual devices start at
    /// the wide camera's field of view, zoom factor 1 at the switch-over), or the first constituent
    /// when none is wide; TrueDepth and LiDAR cameras deliver the video of the camera whose sensor
    /// they share.
    public func renderingCamera(for camera: CameraProfile) throws -> CameraProfile {
        var current = camera
        // Chains are at most two deep (a LiDAR camera sharing a wide sensor); the bound only guards
        // against a cyclic profile.
        for _ in 0..<4 {
            if current.optics != nil, current.intrinsics != nil, current.sensitivities != nil, current.noise != nil {
                return current
            }
            let next: String?
            if !current.constituents.isEmpty {
                let constituents = current.constituents.compactMap { self.camera($0) }
                next = (constituents.first { $0.deviceType == .builtInWideAngleCamera } ?? constituents.first)?.id
            } else {
                next = current.sharesSensorWith
            }
            guard let id = next, let found = self.camera(id) else { break }
            current = found
        }
        throw DeviceCameraError(
            description: "\(sourceFile): camera \(camera.id) of \(id) has no physical camera with optics, "
                + "intrinsics, sensitivities and noise to render through")
    }
}

extension CameraModel {
    /// The renderable model of a profile camera delivering a `width × height` image.
    ///
    /// Virtual cameras render through `DeviceProfile.renderingCamera(for:)`. The intrinsics are
    /// scaled from their reference dimensions by s = max(W / W_ref, H / H_ref) and the principal
    /// point shifted by the centred crop, which is how a 16:9 format is cut from a 4:3 sensor; with
    /// the reference aspect ratio this is the plain scaling of avfoundation-capture spec §10. The
    /// distortion centre follows the same map, and its table (relative elongations) is scale-free.
    ///
    /// Each pixel's noise is that of the photosites it holds (`NoiseParameters.readout`): `readout`
    /// says how the format reads the sensor, and a picture smaller than that readout is averaged down
    /// from it, so the pixel holds n = k·a photosites (k summed per read, a reads averaged); a picture
    /// larger than a binned readout is read in full. Its electrons are their mean, so its codes at an
    /// exposure are the full sensor's. Without a readout each pixel is one photosite whatever the size:
    /// a picture rendered small to stand for the full-size one, as tests and the Constant Color
    /// validation do. `zoom` multiplies the focal lengths about the principal point (a digital zoom),
    /// so the pixel holds 1/zoom² as many photosites.
    ///
    /// The camera sits at its extrinsic translation from the back reference camera (the device
    /// frame's origin); front cameras sit at the origin, looking where the scene's device looks.
    public init(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int, readout: FormatReadout? = nil,
        zoom: Double = 1
    ) throws {
        guard width > 0, height > 0 else {
            throw DeviceCameraError(description: "an image needs a positive size, not \(width)x\(height)")
        }
        let physical = try device.renderingCamera(for: camera)
        guard let optics = physical.optics, let intrinsics = physical.intrinsics,
            let sensitivities = physical.sensitivities, let noise = physical.noise
        else {
            throw DeviceCameraError(description: "\(device.sourceFile): camera \(physical.id) is incomplete")
        }
        let reference = intrinsics.reference
        let s = max(Double(width) / Double(reference.width), Double(height) / Double(reference.height))
        let offsetX = (Double(reference.width) * s - Double(width)) / 2
        let offsetY = (Double(reference.height) * s - Double(height)) / 2
        // Sensor's table needs two entries; a shorter one means "uncalibrated" (no distortion).
        let distortion = physical.distortion.flatMap {
            $0.lookupTable.count < 2
                ? nil
                : LensDistortion(
                    lookupTable: $0.lookupTable,
                    center: SIMD2($0.centerX * s - offsetX, $0.centerY * s - offsetY))
        }
        let qe = sensitivities.rgb
        let position: Vector3
        if physical.position == .back, let extrinsics = physical.extrinsics, extrinsics.translationMM.count == 3 {
            let t = extrinsics.translationMM
            position = Vector3(t[0], t[1], t[2]) / 1000
        } else {
            position = .zero
        }
        // The table's image height 1 is the reference image's farthest corner from the principal point.
        let corner = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map { (u, v) -> Double in
            let dx = (u * Double(reference.width) - intrinsics.cx) / intrinsics.fx
            let dy = (v * Double(reference.height) - intrinsics.cy) / intrinsics.fy
            return (dx * dx + dy * dy).squareRoot()
        }.max() ?? 1
        let shading = physical.shading.map {
            LensShading(
                naturalCosineFourth: $0.naturalCosineFourth, imageHeights: $0.imageHeights,
                values: $0.relativeIllumination, cornerTangent: corner, correctedFraction: $0.correction)
        }
        // Photosites per picture pixel along each axis: the sensor's pixels over the reference's, at
        // the picture's scale and zoom.
        let zoom = zoom > 0 ? zoom : 1
        let sensorWidth = Double(optics.sensor.width > 0 ? optics.sensor.width : reference.width)
        let across = sensorWidth / (Double(reference.width) * s * zoom)
        var pixelNoise = NoiseParameters(profile: noise, unit: device.id + "/" + physical.id)
        if var read = readout {
            // A picture with more pixels than the binned readout holds is read in full: a phone reads a
            // still larger than its binned video (a 48 MP photo of a binned format) from the full sensor.
            if read.mode == .binned, across * across < 4 * (1 - 1e-9) { read = FormatReadout(mode: .full) }
            let summed = read.summedPhotosites
            pixelNoise = pixelNoise.readout(
                summed: summed, averaged: max(1, across * across / Double(summed)), readFullWell: read.binnedFullWellE,
                readNoise: read.binnedReadNoiseE)
        }
        self.init(
            width: width, height: height, fx: intrinsics.fx * s * zoom, fy: intrinsics.fy * s * zoom,
            cx: intrinsics.cx * s - offsetX, cy: intrinsics.cy * s - offsetY,
            distortion: distortion,
            fNumber: optics.fNumber,
            pixelPitchMicrometres: optics.pixelSizeUM,
            quantumEfficiency: (qe.red, qe.green, qe.blue), noise: pixelNoise,
            positionInDevice: position, shading: shading)
    }
}

extension NoiseParameters {
    /// A profile's noise model. The fixed-pattern seed is a stable hash of `unit` (FNV-1a), so
    /// each camera of each device has its own PRNU/DSNU pattern, the same on every run.
    public init(profile: NoiseModel, unit: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in unit.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        self.init(
            fullWellElectrons: profile.fullWellE, readNoiseElectrons: profile.readNoiseE,
            prnu: profile.prnuPercent / 100, dsnuElectrons: profile.dsnuE,
            darkCurrentElectronsPerSecond: profile.darkCurrentEPerS, adcBits: profile.adcBits,
            blackLevel: Double(profile.blackLevelDN), whiteLevel: Double(profile.whiteLevelDN),
            baseISO: profile.baseISO, fixedPatternSeed: hash)
    }
}
