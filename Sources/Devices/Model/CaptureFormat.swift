/// A frame-rate range of a format, in frames per second (`AVFrameRateRange`, spec §2.3).
public struct FrameRateRange: Sendable, Hashable, Codable {
    /// Lowest rate; 1 / `maxFrameDuration`.
    public var minFPS: Double
    /// Highest rate; 1 / `minFrameDuration`.
    public var maxFPS: Double

    /// A range from its bounds.
    public init(minFPS: Double, maxFPS: Double) {
        self.minFPS = minFPS
        self.maxFPS = maxFPS
    }
}

/// A depth format offered with a video format (`supportedDepthDataFormats`, spec §2.3, §7).
public struct DepthFormat: Sendable, Hashable, Codable {
    /// Depth map size; always the video format's aspect ratio (spec §2.3 [D]).
    public var dimensions: Dimensions
    /// The depth and disparity pixel formats offered at this size (spec §9).
    public var pixelFormats: [DepthPixelFormat]
    /// The highest depth rate in frames per second (spec §2.5, §7).
    public var maxFPS: Double

    /// A depth format from its values.
    public init(dimensions: Dimensions, pixelFormats: [DepthPixelFormat], maxFPS: Double) {
        self.dimensions = dimensions
        self.pixelFormats = pixelFormats
        self.maxFPS = maxFPS
    }
}

/// One `AVCaptureDevice.Format` of a camera (spec §2.3).
public struct CaptureFormat: Sendable, Hashable, Codable {
    /// The format's id inside its camera, used by presets (e.g. `4032x3024-420f`).
    public var id: String
    /// Video dimensions.
    public var video: Dimensions
    /// Video pixel format.
    public var pixelFormat: VideoPixelFormat
    /// Supported frame-rate ranges.
    public var frameRateRanges: [FrameRateRange]
    /// Supported colour spaces, narrowest first; sRGB is always present (spec §2.3 [D]).
    public var colorSpaces: [CaptureColorSpace]
    /// `supportedMaxPhotoDimensions`, ascending (spec §2.3).
    public var photoDimensions: [Dimensions]
    /// `isHighestPhotoQualitySupported` (spec §2.3).
    public var highestPhotoQuality: Bool
    /// `supportedDepthDataFormats`; empty means no depth with this format.
    public var depthFormats: [DepthFormat]
    /// Per-format override of the camera's Constant Color support (spec §11: support depends on
    /// camera and format); nil inherits the camera's value.
    public var constantColor: Bool?
    /// Binning, field of view, stabilisation, HDR and calibration reference as a real device reports
    /// them; what the profile leaves out is derived from the camera.
    public var capabilities: FormatCapabilities
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// A format from its values.
    public init(
        id: String, video: Dimensions, pixelFormat: VideoPixelFormat, frameRateRanges: [FrameRateRange],
        colorSpaces: [CaptureColorSpace], photoDimensions: [Dimensions], highestPhotoQuality: Bool,
        depthFormats: [DepthFormat], constantColor: Bool?, capabilities: FormatCapabilities = FormatCapabilities(),
        provenance: ProvenanceMap
    ) {
        self.id = id
        self.video = video
        self.pixelFormat = pixelFormat
        self.frameRateRanges = frameRateRanges
        self.colorSpaces = colorSpaces
        self.photoDimensions = photoDimensions
        self.highestPhotoQuality = highestPhotoQuality
        self.depthFormats = depthFormats
        self.constantColor = constantColor
        self.capabilities = capabilities
        self.provenance = provenance
    }

    /// The highest frame rate of any range.
    public var maxFPS: Double { frameRateRanges.map(\.maxFPS).max() ?? 0 }
}
