import Foundation
import Imaging
import Spectra

/// A lit screen on a plane: a picture shown as light, as when a phone is pointed at a monitor.
///
/// The panel is modelled as a typical OLED phone or monitor panel: three narrow emission bands, Gaussian
/// in wavelength, at `DisplayPanel.typical`'s peaks and widths (our model of the shape measured panels
/// share; a real panel's bands differ by a few nanometres). The picture's pixels are colour-managed as
/// an operating system shows them: each encoded value is decoded with its space's curve (sRGB, IEC
/// 61966-2-1:1999; Display P3, whose primaries are those of SMPTE EG 432-1 with the D65 white), turned
/// into CIE XYZ, and the panel drives its three bands to give that XYZ, white at `nits` cd/m². Colours
/// outside the panel's gamut are clipped to it, as a panel does.
///
/// The screen is seen by the camera directly: its light is added to what the camera receives from the
/// screen's surface, the same in every direction (a Lambertian emitter). It lights no other object in
/// the scene: a screen of a few hundred nits adds a few lux to objects nearby, far below the room light
/// of the scenes it stands in (our choice, documented in the Scene format article). Its surface is a
/// glossy black panel that reflects the room's light as well.
public enum Screen {
    /// The screen of a picture: an image texture whose palette holds one emitting material per
    /// quantized colour (`PhotoPrint.levels` steps per channel). Alpha is composited over black (an
    /// unlit pixel). Pictures tagged Display P3 are read as Display P3, any other as sRGB.
    public static func surface(of image: PNGImage, nits: Double, panel: DisplayPanel = .typical) -> Surface {
        let space: RGBColorSpace = image.colorSpace == .displayP3 ? .displayP3 : .sRGB
        let (indices, keys) = PhotoPrint.quantize(image, background: 0)
        let palette = keys.map { key in
            material(emitting: PhotoPrint.colour(of: key), in: space, nits: nits, panel: panel)
        }
        return .image(width: image.width, height: image.height, indices: indices, palette: palette)
    }

    /// The diffuse reflectance of the panel's black front: a few tenths of a percent, and a 4 % glossy
    /// reflection from its cover glass (the Fresnel reflectance of glass at normal incidence).
    static let frontReflectance = 0.005
    static let coverGlassSpecular = 0.04

    /// The panel's material showing one encoded colour.
    public static func material(
        emitting encoded: SIMD3<Double>, in space: RGBColorSpace, nits: Double, panel: DisplayPanel = .typical
    ) -> Material {
        Material(
            name: "screen", reflectance: .constant(frontReflectance), specularStrength: coverGlassSpecular,
            roughness: 0.2, emission: panel.radiance(encoded: encoded, in: space, whiteNits: nits))
    }
}

/// A display panel's three emission bands and how it drives them to show a colour.
public struct DisplayPanel: Sendable, Hashable {
    /// One band: a Gaussian of peak wavelength and full width at half maximum, nanometres.
    public struct Band: Sendable, Hashable {
        /// The wavelength of the band's peak, nm.
        public var peak: Double
        /// The band's full width at half maximum, nm.
        public var fullWidth: Double

        /// A band.
        public init(peak: Double, fullWidth: Double) {
            self.peak = peak
            self.fullWidth = fullWidth
        }

        /// The band's spectral shape, peak 1.
        public var spectrum: Spectrum {
            let sigma = fullWidth / (2 * (2 * log(2.0)).squareRoot())
            return Spectrum { lambda in exp(-0.5 * pow((lambda - peak) / sigma, 2)) }
        }
    }

    /// The long-wavelength band.
    public var red: Band
    /// The middle band.
    public var green: Band
    /// The short-wavelength band.
    public var blue: Band

    /// A panel of three bands.
    public init(red: Band, green: Band, blue: Band) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A typical OLED panel: bands near 628, 528 and 458 nm, 24, 30 and 22 nm wide (our model).
    public static let typical = DisplayPanel(
        red: Band(peak: 628, fullWidth: 24), green: Band(peak: 528, fullWidth: 30), blue: Band(peak: 458, fullWidth: 22))

    /// The bands' spectra, each scaled to radiance per unit drive (W·sr⁻¹·m⁻²·nm⁻¹ per cd/m² of Y).
    public var primaries: [Spectrum] {
        [red, green, blue].map { band in
            let shape = band.spectrum
            let luminance = Photometry.maximumLuminousEfficacy * shape.integral(times: CIE1931.yBar)
            return shape * (1 / luminance)
        }
    }

    /// The CIE 1931 chromaticity of each band (red, green, blue).
    public var chromaticities: [Chromaticity] {
        [red, green, blue].map { CIE1931.tristimulus($0.spectrum).chromaticity }
    }

    /// The radiance that shows `encoded` (encoded RGB in `space`, 0…1) with the space's white at
    /// `whiteNits` cd/m².
    public func radiance(encoded: SIMD3<Double>, in space: RGBColorSpace, whiteNits: Double) -> Spectrum {
        let linear = SIMD3(
            space.transfer.decode(encoded.x), space.transfer.decode(encoded.y), space.transfer.decode(encoded.z))
        let target = (space.toXYZ * linear) * whiteNits
        let bands = primaries
        // Drive per band: XYZ (in cd/m² for Y) of each band at unit drive, inverted.
        let columns = bands.map { s in
            CIE1931.tristimulus(s).vector * Photometry.maximumLuminousEfficacy
        }
        let toXYZ = Matrix3(rows: [
            [columns[0].x, columns[1].x, columns[2].x],
            [columns[0].y, columns[1].y, columns[2].y],
            [columns[0].z, columns[1].z, columns[2].z],
        ])
        guard let fromXYZ = toXYZ.inverse else { return .constant(0) }
        let drive = pointwiseMax(fromXYZ * target, .zero)
        return bands[0] * drive.x + bands[1] * drive.y + bands[2] * drive.z
    }
}
