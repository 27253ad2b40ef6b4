import Foundation

/// The eyes of a face that `FaceDetector` found, with OpenCV's eye cascade (`haarcascade_eye.xml`, which
/// `opencv-data` installs beside the face cascades) run over the upper part of the face at the picture's own
/// resolution, as face-part detectors of the Viola–Jones kind are used: an eye window is a fifth of a face, so it is
/// looked for where the face says it must be.
///
/// - The band searched runs from a tenth to two thirds of the way down the face's rectangle, its full width, scaled
///   to 160 pixels wide (our choice): an eye, about a quarter of the face across, then spans about 40 pixels, twice
///   the cascade's 20-pixel window, so several rungs of the ladder see it. Searched at a small face's own size, an
///   eye fills the window's smallest rung alone, and too few windows agree on it to make a group.
/// - An eye is a group of accepted windows (the face detector's grouping, three windows beyond one), between a tenth
///   and a half of the face's width across. The eye on the picture's left is the best-supported group whose centre
///   lies left of the face's middle, the eye on its right the best right of it; either may be missing.
public enum EyeFinder {
    /// The eye cascade file, under the folders Debian's packages of OpenCV 4 and 3 install it in.
    public static let cascadeFiles = [
        "/usr/share/opencv4/haarcascades/haarcascade_eye.xml",
        "/usr/share/opencv/haarcascades/haarcascade_eye.xml",
    ]

    /// The detector with the eye cascade, read once; nil when no cascade file could be read.
    public static let detector = FaceDetector(firstReadableOf: cascadeFiles)

    /// The eye centres of `face` in `luma`'s pixels (x right, y down from the top left): the eye on the picture's
    /// left and the one on its right, each nil where none is found (and both where the cascade is missing).
    public static func eyes(in luma: PixelPlane<Float>, face: FaceDetector.Face) -> (
        left: SIMD2<Double>?, right: SIMD2<Double>?
    ) {
        guard let detector else { return (nil, nil) }
        let x0 = max(0, Int(face.x.rounded(.down))), x1 = min(luma.width, Int((face.x + face.width).rounded(.up)))
        let y0 = max(0, Int((face.y + 0.1 * face.height).rounded(.down)))
        let y1 = min(luma.height, Int((face.y + 0.65 * face.height).rounded(.up)))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return (nil, nil) }
        let band = PixelPlane<Float>(width: x1 - x0, height: y1 - y0) { i, j, _ in luma[x0 + i, y0 + j, 0] }
        let width = 160
        let height = max(1, Int((Double(band.height) * Double(width) / Double(band.width)).rounded()))
        let searched = width == band.width ? band : FaceDetector.resized(band, width: width, height: height)
        // From the searched picture back to the band.
        let sx = Double(band.width) / Double(width), sy = Double(band.height) / Double(height)
        let middle = face.x + face.width / 2
        var best: (left: FaceDetector.Face?, right: FaceDetector.Face?) = (nil, nil)
        for found in detector.faces(in: searched) {
            // The group in the picture's pixels.
            let eye = FaceDetector.Face(
                x: Double(x0) + found.x * sx, y: Double(y0) + found.y * sy, width: found.width * sx,
                height: found.height * sy, windows: found.windows)
            guard eye.width >= 0.1 * face.width, eye.width <= 0.5 * face.width else { continue }
            if eye.x + eye.width / 2 < middle {
                if eye.windows > best.left?.windows ?? 0 { best.left = eye }
            } else if eye.windows > best.right?.windows ?? 0 {
                best.right = eye
            }
        }
        func centre(_ e: FaceDetector.Face?) -> SIMD2<Double>? {
            e.map { SIMD2($0.x + $0.width / 2, $0.y + $0.height / 2) }
        }
        return (centre(best.left), centre(best.right))
    }

    /// The angle of the line from the left eye to the right one, radians counterclockwise, for eyes given in a
    /// picture's pixels (y down): the face's roll in the picture.
    public static func roll(left: SIMD2<Double>, right: SIMD2<Double>) -> Double {
        atan2(-(right.y - left.y), right.x - left.x)
    }
}
