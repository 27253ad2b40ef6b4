import Devices
import Foundation
import ISP
import Sensor

extension AVCaptureDevice.Format {
    /// How a format's camera focuses (Apple's raw values).
    public enum AutoFocusSystem: Int, Sendable, Hashable {
        /// Fixed focus.
        case none = 0
        /// Contrast detection.
        case contrastDetection = 1
        /// Phase detection (focus pixels).
        case phaseDetection = 2
    }

    /// Ties the format (and its depth formats) to the camera it belongs to.
    func attach(device: DeviceProfile, camera: CameraProfile) {
        optics.attach(device: device, camera: camera)
        for depth in supportedDepthDataFormats { depth.optics.attach(device: device, camera: camera) }
    }

    /// The camera model delivering this format's video size.
    var cameraModel: CameraModel? {
        let d = profile.video
        return optics.cameraModel(width: d.width, height: d.height)
    }

    /// The format's autofocus system: the profile's `autofocus` feature, phase detection when it is
    /// not given (every emulated back camera since iPhone 6 has focus pixels; our choice [I]).
    public var autoFocusSystem: AutoFocusSystem {
        switch optics.camera?.features.autoFocus ?? .phaseDetection {
        case .none: return .none
        case .contrastDetection: return .contrastDetection
        case .phaseDetection: return .phaseDetection
        }
    }

    /// The horizontal field of view in degrees: the profile's `field_of_view_deg`, what the real
    /// device reports (spec §2.3 [D]); otherwise from the camera intrinsics at the format's size,
    /// 2·atan(w / (2·fx)) (our derivation [I]). KVO-free: a format never changes.
    public var videoFieldOfView: Float {
        if let stated = profile.capabilities.fieldOfViewDegrees { return Float(stated) }
        return derivedFieldOfView
    }

    /// 2·atan(w / (2·fx)) at the format's size; 0 when the camera cannot be modelled.
    private var derivedFieldOfView: Float {
        guard let model = cameraModel, model.fx > 0 else { return 0 }
        return Float(2 * atan(Double(model.width) / (2 * model.fx)) * 180 / Double.pi)
    }

    /// The horizontal field of view once lens distortion is corrected, never wider than
    /// `videoFieldOfView`: each image edge is moved back through the distortion table to where an
    /// ideal pinhole sees it (the fixed point of r = R / (1 + m(r)), R the distance from the
    /// distortion centre to the edge along the centre row); where the corrected edge falls inside
    /// the frame the correction crops to it, elsewhere the frame keeps its edge (our derivation
    /// [I]). Equal to `videoFieldOfView` without a distortion table. Where the profile states the
    /// field of view, the correction keeps the same proportion of it.
    public var geometricDistortionCorrectedVideoFieldOfView: Float {
        guard let stated = profile.capabilities.fieldOfViewDegrees else { return derivedCorrectedFieldOfView }
        let derived = derivedFieldOfView
        guard derived > 0 else { return Float(stated) }
        return Float(stated) * derivedCorrectedFieldOfView / derived
    }

    /// The distortion-corrected field of view from the camera model.
    private var derivedCorrectedFieldOfView: Float {
        guard let model = cameraModel, model.fx > 0 else { return 0 }
        guard let distortion = model.distortion else { return derivedFieldOfView }
        let rMax = distortion.maximumRadius(width: model.width, height: model.height)
        func corrected(_ distorted: Double) -> Double {
            var r = distorted
            for _ in 0..<20 { r = distorted / (1 + distortion.magnification(radius: r, maximumRadius: rMax)) }
            return min(r, distorted)
        }
        let left = corrected(distortion.center.x) / model.fx
        let right = corrected(Double(model.width) - distortion.center.x) / model.fx
        let uncorrected = Double(model.width) / (2 * model.fx)
        // Angles either side of the distortion centre, scaled so that no distortion gives the
        // symmetric pinhole field of view.
        let a = atan(left) + atan(right)
        let b = atan(distortion.center.x / model.fx) + atan((Double(model.width) - distortion.center.x) / model.fx)
        return Float(min(a / b, 1) * 2 * atan(uncorrected) * 180 / Double.pi)
    }

    /// The zoom up to which frames are cropped from the sensor without upscaling: how many times
    /// the sensor's readout exceeds the format in its limiting direction (at least 1) (our
    /// derivation from the profile's sensor size [I]).
    public var videoZoomFactorUpscaleThreshold: CGFloat {
        guard let sensor = optics.physicalCamera?.optics?.sensor else { return 1 }
        let d = profile.video
        guard d.width > 0, d.height > 0 else { return 1 }
        let ratio = min(Double(sensor.width) / Double(d.width), Double(sensor.height) / Double(d.height))
        return CGFloat(max(1, ratio))
    }

