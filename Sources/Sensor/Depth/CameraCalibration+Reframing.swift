import Devices
import Imaging

extension CameraCalibration {
    /// The same camera's calibration referred to other dimensions: the reference image scaled by
    /// s = max(W / W_ref, H / H_ref) and cut to `reference` about its centre.
    ///
    /// This is the map `CameraModel` uses to cut a format from the sensor, so the calibration
    /// describes the picture that was rendered: focal lengths scale by s, the principal point and
    /// the distortion centre scale and shift by the crop, and a pixel is 1/s as large. The radial
    /// tables are relative elongations out to the farthest corner of the picture, so they carry over.
    /// With the reference's own aspect ratio and size nothing changes.
    public func reframed(to reference: Dimensions) -> CameraCalibration {
        guard reference.width > 0, reference.height > 0, referenceWidth > 0, referenceHeight > 0 else { return self }
        let (w, h) = (Double(reference.width), Double(reference.height))
        let s = max(w / referenceWidth, h / referenceHeight)
        let offset = SIMD2((referenceWidth * s - w) / 2, (referenceHeight * s - h) / 2)
        let centre = distortionCenter == .zero ? distortionCenter : distortionCenter * s - offset
        return CameraCalibration(
            fx: fx * s, fy: fy * s, cx: cx * s - offset.x, cy: cy * s - offset.y, referenceWidth: w, referenceHeight: h,
            rotation: rotation, translationMM: translationMM, pixelSizeMM: pixelSizeMM / s, lookupTable: lookupTable,
            inverseLookupTable: inverseLookupTable, distortionCenter: centre)
    }

    /// The calibration referred to the centred crop of its reference dimensions at `picture`'s aspect
    /// ratio, at the same pixel pitch: the reference a 16:9 picture from a 4:3 sensor has.
    public func cropped(toAspectOf picture: Dimensions) -> CameraCalibration {
        let own = Dimensions(width: Int(referenceWidth.rounded()), height: Int(referenceHeight.rounded()))
        return reframed(to: own.centredCrop(toAspectOf: picture))
    }
}
