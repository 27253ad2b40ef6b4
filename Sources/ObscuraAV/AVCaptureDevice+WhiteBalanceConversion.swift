import CaptureRules
import Devices
import Foundation
import ISP
import Sensor
import Spectra

extension AVCaptureDevice {
    /// A white point as a correlated colour temperature and a tint.
    public struct WhiteBalanceTemperatureAndTintValues: Sendable, Hashable {
        /// The correlated colour temperature in kelvin.
        public var temperature: Float
        /// The tint, −150 to +150. Apple documents the range but not the unit; here it is the
        /// distance from the Planckian locus in CIE 1960 uv (Duv) times 3,000, positive on the green
        /// side, so that the range spans Duv ±0.05, the band in which CCT is defined (our choice).
        public var tint: Float

        public init() {
            temperature = 0
            tint = 0
        }

        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }

        // The standard values (iOS 26; Capture rules §2.4). Apple names the light each suits but not its values;
        // ours (our choice) are the temperatures of the standard lights of those names, on the Planckian locus
        // (tint 0): a photographic tungsten lamp, CIE F2 (cool white fluorescent), and the CIE daylights D55, D65
        // (overcast sky) and D75 (north sky, shade).

        /// A tungsten (photographic incandescent) lamp: 3200 K.
        public static let tungsten = Self(temperature: 3200, tint: 0)
        /// A cool white fluorescent tube (CIE F2): 4230 K.
        public static let fluorescent = Self(temperature: 4230, tint: 0)
        /// Natural daylight (CIE D55): 5503 K.
        public static let daylight = Self(temperature: 5503, tint: 0)
        /// Natural cloudy daylight (CIE D65): 6504 K.
        public static let cloudy = Self(temperature: 6504, tint: 0)
        /// Daylight in heavy shade (CIE D75): 7504 K.
        public static let shadow = Self(temperature: 7504, tint: 0)
    }

    /// A white point as CIE 1931 xy chromaticity.
    public struct WhiteBalanceChromaticityValues: Sendable, Hashable {
        public var x: Float
        public var y: Float

        public init() {
            x = 0
            y = 0
        }

        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }
    }

    /// Duv per unit of tint (see `WhiteBalanceTemperatureAndTintValues.tint`).
    private static let tintScale = 3000.0

    /// The chromaticity of the light these gains balance: the gains' neutral (1/gain per channel)
    /// is the camera's white, taken to XYZ through the camera's spectral sensitivities. Each gain
    /// must lie in [1, maxWhiteBalanceGain] (`NSInvalidArgumentException`, as Apple documents).
    public func chromaticityValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceChromaticityValues {
        checkGains(whiteBalanceGains, "chromaticityValuesForDeviceWhiteBalanceGains:")
        let white = SIMD3(
            1 / Double(whiteBalanceGains.redGain), 1 / Double(whiteBalanceGains.greenGain),
            1 / Double(whiteBalanceGains.blueGain))
        guard let xy = whitePointConversion?.chromaticity(ofCameraWhite: white) else {
            return WhiteBalanceChromaticityValues()
        }
        return WhiteBalanceChromaticityValues(x: Float(xy.x), y: Float(xy.y))
    }

    /// The gains that make a light of this chromaticity neutral, scaled so the smallest is 1, as
    /// device gains are. They may exceed `maxWhiteBalanceGain`: check before locking with them.
    /// x and y must lie in [0, 1] (`NSInvalidArgumentException`, as Apple documents).
    public func deviceWhiteBalanceGains(for chromaticityValues: WhiteBalanceChromaticityValues) -> WhiteBalanceGains {
        let (x, y) = (chromaticityValues.x, chromaticityValues.y)
        guard (0...1).contains(x), (0...1).contains(y) else {
            Violation.invalidArgument(
                "-[AVCaptureDevice deviceWhiteBalanceGainsForChromaticityValues:]",
                "Chromaticity values (\(x), \(y)) are out of range [0, 1]",
                CaptureRule("§2.4", .documented, "chromaticity values lie in [0, 1]")
            ).raise()
        }
        return gains(for: Chromaticity(x: Double(x), y: Double(y)))
    }

    /// The temperature and tint of the light these gains balance: their chromaticity's CCT and Duv
    /// by Ohno's method (2014). Each gain must lie in [1, maxWhiteBalanceGain].
    public func temperatureAndTintValues(for whiteBalanceGains: WhiteBalanceGains)
        -> WhiteBalanceTemperatureAndTintValues
    {
        checkGains(whiteBalanceGains, "temperatureAndTintValuesForDeviceWhiteBalanceGains:")
        let xy = chromaticityValues(for: whiteBalanceGains)
        guard xy.y > 0 else { return WhiteBalanceTemperatureAndTintValues() }
        let (cct, duv) = CCT.cctAndDuv(of: Chromaticity(x: Double(xy.x), y: Double(xy.y)))
        return WhiteBalanceTemperatureAndTintValues(temperature: Float(cct), tint: Float(duv * Self.tintScale))
    }

    /// The gains for a temperature and tint: the chromaticity at that CCT and Duv (Ohno 2014), then
    /// as `deviceWhiteBalanceGains(for:)` with chromaticity. Any values may be passed; the gains may
    /// fall outside [1, maxWhiteBalanceGain], as Apple documents.
    public func deviceWhiteBalanceGains(for tempAndTintValues: WhiteBalanceTemperatureAndTintValues)
        -> WhiteBalanceGains
    {
        let cct = min(max(Double(tempAndTintValues.temperature), CCT.searchRange.lowerBound), CCT.searchRange.upperBound)
        let xy = CCT.chromaticity(cct: cct, duv: Double(tempAndTintValues.tint) / Self.tintScale)
        return gains(for: xy)
    }

    private func gains(for xy: Chromaticity) -> WhiteBalanceGains {
        guard let white = whitePointConversion?.cameraWhite(of: xy) else {
            return WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1)
        }
        let g = SIMD3(1 / white.x, 1 / white.y, 1 / white.z)
        let scaled = g / g.min()
        return WhiteBalanceGains(redGain: Float(scaled.x), greenGain: Float(scaled.y), blueGain: Float(scaled.z))
    }

    /// Apple raises for gains outside [1, maxWhiteBalanceGain] in the gains-to-values conversions.
    private func checkGains(_ gains: WhiteBalanceGains, _ selector: String) {
        let max = maxWhiteBalanceGain
        let all = [gains.redGain, gains.greenGain, gains.blueGain]
        guard all.allSatisfy({ $0 >= 1 && $0 <= max }) else {
            Violation.whiteBalanceGainsOutOfRange(gains, max: max, selector: selector).raise()
        }
    }

    /// The camera's white-point conversion, from the sensitivities of the camera that renders it.
    private var whitePointConversion: WhitePointConversion? {
        WhitePointConversions.shared.conversion(device: deviceProfile, camera: camera)
    }
}

/// One fitted conversion per camera, as the fit reads every light's spectrum.
final class WhitePointConversions: @unchecked Sendable {
    static let shared = WhitePointConversions()
    private let lock = NSLock()
    private var fitted: [String: WhitePointConversion?] = [:]

    func conversion(device: DeviceProfile, camera: CameraProfile) -> WhitePointConversion? {
        let key = "\(device.id)/\(camera.id)"
        if let known = lock.withLock({ fitted[key] }) { return known }
        let rendering = (try? device.renderingCamera(for: camera)) ?? camera
        let made = (try? CameraModel(device: device, camera: rendering, width: 4, height: 3)).flatMap {
            WhitePointConversion(camera: $0)
        }
        lock.withLock { fitted[key] = made }
        return made
    }
}
