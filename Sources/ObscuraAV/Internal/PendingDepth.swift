import CaptureRules
import Devices
import Foundation
import Sensor

/// The depth of one photo request, computed once on first use and shared by its photos.
///
/// Photo depth comes from the same Sensor models as streaming depth (dual-camera disparity,
/// TrueDepth structured light, LiDAR densified), at `DepthResolution.photo` of the active
/// streaming depth size: more than twice its resolution (spec §7 [T W17]). Filtering follows
/// the settings' `isDepthDataFiltered` (spec §4 [D]).
final class PendingDepth: @unchecked Sendable {
    let profile: DeviceProfile
    let camera: CameraProfile
    let scene: String
    let seed: UInt64
    let dimensions: Dimensions
    let format: DepthPixelFormat
    let filtered: Bool
    /// The dimensions the map's calibration refers to: the active format's (spec §10).
    let reference: Dimensions?
    private let lock = NSLock()
    private var result: DepthMap??

    init(
        profile: DeviceProfile, camera: CameraProfile, scene: String, seed: UInt64, dimensions: Dimensions,
        format: DepthPixelFormat, filtered: Bool, reference: Dimensions? = nil
    ) {
        self.profile = profile
        self.camera = camera
        self.scene = scene
        self.seed = seed
        self.dimensions = dimensions
        self.format = format
        self.filtered = filtered
        self.reference = reference
    }

    /// The request's photo depth for a device's active depth format; nil when the device has none.
    static func forPhoto(
        device: AVCaptureDevice, scene: String, seed: UInt64, filtered: Bool
    ) -> PendingDepth? {
        guard let (streaming, pixelFormat) = device.activeDepthDataFormat?.depthProfile else { return nil }
        return PendingDepth(
            profile: device.deviceProfile, camera: device.camera, scene: scene, seed: seed,
            dimensions: DepthResolution.photo(streaming: streaming.dimensions), format: pixelFormat, filtered: filtered,
            reference: device.activeFormat.intrinsicReferenceDimensions)
    }

    /// The map; nil if the camera's depth model cannot be built.
    var map: DepthMap? {
        lock.withLock {
            if let result { return result }
            let made = StreamRendering.shared.depth(
                device: profile, camera: camera, width: dimensions.width, height: dimensions.height, format: format,
                filtered: filtered, scene: scene, seed: seed, reference: reference, caches: false)
            result = .some(made)
            if made == nil {
                Emulation.shared.record(
                    TraceEntry(
                        section: "§5", rule: nil, outcome: .decided,
                        sentence: "No depth: camera \(camera.id) has no depth model that can render this scene."))
            }
            return made
        }
    }
}
