import Foundation
import Imaging
import ObscuraAV

/// The first revision of contour detection (`VNDetectContourRequestRevision1`).
public let VNDetectContourRequestRevision1 = 1

/// Finds the contours of an image's dark (or light) regions (`VNDetectContoursRequest`): one
/// `VNContoursObservation` holding every contour and how they nest (spec §22.8).
///
/// The upright image (or its region of interest) is box-averaged by a whole factor to at most
/// `maximumImageDimension` pixels on its longer side; its luma's contrast is raised by `contrastAdjustment` about
/// `contrastPivot` (Otsu's threshold when nil) and split at mid-grey, and the borders of the regions on the side
/// `detectsDarkOnLight` names are followed by Suzuki and Abe's algorithm (`ContourDetector`).
open class VNDetectContoursRequest: VNImageBasedRequest, @unchecked Sendable {
    /// How much the contrast is raised before the split (default 2; Apple's range 0…3).
    public var contrastAdjustment: Float = 2
    /// The value the contrast turns about, 0…1, or nil to find it from the picture (default 0.5).
    public var contrastPivot: NSNumber? = 0.5
    /// Whether the regions traced are the dark ones on a light ground (default true) or the light ones.
    public var detectsDarkOnLight = true
    /// The longest side of the copy the contours are traced on (default 512).
    public var maximumImageDimension = 512

    /// The older name of `detectsDarkOnLight`.
    @available(*, deprecated, renamed: "detectsDarkOnLight")
    public var detectDarkOnLight: Bool {
        get { detectsDarkOnLight }
        set { detectsDarkOnLight = newValue }
    }

    /// The contours the last perform found, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNContoursObservation]? { super.results as? [VNContoursObservation] }

    open override class var supportedRevisions: IndexSet { IndexSet(integer: VNDetectContourRequestRevision1) }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        let region = try image.region(regionOfInterest, workingSize: max(1, maximumImageDimension))
        let detector = ContourDetector(
            contrast: contrastAdjustment, pivot: contrastPivot.map { $0.floatValue }, darkOnLight: detectsDarkOnLight)
        let plane = region.plane
        let borders = detector.borders(in: plane)
        // Pixel centres, normalised to the region, origin at the bottom left (spec §22.1 rules 2 and 4).
        let (w, h) = (Float(plane.width), Float(plane.height))
        let points = borders.map { border in
            border.pixels.map { simd_float2((Float($0.x) + 0.5) / w, 1 - (Float($0.y) + 0.5) / h) }
        }
        return [
            VNContoursObservation(
                requestRevision: revision, points: points, parents: borders.map(\.parent),
                aspectRatio: Float(region.width) / Float(region.height))
        ]
    }
}

/// The contours found in an image (`VNContoursObservation`), as a tree: the top-level contours enclose their
/// children, which enclose theirs.
open class VNContoursObservation: VNObservation, @unchecked Sendable {
    /// Each contour's points, in the order found (the raster order of their first points).
    let points: [[simd_float2]]
    /// Each contour's children, and the top-level contours, by their place in `points`.
    let children: [[Int]]
    let topLevel: [Int]
    /// Each contour's index path.
    let paths: [IndexPath]
    let aspectRatio: Float

    init(requestRevision: Int, points: [[simd_float2]], parents: [Int?], aspectRatio: Float) {
        self.points = points
        self.aspectRatio = aspectRatio
        var children = [[Int]](repeating: [], count: points.count)
        var topLevel: [Int] = []
        for (k, parent) in parents.enumerated() {
            if let parent { children[parent].append(k) } else { topLevel.append(k) }
        }
        (self.children, self.topLevel) = (children, topLevel)
        var paths = [IndexPath](repeating: IndexPath(), count: points.count)
        func assign(_ members: [Int], under path: IndexPath) {
            for (i, k) in members.enumerated() {
                paths[k] = path.appending(i)
                assign(children[k], under: paths[k])
            }
        }
        assign(topLevel, under: IndexPath())
        self.paths = paths
        super.init(requestRevision: requestRevision, confidence: 1)
    }

    /// How many contours there are, at every level.
    public var contourCount: Int { points.count }
    /// How many contours are enclosed by none.
    public var topLevelContourCount: Int { topLevel.count }
    /// The contours enclosed by none.
    public var topLevelContours: [VNContour] { topLevel.map(contour(_:)) }

    /// The contour at `contourIndex` of all of them (0 ..< `contourCount`), in the order found; an index outside that
    /// range fails with `VNErrorCode.invalidArgument`.
    public func contour(at contourIndex: Int) throws -> VNContour {
        guard points.indices.contains(contourIndex) else {
            throw VisionFailure.error(
                .invalidArgument, "Contour index \(contourIndex) is outside 0..<\(contourCount).")
        }
        return contour(contourIndex)
    }

