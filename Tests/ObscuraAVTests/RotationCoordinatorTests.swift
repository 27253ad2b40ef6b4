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

    @Test func thePhoneStartsInPortrait() {
        #expect(Emulator.deviceOrientation == .portrait)
    }
}
