import Devices
import ISP
import Imaging
import Scenes
import Sensor
import Testing

/// The instant-photo scene through the whole chain: render, develop, detect the print, and the flash glare on it.
struct InstantPhotoTests {
    static let width = 320, height = 240

    /// The phone's wide camera at `width × height`, with the profile's lens distortion.
    static func camera() throws -> (CameraModel, FlashModel?) {
        let profile = try ConstantColorFixture.device(DeviceCatalog.defaultDeviceID)
        let cameraProfile = try profile.camera(ofType: .builtInWideAngleCamera)
        let camera = try CameraModel(device: profile, camera: cameraProfile, width: width, height: height)
        return (camera, FlashModel(device: profile, camera: cameraProfile))
    }

    /// A raw frame and its developed 8-bit sRGB picture, exposed by the auto-exposure unless `exposure` is given.
    static func shoot(
        _ scene: Scene, camera: CameraModel, flash: FlashModel?, exposure: Exposure? = nil
    ) -> (frame: RawFrame, picture: UInt8Image) {
        let renderer = Renderer(scene: scene, camera: camera, flash: flash)
        let metering = Renderer(scene: scene, camera: camera.scaled(toWidth: 80, height: 60), flash: flash)
        let chosen = exposure
            ?? AutoExposure(noise: camera.noise).solve(meteringRenderer: metering, flash: flash != nil, seed: 3)
        let frame = renderer.render(chosen)
        let develop = BasicDevelop(camera: camera, whiteBalance: WhiteBalance.greyWorld(frame, camera: camera))
        return (frame, develop.develop(frame, as: UInt8.self))
    }

    /// Where a world point lands in the rendered image: the renderer's pose (device placement, then the camera's
    /// pose in the device), the pinhole intrinsics, then the lens's forward distortion table.
    static func project(_ world: Vector3, scene: Scene, camera: CameraModel) -> SIMD2<Double> {
        let rotation = scene.device.rotation * camera.rotationInDevice
        let origin = scene.device.position + scene.device.rotation.apply(camera.positionInDevice)
        let c = rotation.inverse.apply(world - origin)
        let pinhole = SIMD2(camera.fx * c.x / c.z + camera.cx, camera.fy * c.y / c.z + camera.cy)
        return camera.distortion?.distort(pinhole, width: camera.width, height: camera.height) ?? pinhole
    }

    /// The print's four corners in the world, from its shape and transform in the scene file.
    static func printCorners(_ scene: Scene) throws -> [Vector3] {
        let print = try #require(scene.objects.first { $0.name == "photo" })
        guard case let .plane(width, height) = print.shape else {
            Issue.record("the print is not a plane")
            return []
        }
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { sx, sy in
            print.transform.point(Vector3(sx * width / 2, sy * height / 2, 0))
        }
    }

    @Test func detectedCornersMatchTheProjectedPrint() throws {
        let scene = try ConstantColorSceneTests.scene("instant-photo")
        let (camera, _) = try Self.camera()
        let picture = Self.shoot(scene, camera: camera, flash: nil).picture
        let found = try #require(QuadrilateralDetector().detect(in: picture))
        let detected = found.pixelCorners(width: Self.width, height: Self.height)
        let truth = try Self.printCorners(scene).map { Self.project($0, scene: scene, camera: camera) }
        #expect(truth.count == 4)
        // Each true corner has a detected one within 1 % of the image size on each axis (order-free matching).
        for corner in truth {
            let nearest = try #require(detected.min { distance($0 - corner) < distance($1 - corner) })
            let dx = abs(nearest.x - corner.x), dy = abs(nearest.y - corner.y)
            #expect(
                dx <= 0.01 * Double(Self.width) && dy <= 0.01 * Double(Self.height),
                "corner \(corner) detected at \(nearest)")
        }
        #expect(found.confidence > 0.5)
    }

    /// Print pixels clipped at the sensor's white level in any channel.
    static func clippedPrintPixels(_ frame: RawFrame, scene: Scene, camera: CameraModel) throws -> Int {
        let id = UInt16(try #require(scene.objects.firstIndex { $0.name == "photo" }))
        let white = UInt16(min(camera.noise.whiteLevel, 65_535))
        var clipped = 0
        for p in 0..<(frame.width * frame.height) where frame.objectIDs[p] == id {
            if max(frame.dn[3 * p], frame.dn[3 * p + 1], frame.dn[3 * p + 2]) >= white { clipped += 1 }
        }
        return clipped
    }

    /// Glossy print, flash beside the lens: seen face on, the flash's mirror image lies on the print and clips;
    /// seen at 45°, the mirror direction points away from the camera and nothing on the print clips. Both shots use
    /// the face-on shot's auto-exposure, and the oblique camera is farther away, so diffuse light is no brighter.
    @Test func flashGlareAppearsFaceOnAndNotObliquely() throws {
        let base = try ConstantColorSceneTests.scene("instant-photo")
        let (camera, flash) = try Self.camera()
        let flashModel = try #require(flash)
        var faceOn = base
        // Straight above the print, the phone's top towards −Z (the up vector must not be the viewing axis).
        faceOn.device = DevicePlacement(position: Vector3(0, 0.30, 0), lookAt: .zero, up: Vector3(0, 0, -1))
        var oblique = base
        oblique.device = DevicePlacement(position: Vector3(0, 0.30, 0.30), lookAt: .zero)

        let frontShot = Self.shoot(faceOn, camera: camera, flash: flashModel)
        let frontClipped = try Self.clippedPrintPixels(frontShot.frame, scene: faceOn, camera: camera)
        let sideShot = Self.shoot(oblique, camera: camera, flash: flashModel, exposure: frontShot.frame.exposure)
        let sideClipped = try Self.clippedPrintPixels(sideShot.frame, scene: oblique, camera: camera)
        #expect(frontClipped >= 4, "face on: \(frontClipped) clipped print pixels")
        #expect(sideClipped == 0, "oblique: \(sideClipped) clipped print pixels")
        // The same angles without the flash: no glare either way, so the glare is the flash's.
        var ambientOnly = frontShot.frame.exposure
        ambientOnly.flash = false
        let frontAmbient = Self.shoot(faceOn, camera: camera, flash: nil, exposure: ambientOnly)
        #expect(try Self.clippedPrintPixels(frontAmbient.frame, scene: faceOn, camera: camera) == 0)
    }
}

private func distance(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
