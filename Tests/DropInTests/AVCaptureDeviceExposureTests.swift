import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct Exposure {
        // spec §2.4 [D]: continuous auto-exposure where supported.
        @Test func continuousAutoExposure() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) {
                if device.isExposureModeSupported(.continuousAutoExposure) {
                    device.exposureMode = .continuousAutoExposure
                }
            }
            #expect(device.exposureMode == .continuousAutoExposure)
            #expect(!device.isAdjustingExposure)
        }

        // spec §2.4 [D]: tap to expose sets the point, then the mode.
        @Test func tapToExpose() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let tap = CGPoint(x: 0.6, y: 0.4)
            try configure(device) {
                if device.isExposurePointOfInterestSupported {
                    device.exposurePointOfInterest = tap
                    device.exposureMode = .autoExpose
                }
            }
            #expect(device.exposurePointOfInterest == tap)
            #expect(device.exposureMode == .autoExpose)
        }

        // spec §2.4 [D]: an exposure-compensation slider clamps to the device's range.
        @Test func exposureCompensationSlider() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            #expect(device.minExposureTargetBias < 0 && device.maxExposureTargetBias > 0)
            let wanted: Float = 12
            let bias = max(device.minExposureTargetBias, min(wanted, device.maxExposureTargetBias))
            let probe = CompletionProbe()
            try configure(device) { device.setExposureTargetBias(bias, completionHandler: probe.handler) }
            #expect(probe.wait())
            #expect(device.exposureTargetBias == device.maxExposureTargetBias)
        }

        // Auto-exposure drives time × ISO to a target signal (ISO 12232's mid-grey); +1 EV of bias
        // doubles the target, so the product doubles (closed form: t·S ∝ target / scene rate).
        @Test func plusOneEVDoublesTheExposure() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let before = device.exposureDuration.seconds * Double(device.iso)
            try configure(device) { device.setExposureTargetBias(1) }
            let after = device.exposureDuration.seconds * Double(device.iso)
            #expect(before > 0)
            #expect(abs(after / before - 2) < 0.02)
            #expect(abs(device.exposureTargetOffset) < 0.01)
        }

        // spec §2.4 [D]: a manual shutter and ISO within the active format's ranges.
        @Test func manualShutterAndISO() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let format = device.activeFormat
            let duration = CMTime(value: 1, timescale: 60)
            let iso = min(max(format.minISO * 2, format.minISO), format.maxISO)
            let probe = CompletionProbe()
            try configure(device) {
                if device.isExposureModeSupported(.custom) {
                    device.setExposureModeCustom(duration: duration, iso: iso, completionHandler: probe.handler)
                }
            }
            #expect(probe.wait())
            #expect(device.exposureMode == .custom)
            #expect(abs(device.exposureDuration.seconds - 1.0 / 60) < 1e-6)
            #expect(device.iso == iso)
        }

        // The offset is how far the held exposure lies from the meter's choice, in EV: log2 of the
        // ratio of time × ISO products (closed form).
        @Test func targetOffsetMeasuresAManualExposure() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let metered = device.exposureDuration.seconds * Double(device.iso)
            let iso = device.activeFormat.minISO
            try configure(device) {
                device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 100), iso: iso)
            }
            let expected = log2(0.01 * Double(iso) / metered)
            #expect(abs(Double(device.exposureTargetOffset) - expected) < 0.01)
        }

        // spec §2.4 [D]: currentExposureDuration and currentISO keep the values in use.
        @Test func customKeepsCurrentValues() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let (duration, iso) = (device.exposureDuration.seconds, device.iso)
            try configure(device) {
                device.setExposureModeCustom(
                    duration: AVCaptureDevice.currentExposureDuration, iso: AVCaptureDevice.currentISO)
            }
            #expect(abs(device.exposureDuration.seconds - duration) < 1e-6)
            #expect(abs(device.iso - iso) < 1e-3)
        }

        // Locking holds the exposure: a later bias no longer changes it.
        @Test func lockedExposureHoldsAgainstBias() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { device.exposureMode = .locked }
            let held = device.exposureDuration.seconds * Double(device.iso)
            try configure(device) { device.setExposureTargetBias(2) }
            #expect(device.exposureDuration.seconds * Double(device.iso) == held)
            #expect(abs(device.exposureTargetOffset + 2) < 0.02)  // 2 EV under the biased target
        }

        // The aperture is the lens's fixed f-number: iPhone lenses lie between f/1.5 and f/2.8.
        @Test func lensApertureIsTheFNumber() throws {
            let device = try backCamera()
            #expect(device.lensAperture >= 1.4 && device.lensAperture <= 2.8)
        }
    }
}
