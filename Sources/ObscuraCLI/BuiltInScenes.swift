import Scenes
import Spectra

/// Scenes that `obscura render` knows by name without a scene file: test charts with known
/// geometry, so a depth map or a colour can be checked against numbers written here.
enum BuiltInScenes {
    /// The names, in the order `--help` lists them.
    static let names = ["chart-d65", "chart-tungsten"]

    /// A ColorChecker 0.5 m straight ahead of the device, on a matte 40 % grey wall 1.5 m away.
    /// `chart-d65`: 400 lux of D65; `chart-tungsten`: 150 lux of CIE A (2856 K).
    static func scene(named name: String) -> Scene? {
        let light: AmbientLight
        switch name {
        case "chart-d65":
            light = AmbientLight(spectrum: Illuminants.d65, illuminance: 400, direction: Vector3(0.3, 0.5, 1))
        case "chart-tungsten":
            light = AmbientLight(spectrum: Illuminants.a, illuminance: 150, direction: Vector3(-0.3, 0.5, 1))
        default:
            return nil
        }
        let chart = SceneObject(
            name: "chart", shape: .plane(width: 0.2794, height: 0.1905),
            transform: Transform(position: Vector3(0, 0, -0.5)), surface: Cards.colorChecker())
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 6, height: 4), transform: Transform(position: Vector3(0, 0, -1.5)),
            surface: .uniform(.neutral("wall", reflectance: 0.4)))
        return Scene(
            objects: [chart, wall], ambient: light, device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }
}
