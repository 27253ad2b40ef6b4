import Foundation
import Scenes
import Sensor
import Spectra

/// Scenes for the depth models: a 128 × 96 pinhole with fx = fy = 100 and principal point
/// (64, 48), at the origin looking down −Z (image right = world +X).
enum DepthFixtures {
    static func camera(width: Int = 128, height: Int = 96, focal: Double = 100) -> CameraModel {
        CameraModel(
            width: width, height: height, fx: focal, fy: focal, cx: Double(width) / 2, cy: Double(height) / 2,
            fNumber: 1.8, pixelPitchMicrometres: 1.4,
            quantumEfficiency: (
                TestScenes.gaussian(600, 30), TestScenes.gaussian(535, 35), TestScenes.gaussian(460, 25)
            ))
    }

    /// A card facing the camera at `distance`, spanning world x from `left` to `right`.
    static func card(
        distance: Double, left: Double, right: Double, material: Material = .neutral("card", reflectance: 0.5)
    ) -> SceneObject {
        SceneObject(
            name: "card", shape: .plane(width: right - left, height: 4),
            transform: Transform(position: Vector3((left + right) / 2, 0, -distance)), surface: .uniform(material))
    }

    static func renderer(_ objects: [SceneObject], camera: CameraModel = camera()) -> Renderer {
        Renderer(scene: Scene(objects: objects, ambient: nil, device: TestScenes.device), camera: camera, flash: nil)
    }

    static func standardDeviation(_ values: [Float]) -> Double {
        let v = values.filter { !$0.isNaN }.map(Double.init)
        let mean = v.reduce(0, +) / Double(v.count)
        return (v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count - 1)).squareRoot()
    }
}
