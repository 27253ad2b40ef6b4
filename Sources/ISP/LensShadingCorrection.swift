import Imaging
import Sensor

/// Lens-shading correction, as a phone's ISP applies it early in the pipeline: each pixel's camera
/// RGB is multiplied by a gain that puts back the profile's fraction f of the light the lens lost
/// there, g = 1 + f·(1/R − 1) for relative illumination R, so a uniformly lit flat field comes out as
/// R + f·(1 − R): flat for f = 1, and with a residual fall-off below it.
///
/// Phones leave some vignetting: a full correction multiplies a corner's noise by 1/R along with its
/// signal (2.9× at the 0.35 a cos⁴ corner of a 26 mm lens reaches), and ISP tunings trade a little
/// fall-off for less of that. The fraction and the curve come from the profile's `shading` section,
/// each with its provenance. The curve is the unit's factory calibration as well as its truth (our
/// choice: phones calibrate lens shading per module at the factory, and the residual is far below the
/// noise). Clipping is decided on the raw values, before the gain, where the sensor saturated. Without
/// shading every gain is 1 and the step changes nothing.
///
/// A measurement corrects completely: Constant Color divides the flash-only signal by the flash's
/// irradiance to recover reflectance, and a residual fall-off there would darken the corners' colours.
struct LensShadingCorrection {
    let camera: CameraModel
    /// The share f of the lost light put back.
    let fraction: Double

    /// The correction of `camera`'s shading: the profile's fraction, or all of it when `completely`.
    init(camera: CameraModel, completely: Bool = false) {
        self.camera = camera
        fraction = completely ? 1 : camera.shading?.correctedFraction ?? 1
    }

    /// Whether any gain differs from 1.
    var isActive: Bool { camera.shading != nil && fraction > 0 }

    /// The gains 1 + f·(1/R − 1) of row `y` into `out` (`camera.width` values).
    func gains(row y: Int, into out: UnsafeMutablePointer<Float>) {
        guard isActive else {
            out.update(repeating: 1, count: camera.width)
            return
        }
        camera.relativeIllumination(row: y, into: out)
        let f = Float(fraction)
        if f == 1 {
            for x in 0..<camera.width { out[x] = 1 / out[x] }
        } else {
            for x in 0..<camera.width { out[x] = 1 + f * (1 / out[x] - 1) }
        }
    }

    /// Calls `body` with a buffer of one row's gains, `camera.width` values.
    static func withRow<R>(width: Int, _ body: (UnsafeMutablePointer<Float>) -> R) -> R {
        let row = UnsafeMutablePointer<Float>.allocate(capacity: max(width, 1))
        defer { row.deallocate() }
        return body(row)
    }
}

extension DNGFile.GainMap {
    /// A camera's lens-shading correction (`LensShadingCorrection`) as a RAW photo's DNG carries it: one gain map
    /// over the whole mosaic (every site, one plane), a grid of `pointsAcross` points across and proportionally
    /// down, each the gain 1 + f·(1/R − 1) the correction applies there, so that a developer applying OpcodeList2
    /// leaves the fall-off the processed photo leaves. Nil without shading.
    public static func lensShadingCorrection(camera: CameraModel, pointsAcross: Int = 33) -> Self? {
        guard let shading = camera.shading else { return nil }
        let f = shading.correctedFraction
        let (w, h) = (Double(camera.width), Double(camera.height))
        let pointsH = max(pointsAcross, 2)
        let pointsV = max(2, Int((Double(pointsH - 1) * h / w).rounded()) + 1)
        var gains: [Float] = []
        for i in 0..<pointsV {
            for j in 0..<pointsH {
                // A grid point at relative place (j, i) / (points − 1) lies where a pixel centre (x + ½) / width would.
                let u = (Double(j) / Double(pointsH - 1) * w - camera.cx) / camera.fx
                let v = (Double(i) / Double(pointsV - 1) * h - camera.cy) / camera.fy
                let r = shading.relativeIllumination(tangentSquared: u * u + v * v)
                gains.append(Float(1 + f * (1 / r - 1)))
            }
        }
        return DNGFile.GainMap(
            top: 0, left: 0, bottom: camera.height, right: camera.width, pointsV: pointsV, pointsH: pointsH,
            spacingV: 1 / Double(pointsV - 1), spacingH: 1 / Double(pointsH - 1), gains: gains)
    }
}
