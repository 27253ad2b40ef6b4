import Devices
import Foundation
import Scenes

/// Where autofocus puts the lens: on the subject at the focus point of interest, and the lens that results, whose
/// depth of field the renderer draws (`LensFocus`).
///
/// Lens positions follow focus in dioptres (1 / distance), the quantity a lens moves linearly in: 1 is the
/// farthest focus (infinity), 0 the nearest, the camera's minimum focus distance (`nearestFocusMetres(of:)`) [our
/// choice]. A subject nearer than that stays out of focus, as on a phone, whose camera app then switches to the
/// ultra wide camera for macro. The subject's distance is the
/// scene's ground-truth depth at the point of interest, seen through the camera at a small size: what a phone's
/// focus pixels, on the sensor itself, measure, without their error. It belongs with the sensor, not the image
/// processor, which sees only frames.
public enum AutoFocus {
    /// The closest distance a lens focuses at where its profile gives no figure: 10 cm, the iPhone X wide
    /// camera's (our choice).
    public static let defaultNearestFocusMetres = 0.1

    /// The closest distance `camera`'s lens focuses at, metres: the profile's `minimum_focus_distance_mm`, or the
    /// default.
    public static func nearestFocusMetres(of camera: CameraProfile) -> Double {
        camera.optics?.minimumFocusDistanceMM.map { $0 / 1000 } ?? defaultNearestFocusMetres
    }
    /// Width of the depth probe, pixels.
    static let probeWidth = 48

    /// Whether a camera focuses: the profile's `autofocus` feature, phase detection when it is not given (every
    /// emulated back camera since iPhone 6 has focus pixels; our choice).
    public static func focuses(_ camera: CameraProfile) -> Bool {
        (camera.features.autoFocus ?? .phaseDetection) != .none
    }

    /// The lens position that focuses `distance` metres away, for a lens whose nearest focus is `nearest` metres;
    /// the far end (1) without a distance, the near end (0) for a subject nearer than the lens reaches.
    public static func lensPosition(distance: Double?, nearest: Double) -> Float {
        guard let distance, distance.isFinite, distance > 0 else { return 1 }
        let dioptres = 1 / max(distance, nearest)
        return Float(max(0, min(1, 1 - dioptres * nearest)))
    }

    /// The distance a lens position focuses, metres: the inverse of `lensPosition(distance:nearest:)`, infinity
    /// at 1.
    public static func distance(lensPosition: Float, nearest: Double) -> Double {
        let dioptres = (1 - Double(min(max(lensPosition, 0), 1))) / nearest
        return dioptres > 0 ? 1 / dioptres : .infinity
    }

    /// The lens of `camera` focused `distance` metres away, as the renderer models depth of field; nil without a
    /// distance (a camera without autofocus is sharp at every depth [our choice: a fixed-focus lens is set for the
    /// distances it serves]) or without optics.
    public static func lens(of camera: CameraProfile, focusedAt distance: Double?) -> LensFocus? {
        guard let distance, let optics = camera.optics else { return nil }
        return LensFocus(focalLength: optics.focalLengthMM / 1000, fNumber: optics.fNumber, focusDistance: distance)
    }

    /// The ground-truth distance of whatever lies at a normalised point (origin top left) of a camera's view of a
    /// picture of `aspect` (width over height); nil where nothing is hit.
    public static func subjectDistance(
        scene: Scene, device: DeviceProfile, camera: CameraProfile, aspect: Double, point: (x: Double, y: Double)
    ) -> Double? {
        let height = max(1, Int((Double(probeWidth) / max(aspect, 1e-9)).rounded()))
        guard let model = try? CameraModel(device: device, camera: camera, width: probeWidth, height: height) else {
            return nil
        }
        let renderer = Renderer(
            scene: scene, camera: model, flash: nil, options: RenderOptions(softShadowSamples: 1, keepsComponents: false))
        let frame = renderer.render(Exposure(time: 0.001, iso: model.noise.baseISO))
        let x = min(frame.width - 1, max(0, Int(point.x * Double(frame.width))))
        let y = min(frame.height - 1, max(0, Int(point.y * Double(frame.height))))
        let depth = Double(frame.depth(x: x, y: y))
        return depth > 0 && depth.isFinite ? depth : nil
    }

    /// The lens of a camera left to autofocus on the middle of a picture of `aspect`, the default focus point of
    /// interest; nil for a camera without autofocus.
    public static func centredLens(scene: Scene, device: DeviceProfile, camera: CameraProfile, aspect: Double)
        -> LensFocus?
    {
        guard focuses(camera) else { return nil }
        let subject = subjectDistance(scene: scene, device: device, camera: camera, aspect: aspect, point: (0.5, 0.5))
        let nearest = nearestFocusMetres(of: camera)
        let position = lensPosition(distance: subject, nearest: nearest)
        return lens(of: camera, focusedAt: distance(lensPosition: position, nearest: nearest))
    }
}
