import Imaging
import Scenes
import Spectra

/// Everything the renderer needs to know about one camera: geometry, optics, spectral response
/// and noise. A device-profile adapter fills it; tests build it directly.
public struct CameraModel: Sendable, Hashable {
    /// Image width, pixels.
    public var width: Int
    /// Image height, pixels.
    public var height: Int
    /// Focal lengths and principal point in pixels (origin top-left), for `width × height`.
    public var fx: Double, fy: Double, cx: Double, cy: Double
    /// Radial distortion applied to images and depth alike; nil for an ideal pinhole.
    public var distortion: LensDistortion?
    /// Relative illumination across the image (vignetting); nil for none.
    public var shading: LensShading?
    /// Relative aperture N.
    public var fNumber: Double
    /// Lens transmittance T, 0…1.
    public var lensTransmittance: Double
    /// Pixel pitch, micrometres: the area that collects light is its square.
    public var pixelPitchMicrometres: Double
    /// Quantum efficiency of the red, green and blue channels (electrons per photon, 0…1).
    public var quantumEfficiency: (red: Spectrum, green: Spectrum, blue: Spectrum)
    /// Noise and conversion figures.
    public var noise: NoiseParameters
    /// Pose relative to the device: camera-to-device rotation and optical-centre offset in the
    /// device frame (metres; device +X right, +Y down, +Z forward).
    public var rotationInDevice: Rotation
    /// See `rotationInDevice`.
    public var positionInDevice: Vector3

    /// A camera model.
    public init(
        width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double,
        distortion: LensDistortion? = nil, fNumber: Double, lensTransmittance: Double = 0.9,
        pixelPitchMicrometres: Double, quantumEfficiency: (red: Spectrum, green: Spectrum, blue: Spectrum),
        noise: NoiseParameters = NoiseParameters(), rotationInDevice: Rotation = .identity,
        positionInDevice: Vector3 = .zero, shading: LensShading? = nil
    ) {
        self.width = width
        self.height = height
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.distortion = distortion
        self.shading = shading
        self.fNumber = fNumber
        self.lensTransmittance = lensTransmittance
        self.pixelPitchMicrometres = pixelPitchMicrometres
        self.quantumEfficiency = quantumEfficiency
        self.noise = noise
        self.rotationInDevice = rotationInDevice
        self.positionInDevice = positionInDevice
    }

    /// The same camera delivering a `width × height` image: intrinsics and distortion centre
    /// scale with the width (the aspect ratio is kept by the caller). The pixel pitch and noise are
    /// kept, so each pixel has the signal and noise of a pixel of the picture it stands for (a stream
    /// rendered small and scaled up to its format's size).
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraModel {
        let s = Double(newWidth) / Double(width)
        let sy = Double(newHeight) / Double(height)
        var out = self
        out.width = newWidth
        out.height = newHeight
        out.fx = fx * s
        out.fy = fy * sy
        out.cx = cx * s
        out.cy = cy * sy
        out.distortion = distortion?.scaled(by: s)
        return out
    }

    public static func == (a: CameraModel, b: CameraModel) -> Bool {
        a.width == b.width && a.height == b.height && a.fx == b.fx && a.fy == b.fy && a.cx == b.cx
            && a.cy == b.cy && a.distortion == b.distortion && a.fNumber == b.fNumber
            && a.lensTransmittance == b.lensTransmittance && a.pixelPitchMicrometres == b.pixelPitchMicrometres
            && a.quantumEfficiency.red == b.quantumEfficiency.red
            && a.quantumEfficiency.green == b.quantumEfficiency.green
            && a.quantumEfficiency.blue == b.quantumEfficiency.blue && a.noise == b.noise
            && a.rotationInDevice == b.rotationInDevice && a.positionInDevice == b.positionInDevice
            && a.shading == b.shading
    }

    public func hash(into h: inout Hasher) {
        h.combine(width)
        h.combine(height)
        h.combine(fx)
        h.combine(fNumber)
        h.combine(quantumEfficiency.green)
    }
}
