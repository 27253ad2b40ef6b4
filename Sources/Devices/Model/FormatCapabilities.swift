/// What a real device reports for one format, where the profile states it (spec §2.3).
///
/// Each value is what Apple's `AVCaptureDevice.Format` answers on the device the profile
/// describes, taken from a format list dumped on that device. A nil value states nothing: the
/// emulator then derives the answer from the camera's sensor and optics, as it did before these
/// values existed, so a profile written without them keeps working.
public struct FormatCapabilities: Sendable, Hashable, Codable {
    /// `isVideoBinned`: the sensor sums neighbouring pixels to read this format out.
    public var binned: Bool?
    /// `videoFieldOfView`: the horizontal field of view in degrees, in (0, 180).
    public var fieldOfViewDegrees: Double?
    /// The modes `isVideoStabilizationModeSupported(_:)` accepts; `off` is always among them.
    public var stabilizationModes: [StabilizationMode]?
    /// `isVideoHDRSupported`.
    public var videoHDR: Bool?
    /// `AVCameraCalibrationData.intrinsicMatrixReferenceDimensions` of pictures and depth maps
    /// taken with this format; always the format's aspect ratio.
    public var intrinsicReference: Dimensions?
    /// How the sensor is read out for this format (`FormatReadout`); nil derives it from the sizes.
    public var readout: FormatReadout?

    /// Capabilities from their values; nothing stated by default.
    public init(
        binned: Bool? = nil, fieldOfViewDegrees: Double? = nil, stabilizationModes: [StabilizationMode]? = nil,
        videoHDR: Bool? = nil, intrinsicReference: Dimensions? = nil, readout: FormatReadout? = nil
    ) {
        self.readout = readout
        self.binned = binned
        self.fieldOfViewDegrees = fieldOfViewDegrees
        self.stabilizationModes = stabilizationModes
        self.videoHDR = videoHDR
        self.intrinsicReference = intrinsicReference
    }
}
