import Foundation
import Scenes
import Sensor

/// Where the printed codes of a scene land in a camera's picture: each code plane's four corners
/// through the pinhole and the lens distortion, as the renderer images them.
enum CodeProjection {
    /// Object name → the code's corners, normalised (0…1, origin top-left), clockwise from the
    /// printed code's top-left corner (local −x, +y). A code with a corner behind the camera is left out.
    static func corners(scene: Scene, camera: CameraModel) -> [String: PrintedCode] {
        let deviceRotation = scene.device.rotation
        let toCamera = (deviceRotation * camera.rotationInDevice).inverse
        let origin = scene.device.position + deviceRotation.apply(camera.positionInDevice)
        var out: [String: PrintedCode] = [:]
        for object in scene.objects {
            guard let code = object.code, case let .plane(w, h) = object.shape else { continue }
            let (x, y) = (w / 2, h / 2)
            let local = [Vector3(-x, y, 0), Vector3(x, y, 0), Vector3(x, -y, 0), Vector3(-x, -y, 0)]
            var points: [CGPoint] = []
            for corner in local {
                let c = toCamera.apply(object.transform.point(corner) - origin)
                guard c.z > 0 else { break }
                var p = SIMD2(camera.fx * c.x / c.z + camera.cx, camera.fy * c.y / c.z + camera.cy)
                if let distortion = camera.distortion {
                    p = distortion.distort(p, width: camera.width, height: camera.height)
                }
                points.append(CGPoint(x: p.x / Double(camera.width), y: p.y / Double(camera.height)))
            }
            if points.count == 4 { out[object.name] = PrintedCode(code: code, corners: points) }
        }
        return out
    }
}

/// A code as a picture shows it.
struct PrintedCode {
    let code: CodeAnnotation
    /// Normalised corners, clockwise from the printed top-left.
    let corners: [CGPoint]
}
