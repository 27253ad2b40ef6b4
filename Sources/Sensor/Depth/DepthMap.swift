import Devices
import Imaging

/// A single-channel depth or disparity map, as a depth sensor or a stereo pair delivers it.
///
/// Values are row-major, top-left first. Depth is in metres, disparity in 1/metres (normalised
/// disparity, the reciprocal of depth; avfoundation-capture spec §9 [D]). Holes are NaN. A map
/// in a half-precision format (`hdis`, `hdep`) holds exactly the values a Float16 buffer can
/// hold, so reading it back never shows more precision than the format has.
///
/// The map carries the lens distortion of the image it belongs to (spec §9 [D]); its
/// `calibration` rectifies it.
public struct DepthMap: Sendable, Hashable {
    /// Width and height, pixels.
    public let width: Int, height: Int
    /// The pixel format: disparity or depth, in 16- or 32-bit floats.
    public let format: DepthPixelFormat
    /// The values, `width × height`, row-major; NaN marks a hole.
    public let values: [Float]
    /// Whether the scale is reliable (absolute) or only the ordering (relative) (spec §9 [D]).
    public var accuracy: DepthAccuracy
    /// Whether the map has too many invalid values to trust (spec §9 [D]).
    public var quality: DepthQuality
    /// Whether holes were filled and the values smoothed (spec §9 `isDepthDataFiltered` [D]).
    public var isFiltered: Bool
    /// The calibration of the camera whose image this map belongs to, if known.
    public var calibration: CameraCalibration?

    /// A map from its values; half-precision formats round every value to Float16.
    public init(
        width: Int, height: Int, format: DepthPixelFormat, values: [Float], accuracy: DepthAccuracy,
        quality: DepthQuality = .high, isFiltered: Bool = false, calibration: CameraCalibration? = nil
    ) {
        precondition(width > 0 && height > 0, "a depth map needs a positive size, not \(width)x\(height)")
        precondition(values.count == width * height, "a \(width)x\(height) depth map needs \(width * height) values")
        self.width = width
        self.height = height
        self.format = format
        self.values = format.isHalfPrecision ? values.map { Float(Float16($0)) } : values
        self.accuracy = accuracy
        self.quality = quality
        self.isFiltered = isFiltered
        self.calibration = calibration
    }

    /// The value at a pixel (NaN for a hole).
    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }

    /// Whether the values are disparities (1/m) rather than depths (m).
    public var isDisparity: Bool { format.isDisparity }

    /// The fraction of pixels that are holes (NaN).
    public var holeFraction: Double {
        Double(values.reduce(0) { $0 + ($1.isNaN ? 1 : 0) }) / Double(values.count)
    }

    /// The values as a 32-bit float plane (for `fdis` / `fdep` buffers, or any format widened).
    public var float32Plane: PixelPlane<Float> { PixelPlane(width: width, height: height, elements: values) }

    /// The values as a 16-bit float plane (for `hdis` / `hdep` buffers, or any format narrowed).
    public var float16Plane: PixelPlane<Float16> {
        PixelPlane(width: width, height: height, elements: values.lazy.map { Float16($0) })
    }

    /// The same map with other values and the same metadata.
    public func replacingValues(_ newValues: [Float]) -> DepthMap {
        DepthMap(
            width: width, height: height, format: format, values: newValues, accuracy: accuracy, quality: quality,
            isFiltered: isFiltered, calibration: calibration)
    }
}

/// `AVDepthData.Quality` (spec §9 [D]): low means the map holds too many invalid values.
public enum DepthQuality: Int, Sendable, Hashable, CaseIterable {
    case low = 0, high = 1

    /// The quality of a raw map with this hole fraction. Our choice [I]: more than 10 % holes is
    /// low, since Apple gives no threshold.
    public init(holeFraction: Double) {
        self = holeFraction > 0.1 ? .low : .high
    }
}

extension DepthPixelFormat {
    /// Whether the format holds disparity (1/m) rather than depth (m).
    public var isDisparity: Bool { self == .disparityFloat16 || self == .disparityFloat32 }

    /// Whether the format stores 16-bit floats.
    public var isHalfPrecision: Bool { self == .disparityFloat16 || self == .depthFloat16 }

    /// The format with the given kind and precision.
    public init(disparity: Bool, halfPrecision: Bool) {
        switch (disparity, halfPrecision) {
        case (true, true): self = .disparityFloat16
        case (true, false): self = .disparityFloat32
        case (false, true): self = .depthFloat16
        case (false, false): self = .depthFloat32
        }
    }
}
