/// One capture device of a profile: a physical camera or a virtual one built from others.
public struct CameraProfile: Sendable, Hashable, Codable {
    /// Unique id inside the profile (e.g. `back-wide`).
    public var id: String
    /// Apple's device type.
    public var deviceType: DeviceType
    /// The side it faces.
    public var position: CameraPosition
    /// For dual, dual-wide and triple cameras: constituent camera ids in Apple's order (spec §2.2).
    public var constituents: [String]
    /// For TrueDepth and LiDAR cameras: the physical camera whose sensor delivers their video
    /// (they share it with the front or back wide camera); nil otherwise.
    public var sharesSensorWith: String?
    /// Lens and sensor (physical cameras only).
    public var optics: CameraOptics?
    /// Intrinsic matrix (physical cameras only).
    public var intrinsics: CameraIntrinsics?
    /// Pose relative to a reference camera (physical cameras only).
    public var extrinsics: CameraExtrinsics?
    /// Lens distortion; nil means uncalibrated.
    public var distortion: LensDistortion?
    /// Relative illumination across the image (vignetting); nil means none (physical cameras only).
    public var shading: LensShadingProfile?
    /// RGB spectral sensitivities (physical cameras only).
    public var sensitivities: SpectralSensitivities?
    /// Noise and ADC model (physical cameras only).
    public var noise: NoiseModel?
    /// The device formats, in `formats` order.
    public var formats: [CaptureFormat]
    /// Which format each session preset selects, by format id.
    public var presets: [SessionPreset: String]
    /// The photo output's `supportedFlashModes` with this camera (spec §2.7, §3.1).
    public var flashModes: [FlashMode]
    /// Photo-output and connection capabilities.
    public var features: CameraFeatures
    /// Depth measurement, for cameras with depth formats.
    public var depth: DepthCapability?

    /// A camera from its values.
    public init(
        id: String, deviceType: DeviceType, position: CameraPosition, constituents: [String],
        sharesSensorWith: String?, optics: CameraOptics?, intrinsics: CameraIntrinsics?,
        extrinsics: CameraExtrinsics?, distortion: LensDistortion?, sensitivities: SpectralSensitivities?,
        noise: NoiseModel?, formats: [CaptureFormat], presets: [SessionPreset: String], flashModes: [FlashMode],
        features: CameraFeatures, depth: DepthCapability?, shading: LensShadingProfile? = nil
    ) {
        self.id = id
        self.deviceType = deviceType
        self.position = position
        self.constituents = constituents
        self.sharesSensorWith = sharesSensorWith
        self.optics = optics
        self.intrinsics = intrinsics
        self.extrinsics = extrinsics
        self.distortion = distortion
        self.shading = shading
        self.sensitivities = sensitivities
        self.noise = noise
        self.formats = formats
        self.presets = presets
        self.flashModes = flashModes
        self.features = features
        self.depth = depth
    }

    /// `isVirtualDevice` as Apple reports it: multi-camera types and TrueDepth (spec §2.2 [D]
    /// names the dual and TrueDepth cameras as examples).
    public var isVirtualDevice: Bool { deviceType.isMultiCamera || deviceType == .builtInTrueDepthCamera }

    /// Whether any format offers depth.
    public var hasDepthFormats: Bool { formats.contains { !$0.depthFormats.isEmpty } }

    /// The format a preset selects, if the camera supports the preset.
    public func format(for preset: SessionPreset) -> CaptureFormat? {
        guard let id = presets[preset] else { return nil }
        return formats.first { $0.id == id }
    }

    /// Whether Constant Color is supported with a format (format override, else the camera's).
    public func supportsConstantColor(with format: CaptureFormat) -> Bool {
        format.constantColor ?? features.constantColor
    }
}
