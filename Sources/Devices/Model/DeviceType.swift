/// A capture device type, spelled as Apple's `AVCaptureDevice.DeviceType` cases (spec §2.1).
public enum DeviceType: String, Sendable, Hashable, Codable, CaseIterable {
    case builtInWideAngleCamera
    case builtInTelephotoCamera
    case builtInUltraWideCamera
    case builtInDualCamera
    case builtInDualWideCamera
    case builtInTripleCamera
    case builtInTrueDepthCamera
    case builtInLiDARDepthCamera

    /// Whether the type is a virtual device built from other cameras of the profile
    /// (spec §2.2: dual, dual-wide, triple; documented [D]).
    public var isMultiCamera: Bool {
        switch self {
        case .builtInDualCamera, .builtInDualWideCamera, .builtInTripleCamera: return true
        default: return false
        }
    }

    /// The constituent types in Apple's order, shortest focal length first
    /// (spec §2.2 [O]: dual-wide → [ultraWide, wide], triple → [ultraWide, wide, tele],
    /// dual → [wide, tele]); nil for types without constituents.
    public var constituentTypes: [DeviceType]? {
        switch self {
        case .builtInDualCamera: return [.builtInWideAngleCamera, .builtInTelephotoCamera]
        case .builtInDualWideCamera: return [.builtInUltraWideCamera, .builtInWideAngleCamera]
        case .builtInTripleCamera:
            return [.builtInUltraWideCamera, .builtInWideAngleCamera, .builtInTelephotoCamera]
        default: return nil
        }
    }

    /// Whether the type may carry depth formats (spec §2.1 capability table: dual, dual-wide,
    /// TrueDepth and LiDAR are documented [D]; triple is observed to report them [O]).
    public var canDeliverDepth: Bool {
        switch self {
        case .builtInDualCamera, .builtInDualWideCamera, .builtInTripleCamera, .builtInTrueDepthCamera,
            .builtInLiDARDepthCamera:
            return true
        default: return false
        }
    }

    /// The depth technology a depth-capable type uses (spec §2.1, §9).
    public var depthTechnology: DepthTechnology? {
        switch self {
        case .builtInDualCamera, .builtInDualWideCamera, .builtInTripleCamera: return .dualCameraDisparity
        case .builtInTrueDepthCamera: return .structuredLight
        case .builtInLiDARDepthCamera: return .timeOfFlight
        default: return nil
        }
    }

    /// Whether the type is a single physical lens and sensor.
    public var isPhysicalLens: Bool {
        switch self {
        case .builtInWideAngleCamera, .builtInTelephotoCamera, .builtInUltraWideCamera: return true
        default: return false
        }
    }
}

/// Which side of the device a camera faces (`AVCaptureDevice.Position`, spec §2.1).
public enum CameraPosition: String, Sendable, Hashable, Codable, CaseIterable {
    case back
    case front
}
