import Devices
import Foundation
import Scenes
import Sensor

extension AVCaptureDevice {
    /// The camera's autofocus system, as its formats report it.
    var autoFocusSystemOfCamera: Format.AutoFocusSystem { activeFormat.autoFocusSystem }
}

/// Where autofocus puts the lens of a device (`AutoFocus`), measured once per scene, format and point.
enum DeviceFocus {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [Key: Float] = [:]

    /// The scene by value, so an edited scene under the same name is measured anew.
    private struct Key: Hashable {
        let scene: Scene
        let device: String
        let width: Int32
        let height: Int32
        let x: Double
        let y: Double
    }

    static func autoFocusLensPosition(_ device: AVCaptureDevice) -> Float {
        guard device.hasAutoFocus else { return 1 }
        let point = device.controls.value.focusPointOfInterest
        let scene = Emulation.shared.currentScene
        let d = device.activeFormat.dimensions
        let key = Key(
            scene: scene.scene, device: "\(device.deviceProfile.sourceFile)#\(device.uniqueID)", width: d.width,
            height: d.height, x: Double(point.x), y: Double(point.y))
        if let hit = lock.withLock({ cache[key] }) { return hit }
        let subject = AutoFocus.subjectDistance(
            scene: scene.scene, device: device.deviceProfile, camera: device.camera,
            aspect: Double(d.width) / Double(max(1, d.height)), point: (Double(point.x), Double(point.y)))
        let nearest = AutoFocus.nearestFocusMetres(of: device.camera)
        let position = AutoFocus.lensPosition(distance: subject, nearest: nearest)
        lock.withLock { cache[key] = position }
        return position
    }

    /// The distance the device's lens is focused at now, metres, when it has autofocus; nil for a fixed-focus
    /// camera, sharp at every depth (`AutoFocus.lens(of:focusedAt:)`).
    static func focusDistance(_ device: AVCaptureDevice) -> Double? {
        guard device.hasAutoFocus else { return nil }
        let nearest = AutoFocus.nearestFocusMetres(of: device.camera)
        return AutoFocus.distance(lensPosition: device.lensPosition, nearest: nearest)
    }
}
