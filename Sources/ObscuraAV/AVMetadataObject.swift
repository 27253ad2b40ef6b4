import Foundation

/// Something detected in a video frame (`AVMetadataObject`): a face or an object, with its
/// bounds in normalised coordinates (0…1, origin top-left, unrotated sensor orientation).
open class AVMetadataObject: NSObject, @unchecked Sendable {
    /// The kind of object (`AVMetadataObject.ObjectType`).
    public struct ObjectType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A face.
        public static let face = ObjectType(rawValue: "face")
        /// A salient object (iOS 13).
        public static let salientObject = ObjectType(rawValue: "mdta/com.apple.quicktime.detected-salient-object")
        /// A human body (iOS 13).
        public static let humanBody = ObjectType(rawValue: "mdta/com.apple.quicktime.detected-human-body")
    }

    /// The kind.
    public let type: ObjectType
    /// The time of the frame it was found in.
    public let time: CMTime
    /// How long it holds.
    public let duration: CMTime
    /// Where it is, normalised.
    public let bounds: CGRect
    /// The scene object's name: Obscura's annotation, for tests and explanations (the Obscura module
    /// shows it as `obscuraObjectName`).
    package let sceneObjectName: String

    init(type: ObjectType, time: CMTime, duration: CMTime, bounds: CGRect, name: String) {
        self.type = type
        self.time = time
        self.duration = duration
        self.bounds = bounds
        sceneObjectName = name
        super.init()
    }
}

/// A detected face (`AVMetadataFaceObject`).
open class AVMetadataFaceObject: AVMetadataObject, @unchecked Sendable {
    /// Stable for as long as the face stays in view.
    public let faceID: Int
    /// Roll and yaw are not estimated [I].
    public var hasRollAngle: Bool { false }
    public var hasYawAngle: Bool { false }
    /// The face's roll, degrees: 0, meaningless while `hasRollAngle` is false (as Apple's is then).
    public var rollAngle: CGFloat { 0 }
    /// The face's yaw, degrees: 0, meaningless while `hasYawAngle` is false (as Apple's is then).
    public var yawAngle: CGFloat { 0 }

    init(faceID: Int, time: CMTime, duration: CMTime, bounds: CGRect, name: String) {
        self.faceID = faceID
        super.init(type: .face, time: time, duration: duration, bounds: bounds, name: name)
    }
}
