import Foundation
import Obscura
import Testing

/// `AVCaptureDevice.RotationCoordinator` follows how the phone is held (spec §19.3).
@Suite struct RotationCoordinatorTests {
    // spec §19.3 [D]: the capture angle that keeps the horizon level for each way of holding the phone.
    @Test(arguments: [
        (DeviceOrientation.portrait, 90.0), (.landscapeLeft, 0.0), (.portraitUpsideDown, 270.0),
        (.landscapeRight, 180.0),
    ])
    func captureAngleFollowsTheHeldOrientation(_ orientation: DeviceOrientation, _ angle: Double) throws {
        try onDevice("iphone-7-plus") {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: nil)
            Emulator.withDeviceOrientation(orientation) {
                #expect(coordinator.videoRotationAngleForHorizonLevelCapture == CGFloat(angle))
                #expect(coordinator.videoRotationAngleForHorizonLevelPreview == CGFloat(angle))
            }
        }
    }

    // spec §19.3 [D]: the angles are key-value observable; turning the phone reports the new angle.
    @Test func turningThePhoneReachesObservers() throws {
        try onDevice("iphone-7-plus") {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: nil)
            let lock = NSLock()
            var seen: [CGFloat] = []
            let observation = coordinator.observe(\.videoRotationAngleForHorizonLevelCapture, options: [.new]) { _, change in
                if let angle = change.newValue { lock.withLock { seen.append(angle) } }
            }
            defer { observation.invalidate() }
            Emulator.withDeviceOrientation(.landscapeLeft) {
                #expect(lock.withLock { seen } == [0])
            }
            #expect(lock.withLock { seen }.count == 2)
        }
    }

    @Test func thePhoneStartsInPortrait() {
        #expect(Emulator.deviceOrientation == .portrait)
    }
}
