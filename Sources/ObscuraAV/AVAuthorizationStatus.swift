import Foundation

/// Whether the app may capture a media type (Apple's raw values).
public enum AVAuthorizationStatus: Int, Sendable, Hashable {
    /// The person has not been asked yet.
    case notDetermined = 0
    /// Capture is not allowed, and the person cannot change that (parental controls, MDM).
    case restricted = 1
    /// The person declined.
    case denied = 2
    /// The person allowed capture.
    case authorized = 3
}
