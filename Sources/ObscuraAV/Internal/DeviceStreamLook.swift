import Devices
import Foundation
import ISP
import Sensor

extension AVCaptureDevice {
    /// The settings streamed frames are rendered with now (see `StreamLook`), with the 3A loop where
    /// it stands while it moves (a held exposure or locked gains override it).
    var streamLook: StreamLook {
        var look = lookWithoutTorch
        look.torchLevel = isTorchActive ? Double(controls.value.torchOnLevel) : 0
        if let loop = adaptation.withLock({ $0 }) {
            if loop.isAdjustingExposure, look.fixedExposure == nil {
                let e = loop.exposure
                look.adaptingExposure = PhotoRenderRequest.FixedExposure(duration: e.time, iso: e.iso)
            }
            if loop.isAdjustingWhiteBalance, look.whiteBalanceGains == nil { look.adaptingLight = loop.cct }
        }
        return look
    }

    /// One frame of the 3A loop (`StreamAdaptation`), `seconds` after the last: it starts settled on
    /// what auto-exposure and auto white balance ask for, and moves towards it from then on.
    func advanceAdaptation(seconds: Double) {
        guard let summary = currentStreamSummary() else { return }
        let target = StreamAdaptation.Target(
            time: summary.metered.time, iso: summary.metered.iso, mired: summary.autoCCT.map { 1e6 / $0 })
        adaptation.withLock { loop in
            if loop == nil {
                loop = StreamAdaptation(settledOn: target)
            } else {
                loop?.advance(towards: target, seconds: seconds)
            }
        }
    }

    /// Forgets the 3A loop when the stream stops: the next start settles anew.
    func resetAdaptation() { adaptation.withLock { $0 = nil } }

    /// The settings apart from the torch, which `.auto` torch mode meters with.
    var lookWithoutTorch: StreamLook {
        let c = controls.value
        var look = StreamLook()
        look.zoom = Double(videoZoomFactor)
        look.exposureBias = Double(c.exposureTargetBias)
        look.maximumExposure = autoExposureTimeLimit
        look.fixedExposure = customExposure.map { PhotoRenderRequest.FixedExposure(duration: $0.duration, iso: $0.iso) }
        look.whiteBalanceGains = c.lockedWhiteBalanceGains.map {
            SIMD3(Double($0.redGain), Double($0.greenGain), Double($0.blueGain))
        }
        look.focusDistance = DeviceFocus.focusDistance(self)
        return look
    }

    /// What auto-exposure and auto white balance decide for the picture the device streams now
    /// (its active format, colour space and settings, in the chosen scene); rendered on first use
    /// and shared with the stream's cache. Nil when the profile cannot render this camera.
    func currentStreamSummary() -> LookSummary? {
        var look = streamLook
        // What the meter sees does not depend on a held exposure, locked gains or where the 3A loop
        // stands; dropping them keeps one cache entry per scene for the auto decisions.
        look.fixedExposure = nil
        look.whiteBalanceGains = nil
        look.adaptingExposure = nil
        look.adaptingLight = nil
        return streamSummary(look)
    }

    func streamSummary(_ look: StreamLook) -> LookSummary? {
        let d = activeFormat.dimensions
        let space: BasicDevelop.OutputSpace = activeColorSpace == .P3_D65 ? .displayP3 : .sRGB
        return StreamRendering.shared.picture(
            device: deviceProfile, camera: camera, width: Int(d.width), height: Int(d.height),
            scene: Emulation.shared.scene, space: space, look: look, readout: activeFormat.readout, metering: true
        )?.look
    }

    /// The camera model of the active format at its full size: intrinsics, f-number and noise.
    var renderingModel: CameraModel? { activeFormat.cameraModel }

    /// The lens that renders this device's pictures: a virtual camera's is its physical wide camera's.
    var renderingOptics: CameraOptics? { deviceProfile.renderingOptics(for: camera) }
}

extension AVCaptureConnection {
    /// The settings of the frames this connection delivers: the device's, and the centre of the field
    /// when stabilisation runs, giving up the margin it would shift the picture within; the emulated
    /// camera is held steady, so nothing else changes (spec §1.5 [I]).
    func streamLook(of device: AVCaptureDevice) -> StreamLook {
        var look = device.streamLook
        look.zoom *= activeVideoStabilizationMode.cropFactor
        return look
    }
}
