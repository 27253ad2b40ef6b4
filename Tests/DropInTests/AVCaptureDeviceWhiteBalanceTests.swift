import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct WhiteBalance {
        // spec §2.4 [D]: continuous auto white balance where supported.
        @Test func continuousAutoWhiteBalance() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) {
                if device.isWhiteBalanceModeSupported(.continuousAutoWhiteBalance) {
                    device.whiteBalanceMode = .continuousAutoWhiteBalance
                }
            }
            #expect(device.whiteBalanceMode == .continuousAutoWhiteBalance)
            #expect(!device.isAdjustingWhiteBalance)
        }

        // spec §2.4 [D]: gains are clamped into [1, maxWhiteBalanceGain] before locking, as apps do.
        @Test func lockAtClampedGains() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            func clamp(_ g: Float) -> Float { min(max(g, 1), device.maxWhiteBalanceGain) }
            let gains = AVCaptureDevice.WhiteBalanceGains(
                redGain: clamp(2.2), greenGain: clamp(0.8), blueGain: clamp(9))
            let probe = CompletionProbe()
            try configure(device) {
                if device.isLockingWhiteBalanceWithCustomDeviceGainsSupported {
                    device.setWhiteBalanceModeLocked(with: gains, completionHandler: probe.handler)
                }
            }
            #expect(probe.wait())
            #expect(device.whiteBalanceMode == .locked)
            #expect(device.deviceWhiteBalanceGains == gains)
            #expect(gains.greenGain == 1 && gains.blueGain == device.maxWhiteBalanceGain)
        }

        // spec §2.4 [D]: currentWhiteBalanceGains locks the gains in use.
        @Test func lockAtCurrentGains() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let before = device.deviceWhiteBalanceGains
            try configure(device) { device.setWhiteBalanceModeLocked(with: AVCaptureDevice.currentWhiteBalanceGains) }
            #expect(device.whiteBalanceMode == .locked)
            #expect(device.deviceWhiteBalanceGains == before)
        }

        // Device gains lie in [1, maxWhiteBalanceGain]; the smallest is 1.
        @Test func grayWorldGainsAreDeviceGains() throws {
            let device = try backCamera()
            let g = device.grayWorldDeviceWhiteBalanceGains
            let all = [g.redGain, g.greenGain, g.blueGain]
            #expect(all.allSatisfy { $0 >= 1 && $0 <= device.maxWhiteBalanceGain })
            #expect(all.min() == 1)
        }

        // iOS 26's standard values, locked as a camera app's white balance picker does. A lower colour temperature
        // has less blue and more red (Planck's law), so from shade to tungsten the blue gain that balances it rises
        // against the red one, and each locked preset reads back as its own temperature.
        @Test func standardWhiteBalanceValuesLockInOrder() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let presets: [AVCaptureDevice.WhiteBalanceTemperatureAndTintValues] = [
                .shadow, .cloudy, .daylight, .fluorescent, .tungsten,
            ]
            var ratios: [Float] = []
            for preset in presets {
                var gains = device.deviceWhiteBalanceGains(for: preset)
                let scale = 1 / min(gains.redGain, gains.greenGain, gains.blueGain)
                gains.redGain = min(gains.redGain * scale, device.maxWhiteBalanceGain)
                gains.greenGain = min(gains.greenGain * scale, device.maxWhiteBalanceGain)
                gains.blueGain = min(gains.blueGain * scale, device.maxWhiteBalanceGain)
                try configure(device) { device.setWhiteBalanceModeLocked(with: gains, completionHandler: nil) }
                let locked = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains)
                #expect(abs(locked.temperature - preset.temperature) < 0.02 * preset.temperature, "\(preset)")
                ratios.append(gains.blueGain / gains.redGain)
            }
            #expect(ratios == ratios.sorted(), "blue/red gains \(ratios)")
            #expect(AVCaptureDevice.WhiteBalanceTemperatureAndTintValues.daylight.tint == 0)
        }

        // The default scene is a room under warm (low colour temperature) light: a Planckian source
        // below 4000 K emits far less blue than red (Planck's law), so balancing it needs a larger
        // blue gain than red gain.
        @Test func warmRoomNeedsMoreBlueGain() throws {
            let device = try backCamera()
            let g = device.deviceWhiteBalanceGains
            #expect(g.blueGain > g.redGain)
        }
    }
}
