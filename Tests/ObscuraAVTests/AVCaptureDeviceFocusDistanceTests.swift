import Foundation
import Obscura
import Testing

/// Autofocus puts the lens where the subject at the point of interest is sharp.
@Suite struct AVCaptureDeviceFocusDistanceTests {
    private func lensPosition(cardAt distance: Double) throws -> Float {
        try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: distance))
        return try #require(AVCaptureDevice.default(for: .video)).lensPosition
    }

    // A lens focuses nearer by moving away from the sensor: 1/f = 1/d + 1/v, so the lens travel
    // grows with the subject's dioptres 1/d. Nearer subjects therefore take lower lens positions,
    // and distances beyond a few metres all sit near the far end (1).
    @Test func nearerSubjectsTakeLowerLensPositions() throws {
        try onDevice {
            let near = try lensPosition(cardAt: 0.3)
            let middle = try lensPosition(cardAt: 1)
            let far = try lensPosition(cardAt: 10)
            #expect(near < middle && middle < far)
            #expect(far > 0.95 && far <= 1)
            // Equal steps in dioptres are equal steps of lens position: 1/0.3 − 1 = 2.33 D against
            // 1 − 1/10 = 0.9 D.
            #expect(abs(Double((middle - near) / (far - middle)) - (1 / 0.3 - 1) / (1 - 0.1)) < 0.05)
        }
    }

    // A locked lens stays put when the subject moves.
    @Test func lockedFocusIgnoresTheSubject() throws {
        try onDevice {
            let before = try lensPosition(cardAt: 0.5)
            let device = try #require(AVCaptureDevice.default(for: .video))
            try device.lockForConfiguration()
            device.focusMode = .locked
            device.unlockForConfiguration()
            #expect(try lensPosition(cardAt: 3) == before)
        }
    }
}