    /// The contour at an index path: its place among the top-level contours, then among each level's children. A
    /// path that names no contour fails with `VNErrorCode.invalidArgument`.
    public func contour(at indexPath: IndexPath) throws -> VNContour {
        guard let k = paths.firstIndex(of: indexPath) else {
            throw VisionFailure.error(.invalidArgument, "No contour at index path \(Array(indexPath)).")
        }
        return contour(k)
    }

    /// Every contour, each as a closed subpath, in normalised coordinates.
    public var normalizedPath: CGPath {
        let path = CGMutablePath()
        for k in points.indices { VNContour.addClosed(points[k], to: path) }
        return path
    }

    func contour(_ k: Int) -> VNContour {
        VNContour(observation: self, index: k, points: points[k])
    }
}

/// One contour of a `VNContoursObservation` (`VNContour`): its points, normalised with the origin at the bottom left,
/// and the contours it encloses.
open class VNContour: NSObject, @unchecked Sendable {
    private let observation: VNContoursObservation
    private let index: Int
    /// The contour's points, normalised to the image (or the request's region of interest), origin at the bottom left.
    public let normalizedPoints: [simd_float2]

    init(observation: VNContoursObservation, index: Int, points: [simd_float2]) {
        (self.observation, self.index, normalizedPoints) = (observation, index, points)
        super.init()
    }

    /// Where the contour is in its observation's tree.
    public var indexPath: IndexPath { observation.paths[index] }
    /// The image's width over its height, to undo the normalisation's stretch.
    public var aspectRatio: Float { observation.aspectRatio }
    /// How many points the contour has.
    public var pointCount: Int { normalizedPoints.count }
    /// How many contours this one encloses directly.
    public var childContourCount: Int { observation.children[index].count }
    /// The contours this one encloses directly.
    public var childContours: [VNContour] { observation.children[index].map(observation.contour(_:)) }

    /// The child at `childContourIndex`; an index outside the children fails with `VNErrorCode.invalidArgument`.
    public func childContour(at childContourIndex: Int) throws -> VNContour {
        let members = observation.children[index]
        guard members.indices.contains(childContourIndex) else {
            throw VisionFailure.error(
                .invalidArgument, "Child contour index \(childContourIndex) is outside 0..<\(members.count).")
        }
        return observation.contour(members[childContourIndex])
    }

    /// The contour as a closed path in normalised coordinates.
    public var normalizedPath: CGPath {
        let path = CGMutablePath()
        Self.addClosed(normalizedPoints, to: path)
        return path
    }

    /// The contour simplified by Ramer, Douglas and Peucker's algorithm: the points farther than `epsilon`
    /// (normalised units) from the line through their neighbours kept are kept, the others dropped. The contour is
    /// closed, so it is first split at its first point and the point farthest from it. A negative `epsilon` fails with
    /// `VNErrorCode.invalidArgument`.
    public func polygonApproximation(epsilon: Float) throws -> VNContour {
        guard epsilon >= 0 else {
            throw VisionFailure.error(.invalidArgument, "The epsilon \(epsilon) is negative.")
        }
        return VNContour(
            observation: observation, index: index, points: Self.simplified(normalizedPoints, epsilon: epsilon))
    }

    /// A closed polygon's points simplified (see `polygonApproximation(epsilon:)`).
    static func simplified(_ points: [simd_float2], epsilon: Float) -> [simd_float2] {
        guard points.count > 2,
            let far = points.indices.max(by: {
                simd_length(points[$0] - points[0]) < simd_length(points[$1] - points[0])
            })
        else { return points }
        guard far > 0 else { return [points[0]] }
        let first = chain(Array(points[0...far]), epsilon: epsilon)
        let second = chain(Array(points[far...]) + [points[0]], epsilon: epsilon)
        return first + second.dropFirst().dropLast()
    }

    /// An open chain simplified, its ends kept.
    private static func chain(_ points: [simd_float2], epsilon: Float) -> [simd_float2] {
        guard points.count > 2, let a = points.first, let b = points.last else { return points }
        let ab = b - a, length = simd_length(ab)
        func distance(_ p: simd_float2) -> Float {
            guard length > 0 else { return simd_length(p - a) }
            return abs(ab.x * (p.y - a.y) - ab.y * (p.x - a.x)) / length
        }
        let inner = 1..<(points.count - 1)
        guard let farthest = inner.max(by: { distance(points[$0]) < distance(points[$1]) }),
            distance(points[farthest]) > epsilon
        else { return [a, b] }
        return chain(Array(points[...farthest]), epsilon: epsilon).dropLast()
            + chain(Array(points[farthest...]), epsilon: epsilon)
    }

    static func addClosed(_ points: [simd_float2], to path: CGMutablePath) {
        guard let first = points.first else { return }
        path.move(to: CGPoint(x: CGFloat(first.x), y: CGFloat(first.y)))
        for p in points.dropFirst() { path.addLine(to: CGPoint(x: CGFloat(p.x), y: CGFloat(p.y))) }
        path.closeSubpath()
    }
}
