import CaptureRules
import Devices
import Foundation
import Imaging
import Scenes
import Sensor

/// The mattes of one photo request, rendered once on first use and shared by its photos.
///
/// Coverage comes from the scene's own labels (`person:` on objects, Scenes/README.md) through
/// the photo's camera and zoom (`CoverageMatte`), at the matte size the camera's profile records.
/// Nothing is rendered for requests that ask for no matte.
final class PendingMattes: @unchecked Sendable {
    let request: PhotoRenderRequest
    /// The mattes' size.
    let dimensions: Dimensions
    /// Whether the portrait effects matte was asked for.
    let portrait: Bool
    /// The semantic segmentation matte types asked for, in the settings' order.
    let semanticTypes: [AVSemanticSegmentationMatte.MatteType]
    private let lock = NSLock()
    private var result: Rendered?

    private struct Rendered {
        /// nil when no person is in view.
        var portrait: PixelPlane<UInt8>?
        var semantic: [AVSemanticSegmentationMatte.MatteType: PixelPlane<UInt8>]
    }

    init(
        request: PhotoRenderRequest, dimensions: Dimensions, portrait: Bool,
        semanticTypes: [AVSemanticSegmentationMatte.MatteType]
    ) {
        self.request = request
        self.dimensions = dimensions
        self.portrait = portrait
        self.semanticTypes = semanticTypes
    }

    /// A matte's size for a photo: the photo's width and height times the profile's matte scale,
    /// rounded, at least one pixel.
    static func dimensions(photo: CMVideoDimensions, scale: Double) -> Dimensions {
        Dimensions(
            width: max(1, Int((Double(photo.width) * scale).rounded())),
            height: max(1, Int((Double(photo.height) * scale).rounded())))
    }

    /// The person parts each semantic matte type covers.
    private static func parts(_ type: AVSemanticSegmentationMatte.MatteType) -> Set<PersonPart> {
        switch type {
        case .hair: return [.hair]
        case .skin: return [.skin]
        case .teeth: return [.teeth]
        case .glasses: return [.glasses]
        default: return []
        }
    }

    /// The portrait effects matte's coverage; nil when it was not asked for or no person is in view.
    var portraitPlane: PixelPlane<UInt8>? { portrait ? rendered.portrait : nil }

    /// A semantic matte's coverage; nil when its type was not asked for or no person is in view.
    func semanticPlane(_ type: AVSemanticSegmentationMatte.MatteType) -> PixelPlane<UInt8>? {
        rendered.semantic[type]
    }

    private var rendered: Rendered {
        lock.withLock {
            if let result { return result }
            let made = render()
            result = made
            return made
        }
    }

    private func render() -> Rendered {
        let person = Set(PersonPart.allCases)
        guard
            let camera = try? SensorPhotoRenderer.camera(
                request, width: request.dimensions.width, height: request.dimensions.height)
        else { return Rendered(portrait: nil, semantic: [:]) }
        // The whole person first, always: whether anyone is in view decides whether any matte comes.
        let planes = CoverageMatte.render(
            scene: request.scene.scene, camera: camera, width: dimensions.width, height: dimensions.height,
            classes: [person] + semanticTypes.map(Self.parts))
        guard planes[0].packedElements.contains(where: { $0 > 0 }) else {
            Emulation.shared.record(
                TraceEntry(
                    section: "§5", rule: nil, outcome: .decided,
                    sentence: "No person is in view (no scene object has a person part in the photo): "
                        + "portraitEffectsMatte and the semantic segmentation mattes are nil."))
            return Rendered(portrait: nil, semantic: [:])
        }
        var semantic: [AVSemanticSegmentationMatte.MatteType: PixelPlane<UInt8>] = [:]
        for (type, plane) in zip(semanticTypes, planes.dropFirst()) { semantic[type] = plane }
        return Rendered(portrait: planes[0], semantic: semantic)
    }
}
