import Foundation
import Obscura
import Testing

/// The rules of the focus, exposure, torch, white-balance and zoom controls: lock, support and
/// range checks, with Apple's exception names and reason texts.
@Suite struct AVCaptureDeviceControlRuleTests {
    private func back() throws -> AVCaptureDevice { try #require(AVCaptureDevice.default(for: .video)) }

    // spec §2.4 [D][O]: every control setter needs the configuration lock.
    @Test func settersWithoutLockRaise() throws {
        try onDevice {
            let device = try back()
            let gist = "May not be called without first successfully gaining exclusive ownership"
            expectException(.genericException, "setFocusMode:] \(gist)") { device.focusMode = .autoFocus }
            expectException(.genericException, "setTorchMode:] \(gist)") { device.torchMode = .on }
            expectException(.genericException, "setVideoZoomFactor:] \(gist)") { device.videoZoomFactor = 2 }
            expectException(.genericException, "setWhiteBalanceMode:] \(gist)") { device.whiteBalanceMode = .locked }
            expectException(.genericException, "setExposureTargetBias:completionHandler:] \(gist)") {
                device.setExposureTargetBias(1)
            }
            expectException(.genericException, "setFocusPointOfInterest:] \(gist)") {
                device.focusPointOfInterest = .zero
            }
            expectException(.genericException, "setTorchModeOnWithLevel:error:] \(gist)") {
                try? device.setTorchModeOn(level: 0.5)
            }
            expectException(.genericException, "rampToVideoZoomFactor:withRate:] \(gist)") {
                device.ramp(toVideoZoomFactor: 2, withRate: 1)
            }
            expectException(.genericException, "setSubjectAreaChangeMonitoringEnabled:] \(gist)") {
                device.isSubjectAreaChangeMonitoringEnabled = true
            }
            #expect(device.focusMode == .continuousAutoFocus && device.torchMode == .off)
        }
    }

    // spec §2.4 [D]: an unsupported mode is an invalid argument; the front camera has no torch.
    @Test func unsupportedTorchModeRaises() throws {
        try onDevice {
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            try front.lockForConfiguration()
            defer { front.unlockForConfiguration() }
            expectException(
                .invalidArgumentException,
                "-[AVCaptureDevice setTorchMode:] Setting torchMode (1) is not supported by this device.  "
                    + "Use isTorchModeSupported:"
            ) { front.torchMode = .on }
            #expect(front.torchMode == .off)
        }
    }

    // spec §2.4 [D]: a fixed-focus camera (profile `autofocus: none`: the iPhone 7 Plus front
    // camera) supports only .locked.
    @Test func fixedFocusCameraRejectsAutofocus() throws {
        try onDevice("iphone-7-plus") {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            #expect(device.activeFormat.autoFocusSystem == .none)
            #expect(device.isFocusModeSupported(.locked) && !device.isFocusModeSupported(.autoFocus))
            #expect(device.focusMode == .locked && !device.isFocusPointOfInterestSupported)
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            expectException(
                .invalidArgumentException,
                "Setting focusMode (2) is not supported by this device.  Use isFocusModeSupported:"
            ) { device.focusMode = .continuousAutoFocus }
            expectException(.invalidArgumentException, "Use isFocusPointOfInterestSupported") {
                device.focusPointOfInterest = CGPoint(x: 0.2, y: 0.2)
            }
            #expect(!device.isLockingFocusWithCustomLensPositionSupported)
            expectNoException { device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition) }
            #expect(device.focusMode == .locked)
        }
    }

    // spec §2.4 [O]: a torch level outside (0, 1], with the text crash logs show.
    @Test func torchLevelOutOfRangeRaises() throws {
        try onDevice {
            let device = try back()
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            expectException(
                .invalidArgumentException,
                "-[AVCaptureDevice setTorchModeOnWithLevel:error:] The passed torchLevel 2.000000 is not supported - "
                    + "use -isTorchModeSupported: to discover valid torch modes"
            ) { try? device.setTorchModeOn(level: 2) }
            expectException(.invalidArgumentException, "The passed torchLevel 0.000000 is not supported") {
                try? device.setTorchModeOn(level: 0)
            }
            #expect(device.torchMode == .off)
        }
    }

    // spec §2.4 [O]: a zoom factor out of range raises NSRangeException with the observed text.
    @Test func zoomOutOfRangeRaises() throws {
        try onDevice {
            let device = try back()
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            expectException(
                .rangeException, "setVideoZoomFactor:] - the passed videoZoomFactor 0.500000 out-of-range [1, "
            ) {
                device.videoZoomFactor = 0.5
            }
            let beyond = device.activeFormat.videoMaxZoomFactor + 1
            expectException(.rangeException, "rampToVideoZoomFactor:withRate:] - the passed videoZoomFactor") {
                device.ramp(toVideoZoomFactor: beyond, withRate: 2)
            }
            #expect(device.videoZoomFactor == 1)
        }
    }

