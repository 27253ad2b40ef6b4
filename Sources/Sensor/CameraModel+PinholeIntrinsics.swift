import Imaging

extension CameraModel {
    /// The camera matrix of the pixels this model renders, as Imaging's geometry takes it (same pixel convention:
    /// centres at half-integers).
    public var pinholeIntrinsics: PinholeIntrinsics { PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy) }
}
