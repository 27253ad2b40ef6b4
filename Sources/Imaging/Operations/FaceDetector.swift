import Foundation

/// Finds upright, frontal faces in a picture's luma with a Haar cascade (`HaarCascade`), the way Viola–Jones
/// detectors are run: the cascade's window slides over the picture at a ladder of scales, and the windows it
/// accepts are gathered into faces where enough of them agree.
///
/// - The picture is shrunk by `scaleStep` at a time (bilinear, pixel centres aligned) until the window no longer
///   fits, and the window is tried every other pixel until the picture is shrunk to half its size, every pixel
///   after that, so that the step stays about the same share of the face at every scale.
/// - Windows that are nearly flat (a standard deviation of 10 grey levels of 255 or less) are passed over: the
///   cascades are trained on contrast-normalised windows, and normalising a flat one only lifts noise.
/// - Accepted windows whose corners all lie within `tolerance` of their mean size of one another join one group
///   (taken transitively); a group of more than `neighbours` windows is a face, its rectangle their mean, and its
///   count says how sure the detector is. A face inside a larger, better-supported one is dropped.
public struct FaceDetector: Sendable {
    public let cascade: HaarCascade
    /// How much each rung of the ladder shrinks the picture (default 1.1).
    public var scaleStep: Double = 1.1
    /// How many accepted windows a face needs beyond this number (default 3).
    public var neighbours = 3
    /// How far the corners of two windows of one face may lie apart, as a share of their size (default 0.2).
    public var tolerance: Double = 0.2

    public init(cascade: HaarCascade) { self.cascade = cascade }

    /// A face found: its rectangle in the picture's pixels (top-left origin) and the windows that agreed on it.
    public struct Face: Sendable, Equatable {
        public let x: Double, y: Double, width: Double, height: Double
        public let windows: Int

        public init(x: Double, y: Double, width: Double, height: Double, windows: Int) {
            (self.x, self.y, self.width, self.height, self.windows) = (x, y, width, height, windows)
        }

        /// How sure the detector is of the face (our choice): each four windows that agree on it halve the doubt,
        /// so the fewest a face needs give 0.5 and twenty give 0.97.
        public var confidence: Float { Float(1 - pow(0.5, Double(windows) / 4)) }
    }

    /// The longest side of the picture Vision's and Core Image's face detectors work on (our choice): a picture is
    /// box-averaged down to it, so faces at least a thirtieth of its longer side across are found, in a few tens of
    /// milliseconds.
    public static let workingSize = 640

    /// The frontal-face cascade file (Lienhart and Maydt's), under the folders Debian's packages of OpenCV 4 and 3
    /// (`opencv-data`) install it in.
    public static let cascadeFiles = [
        "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml",
        "/usr/share/opencv/haarcascades/haarcascade_frontalface_alt2.xml",
    ]

    /// The detector with the frontal-face cascade, read once; nil when no cascade file could be read.
    public static let frontal = FaceDetector(firstReadableOf: cascadeFiles)

