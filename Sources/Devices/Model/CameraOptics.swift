/// Lens and sensor of a physical camera.
public struct CameraOptics: Sendable, Hashable, Codable {
    /// Focal length in millimetres.
    public var focalLengthMM: Double
    /// 35 mm-equivalent focal length in millimetres (the marketing figure).
    public var focalLength35mmEquivalentMM: Double
    /// The lens f-number (ƒ/N).
    public var fNumber: Double
    /// Pixel pitch in micrometres.
    public var pixelSizeUM: Double
    /// The full sensor readout in pixels.
    public var sensor: Dimensions
    /// The nearest distance the lens focuses at, millimetres (`minimumFocusDistance`); nil where the profile gives
    /// no figure.
    public var minimumFocusDistanceMM: Double?
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// Optics from their values.
    public init(
        focalLengthMM: Double, focalLength35mmEquivalentMM: Double, fNumber: Double, pixelSizeUM: Double,
        sensor: Dimensions, minimumFocusDistanceMM: Double? = nil, provenance: ProvenanceMap
    ) {
        self.focalLengthMM = focalLengthMM
        self.focalLength35mmEquivalentMM = focalLength35mmEquivalentMM
        self.fNumber = fNumber
        self.pixelSizeUM = pixelSizeUM
        self.sensor = sensor
        self.minimumFocusDistanceMM = minimumFocusDistanceMM
        self.provenance = provenance
    }

    /// The focal length in pixels, f / pixel pitch: what `intrinsicMatrix` holds as fx = fy
    /// for square pixels at full sensor resolution (spec §10).
    public var focalLengthPixels: Double { focalLengthMM * 1000 / pixelSizeUM }
}

/// The intrinsic matrix values at their reference dimensions (spec §10 [D]).
public struct CameraIntrinsics: Sendable, Hashable, Codable {
    /// Focal lengths in pixels.
    public var fx: Double, fy: Double
    /// Principal point in pixels from the top-left corner.
    public var cx: Double, cy: Double
    /// The dimensions these values refer to (`intrinsicMatrixReferenceDimensions`).
    public var reference: Dimensions
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// Intrinsics from their values.
    public init(fx: Double, fy: Double, cx: Double, cy: Double, reference: Dimensions, provenance: ProvenanceMap) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.reference = reference
        self.provenance = provenance
    }

    /// The values scaled to other dimensions of the same aspect ratio (spec §10: scale by
    /// targetWidth / referenceWidth [T W17]).
    public func scaled(to target: Dimensions) -> CameraIntrinsics {
        let s = Double(target.width) / Double(reference.width)
        return CameraIntrinsics(
            fx: fx * s, fy: fy * s, cx: cx * s, cy: cy * s, reference: target, provenance: provenance)
    }
}

/// The pose of a camera relative to a reference camera (spec §10 `extrinsicMatrix` [D]).
public struct CameraExtrinsics: Sendable, Hashable, Codable {
    /// The id of the reference camera; a camera that is its own reference has identity pose.
    public var reference: String
    /// The 3×3 rotation, row by row (unitless).
    public var rotation: [[Double]]
    /// The translation in millimetres.
    public var translationMM: [Double]
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// Extrinsics from their values.
    public init(reference: String, rotation: [[Double]], translationMM: [Double], provenance: ProvenanceMap) {
        self.reference = reference
        self.rotation = rotation
        self.translationMM = translationMM
        self.provenance = provenance
    }
}
