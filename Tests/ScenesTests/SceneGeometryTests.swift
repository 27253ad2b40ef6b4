import Foundation
import Scenes
import Spectra
import Testing

@Test func deviceLookingDownNegativeZHasRightAlongX() {
    let r = DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -3)).rotation
    #expect(length(r.apply(Vector3(1, 0, 0)) - Vector3(1, 0, 0)) < 1e-12)
    #expect(length(r.apply(Vector3(0, 1, 0)) - Vector3(0, -1, 0)) < 1e-12)
    #expect(length(r.apply(Vector3(0, 0, 1)) - Vector3(0, 0, -1)) < 1e-12)
}

@Test func rotationAboutZTurnsXIntoY() {
    let r = Rotation(axis: Vector3(0, 0, 1), radians: Double.pi / 2)
    #expect(length(r.apply(Vector3(1, 0, 0)) - Vector3(0, 1, 0)) < 1e-12)
    #expect(length((r * r.inverse).apply(Vector3(0.3, -2, 5)) - Vector3(0.3, -2, 5)) < 1e-12)
}

@Test func motionMovesObjectsAndDevice() {
    let ball = SceneObject(
        name: "ball", shape: .sphere(radius: 0.1), transform: Transform(position: Vector3(0, 0, -1)),
        surface: .uniform(.neutral("white", reflectance: 0.9)), motion: Motion(velocity: Vector3(0.5, 0, 0)))
    let device = DevicePlacement(
        position: .zero, lookAt: Vector3(0, 0, -1),
        motion: Motion(angularVelocity: Vector3(0, Double.pi / 2, 0)))
    let scene = Scene(objects: [ball], ambient: nil, device: device)
    let later = scene.advanced(by: 1)
    #expect(length(later.objects[0].transform.position - Vector3(0.5, 0, -1)) < 1e-12)
    // A quarter turn about +Y swings the view from −Z to −X.
    #expect(length(later.device.lookAt - Vector3(-1, 0, 0)) < 1e-12)
    #expect(scene.objectIndex(named: "ball") == 0)
    #expect(scene.objectIndex(named: "pot") == nil)
}

/// A still scene is the same value later, to the bit: renderers compare scenes to share geometry.
@Test func stillSceneAdvancesToItself() {
    // 0.25 + (−0.02 − 0.25) does not round back to −0.02 in binary floating point.
    let device = DevicePlacement(position: Vector3(0, 0.45, 0.25), lookAt: Vector3(0, 0, -0.02))
    let scene = Scene(objects: [], ambient: nil, device: device)
    #expect(scene.advanced(by: 0.05) == scene)
}

@Test func colorCheckerCardHoldsTwentyFourPatchesAndABorder() {
    let surface = Cards.colorChecker()
    #expect(surface.materials.count == 25)
    #expect(surface.materials.first?.name == ColorChecker.patches.first?.name)
}

private func length(_ v: Vector3) -> Double { v.length }