    /// A detector with the cascade in the first of `paths` that can be read and parsed; nil when none can.
    public init?(firstReadableOf paths: [String]) {
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let cascade = try? HaarCascade(xml: text)
            else { continue }
            self.init(cascade: cascade)
            return
        }
        return nil
    }

    /// The faces in `luma` (one channel, 0…1 on the encoded values), largest support first.
    public func faces(in luma: PixelPlane<Float>) -> [Face] {
        let (ww, wh) = (cascade.windowWidth, cascade.windowHeight)
        var hits: [Face] = []
        var factor = 1.0
        while true {
            let width = Int((Double(luma.width) / factor).rounded()),
                height = Int((Double(luma.height) / factor).rounded())
            guard width > ww, height > wh else { break }
            let picture = factor == 1 ? luma : Self.resized(luma, width: width, height: height)
            let step = factor > 2 ? 1 : 2
            let integral = IntegralImages(picture)
            integral.sums.withUnsafeBufferPointer { sums in
                integral.squares.withUnsafeBufferPointer { squares in
                    guard let s = sums.baseAddress, let q = squares.baseAddress else { return }
                    for y in stride(from: 0, to: height - wh, by: step) {
                        for x in stride(from: 0, to: width - ww, by: step)
                        where cascade.accepts(x: x, y: y, sums: s, squares: q, stride: width + 1) {
                            hits.append(
                                Face(
                                    x: Double(x) * factor, y: Double(y) * factor, width: Double(ww) * factor,
                                    height: Double(wh) * factor, windows: 1))
                        }
                    }
                }
            }
            factor *= scaleStep
        }
        return Self.group(hits, neighbours: neighbours, tolerance: tolerance)
    }

    /// Gathers windows into faces (see the type's discussion).
    public static func group(_ windows: [Face], neighbours: Int, tolerance: Double) -> [Face] {
        func similar(_ a: Face, _ b: Face) -> Bool {
            let delta = tolerance * (min(a.width, b.width) + min(a.height, b.height)) / 2
            return abs(a.x - b.x) <= delta && abs(a.y - b.y) <= delta
                && abs(a.x + a.width - b.x - b.width) <= delta && abs(a.y + a.height - b.y - b.height) <= delta
        }
        // Groups by union–find, so that similarity is taken transitively.
        var parent = Array(windows.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for i in windows.indices {
            for j in windows.indices where j > i && similar(windows[i], windows[j]) { parent[root(i)] = root(j) }
        }
        var members: [Int: [Face]] = [:]
        for i in windows.indices { members[root(i), default: []].append(windows[i]) }
        let groups = members.values.filter { $0.count > neighbours }.map { list -> Face in
            let n = Double(list.count)
            return Face(
                x: list.map(\.x).reduce(0, +) / n, y: list.map(\.y).reduce(0, +) / n,
                width: list.map(\.width).reduce(0, +) / n, height: list.map(\.height).reduce(0, +) / n,
                windows: list.count)
        }
        // A face held inside a larger group with more support is part of that one.
        let kept = groups.filter { inner in
            !groups.contains { outer in
                guard outer != inner else { return false }
                let dx = outer.width * tolerance, dy = outer.height * tolerance
                return inner.x >= outer.x - dx && inner.y >= outer.y - dy
                    && inner.x + inner.width <= outer.x + outer.width + dx
                    && inner.y + inner.height <= outer.y + outer.height + dy
                    && (outer.windows > max(3, inner.windows) || inner.windows < 3)
            }
        }
        return kept.sorted { ($0.windows, $0.width, -$0.y, -$0.x) > ($1.windows, $1.width, -$1.y, -$1.x) }
    }

    /// `plane` resampled to `width × height` by bilinear interpolation with pixel centres aligned.
    static func resized(_ plane: PixelPlane<Float>, width: Int, height: Int) -> PixelPlane<Float> {
        let sx = Double(plane.width) / Double(width), sy = Double(plane.height) / Double(height)
        let columns = (0..<width).map { i -> (Int, Int, Float) in
            let u = min(max((Double(i) + 0.5) * sx - 0.5, 0), Double(plane.width - 1))
            let x0 = Int(u)
            return (x0, min(x0 + 1, plane.width - 1), Float(u - Double(x0)))
        }
        var out = PixelPlane<Float>(width: width, height: height)
        let stride = plane.rowStride, outStride = out.rowStride
        plane.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for j in 0..<height {
                    let v = min(max((Double(j) + 0.5) * sy - 0.5, 0), Double(plane.height - 1))
                    let y0 = Int(v), y1 = min(Int(v) + 1, plane.height - 1), b = Float(v - Double(y0))
                    for (i, (x0, x1, a)) in columns.enumerated() {
                        let top = p[y0 * stride + x0] * (1 - a) + p[y0 * stride + x1] * a
                        let bottom = p[y1 * stride + x0] * (1 - a) + p[y1 * stride + x1] * a
                        o[j * outStride + i] = top * (1 - b) + bottom * b
                    }
                }
            }
        }
        return out
    }
}

/// The integral images of a picture (on a 0…255 scale) and of its squares: each entry the sum of the pixels above
/// and to the left of it, with a zero first row and column, so that any rectangle's sum is four lookups.
struct IntegralImages {
    let width: Int, height: Int
    var sums: [Double]
    var squares: [Double]

    init(_ plane: PixelPlane<Float>) {
        (width, height) = (plane.width, plane.height)
        let stride = width + 1
        sums = [Double](repeating: 0, count: stride * (height + 1))
        squares = sums
        plane.withUnsafeBufferPointer { p in
            for y in 0..<height {
                var row = 0.0, rowSquares = 0.0
                for x in 0..<width {
                    let v = Double(p[y * plane.rowStride + x]) * 255
                    row += v
                    rowSquares += v * v
                    sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row
                    squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares
                }
            }
        }
    }
}
