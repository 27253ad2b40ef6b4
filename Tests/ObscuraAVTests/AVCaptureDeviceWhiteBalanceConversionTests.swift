import Foundation
import Obscura
import ObscuraAV
import Testing

/// White-balance conversions against colour science: CIE illuminant A (x 0.44757, y 0.40745,
/// CCT 2856 K) and D65 (x 0.31271, y 0.32902, CCT 6504 K, Duv +0.0032), from CIE 15:2018.
@Suite(.serialized) struct AVCaptureDeviceWhiteBalanceConversionTests {
    // A grey card in D65 daylight: auto white balance's grey-world gains, measured from the rendered
    // picture, convert back to D65's chromaticity and temperature. Grey-world matches the picture
    // to lights 4 mired apart (about 170 K near 6500 K), which bounds the tolerance.
    @Test func greyWorldGainsInDaylightGiveD65() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 500, distance: 1, illuminant: "D65"))
            let rig = try PhotoRig(start: false)
            let gains = rig.device.grayWorldDeviceWhiteBalanceGains
            let xy = rig.device.chromaticityValues(for: gains)
            #expect(abs(xy.x - 0.31271) < 0.005 && abs(xy.y - 0.32902) < 0.005, "xy \(xy)")
            let tt = rig.device.temperatureAndTintValues(for: gains)
            #expect(abs(tt.temperature - 6504) < 150, "CCT \(tt.temperature)")
            #expect(abs(tt.tint - 0.0032 * 3000) < 6, "tint \(tt.tint)")
        }
    }

    // A grey card under illuminant A: the gains asked for 2856 K on the Planckian locus match the
    // camera's own response to A, measured by grey-world, in red against green. (Blue needs more
    // than maxWhiteBalanceGain under A, so the measured blue gain is capped at 4.)
    @Test func gainsFor2856KMatchTheResponseToIlluminantA() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 500, distance: 1, illuminant: "A"))
            let rig = try PhotoRig(start: false)
            let measured = rig.device.grayWorldDeviceWhiteBalanceGains
            let asked = rig.device.deviceWhiteBalanceGains(
                for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 2856, tint: 0))
            let ratio = (asked.greenGain / asked.redGain) / (measured.greenGain / measured.redGain)
            #expect(abs(ratio - 1) < 0.02, "green/red ratio \(ratio)")
            #expect(asked.blueGain >= measured.blueGain)
        }
    }

    // D65's chromaticity comes back as 6504 K, slightly green (Duv +0.0032, tint ≈ +10).
    @Test func d65ChromaticityIsItsTemperatureAndTint() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let gains = device.deviceWhiteBalanceGains(
                for: AVCaptureDevice.WhiteBalanceChromaticityValues(x: 0.31271, y: 0.32902))
            #expect(min(gains.redGain, gains.greenGain, gains.blueGain) == 1)
            let tt = device.temperatureAndTintValues(for: gains)
            #expect(abs(tt.temperature - 6504) < 15, "CCT \(tt.temperature)")
            #expect(abs(tt.tint - 0.0032 * 3000) < 1, "tint \(tt.tint)")
            let back = device.chromaticityValues(for: gains)
            #expect(abs(back.x - 0.31271) < 1e-4 && abs(back.y - 0.32902) < 1e-4)
        }
    }

    // Warm light needs less red gain and more blue gain than daylight.
    @Test func warmLightNeedsMoreBlueGain() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let warm = device.deviceWhiteBalanceGains(
                for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 2856, tint: 0))
            let cool = device.deviceWhiteBalanceGains(
                for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 6504, tint: 0))
            #expect(warm.blueGain / warm.redGain > 1.5 * cool.blueGain / cool.redGain)
        }
    }

    // Round trips: temperature and tint → gains → temperature and tint.
    @Test func temperatureAndTintRoundTrip() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            for (t, tint): (Float, Float) in [(3200, 0), (4000, 20), (5500, -30), (7500, 10)] {
                let gains = device.deviceWhiteBalanceGains(
                    for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: t, tint: tint))
                guard max(gains.redGain, gains.greenGain, gains.blueGain) <= device.maxWhiteBalanceGain else {
                    continue
                }
                let back = device.temperatureAndTintValues(for: gains)
                #expect(abs(back.temperature - t) < t * 0.002, "\(t) → \(back.temperature)")
                #expect(abs(back.tint - tint) < 0.5, "\(tint) → \(back.tint)")
            }
        }
    }

    // Apple documents the ranges: gains within [1, maxWhiteBalanceGain], chromaticity within [0, 1].
    @Test func outOfRangeArgumentsRaise() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            expectException(.invalidArgumentException, "out of range") {
                _ = device.temperatureAndTintValues(
                    for: AVCaptureDevice.WhiteBalanceGains(redGain: 0.5, greenGain: 1, blueGain: 1))
            }
            expectException(.invalidArgumentException, "out of range") {
                _ = device.deviceWhiteBalanceGains(for: AVCaptureDevice.WhiteBalanceChromaticityValues(x: 1.2, y: 0.3))
            }
        }
    }
}
