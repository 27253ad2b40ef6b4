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
        /// A salient object (iOS 13): found in the frame's pixels.
        public static let salientObject = ObjectType(rawValue: "salientObject")
        /// A human body (iOS 13): found where the scene marks a person's parts.
        public static let humanBody = ObjectType(rawValue: "humanBody")
        /// A human body from head to feet (iOS 17): not detected here, so never available.
        public static let humanFullBody = ObjectType(rawValue: "humanFullBody")
        /// A cat's body (iOS 13): scenes hold no animals, so never available.
        public static let catBody = ObjectType(rawValue: "catBody")
        /// A dog's body (iOS 13): scenes hold no animals, so never available.
        public static let dogBody = ObjectType(rawValue: "dogBody")
        /// A cat's head (iOS 17): never available.
        public static let catHead = ObjectType(rawValue: "catHead")
        /// A dog's head (iOS 17): never available.
        public static let dogHead = ObjectType(rawValue: "dogHead")
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
    /// The roll measured from the face's eyes, degrees, where both were found (spec §16 rule 4).
    let roll: Double?
    /// Whether the face's roll was measured: where the eye cascade found both its eyes (spec §16 rule 4).
    public var hasRollAngle: Bool { roll != nil }
    /// Yaw is not estimated (spec §16 rule 4).
    public var hasYawAngle: Bool { false }
    /// The face's tilt in the picture, degrees counterclockwise from level, from 0 up to 360 (spec §16 rule 4); 0,
    /// and meaningless, while `hasRollAngle` is false.
    public var rollAngle: CGFloat { CGFloat(roll ?? 0) }
    /// The face's yaw, degrees: 0, meaningless while `hasYawAngle` is false (as Apple's is then).
    public var yawAngle: CGFloat { 0 }

    init(faceID: Int, time: CMTime, duration: CMTime, bounds: CGRect, name: String, roll: Double? = nil) {
        self.faceID = faceID
        self.roll = roll
        super.init(type: .face, time: time, duration: duration, bounds: bounds, name: name)
    }

    /// A roll of degrees counterclockwise brought into 0 up to 360.
    static func normalised(roll degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}

/// A salient object (`AVMetadataSalientObject`): a region of the frame that stands apart from its surroundings.
open class AVMetadataSalientObject: AVMetadataObject, @unchecked Sendable {
    /// Stable for as long as the object stays in view.
    public let objectID: Int

    init(objectID: Int, time: CMTime, duration: CMTime, bounds: CGRect, name: String) {
        self.objectID = objectID
        super.init(type: .salientObject, time: time, duration: duration, bounds: bounds, name: name)
    }
}

/// A detected body (`AVMetadataBodyObject`), stable by `bodyID` while it stays in view.
open class AVMetadataBodyObject: AVMetadataObject, @unchecked Sendable {
    /// Stable for as long as the body stays in view.
    public let bodyID: Int

    init(type: ObjectType, bodyID: Int, time: CMTime, duration: CMTime, bounds: CGRect, name: String) {
        self.bodyID = bodyID
        super.init(type: type, time: time, duration: duration, bounds: bounds, name: name)
    }
}

/// A detected human body (`AVMetadataHumanBodyObject`): the bounds of the parts the scene marks as one
/// person's (spec §16).
open class AVMetadataHumanBodyObject: AVMetadataBodyObject, @unchecked Sendable {
    init(bodyID: Int, time: CMTime, duration: CMTime, bounds: CGRect, name: String) {
        super.init(type: .humanBody, bodyID: bodyID, time: time, duration: duration, bounds: bounds, name: name)
    }
}

/// A human body from head to feet (`AVMetadataHumanFullBodyObject`); not detected here.
open class AVMetadataHumanFullBodyObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A cat's body (`AVMetadataCatBodyObject`); not detected here.
open class AVMetadataCatBodyObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A dog's body (`AVMetadataDogBodyObject`); not detected here.
open class AVMetadataDogBodyObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A cat's head (`AVMetadataCatHeadObject`); not detected here.
open class AVMetadataCatHeadObject: AVMetadataBodyObject, @unchecked Sendable {}
/// A dog's head (`AVMetadataDogHeadObject`); not detected here.
open class AVMetadataDogHeadObject: AVMetadataBodyObject, @unchecked Sendable {}
