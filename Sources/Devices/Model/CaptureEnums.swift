/// The photo flash modes, as `AVCaptureDevice.FlashMode` (spec §2.7).
public enum FlashMode: String, Sendable, Hashable, Codable, CaseIterable {
    case off
    case on
    case auto
}

/// Colour spaces in `AVCaptureColorSpace` order (spec §2.6); `rank` orders gamuts
/// narrowest first, the order `supportedColorSpaces` uses (spec §2.3 [D]).
public enum CaptureColorSpace: String, Sendable, Hashable, Codable, CaseIterable {
    case sRGB
    case P3_D65
    case HLG_BT2020
    case appleLog

    /// Gamut width rank: sRGB < P3 < BT.2020-based spaces.
    public var rank: Int {
        switch self {
        case .sRGB: return 0
        case .P3_D65: return 1
        case .HLG_BT2020: return 2
        case .appleLog: return 3
        }
    }
}

/// Video pixel formats, as their four-character codes (spec §2.3).
public enum VideoPixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// 4:2:0 bi-planar, video range.
    case yuv420VideoRange = "420v"
    /// 4:2:0 bi-planar, full range.
    case yuv420FullRange = "420f"
    /// 10-bit 4:2:0 bi-planar, video range.
    case yuv420TenBitVideoRange = "x420"
}

/// Depth and disparity pixel formats (spec §9 [D]: `kCVPixelFormatType_DisparityFloat16 = 'hdis'`,
/// `DisparityFloat32 = 'fdis'`, `DepthFloat16 = 'hdep'`, `DepthFloat32 = 'fdep'`).
public enum DepthPixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case disparityFloat16 = "hdis"
    case disparityFloat32 = "fdis"
    case depthFloat16 = "hdep"
    case depthFloat32 = "fdep"

    /// The `OSType` value: the four ASCII bytes, big-endian.
    public var fourCharCode: UInt32 {
        rawValue.utf8.reduce(0) { ($0 << 8) | UInt32($1) }
    }
}

/// Video stabilisation modes, spelled as `AVCaptureVideoStabilizationMode`'s Swift case names
/// (spec §2.3).
public enum StabilizationMode: String, Sendable, Hashable, Codable, CaseIterable {
    case off, standard, cinematic, cinematicExtended, previewOptimized, cinematicExtendedEnhanced, auto
}

/// Session presets other than `.inputPriority`, spelled as Apple's Swift names (spec §1.1).
public enum SessionPreset: String, Sendable, Hashable, Codable, CodingKeyRepresentable, CaseIterable, Comparable {
    case photo, high, medium, low
    case cif352x288, vga640x480, hd1280x720, hd1920x1080, hd4K3840x2160, iFrame960x540, iFrame1280x720

    /// The video size the preset's name promises, if it names one.
    public var namedDimensions: Dimensions? {
        switch self {
        case .cif352x288: return Dimensions(width: 352, height: 288)
        case .vga640x480: return Dimensions(width: 640, height: 480)
        case .hd1280x720, .iFrame1280x720: return Dimensions(width: 1280, height: 720)
        case .hd1920x1080: return Dimensions(width: 1920, height: 1080)
        case .hd4K3840x2160: return Dimensions(width: 3840, height: 2160)
        case .iFrame960x540: return Dimensions(width: 960, height: 540)
        default: return nil
        }
    }

    public static func < (a: SessionPreset, b: SessionPreset) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }
}

/// `AVCapturePhotoOutput.QualityPrioritization` (spec §3.1: speed = 1, balanced = 2, quality = 3).
public enum QualityPrioritization: String, Sendable, Hashable, Codable, CaseIterable {
    case speed, balanced, quality
}

/// How a depth-capable camera measures depth (spec §2.1, §9).
public enum DepthTechnology: String, Sendable, Hashable, Codable, CaseIterable {
    /// Disparity between two constituent cameras; relative accuracy (spec §9 [D]).
    case dualCameraDisparity = "dual-camera-disparity"
    /// TrueDepth's infrared dot projector; absolute accuracy (spec §2.1 [D]).
    case structuredLight = "structured-light"
    /// LiDAR time of flight; absolute accuracy (spec §2.1 [D]).
    case timeOfFlight = "time-of-flight"
}

/// `AVDepthData.Accuracy` (spec §9 [D]).
public enum DepthAccuracy: String, Sendable, Hashable, Codable, CaseIterable {
    case relative, absolute
}

/// Where a depth map has no valid value, by cause (used by the Sensor's hole model).
public enum DepthHoleBehavior: String, Sendable, Hashable, Codable, CaseIterable {
    /// Points the second camera cannot see, and textureless regions (disparity).
    case occlusionAndTextureless = "occlusion-and-textureless"
    /// Beyond the projector's range, dark or specular surfaces, strong sunlight (structured light).
    case projectorShadowAndSunlight = "projector-shadow-and-sunlight"
    /// Low-reflectance and out-of-range surfaces; sparse points densified (time of flight).
    case lowReturnAndRange = "low-return-and-range"
}

/// How a camera focuses (`AVCaptureDevice.Format.AutoFocusSystem`): not at all (fixed focus), by
/// contrast detection, or by phase detection (focus pixels).
public enum AutoFocusKind: String, Sendable, Hashable, Codable, CaseIterable {
    case none
    case contrastDetection = "contrast-detection"
    case phaseDetection = "phase-detection"
}
