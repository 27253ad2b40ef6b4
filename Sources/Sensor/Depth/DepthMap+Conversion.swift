import Devices

extension DepthMap {
    /// The map in another of the four formats (spec §9 `converting(toDepthDataType:)` [D]).
    ///
    /// Disparity and depth are reciprocals, so a change of kind takes 1/x element-wise; a change
    /// of precision rounds to Float16 or widens exactly. Holes (NaN) stay holes; 0 and infinity
    /// swap, as IEEE arithmetic gives them. The kind is converted in 32-bit floats before any
    /// rounding, so hdis → hdep rounds once.
    public func converting(to target: DepthPixelFormat) -> DepthMap {
        let newValues = target.isDisparity == isDisparity ? values : values.map { 1 / $0 }
        return DepthMap(
            width: width, height: height, format: target, values: newValues, accuracy: accuracy, quality: quality,
            isFiltered: isFiltered, calibration: calibration)
    }
}
