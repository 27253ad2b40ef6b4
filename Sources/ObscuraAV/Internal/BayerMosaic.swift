import Imaging
import Sensor

/// A RAW photo's sensor data: one DN per photosite in an RGGB colour-filter pattern.
///
/// The Sensor renders three DN planes (one per colour filter) at every pixel; a Bayer sensor
/// keeps only the filter over each photosite. RGGB (Bayer 1976, US 3,971,065, with the red site
/// top-left) samples red at even rows and even columns, blue at odd rows and odd columns and green
/// elsewhere. The DNs are the sensor's own, black level included, not rescaled to 14 bits: the
/// `kCVPixelFormatType_14Bayer_RGGB` container holds them unchanged, as it holds a 10- or 12-bit
/// sensor's codes on a phone; `blackLevel` and `whiteLevel` say where the range lies.
struct BayerMosaic: Sendable {
    let plane: PixelPlane<UInt16>
    let blackLevel: Int
    let whiteLevel: Int

    /// The filter channel (0 red, 1 green, 2 blue) over photosite (x, y) in RGGB order.
    static func channel(x: Int, y: Int) -> Int {
        switch (y & 1, x & 1) {
        case (0, 0): 0
        case (1, 1): 2
        default: 1
        }
    }

    /// A mosaic of DNs already laid out in RGGB order.
    init(plane: PixelPlane<UInt16>, blackLevel: Int, whiteLevel: Int) {
        self.plane = plane
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
    }

    init(frame: RawFrame, noise: NoiseParameters) {
        plane = PixelPlane(width: frame.width, height: frame.height) { x, y, _ in
            frame.dn(x: x, y: y, channel: Self.channel(x: x, y: y))
        }
        blackLevel = Int(noise.blackLevel.rounded())
        whiteLevel = Int(noise.whiteLevel.rounded())
    }
}
