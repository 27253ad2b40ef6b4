import Sensor

extension CameraModel {
    /// The central `width × height` pixels of this camera at its own pixel pitch (a digital zoom):
    /// the principal point moves with the crop, the focal length in pixels stays. Lens distortion
    /// is dropped: within a small crop around the axis it is far below a pixel.
    public func centreCropped(width newWidth: Int, height newHeight: Int) -> CameraModel {
        precondition(newWidth > 0 && newHeight > 0 && newWidth <= width && newHeight <= height, "crop must fit")
        var out = self
        out.cx = cx - Double((width - newWidth) / 2)
        out.cy = cy - Double((height - newHeight) / 2)
        out.width = newWidth
        out.height = newHeight
        out.distortion = nil
        return out
    }
}
