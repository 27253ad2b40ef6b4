import CaptureRules
import Foundation

// Connection orientation and mirroring violations (spec §1.5).
extension Violation {
    // spec §1.5 [D] rule, text [I].
    static func mirroringUnsupported() -> Violation {
        .invalidArgument(
            "-[AVCaptureConnection setVideoMirrored:]", "Video mirroring is not supported by this connection",
            CaptureRule("§1.5", .documented, "isVideoMirrored may be set only when isVideoMirroringSupported"))
    }

    // spec §1.5 [D] rule, text [I].
    static func orientationUnsupported() -> Violation {
        .invalidArgument(
            "-[AVCaptureConnection setVideoOrientation:]", "Video orientation is not supported by this connection",
            CaptureRule("§1.5", .documented, "videoOrientation may be set only when isVideoOrientationSupported"))
    }

    // spec §1.5 [D] rule, text [I].
    static func rotationAngleUnsupported(_ angle: CGFloat) -> Violation {
        .invalidArgument(
            "-[AVCaptureConnection setVideoRotationAngle:]",
            "The rotation angle \(angle) is not supported (see isVideoRotationAngleSupported:)",
            CaptureRule("§1.5", .documented, "videoRotationAngle must pass isVideoRotationAngleSupported(_:)"))
    }

    // spec §1.5 [D] range, text [I].
    static func scaleAndCropFactorOutOfRange(_ factor: CGFloat, max: CGFloat) -> Violation {
        .invalidArgument(
            "-[AVCaptureConnection setVideoScaleAndCropFactor:]",
            "videoScaleAndCropFactor \(factor) is outside [1.0, \(max)] (see videoMaxScaleAndCropFactor)",
            CaptureRule("§1.5", .documented, "videoScaleAndCropFactor lies in [1, videoMaxScaleAndCropFactor]"))
    }
}
