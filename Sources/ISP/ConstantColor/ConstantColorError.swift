/// Why a Constant Color pipeline cannot be built for a camera.
public struct ConstantColorError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The message, naming the profile file, the device and the camera.
    public var description: String
}
