import Foundation
import Imaging
import Scenes

/// What a depth camera looks at, prepared once so that every frame of a depth stream only adds its own noise.
///
/// The geometry (hit points, normals, materials), the occlusion test from a second viewpoint and the image the
/// stereo matcher sees do not change while the scene stands still; the measurement noise does, frame by frame
/// (a sensor reads a new exposure each frame). The depth models take an observation and a seed, so a stream
/// computes the first part once and draws the second per frame.
public final class DepthObservation: @unchecked Sendable {
    let geometry: DepthGeometry
    /// The frame the reference camera exposed, at any size (sampled by nearest pixel), if known: the image a
    /// stereo matcher compares. Its noise-free light (`RawFrame.ambientElectrons`, kept by default) gives the
    /// scene's texture; the noise the matcher sees follows from the sensor (`DisparityModel.MatcherSensor`).
    public let image: RawFrame?
    private let lock = NSLock()
    private var masks: [AnyHashable: [Bool]] = [:]

    /// The observation of what `renderer` sees; `image` is the frame the matcher sees (see `DisparityModel`).
    public init(_ renderer: Renderer, image: RawFrame? = nil) {
        geometry = DepthGeometry(renderer: renderer)
        self.image = image
    }

    /// Map width and height, pixels.
    public var width: Int { geometry.width }
    public var height: Int { geometry.height }

    /// For every pixel, whether its point is hidden from a viewpoint given in the camera frame (metres), computed
    /// once per viewpoint.
    func hiddenMask(cameraOffset: Vector3) -> [Bool] {
        mask(cameraOffset) {
            let viewpoint = geometry.world(cameraOffset: cameraOffset)
            return (0..<geometry.depth.count).map { i in
                let z = geometry.depth[i]
                return !(z.isFinite && z > 0) || geometry.isHidden(pixel: i, from: viewpoint)
            }
        }
    }

    /// A per-pixel mask that follows from the observation and `key` alone, computed once per key: a stream asks
    /// for the same masks with every frame's new noise.
    func mask(_ key: some Hashable, _ compute: () -> [Bool]) -> [Bool] {
        let key = AnyHashable(key)
        if let known = lock.withLock({ masks[key] }) { return known }
        let mask = compute()
        lock.withLock { masks[key] = mask }
        return mask
    }
}
