import Foundation

/// Sixty-eight landmarks of a face that `FaceDetector` found: the outline of the jaw, the brows, the bridge and base of
/// the nose, the eyes and the lips, by the ensemble of regression trees of Kazemi and Sullivan (2014), "One millisecond
/// face alignment with an ensemble of regression trees", with the trained model that Debian's `libdlib-data` package
/// installs (dlib's `shape_predictor_68_face_landmarks.dat`, read when first needed).
///
/// The model holds a mean shape in the unit square of a face's box, and cascades of trees. Each cascade reads the
/// grey levels at a few hundred points placed relative to the current shape's landmarks (each point's offset turned and
/// scaled by the similarity that carries the mean shape onto the current one), and each tree of the cascade walks from
/// its root by comparing the difference of two of those levels with a threshold, ending at a leaf whose offsets it adds
/// to every landmark. The points follow the 68-point layout of the iBUG 300-W annotations: 0–16 the jaw from the
/// picture's left to its right, 17–21 and 22–26 the brows, 27–30 the bridge of the nose, 31–35 its base, 36–41 and
/// 42–47 the eyes, 48–59 the outer lips and 60–67 the inner lips, each feature's left part first as the upright picture
/// shows it.
public struct FaceLandmarker: Sendable {
    /// The model file, where Debian's package installs it.
    public static let modelFiles = ["/usr/share/dlib/shape_predictor_68_face_landmarks.dat"]

    /// The landmarker with the model, read once; nil when no model file could be read.
    public static let shared: FaceLandmarker? = modelFiles.lazy.compactMap { path in
        FileManager.default.contents(atPath: path).flatMap { try? FaceLandmarker(model: [UInt8]($0)) }
    }.first

    /// How many landmarks a shape has.
    public static let count = 68

    /// One tree's test: whether level `first` less level `second` exceeds `threshold`.
    struct Split: Sendable {
        let first: Int32, second: Int32
        let threshold: Float
    }

    /// One cascade: the points it reads (each an anchor landmark and an offset in the mean shape's space) and its trees,
    /// stored flat (each tree has `splitsPerTree` splits in breadth-first order and `splitsPerTree + 1` leaves of
    /// 2 × 68 offsets, x then y of each landmark).
    struct Cascade: Sendable {
        let anchors: [Int]
        let offsets: [SIMD2<Double>]
        let splits: [Split]
        let leaves: [Float]
        let splitsPerTree: Int
        let trees: Int
    }

    /// The mean shape, in the unit square of the face's box.
    let mean: [SIMD2<Double>]
    let cascades: [Cascade]

    /// Reads dlib's serialised shape predictor.
    init(model bytes: [UInt8]) throws {
        var reader = DlibReader(bytes: bytes)
        guard try reader.integer() == 1 else { throw DlibReader.Failure.unknownVersion }
        let meanValues = try reader.column()
        guard meanValues.count == 2 * Self.count else { throw DlibReader.Failure.malformed }
        mean = (0..<Self.count).map { SIMD2(Double(meanValues[2 * $0]), Double(meanValues[2 * $0 + 1])) }
        var forests: [(splits: [Split], leaves: [Float], splitsPerTree: Int, trees: Int)] = []
        for _ in 0..<(try reader.count()) {
            var splits: [Split] = [], leaves: [Float] = []
            let trees = try reader.count()
            var splitsPerTree = -1
            for _ in 0..<trees {
                let n = try reader.count()
                guard splitsPerTree < 0 || n == splitsPerTree else { throw DlibReader.Failure.malformed }
                splitsPerTree = n
                for _ in 0..<n {
                    let first = try reader.integer(), second = try reader.integer(), threshold = try reader.float()
                    splits.append(Split(first: Int32(first), second: Int32(second), threshold: threshold))
                }
                guard try reader.count() == n + 1 else { throw DlibReader.Failure.malformed }
                for _ in 0...n {
                    let leaf = try reader.column()
                    guard leaf.count == 2 * Self.count else { throw DlibReader.Failure.malformed }
                    leaves += leaf
                }
            }
            forests.append((splits, leaves, max(splitsPerTree, 0), trees))
        }
        var anchors: [[Int]] = []
        for _ in 0..<(try reader.count()) {
            anchors.append(try (0..<(try reader.count())).map { _ in try reader.integer() })
        }
        var offsets: [[SIMD2<Double>]] = []
        for _ in 0..<(try reader.count()) {
            offsets.append(
                try (0..<(try reader.count())).map { _ in SIMD2(Double(try reader.float()), Double(try reader.float()))
                })
        }
        guard anchors.count == forests.count, offsets.count == forests.count,
            zip(anchors, offsets).allSatisfy({ $0.count == $1.count && $0.allSatisfy { (0..<Self.count).contains($0) } }
            )
        else { throw DlibReader.Failure.malformed }
        cascades = forests.indices.map { i in
            let f = forests[i]
            return Cascade(
                anchors: anchors[i], offsets: offsets[i], splits: f.splits, leaves: f.leaves,
                splitsPerTree: f.splitsPerTree, trees: f.trees)
        }
        for (cascade, f) in zip(cascades, forests) {
            let points = cascade.anchors.count
            guard
                f.splits.allSatisfy({
                    Int($0.first) < points && Int($0.second) < points && $0.first >= 0 && $0.second >= 0
                })
            else { throw DlibReader.Failure.malformed }
        }
    }

