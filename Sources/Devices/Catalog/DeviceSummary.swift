/// The one-line facts `obscura devices` lists for a device.
public struct DeviceSummary: Sendable, Hashable {
    /// `id (type short name)` for every camera.
    public var cameraList: String
    /// Key features: flash kind, depth technologies, Constant Color.
    public var featureList: [String]

    /// The summary of a profile.
    public init(_ profile: DeviceProfile) {
        cameraList = profile.cameras.map { "\($0.id)" }.joined(separator: ", ")
        var features: [String] = []
        features.append(profile.flash.map { "\($0.kind.rawValue) flash" } ?? "no flash")
        let technologies = Set(profile.cameras.compactMap { $0.hasDepthFormats ? $0.depth?.technology : nil })
        for technology in DepthTechnology.allCases where technologies.contains(technology) {
            features.append("\(technology.rawValue) depth")
        }
        if technologies.isEmpty { features.append("no depth") }
        let cc = profile.cameras.filter { camera in camera.formats.contains { camera.supportsConstantColor(with: $0) } }
        features.append(cc.isEmpty ? "no Constant Color" : "Constant Color (\(cc.map(\.id).joined(separator: ", ")))")
        featureList = features
    }
}
