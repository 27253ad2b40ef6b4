/// Capabilities of a camera that the photo output and connections report (spec §3.1, §1.5, §11).
public struct CameraFeatures: Sendable, Hashable, Codable {
    /// `isConstantColorSupported` for this camera's formats unless a format overrides it.
    public var constantColor: Bool
    /// `isVirtualDeviceConstituentPhotoDeliverySupported`.
    public var constituentPhotoDelivery: Bool
    /// `isCameraCalibrationDataDeliverySupported` (with constituent delivery, spec §3.1).
    public var calibrationDataDelivery: Bool
    /// `isCameraIntrinsicMatrixDeliverySupported` on a video data output connection (spec §1.5).
    public var intrinsicMatrixDelivery: Bool
    /// The highest `maxPhotoQualityPrioritization` the camera allows.
    public var maxPhotoQualityPrioritization: QualityPrioritization
    /// How the camera focuses; nil when the profile does not say (phase detection is then assumed).
    public var autoFocus: AutoFocusKind?
    /// The mattes photos can carry; nil for none.
    public var mattes: MatteSupport?
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// Features from their values.
    public init(
        constantColor: Bool, constituentPhotoDelivery: Bool, calibrationDataDelivery: Bool,
        intrinsicMatrixDelivery: Bool, maxPhotoQualityPrioritization: QualityPrioritization,
        autoFocus: AutoFocusKind? = nil, mattes: MatteSupport? = nil, provenance: ProvenanceMap
    ) {
        self.constantColor = constantColor
        self.constituentPhotoDelivery = constituentPhotoDelivery
        self.calibrationDataDelivery = calibrationDataDelivery
        self.intrinsicMatrixDelivery = intrinsicMatrixDelivery
        self.maxPhotoQualityPrioritization = maxPhotoQualityPrioritization
        self.autoFocus = autoFocus
        self.mattes = mattes
        self.provenance = provenance
    }
}

/// How a depth-capable camera measures depth, and how well.
public struct DepthCapability: Sendable, Hashable, Codable {
    /// The measuring principle.
    public var technology: DepthTechnology
    /// `AVDepthData.depthDataAccuracy` of its maps (spec §9).
    public var accuracy: DepthAccuracy
    /// For disparity: the stereo baseline between the first two constituents, in millimetres.
    public var baselineMM: Double?
    /// Nearest usable distance in metres.
    public var minRangeM: Double
    /// Farthest usable distance in metres.
    public var maxRangeM: Double
    /// Depth error at 1 m, relative (0.01 = 1 %).
    public var relativeErrorAt1m: Double
    /// Where holes appear.
    public var holes: DepthHoleBehavior
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// A depth capability from its values.
    public init(
        technology: DepthTechnology, accuracy: DepthAccuracy, baselineMM: Double?, minRangeM: Double,
        maxRangeM: Double, relativeErrorAt1m: Double, holes: DepthHoleBehavior, provenance: ProvenanceMap
    ) {
        self.technology = technology
        self.accuracy = accuracy
        self.baselineMM = baselineMM
        self.minRangeM = minRangeM
        self.maxRangeM = maxRangeM
        self.relativeErrorAt1m = relativeErrorAt1m
        self.holes = holes
        self.provenance = provenance
    }
}
