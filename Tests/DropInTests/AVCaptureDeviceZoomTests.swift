import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct Zoom {
        // spec §2.4 [D]: a pinch clamps the factor into the available range.
        @Test func pinchClampsIntoTheAvailableRange() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let pinch: CGFloat = 1e6
            let factor = max(device.minAvailableVideoZoomFactor, min(pinch, device.maxAvailableVideoZoomFactor))
            try configure(device) { device.videoZoomFactor = factor }
            #expect(device.videoZoomFactor == device.maxAvailableVideoZoomFactor)
            #expect(device.maxAvailableVideoZoomFactor == device.activeFormat.videoMaxZoomFactor)
            #expect(device.minAvailableVideoZoomFactor == 1)
        }

        // spec §2.4 [D]: a 2× button.
        @Test func twoTimesButton() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { device.videoZoomFactor = 2 }
            #expect(device.videoZoomFactor == 2)
        }

        // A ramp at r doublings per second reaches a factor 2^k away after k / r seconds.
        @Test func rampReachesItsTarget() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { device.ramp(toVideoZoomFactor: 4, withRate: 40) }  // 2 doublings: 50 ms
            Thread.sleep(forTimeInterval: 0.3)
            #expect(device.videoZoomFactor == 4)
            #expect(!device.isRampingVideoZoom)
        }

        // spec §2.4 [D]: cancelling a slow ramp stops it where it is.
        @Test func cancelRampStopsIt() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { device.ramp(toVideoZoomFactor: 8, withRate: 0.01) }
            #expect(device.isRampingVideoZoom)
            try configure(device) { device.cancelVideoZoomRamp() }
            #expect(!device.isRampingVideoZoom)
            let stopped = device.videoZoomFactor
            #expect(stopped >= 1 && stopped < 8)
            Thread.sleep(forTimeInterval: 0.05)
            #expect(device.videoZoomFactor == stopped)
        }

        // spec §2.2 [D]: a virtual device switches lenses at zoom factors above 1, increasing; a
        // physical camera lists none.
        @Test func switchOverFactors() throws {
            let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
            let factors = triple.virtualDeviceSwitchOverVideoZoomFactors.map(\.doubleValue)
            #expect(factors.count == triple.constituentDevices.count - 1)
            #expect(factors.allSatisfy { $0 > 1 })
            #expect(factors == factors.sorted())
            #expect(try backCamera().virtualDeviceSwitchOverVideoZoomFactors.isEmpty)
        }

        // The first switch-over is where the next camera's field of view is reached:
        // tan(fov_first / 2) / tan(fov_next / 2) for pinhole cameras (closed form).
        @Test func switchOverMatchesTheFieldsOfView() throws {
            let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
            let cameras = triple.constituentDevices
            let factors = triple.virtualDeviceSwitchOverVideoZoomFactors.map(\.doubleValue)
            for (i, factor) in factors.enumerated() {
                func halfTan(_ d: AVCaptureDevice) -> Double {
                    tan(Double(d.activeFormat.videoFieldOfView) * Double.pi / 360)
                }
                #expect(abs(factor - halfTan(cameras[0]) / halfTan(cameras[i + 1])) < 0.02 * factor)
            }
        }

        // A device whose widest lens is the ultra-wide shows its zoom factors halved or so ("0.5×").
        @Test func displayMultiplier() throws {
            let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
            #expect(triple.displayVideoZoomFactorMultiplier < 1)
            #expect(try backCamera().displayVideoZoomFactorMultiplier == 1)
        }

        // Zoom UIs observe the factor with key-value observing.
        @Test func observingTheZoomFactor() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let seen = LockedValues()
            let observation = device.observe(\.videoZoomFactor, options: [.new]) { _, change in
                if let value = change.newValue { seen.append(Double(value)) }
            }
            try configure(device) { device.videoZoomFactor = 3 }
            observation.invalidate()
            #expect(seen.values.last == 3)
        }
    }
}

/// Values appended from any thread.
final class LockedValues: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    var values: [Double] { lock.withLock { stored } }
    func append(_ value: Double) { lock.withLock { stored.append(value) } }
}
