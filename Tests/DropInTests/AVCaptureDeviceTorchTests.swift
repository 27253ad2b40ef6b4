import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct Torch {
        // spec §2.4 [D]: a flashlight button turns the torch on where there is one.
        @Test func torchButtonTurnsItOn() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            #expect(device.hasTorch && device.isTorchAvailable)
            try configure(device) {
                if device.hasTorch && device.isTorchModeSupported(.on) { device.torchMode = .on }
            }
            #expect(device.torchMode == .on)
            #expect(device.isTorchActive)
            #expect(device.torchLevel == 1)
        }

        // spec §2.4 [O]: a dimmer torch through setTorchModeOn(level:).
        @Test func torchAtHalfLevel() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { try device.setTorchModeOn(level: 0.5) }
            #expect(device.torchMode == .on)
            #expect(device.torchLevel == 0.5)
        }

        // spec §2.4 [O]: maxAvailableTorchLevel asks for the brightest level available.
        @Test func torchAtMaxAvailableLevel() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { try device.setTorchModeOn(level: AVCaptureDevice.maxAvailableTorchLevel) }
            #expect(device.torchLevel == 1)
        }

        // spec §2.4 [D]: toggling off again.
        @Test func torchToggleOff() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { device.torchMode = .on }
            try configure(device) { device.torchMode = device.torchMode == .on ? .off : .on }
            #expect(device.torchMode == .off)
            #expect(!device.isTorchActive)
            #expect(device.torchLevel == 0)
        }

        // spec §2.7 [D]: the front camera has no flash, so no torch; only .off is supported.
        @Test func frontCameraHasNoTorch() throws {
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            #expect(!front.hasTorch && !front.isTorchAvailable)
            #expect(front.isTorchModeSupported(.off) && !front.isTorchModeSupported(.on))
        }

        // The torch is real light: the flash LEDs at `level` of their intensity add level × E_flash
        // of irradiance (inverse-square from the LED, the same geometry at every level) to the
        // ambient light. Auto-exposure holds the metered signal constant, so 1 / (t·ISO) is
        // proportional to the scene's mean rate a + level·b (closed form): the increment over the
        // torch-off value at level 1 is twice that at level 0.5.
        @Test func torchLightAddsInProportionToLevel() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            func brightness() -> Double { 1 / (device.exposureDuration.seconds * Double(device.iso)) }
            let off = brightness()
            try configure(device) { try device.setTorchModeOn(level: 0.5) }
            let half = brightness()
            try configure(device) { try device.setTorchModeOn(level: 1) }
            let full = brightness()
            #expect(half > off * 1.001)
            #expect(abs((full - off) / (half - off) - 2) < 0.05)
        }
    }
}
