import ObscuraSupport

/// A virtual iPhone or iPad: its cameras and flash, validated and free of I/O.
public struct DeviceProfile: Sendable, Hashable, Codable {
    /// The catalogue id, equal to the file name without `.yaml` (e.g. `iphone-15-pro`).
    public var id: String
    /// The marketing name (e.g. `iPhone 15 Pro`).
    public var name: String
    /// The model family (`iPhone` or `iPad`).
    public var family: String
    /// The cameras in `AVCaptureDevice` discovery order as the profile lists them.
    public var cameras: [CameraProfile]
    /// The rear flash; nil when the device has none.
    public var flash: FlashHardware?
    /// The unit's error sources for a Constant Color capture (`CaptureErrors`); `.none` when the profile lists none.
    public var captureErrors: CaptureErrors
    /// Whether the hardware can stream several cameras at once (`AVCaptureMultiCamSession`):
    /// iPhone XS and later, iPad Pro from 2018. Optional key `multicam`, false when absent.
    public var supportsMultiCam: Bool
    /// Where the profile was loaded from (empty for profiles built in code).
    public var sourceFile: String
    /// Where each value of the document was, by raw path (`cameras[2].optics.f_number`), so that
    /// lint can point at the line of a value it questions.
    public var sourceLocations: [String: SourceLocation]

    /// A profile from its values.
    public init(
        id: String, name: String, family: String, cameras: [CameraProfile], flash: FlashHardware?,
        supportsMultiCam: Bool = false, sourceFile: String = "", sourceLocations: [String: SourceLocation] = [:],
        captureErrors: CaptureErrors = .none
    ) {
        self.captureErrors = captureErrors
        self.id = id
        self.name = name
        self.family = family
        self.cameras = cameras
        self.flash = flash
        self.supportsMultiCam = supportsMultiCam
        self.sourceFile = sourceFile
        self.sourceLocations = sourceLocations
    }

    /// The camera with an id.
    public func camera(_ id: String) -> CameraProfile? { cameras.first { $0.id == id } }

    /// The cameras of a device type, in profile order.
    public func cameras(ofType type: DeviceType) -> [CameraProfile] { cameras.filter { $0.deviceType == type } }

    /// `hasFlash` for a camera: the device has a flash and the camera faces it (back).
    public func hasFlash(_ camera: CameraProfile) -> Bool { flash != nil && camera.position == .back }

    /// The location of a raw path, or of its nearest recorded ancestor.
    public func location(of path: String) -> SourceLocation {
        var p = path
        while !p.isEmpty {
            if let location = sourceLocations[p] { return location }
            if let cut = p.lastIndex(where: { $0 == "." || $0 == "[" }) {
                p = String(p[..<cut])
            } else {
                break
            }
        }
        return sourceLocations[""] ?? SourceLocation(file: sourceFile, line: 1, column: 1)
    }
}
