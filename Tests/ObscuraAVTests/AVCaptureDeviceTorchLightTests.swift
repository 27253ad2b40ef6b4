import Foundation
import Obscura
import Testing

/// The torch lights the scene as the flash hardware would, continuously.
@Suite struct AVCaptureDeviceTorchLightTests {
    /// 1 / (t·ISO) of the stream's auto-exposure: proportional to the metered scene's signal rate,
    /// since auto-exposure drives rate × t × ISO to a fixed target (ISO 12232).
    private func brightness(_ device: AVCaptureDevice) -> Double {
        1 / (device.exposureDuration.seconds * Double(device.iso))
    }

    /// The brightness with the torch off and at `level`, on a grey card `distance` metres away
    /// that fills the view, lit by 50 lux along its normal.
    private func brightness(distance: Double, level: Float) throws -> (off: Double, lit: Double) {
        try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 50, distance: distance))
        let device = try #require(AVCaptureDevice.default(for: .video))
        let off = brightness(device)
        try device.lockForConfiguration()
        try device.setTorchModeOn(level: level)
        device.unlockForConfiguration()
        let lit = brightness(device)
        try device.lockForConfiguration()
        device.torchMode = .off
        device.unlockForConfiguration()
        return (off, lit)
    }

    // A point source of intensity I lights a plane facing it at distance d with E = I·cos³θ / d² at
    // the point seen at angle θ, and every pixel sees the same θ at any d: the torch's share of the
    // metered signal falls as 1/d², so the increment at 1 m is four times that at 2 m (closed
    // form; the LEDs' few millimetres off the optical axis change it by under 0.1 %). The ambient
    // light along the normal is the same at both distances and cancels in the increment.
    @Test func torchLightFallsWithTheSquareOfDistance() throws {
        try onDevice {
            let near = try brightness(distance: 1, level: 1)
            let far = try brightness(distance: 2, level: 1)
            #expect(abs(near.off / far.off - 1) < 0.01)
            let ratio = (near.lit - near.off) / (far.lit - far.off)
            #expect(abs(ratio - 4) < 0.04, "increment ratio \(ratio)")
        }
    }

    // The increment scales with the level: the LEDs at half their intensity add half the light.
    @Test func torchLightScalesWithLevel() throws {
        try onDevice {
            let half = try brightness(distance: 1, level: 0.5)
            let full = try brightness(distance: 1, level: 1)
            #expect(abs((full.lit - full.off) / (half.lit - half.off) - 2) < 0.04)
        }
    }
}
