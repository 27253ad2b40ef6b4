import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct Focus {
        // spec §2.4 [D]: continuous autofocus where supported, inside lock/unlock.
        @Test func continuousAutoFocusWhenSupported() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try device.lockForConfiguration()
            if device.isFocusModeSupported(.continuousAutoFocus) {
                device.focusMode = .continuousAutoFocus
            }
            device.unlockForConfiguration()
            #expect(device.focusMode == .continuousAutoFocus)
            #expect(!device.isAdjustingFocus)
        }

        // Apple's page: the nearest focus distance in millimetres, -1 where it is unknown. Macro apps read it to
        // choose a zoom; a camera that focuses reports a distance, one that does not, -1.
        @Test func minimumFocusDistanceIsKnownWhereTheLensFocuses() throws {
            let cameras = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera],
                mediaType: .video, position: .unspecified
            ).devices
            #expect(!cameras.isEmpty)
            for camera in cameras {
                if camera.isFocusModeSupported(.autoFocus) {
                    #expect(camera.minimumFocusDistance > 0 && camera.minimumFocusDistance < 1000, "\(camera.localizedName)")
                } else {
                    #expect(camera.minimumFocusDistance == -1, "\(camera.localizedName)")
                }
            }
            // Where a phone has a macro ultra wide camera, it focuses nearer than the wide one, which is why the
            // camera app switches to it for close subjects and why scanning apps zoom out for the wide camera's.
            if let ultra = AVCaptureDevice.default(.builtInUltraWideCamera, for: .video, position: .back),
                let wide = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back),
                ultra.isFocusModeSupported(.autoFocus)
            {
                #expect(ultra.minimumFocusDistance < wide.minimumFocusDistance)
            }
        }

        // spec §2.4 [D]: tap to focus sets the point, then the mode that applies it.
        @Test func tapToFocusSetsThePointOfInterest() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let tap = CGPoint(x: 0.25, y: 0.75)
            try device.lockForConfiguration()
            if device.isFocusPointOfInterestSupported && device.isFocusModeSupported(.autoFocus) {
                device.focusPointOfInterest = tap
                device.focusMode = .autoFocus
            }
            device.unlockForConfiguration()
            #expect(device.focusPointOfInterest == tap)
            #expect(device.focusMode == .autoFocus)
        }

        // spec §2.4 [D]: a manual lens position locks focus there and reports when it is reached.
        @Test func lockFocusAtALensPosition() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            #expect(device.isLockingFocusWithCustomLensPositionSupported)
            let probe = CompletionProbe()
            try configure(device) { device.setFocusModeLocked(lensPosition: 0.3, completionHandler: probe.handler) }
            #expect(probe.wait())
            #expect(device.focusMode == .locked)
            #expect(device.lensPosition == 0.3)
        }

        // spec §2.4 [D]: currentLensPosition locks the lens where autofocus left it.
        @Test func lockFocusWhereItIs() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let before = device.lensPosition
            try configure(device) { device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition) }
            #expect(device.focusMode == .locked)
            #expect(device.lensPosition == before)
            #expect((0...1).contains(device.lensPosition))
        }

        // spec §2.4 [D]: setting .locked holds the lens where it is.
        @Test func lockedModeHoldsTheLens() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let before = device.lensPosition
            try configure(device) { device.focusMode = .locked }
            #expect(device.lensPosition == before)
        }

        // spec §2.4 [D]: smooth autofocus for video recording, when supported.
        @Test func smoothAutoFocusForVideo() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) {
                if device.isSmoothAutoFocusSupported { device.isSmoothAutoFocusEnabled = true }
            }
            #expect(device.isSmoothAutoFocusEnabled == device.isSmoothAutoFocusSupported)
        }

        // spec §2.4 [D]: document scanners restrict autofocus to near subjects.
        @Test func nearRangeRestrictionForScanning() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) {
                if device.isAutoFocusRangeRestrictionSupported { device.autoFocusRangeRestriction = .near }
            }
            #expect(device.autoFocusRangeRestriction == .near)
        }

        // Lens positions run from the nearest focus (0) to the farthest (1): a subject farther away
        // never asks for a nearer lens position. The centre and a corner of the default scene see
        // different subjects; both positions stay in [0, 1].
        @Test func autofocusLensPositionIsInRange() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            #expect((0...1).contains(device.lensPosition))
            try configure(device) {
                device.focusPointOfInterest = CGPoint(x: 0.05, y: 0.05)
                device.focusMode = .autoFocus
            }
            #expect((0...1).contains(device.lensPosition))
        }
    }
}