    /// The 68 landmarks of `face` in `luma` (0…1, read as the 8-bit grey levels the model was trained on), in `luma`'s
    /// pixels (x right, y down from the top left).
    public func landmarks(in luma: PixelPlane<Float>, face: FaceDetector.Face) -> [SIMD2<Double>] {
        // The face's box as the model's unit square: (0, 0) its first pixel's centre, (1, 1) its last one's.
        let origin = SIMD2(face.x, face.y), span = SIMD2(face.width - 1, face.height - 1)
        var shape = mean
        var levels = [Float]()
        for cascade in cascades {
            let turn = Self.similarity(from: mean, to: shape)
            levels = zip(cascade.anchors, cascade.offsets).map { anchor, offset in
                let p = origin + span * (Self.apply(turn, offset) + shape[anchor])
                let x = Int((p.x + 0.5).rounded(.down)), y = Int((p.y + 0.5).rounded(.down))
                guard x >= 0, y >= 0, x < luma.width, y < luma.height else { return 0 }
                return (255 * min(max(luma[x, y, 0], 0), 1)).rounded()
            }
            cascade.leaves.withUnsafeBufferPointer { leaves in
                guard let base = leaves.baseAddress else { return }
                var step = [SIMD2<Double>](repeating: .zero, count: Self.count)
                let n = cascade.splitsPerTree
                for tree in 0..<cascade.trees {
                    var node = 0
                    while node < n {
                        let split = cascade.splits[tree * n + node]
                        node =
                            levels[Int(split.first)] - levels[Int(split.second)] > split.threshold
                            ? 2 * node + 1 : 2 * node + 2
                    }
                    let leaf = base + (tree * (n + 1) + node - n) * 2 * Self.count
                    for k in 0..<Self.count { step[k] += SIMD2(Double(leaf[2 * k]), Double(leaf[2 * k + 1])) }
                }
                for k in 0..<Self.count { shape[k] += step[k] }
            }
        }
        return shape.map { origin + span * $0 }
    }

    /// The 2 × 2 part (rows) of the least-squares similarity that carries the points `from` onto `to` (Umeyama 1991):
    /// a rotation and a uniform scale, without the translation.
    static func similarity(from: [SIMD2<Double>], to: [SIMD2<Double>]) -> (SIMD2<Double>, SIMD2<Double>) {
        let n = Double(from.count)
        let mf = from.reduce(.zero, +) / n, mt = to.reduce(.zero, +) / n
        var spread = 0.0
        // The cross-covariance of the centred points: Σ (to − mt)(from − mf)ᵀ / n.
        var a = 0.0, b = 0.0, c = 0.0, d = 0.0
        for (p, q) in zip(from, to) {
            let u = p - mf, v = q - mt
            spread += (u * u).sum()
            a += v.x * u.x
            b += v.x * u.y
            c += v.y * u.x
            d += v.y * u.y
        }
        guard spread > 0 else { return (SIMD2(1, 0), SIMD2(0, 1)) }
        // For 2 × 2 the best rotation and scale have a closed form: the similarity [[s, −t], [t, s]] nearest the
        // covariance, s = (a + d) / spread and t = (c − b) / spread.
        let s = (a + d) / spread, t = (c - b) / spread
        return (SIMD2(s, -t), SIMD2(t, s))
    }

    @inline(__always)
    static func apply(_ m: (SIMD2<Double>, SIMD2<Double>), _ v: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2((m.0 * v).sum(), (m.1 * v).sum())
    }
}

/// dlib's serialisation, as its shape predictor is stored: integers as a byte holding the count of bytes that follow
/// (and the sign in its top bit) and then the magnitude's bytes, lowest first; floats as an integer mantissa and an
/// integer power of two; a column as its negated row and column counts and then its values.
struct DlibReader {
    enum Failure: Error {
        case truncated, malformed, unknownVersion
    }

    let bytes: [UInt8]
    var position = 0

    mutating func integer() throws -> Int {
        guard position < bytes.count else { throw Failure.truncated }
        let head = bytes[position]
        let size = Int(head & 0x0f)
        guard size <= 8, position + 1 + size <= bytes.count else { throw Failure.malformed }
        var magnitude: UInt64 = 0
        for k in 0..<size { magnitude |= UInt64(bytes[position + 1 + k]) << (8 * UInt64(k)) }
        position += 1 + size
        guard magnitude <= UInt64(Int.max) else { throw Failure.malformed }
        return head & 0x80 != 0 ? -Int(magnitude) : Int(magnitude)
    }

    /// A count of elements (non-negative, and no more than the bytes left could hold).
    mutating func count() throws -> Int {
        let n = try integer()
        guard n >= 0, n <= bytes.count - position else { throw Failure.malformed }
        return n
    }

    mutating func float() throws -> Float {
        let mantissa = try integer(), exponent = try integer()
        guard abs(exponent) < 1000 else { throw Failure.malformed }
        return Float(Double(mantissa) * pow(2, Double(exponent)))
    }

    /// A column vector of floats.
    mutating func column() throws -> [Float] {
        var rows = try integer(), columns = try integer()
        if rows < 0 { (rows, columns) = (-rows, -columns) }
        guard columns == 1, rows >= 0, rows <= bytes.count - position else { throw Failure.malformed }
        return try (0..<rows).map { _ in try float() }
    }
}
