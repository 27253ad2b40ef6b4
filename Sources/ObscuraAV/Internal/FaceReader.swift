import Foundation
import Imaging

/// Finds faces in a video picture for the metadata output (spec §16 rule 1): what the camera imaged decides what is
/// found, as it does for codes. The detector is the one Vision's face request runs (`FaceDetector`, the frontal-face
/// cascade of Debian's `opencv-data`), on the luma the frame carries (BT.601 weights on the encoded values, as
/// `CodeReader` reads it), inside the region of interest, box-averaged by the integer factor that brings its longer
/// side to at most `FaceDetector.workingSize` pixels. So an upright, frontal face at least a thirtieth of the
/// picture across is found, and a featureless ball of skin is not. Each face's roll is measured from its eyes
/// (`EyeFinder`) in the frame's own pixels (spec §16 rule 4).
enum FaceReader {
    /// A face found: where it is, normalised with the origin top-left, and its roll in degrees counterclockwise as
    /// the picture shows it, from 0 up to 360, or nil where its two eyes were not both found.
    struct Found: Equatable {
        let bounds: CGRect
        let roll: Double?
    }

    /// Whether the cascade could be read, and faces can be found at all.
    static var isAvailable: Bool { FaceDetector.frontal != nil }

    /// The faces inside `region` (normalised, origin top-left) of `rgb` (encoded values 0…1), most certain first.
    static func faces(in rgb: PixelPlane<Float>, region: CGRect) -> [Found] {
        guard let detector = FaceDetector.frontal, rgb.width > 0, rgb.height > 0 else { return [] }
        let (w, h) = (rgb.width, rgb.height)
        let (x0, y0, x1, y1) = region.pixels(width: w, height: h)
        let factor = max(1, (max(x1 - x0, y1 - y0) + FaceDetector.workingSize - 1) / FaceDetector.workingSize)
        let (cw, ch) = ((x1 - x0) / factor, (y1 - y0) / factor)
        guard cw > 0, ch > 0 else { return [] }
        let norm = 1 / Float(factor * factor)
        let (stride, channels) = (rgb.rowStride, rgb.channels)
        var values = [Float](repeating: 0, count: cw * ch)
        rgb.withUnsafeBufferPointer { source in
            for j in 0..<ch {
                for i in 0..<cw {
                    var sum: Float = 0
                    for y in (y0 + j * factor)..<(y0 + (j + 1) * factor) {
                        for x in (x0 + i * factor)..<(x0 + (i + 1) * factor) {
                            let p = y * stride + x * channels
                            sum += 0.299 * source[p] + 0.587 * source[p + 1] + 0.114 * source[p + 2]
                        }
                    }
                    values[j * cw + i] = sum * norm
                }
            }
        }
        let luma = PixelPlane<Float>(width: cw, height: ch, elements: values)
        let scale = Double(factor)
        return detector.faces(in: luma).map { face in
            let inFrame = FaceDetector.Face(
                x: Double(x0) + face.x * scale, y: Double(y0) + face.y * scale, width: face.width * scale,
                height: face.height * scale, windows: face.windows)
            return Found(
                bounds: CGRect(
                    x: inFrame.x / Double(w), y: inFrame.y / Double(h), width: inFrame.width / Double(w),
                    height: inFrame.height / Double(h)),
                roll: roll(of: inFrame, in: rgb))
        }
    }

    /// The roll of `face` (in `rgb`'s pixels), degrees counterclockwise from 0 up to 360, from the line between its
    /// eyes as the eye cascade finds them in the face's luma at the frame's own resolution (BT.601 weights, as the
    /// detector reads it); nil unless both eyes are found.
    static func roll(of face: FaceDetector.Face, in rgb: PixelPlane<Float>) -> Double? {
        let x0 = max(0, Int(face.x.rounded(.down))), y0 = max(0, Int(face.y.rounded(.down)))
        let x1 = min(rgb.width, Int((face.x + face.width).rounded(.up)))
        let y1 = min(rgb.height, Int((face.y + face.height).rounded(.up)))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        let (stride, channels) = (rgb.rowStride, rgb.channels)
        let luma = rgb.withUnsafeBufferPointer { source in
            PixelPlane<Float>(width: x1 - x0, height: y1 - y0) { i, j, _ in
                let p = (y0 + j) * stride + (x0 + i) * channels
                return 0.299 * source[p] + 0.587 * source[p + 1] + 0.114 * source[p + 2]
            }
        }
        let local = FaceDetector.Face(
            x: face.x - Double(x0), y: face.y - Double(y0), width: face.width, height: face.height,
            windows: face.windows)
        guard case let (left?, right?) = EyeFinder.eyes(in: luma, face: local) else { return nil }
        let degrees = EyeFinder.roll(left: left, right: right) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}

/// What the metadata output's readers found in one picture: codes by region of interest and types, faces and
/// salient objects by region. A cached picture never changes, so each question is answered once.
final class PictureReads: @unchecked Sendable {
    private let lock = NSLock()
    private var codeAnswers: [String: [ReadCode]] = [:]
    private var faceAnswers: [String: [FaceReader.Found]] = [:]
    private var salientAnswers: [String: [CGRect]] = [:]

    private static func key(_ region: CGRect) -> String {
        "\(region.minX),\(region.minY),\(region.width),\(region.height)"
    }

    func codes(
        in rgb: PixelPlane<Float>, region: CGRect, types: [AVMetadataObject.ObjectType]
    ) -> [ReadCode] {
        let key = Self.key(region) + "/" + types.map(\.rawValue).sorted().joined(separator: ",")
        if let known = lock.withLock({ codeAnswers[key] }) { return known }
        let found = CodeReader.read(rgb, region: region, types: types)
        lock.withLock { codeAnswers[key] = found }
        return found
    }

    func faces(in rgb: PixelPlane<Float>, region: CGRect) -> [FaceReader.Found] {
        answer(\.faceAnswers, region: region) { FaceReader.faces(in: rgb, region: region) }
    }

    func salientObjects(in rgb: PixelPlane<Float>, region: CGRect) -> [CGRect] {
        answer(\.salientAnswers, region: region) { SalientObjectReader.objects(in: rgb, region: region) }
    }

    /// The answer kept in `answers` for `region`, found by `find` the first time it is asked for.
    private func answer<Found>(
        _ answers: ReferenceWritableKeyPath<PictureReads, [String: [Found]]>, region: CGRect,
        find: () -> [Found]
    ) -> [Found] {
        let key = Self.key(region)
        if let known = lock.withLock({ self[keyPath: answers][key] }) { return known }
        let found = find()
        lock.withLock { self[keyPath: answers][key] = found }
        return found
    }
}