    /// The largest zoom factor: where the crop read from the sensor is 16 pixels tall, i.e.
    /// threshold × min(width, height) / 16 (our derivation [I]; it gives Apple's 189 for a
    /// 4032 × 3024 format read from a 12 MP sensor).
    public var videoMaxZoomFactor: CGFloat {
        let d = profile.video
        return max(1, videoZoomFactorUpscaleThreshold * CGFloat(min(d.width, d.height)) / 16)
    }

    /// The shortest exposure: ISP auto-exposure's shortest time (10 µs) [I].
    public var minExposureDuration: CMTime {
        let noise = cameraModel?.noise
        let time = noise.map { AutoExposure(noise: $0).minimumTime } ?? 1.0 / 100_000
        return CMTime(seconds: time, preferredTimescale: 1_000_000_000)
    }

    /// The longest exposure: the format's longest frame duration, 1 / its lowest frame rate (an
    /// exposure cannot outlast its frame) [I].
    public var maxExposureDuration: CMTime {
        CMTime(seconds: 1 / max(minFPS, 1e-3), preferredTimescale: 1_000_000_000)
    }

    /// The lowest ISO: the sensor's base ISO (gain 1) from the profile's noise data.
    public var minISO: Float { Float(cameraModel.map { AutoExposure(noise: $0.noise).isoRange.lowerBound } ?? 0) }

    /// The highest ISO: the top of ISP auto-exposure's range, 64 × base (six stops of gain) [I].
    public var maxISO: Float { Float(cameraModel.map { AutoExposure(noise: $0.noise).isoRange.upperBound } ?? 0) }

    /// Whether frames are read out binned: the profile's `binned`, what the real device reports
    /// (spec §2.3 [D]), else its `readout`. A profile that states neither gets our heuristic [I]: the
    /// sensor has at least twice the format's pixels in its limiting direction, so 2 × 2 pixels can sum
    /// into one. Depth formats are never binned video.
    public var isVideoBinned: Bool {
        guard mediaType == .video else { return false }
        return profile.capabilities.binned ?? profile.capabilities.readout.map { $0.mode == .binned }
            ?? (videoZoomFactorUpscaleThreshold >= 2)
    }

    /// How the sensor is read for this format's photos and frames, which sets their noise: the profile's
    /// `readout`; else binned when `isVideoBinned`, scaled when the sensor has more pixels than the
    /// format, and full otherwise (the *How the physics works* article's readouts).
    var readout: FormatReadout {
        if let stated = profile.capabilities.readout { return stated }
        if isVideoBinned { return FormatReadout(mode: .binned) }
        return FormatReadout(mode: videoZoomFactorUpscaleThreshold > 1 ? .scaled : .full)
    }

    /// Whether video HDR is available: false on every format. The profile's `video_hdr` records what
    /// the real device reports (spec §2.3 [D]), but the emulator renders one exposure per frame, so
    /// HDR video is not delivered, and supported means delivered (our choice [I]).
    public var isVideoHDRSupported: Bool { false }

    /// Whether a stabilisation mode is available. `.off` always. Otherwise the profile's
    /// `stabilization_modes`, what the real device reports (spec §2.3 [D]); a profile that states
    /// nothing gets our choice [I]: the modes need sensor margin to crop into, 10 % for standard,
    /// cinematic, preview-optimised and automatic, 25 % (and at most 60 fps) for the extended modes.
    public func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool {
        guard mediaType == .video else { return videoStabilizationMode == .off }
        if videoStabilizationMode == .off { return true }
        if let stated = profile.capabilities.stabilizationModes {
            return stated.contains(videoStabilizationMode.profileMode)
        }
        let margin = videoZoomFactorUpscaleThreshold
        switch videoStabilizationMode {
        case .off: return true
        case .standard, .cinematic, .previewOptimized, .auto: return margin >= 1.1
        case .cinematicExtended, .cinematicExtendedEnhanced: return margin >= 1.25 && maxFPS <= 60
        }
    }
}

extension AVCaptureDevice.Format {
    /// The dimensions the calibration of this format's pictures and depth maps refers to
    /// (`intrinsicMatrixReferenceDimensions`, spec §10): the profile's `intrinsic_reference_px`,
    /// what the real device reports; otherwise the centred crop of the sensor's reference
    /// dimensions at the format's aspect ratio, same pixel pitch, so that a 16:9 format refers to
    /// the 16:9 band of a 4:3 sensor and intrinsics rescale alike on both axes (our derivation [I]).
    /// Nil when the camera has no intrinsics.
    var intrinsicReferenceDimensions: Dimensions? {
        if let stated = profile.capabilities.intrinsicReference { return stated }
        guard let reference = optics.physicalCamera?.intrinsics?.reference else { return nil }
        return reference.centredCrop(toAspectOf: profile.video)
    }

    /// fx over the image width: the field of view's measure that compares cameras' zoom.
    var normalisedFocalLength: Double? {
        guard let model = cameraModel, model.width > 0 else { return nil }
        return model.fx / Double(model.width)
    }
}