    // spec §2.4 [D]: exposure bias, custom exposure and white-balance gains out of range.
    @Test func exposureAndWhiteBalanceRangesRaise() throws {
        try onDevice {
            let device = try back()
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            expectException(.rangeException, "The passed bias 9.000000 is out of range [-8, 8]") {
                device.setExposureTargetBias(9)
            }
            let format = device.activeFormat
            expectException(.rangeException, "The passed ISO") {
                device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 60), iso: format.maxISO * 2)
            }
            expectException(.rangeException, "The passed duration") {
                device.setExposureModeCustom(duration: CMTime(value: 10, timescale: 1), iso: format.minISO)
            }
            expectException(.invalidArgumentException, "are out of range [1, 4]") {
                device.setWhiteBalanceModeLocked(
                    with: AVCaptureDevice.WhiteBalanceGains(redGain: 0.5, greenGain: 1, blueGain: 1))
            }
            expectException(.invalidArgumentException, "The passed lensPosition 1.500000 is out of range [0, 1]") {
                device.setFocusModeLocked(lensPosition: 1.5)
            }
            #expect(
                device.exposureMode == .continuousAutoExposure && device.whiteBalanceMode == .continuousAutoWhiteBalance
            )
        }
    }

    // spec §2.1 [D]: multi-camera devices offer no custom exposure, custom white-balance gains or
    // manual lens position.
    @Test func virtualDevicesRefuseManualControls() throws {
        try onDevice {
            let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
            #expect(!triple.isExposureModeSupported(.custom))
            #expect(!triple.isLockingWhiteBalanceWithCustomDeviceGainsSupported)
            #expect(!triple.isLockingFocusWithCustomLensPositionSupported)
            try triple.lockForConfiguration()
            defer { triple.unlockForConfiguration() }
            expectException(.invalidArgumentException, "Setting exposureMode (3) is not supported by this device.") {
                triple.setExposureModeCustom(duration: CMTime(value: 1, timescale: 60), iso: 100)
            }
            expectException(.invalidArgumentException, "Use isLockingWhiteBalanceWithCustomDeviceGainsSupported") {
                triple.setWhiteBalanceModeLocked(
                    with: AVCaptureDevice.WhiteBalanceGains(redGain: 2, greenGain: 1, blueGain: 2))
            }
            expectNoException { triple.setWhiteBalanceModeLocked(with: AVCaptureDevice.currentWhiteBalanceGains) }
            // Apple's page for isLockingFocusWithCustomLensPositionSupported: only a position other than
            // currentLensPosition raises; locking the lens where it is works.
            expectException(.invalidArgumentException, "Use isLockingFocusWithCustomLensPositionSupported") {
                triple.setFocusModeLocked(lensPosition: 0.5)
            }
            let before = triple.lensPosition
            expectNoException { triple.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition) }
            #expect(triple.focusMode == .locked && triple.lensPosition == before)
        }
    }

    // The virtual device's switch-over factors follow its constituents' focal lengths:
    // fx / width of each over the first's. On iPhone 7 Plus (wide + tele): one factor, 2 in Apple's
    // marketing (28 mm → 56 mm).
    @Test func dualCameraSwitchesOverAtTwo() throws {
        try onDevice("iphone-7-plus") {
            let dual = try #require(AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back))
            let factors = dual.virtualDeviceSwitchOverVideoZoomFactors.map(\.doubleValue)
            #expect(factors.count == 1)
            #expect(abs((factors.first ?? 0) - 2) < 0.1)
            #expect(dual.displayVideoZoomFactorMultiplier == 1)
        }
    }

    // spec §2.7 [D], §2.4 [O]: a hot flash takes the torch with it. Asking for the maximum
    // available level then raises, as crash logs show (FLT_MAX is "not supported").
    @Test func hotFlashMakesTheTorchUnavailable() throws {
        try onDevice {
            let device = try back()
            Emulator.shared.setFlashThermallyUnavailable(true, for: device)
            #expect(device.hasTorch && !device.isTorchAvailable)
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            device.torchMode = .on
            #expect(!device.isTorchActive && device.torchLevel == 0)
            expectException(
                .invalidArgumentException, "The passed torchLevel 340282346638528859811704183484516925440.000000"
            ) { try? device.setTorchModeOn(level: AVCaptureDevice.maxAvailableTorchLevel) }
            // A valid level above what is available now is an error, not an exception (Apple's page for
            // setTorchModeOn(level:) and AVError.Code.torchLevelUnavailable), and leaves the torch as it was.
            device.torchMode = .off
            #expect(throws: AVError(.torchLevelUnavailable)) { try device.setTorchModeOn(level: 0.5) }
            do {
                try device.setTorchModeOn(level: 1)
                Issue.record("a hot flash lit the torch")
            } catch AVError.torchLevelUnavailable {
                #expect((AVError(.torchLevelUnavailable) as NSError).code == -11846)
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(device.torchMode == .off)
            device.torchMode = .on
            Emulator.shared.setFlashThermallyUnavailable(false, for: device)
            #expect(device.isTorchActive && device.torchLevel == 1)
        }
    }

    // Apple's header for videoHDREnabled: it may be set only after automaticallyAdjustsVideoHDREnabled is
    // turned off, and to true only where the active format supports video HDR; else NSGenericException.
    @Test func videoHDRNeedsManualControlAndSupport() throws {
        try onDevice {
            let device = try back()
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            #expect(device.automaticallyAdjustsVideoHDREnabled)
            expectException(.genericException, "automaticallyAdjustsVideoHDREnabled is YES") {
                device.isVideoHDREnabled = false
            }
            device.automaticallyAdjustsVideoHDREnabled = false
            expectNoException { device.isVideoHDREnabled = false }
            #expect(!device.activeFormat.isVideoHDRSupported)
            expectException(.genericException, "Use activeFormat.isVideoHDRSupported") {
                device.isVideoHDREnabled = true
            }
            #expect(!device.isVideoHDREnabled)
            device.automaticallyAdjustsVideoHDREnabled = true
        }
    }
}
