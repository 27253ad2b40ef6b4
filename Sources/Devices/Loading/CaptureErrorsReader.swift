import ObscuraSupport

/// Reads the device's `capture_errors` section (`CaptureErrors`). Every magnitude is required and checked against
/// a physically possible range, so a typo names its file, line and key rather than skewing a validation.
enum CaptureErrorsReader {
    /// Each key with the range its value must lie in.
    static let ranges: [(key: String, range: ClosedRange<Double>)] = [
        ("flash_intensity_tolerance_percent", 0...50),
        ("flash_power_w", 0...20),
        ("flash_thermal_resistance_k_per_w", 0...200),
        ("led_peak_shift_nm_per_k", 0...1),
        ("mains_frequency_hz", 50...60),
        ("percent_flicker", 0...100),
        ("readout_time_s", 0...0.1),
        ("hand_angular_speed_deg_per_s", 0...20),
        ("stabilisation_stops", 0...8),
        ("sensitivity_tolerance_percent", 0...20),
    ]
    static let keys = ["enabled", "sensitivity_calibrated", "provenance"] + ranges.map(\.key)

    static func read(_ node: YAMLNode) throws -> CaptureErrors {
        let map = try node.mapping(allowedKeys: keys)
        var values: [String: Double] = [:]
        for (key, range) in ranges {
            values[key] = try map.required(key).double(in: range)
        }
        let mains = try map.required("mains_frequency_hz")
        guard values["mains_frequency_hz"] == 50 || values["mains_frequency_hz"] == 60 else {
            throw mains.error("mains run at 50 or 60 Hz")
        }
        return CaptureErrors(
            enabled: try map.optional("enabled")?.bool() ?? true,
            flashIntensityTolerancePercent: values["flash_intensity_tolerance_percent"]!,
            flashPowerWatts: values["flash_power_w"]!,
            flashThermalResistanceKPerW: values["flash_thermal_resistance_k_per_w"]!,
            ledPeakShiftNMPerK: values["led_peak_shift_nm_per_k"]!,
            mainsFrequencyHz: values["mains_frequency_hz"]!,
            percentFlicker: values["percent_flicker"]!,
            readoutTimeSeconds: values["readout_time_s"]!,
            handAngularSpeedDegreesPerSecond: values["hand_angular_speed_deg_per_s"]!,
            stabilisationStops: values["stabilisation_stops"]!,
            sensitivityTolerancePercent: values["sensitivity_tolerance_percent"]!,
            sensitivityCalibrated: try map.optional("sensitivity_calibrated")?.bool() ?? false,
            provenance: try ProvenanceReader.read(map, sectionKeys: keys))
    }
}
