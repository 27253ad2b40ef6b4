import Devices
import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The nearest distance a lens focuses at (`minimum_focus_distance_mm`, Apple's `minimumFocusDistance`): the
/// profiles' figures, the lens positions that run from it to infinity, and a subject nearer than it left out of
/// focus, as a phone leaves it.
struct MinimumFocusTests {
    /// The figures and their sources: Apple's for the iPhone X (10 cm wide, 40 cm telephoto), the iPhone 14 Pro's
    /// readout for the iPhone 15 Pro's main and macro ultra wide cameras (20 cm, 2 cm); none given, 10 cm.
    @Test func profilesCarryTheirCamerasFigures() throws {
        let x = try DeviceProfileAdapterTests.profile("iphone-x")
        let pro = try DeviceProfileAdapterTests.profile("iphone-15-pro")
        let figures: [(DeviceProfile, DeviceType, Double)] = [
            (x, .builtInWideAngleCamera, 0.1), (x, .builtInTelephotoCamera, 0.4),
            (pro, .builtInWideAngleCamera, 0.2), (pro, .builtInUltraWideCamera, 0.02),
        ]
        for (device, type, metres) in figures {
            let camera = try device.camera(ofType: type, position: .back)
            #expect(AutoFocus.nearestFocusMetres(of: camera) == metres, "\(device.id) \(type)")
            let source = try #require(camera.optics?.provenance.of("minimum_focus_distance_mm"))
            // Apple gave the iPhone X's figures; the iPhone 15 Pro's are modelled on its predecessor's.
            #expect(source.kind == (device.id == "iphone-x" ? .documented : .modelled), "\(device.id) \(type)")
            #expect(source.note.contains(device.id == "iphone-x" ? "WWDC21" : "iPhone 14 Pro"))
        }
        let tele = try pro.camera(ofType: .builtInTelephotoCamera, position: .back)
        #expect(tele.optics?.minimumFocusDistanceMM == nil)
        #expect(AutoFocus.nearestFocusMetres(of: tele) == AutoFocus.defaultNearestFocusMetres)
    }

    /// Positions are linear in dioptres: at a 20 cm nearest focus, 0 focuses 20 cm away, 0.5 40 cm (2.5 dioptres
    /// of the 5), 0.9 2 m, and 1 infinity; a subject at 12 cm gets the near end.
    @Test func lensPositionsRunFromTheNearestFocusToInfinity() {
        let nearest = 0.2
        for (position, metres) in [(Float(0), 0.2), (0.5, 0.4), (0.9, 2.0)] {
            #expect(abs(AutoFocus.distance(lensPosition: position, nearest: nearest) - metres) < 1e-6)
            #expect(abs(AutoFocus.lensPosition(distance: metres, nearest: nearest) - position) < 1e-6)
        }
        #expect(AutoFocus.distance(lensPosition: 1, nearest: nearest) == .infinity)
        #expect(AutoFocus.lensPosition(distance: 0.12, nearest: nearest) == 0)
    }

    /// A card 12 cm in front of the iPhone 15 Pro: the main camera focuses as near as it can, 20 cm, and the card
    /// is blurred; the macro ultra wide focuses on it.
    @Test func aSubjectNearerThanTheLensReachesStaysOutOfFocus() throws {
        let device = try DeviceProfileAdapterTests.profile("iphone-15-pro")
        let card = Scene(
            objects: [
                SceneObject(
                    name: "card", shape: .plane(width: 1, height: 1),
                    transform: Transform(position: Vector3(0, 0, -0.12)),
                    surface: .uniform(.neutral("card", reflectance: 0.8))),
            ],
            ambient: AmbientLight(
                spectrum: Illuminants.d65, illuminance: 300, direction: Vector3(0, 0, 1), diffuseFraction: 1),
            device: TestScenes.device)
        let wide = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        let ultra = try device.camera(ofType: .builtInUltraWideCamera, position: .back)
        let wideLens = try #require(AutoFocus.centredLens(scene: card, device: device, camera: wide, aspect: 4.0 / 3))
        let ultraLens = try #require(AutoFocus.centredLens(scene: card, device: device, camera: ultra, aspect: 4.0 / 3))
        #expect(abs(wideLens.focusDistance - 0.2) < 1e-9)
        #expect(abs(ultraLens.focusDistance - 0.12) < 0.005)
    }
}
