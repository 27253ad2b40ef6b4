import Devices
import Foundation
import Scenes
import Sensor

extension AVCaptureDevice {
    /// The camera's autofocus system, as its formats report it.
    var autoFocusSystemOfCamera: Format.AutoFocusSystem { activeFormat.autoFocusSystem }
}

/// Where autofocus puts the lens: on the subject at the focus point of interest.
///
/// Lens positions follow focus in dioptres (1 / distance), the quantity a lens moves linearly in:
/// 1 is the farthest focus (infinity), 0 the nearest, `nearestFocusMetres` [I]. The subject's
/// distance is the scene's ground-truth depth at the point of interest, seen through the device's
/// camera at a small size.
enum DeviceFocus {
    /// The closest distance the lens focuses at: 10 cm, about what iPhone wide cameras manage
    /// (our choice [I]; profiles carry no figure for it).
    static let nearestFocusMetres = 0.1
    /// Width of the depth probe, pixels.
    static let probeWidth = 48

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
        let position = lensPosition(distance: subjectDistance(device, scene: scene.scene, point: point))
        lock.withLock { cache[key] = position }
        return position
    }

    /// The lens position that focuses `distance` metres away.
    static func lensPosition(distance: Double?) -> Float {
        guard let distance, distance.isFinite, distance > 0 else { return 1 }
        let dioptres = 1 / max(distance, nearestFocusMetres)
        return Float(max(0, min(1, 1 - dioptres * nearestFocusMetres)))
    }

    /// The distance a lens position focuses, metres: the inverse of `lensPosition(distance:)`, infinity at 1.
    static func distance(lensPosition: Float) -> Double {
        let dioptres = (1 - Double(min(max(lensPosition, 0), 1))) / nearestFocusMetres
        return dioptres > 0 ? 1 / dioptres : .infinity
    }

    /// The lens of `camera` focused `distance` metres away, as the renderer models depth of field (`LensFocus`); nil
    /// without a distance (a camera without autofocus is sharp at every depth) or without optics.
    static func lens(of camera: CameraProfile, focusedAt distance: Double?) -> LensFocus? {
        guard let distance, let optics = camera.optics else { return nil }
        return LensFocus(focalLength: optics.focalLengthMM / 1000, fNumber: optics.fNumber, focusDistance: distance)
    }

    /// The distance the device's lens is focused at now, metres, when it has autofocus (a fixed-focus camera
    /// renders sharp at every depth [our choice: its lens is set for the distances it serves]).
    static func focusDistance(_ device: AVCaptureDevice) -> Double? {
        device.hasAutoFocus ? distance(lensPosition: device.lensPosition) : nil
    }

    /// The ground-truth distance of whatever lies at a normalised point of the device's view.
    private static func subjectDistance(_ device: AVCaptureDevice, scene: Scene, point: CGPoint) -> Double? {
        let d = device.activeFormat.dimensions
        let height = max(1, Int((Double(probeWidth) * Double(d.height) / Double(max(1, d.width))).rounded()))
        guard
            let model = try? CameraModel(
                device: device.deviceProfile, camera: device.camera, width: probeWidth, height: height)
        else { return nil }
        let renderer = Renderer(
            scene: scene, camera: model, flash: nil,
            options: RenderOptions(softShadowSamples: 1, keepsComponents: false))
        let frame = renderer.render(Exposure(time: 0.001, iso: model.noise.baseISO))
        let x = min(frame.width - 1, max(0, Int(Double(point.x) * Double(frame.width))))
        let y = min(frame.height - 1, max(0, Int(Double(point.y) * Double(frame.height))))
        let depth = Double(frame.depth(x: x, y: y))
        return depth > 0 && depth.isFinite ? depth : nil
    }
}
