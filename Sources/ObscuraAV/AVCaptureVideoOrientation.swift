import Foundation

/// The orientation a connection gives its video (`AVCaptureVideoOrientation`, deprecated in iOS 17 in favour of
/// `AVCaptureConnection.videoRotationAngle`). Raw values are Apple's (spec §1.5 [D]).
public enum AVCaptureVideoOrientation: Int, Sendable {
    /// Upright with the home button (or its place) at the bottom: a 90° rotation of the sensor's image.
    case portrait = 1
    /// Upside down: 270°.
    case portraitUpsideDown = 2
    /// Landscape with the home button on the right: the sensor's own orientation, 0°.
    case landscapeRight = 3
    /// Landscape with the home button on the left: 180°.
    case landscapeLeft = 4

    /// The clockwise rotation of the sensor's image, in degrees, that gives this orientation (spec §1.5 [D]).
    var rotationAngle: CGFloat {
        switch self {
        case .landscapeRight: 0
        case .portrait: 90
        case .landscapeLeft: 180
        case .portraitUpsideDown: 270
        }
    }

    /// The orientation of a rotation angle that is a multiple of 90°.
    init(rotationAngle: CGFloat) {
        let turns = ((Int((rotationAngle / 90).rounded()) % 4) + 4) % 4
        self = [.landscapeRight, .portrait, .landscapeLeft, .portraitUpsideDown][turns]
    }
}
