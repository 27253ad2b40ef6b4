import Foundation
import Obscura
import Testing

/// The Camera Control API (iOS 18) as Apple's camera sample configures it: a zoom and an exposure-bias slider
/// added where the session supports controls, with a controls delegate. No emulated phone has the button.
@Suite struct CaptureControlTests {
    final class ControlsDelegate: NSObject, AVCaptureSessionControlsDelegate, @unchecked Sendable {
        var calls = 0
        func sessionControlsDidBecomeActive(_ session: AVCaptureSession) { calls += 1 }
        func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) { calls += 1 }
        func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) { calls += 1 }
        func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) { calls += 1 }
    }

    // spec §1.6: without the button a session supports no controls, takes none and raises nothing.
    @Test func aPhoneWithoutTheButtonTakesNoControls() throws {
        try onDevice {
            let session = AVCaptureSession()
            let device = try #require(AVCaptureDevice.default(for: .video))
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: device))
            let zoom = AVCaptureSystemZoomSlider(device: device) { _ in }
            let bias = AVCaptureSystemExposureBiasSlider(device: device)
            #expect(!session.supportsControls && session.maxControlsCount == 0)
            for control in [zoom, bias] as [AVCaptureControl] {
                #expect(!session.canAddControl(control))
                expectNoException { session.addControl(control) }
            }
            #expect(session.controls.isEmpty)
            #expect(Emulator.shared.trace.contains { $0.section == "§1.6" && $0.sentence.contains("added nothing") })
            session.removeControl(zoom)
            session.commitConfiguration()
            let delegate = ControlsDelegate(), queue = DispatchQueue(label: "controls")
            session.setControlsDelegate(delegate, queue: queue)
            #expect(session.controlsDelegate === delegate && session.controlsDelegateCallbackQueue === queue)
            session.startRunning()
            session.stopRunning()
            #expect(delegate.calls == 0)
        }
    }

    // spec §1.6 (documented): a controls delegate needs its queue.
    @Test func aDelegateWithoutAQueueRaises() throws {
        try onDevice {
            let session = AVCaptureSession()
            let delegate = ControlsDelegate()
            expectException(.invalidArgumentException, "queue may not be NULL") {
                session.setControlsDelegate(delegate, queue: nil)
            }
            expectNoException { session.setControlsDelegate(nil, queue: nil) }
            #expect(session.controlsDelegate == nil)
        }
    }

    // spec §1.6: an app's slider and picker hold what they may take, the nearest allowed value.
    @Test func slidersAndPickersKeepTheirValuesAllowed() {
        let stepped = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...10, step: 2.5)
        #expect(stepped.value == 0)
        stepped.value = 6.4
        #expect(stepped.value == 7.5)
        stepped.value = 42
        #expect(stepped.value == 10)
        let free = AVCaptureSlider("Warmth", symbolName: "thermometer", in: -1...1)
        free.value = 0.3
        #expect(free.value == 0.3)
        free.value = -3
        #expect(free.value == -1)
        let listed = AVCaptureSlider("Stops", symbolName: "camera.aperture", values: [4, 1.8, 2.8])
        #expect(listed.value == 1.8)
        listed.value = 3.3
        #expect(listed.value == 2.8)
        listed.value = 3.5
        #expect(listed.value == 4)
        listed.localizedValueFormat = "ƒ/%.1f"
        listed.prominentValues = [2.8]
        #expect(listed.localizedValueFormat == "ƒ/%.1f" && listed.prominentValues == [2.8])
        let picker = AVCaptureIndexPicker("Style", symbolName: "camera.filters", localizedIndexTitles: ["Vivid", "Warm", "Cool"])
        #expect(picker.numberOfIndexes == 3 && picker.selectedIndex == 0)
        picker.selectedIndex = 2
        #expect(picker.selectedIndex == 2)
        picker.selectedIndex = 9
        #expect(picker.selectedIndex == 2)
        let numbered = AVCaptureIndexPicker("Timer", symbolName: "timer", numberOfIndexes: 3) { "\($0 * 5) s" }
        #expect(numbered.localizedIndexTitles == ["0 s", "5 s", "10 s"])
        #expect(numbered.isEnabled)
        numbered.isEnabled = false
        #expect(!numbered.isEnabled)
    }
}
