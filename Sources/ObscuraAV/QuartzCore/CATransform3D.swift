import Foundation

/// A 4 × 4 transform of homogeneous points (QuartzCore's `CATransform3D`), in Core Animation's convention: a point is
/// a row vector (x, y, z, 1) multiplied on the left, so the translation is the fourth row (`m41`, `m42`, `m43`) and
/// perspective goes in the fourth column (`m34` is the usual −1 / eye distance).
public struct CATransform3D: Equatable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// The zero matrix, as the C struct's zero initialiser gives.
    public init() {
        (m11, m12, m13, m14) = (0, 0, 0, 0)
        (m21, m22, m23, m24) = (0, 0, 0, 0)
        (m31, m32, m33, m34) = (0, 0, 0, 0)
        (m41, m42, m43, m44) = (0, 0, 0, 0)
    }

    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat, m21: CGFloat, m22: CGFloat, m23: CGFloat,
        m24: CGFloat, m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat, m41: CGFloat, m42: CGFloat,
        m43: CGFloat, m44: CGFloat
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// The rows, for the arithmetic below.
    var rows: [[CGFloat]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    init(rows r: [[CGFloat]]) {
        self.init(
            m11: r[0][0], m12: r[0][1], m13: r[0][2], m14: r[0][3], m21: r[1][0], m22: r[1][1], m23: r[1][2],
            m24: r[1][3], m31: r[2][0], m32: r[2][1], m33: r[2][2], m34: r[2][3], m41: r[3][0], m42: r[3][1],
            m43: r[3][2], m44: r[3][3])
    }
}

/// The identity.
public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0,
    m43: 0, m44: 1)

/// Whether `t` is the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t == CATransform3DIdentity }

/// Whether `a` and `b` are the same transform.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// A translation by (tx, ty, tz).
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    (t.m41, t.m42, t.m43) = (tx, ty, tz)
    return t
}

/// A scale by (sx, sy, sz).
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    (t.m11, t.m22, t.m33) = (sx, sy, sz)
    return t
}

/// A rotation by `angle` radians about the axis (x, y, z), which need not be of unit length; the identity for a zero
/// axis. About (0, 0, 1) it turns x towards y, as `CGAffineTransform(rotationAngle:)` does.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0 else { return CATransform3DIdentity }
    let (u, v, w) = (x / length, y / length, z / length)
    let (c, s) = (cos(angle), sin(angle))
    let k = 1 - c
    // Rodrigues' rotation matrix, transposed for row vectors.
    let (uv, uw, vw): (CGFloat, CGFloat, CGFloat) = (u * v * k, u * w * k, v * w * k)
    let (us, vs, ws): (CGFloat, CGFloat, CGFloat) = (u * s, v * s, w * s)
    var t = CATransform3DIdentity
    (t.m11, t.m12, t.m13) = (c + u * u * k, uv + ws, uw - vs)
    (t.m21, t.m22, t.m23) = (uv - ws, c + v * v * k, vw + us)
    (t.m31, t.m32, t.m33) = (uw + vs, vw - us, c + w * w * k)
    return t
}

/// `a` then `b`: a point goes through `a` first.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    let (x, y) = (a.rows, b.rows)
    var product = [[CGFloat]](repeating: [0, 0, 0, 0], count: 4)
    for i in 0..<4 {
        for j in 0..<4 {
            var sum: CGFloat = 0
            for k in 0..<4 { sum += x[i][k] * y[k][j] }
            product[i][j] = sum
        }
    }
    return CATransform3D(rows: product)
}

/// A translation by (tx, ty, tz) done before `t`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeTranslation(tx, ty, tz), t)
}

/// A scale by (sx, sy, sz) done before `t`.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeScale(sx, sy, sz), t)
}

/// A rotation done before `t`.
public func CATransform3DRotate(
    _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

/// The inverse; `t` itself when it has none, as Core Animation returns.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    // Gauss–Jordan elimination with partial pivoting on [t | I].
    var m = t.rows.enumerated().map { i, row in row + (0..<4).map { $0 == i ? CGFloat(1) : 0 } }
    for column in 0..<4 {
        guard let pivot = (column..<4).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }),
            abs(m[pivot][column]) > 1e-12
        else { return t }
        m.swapAt(column, pivot)
        let scale = m[column][column]
        m[column] = m[column].map { $0 / scale }
        for row in 0..<4 where row != column {
            let factor = m[row][column]
            if factor != 0 { m[row] = zip(m[row], m[column]).map { $0 - factor * $1 } }
        }
    }
    return CATransform3D(rows: m.map { Array($0[4...]) })
}

/// The 3D form of an affine transform of the plane.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    CATransform3D(
        m11: m.a, m12: m.b, m13: 0, m14: 0, m21: m.c, m22: m.d, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0,
        m41: m.tx, m42: m.ty, m43: 0, m44: 1)
}

/// Whether `t` is an affine transform of the plane (`CATransform3DMakeAffineTransform` of one).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0
        && t.m43 == 0 && t.m44 == 1
}

/// The plane's part of `t`: its affine transform when it is affine.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

/// How a layer's plane (z = 0) lands on its superlayer's, as a projective map of the plane: the 4 × 4 transform
/// with the z row and column left out. Points are row vectors (x, y, 1) multiplied on the left, then divided by
/// their third coordinate.
struct PlaneProjection {
    var m: [[CGFloat]]

    static let identity = PlaneProjection(m: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    init(m: [[CGFloat]]) { self.m = m }

    init(_ t: CATransform3D) { m = [[t.m11, t.m12, t.m14], [t.m21, t.m22, t.m24], [t.m41, t.m42, t.m44]] }

    /// This map, then `next`.
    func then(_ next: PlaneProjection) -> PlaneProjection {
        var product = [[CGFloat]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                var sum: CGFloat = 0
                for k in 0..<3 { sum += m[i][k] * next.m[k][j] }
                product[i][j] = sum
            }
        }
        return PlaneProjection(m: product)
    }

    /// The inverse, from the adjugate; the identity's stand-in, itself, when the map flattens the plane.
    var inverted: PlaneProjection {
        let a = m
        let cofactors: [[CGFloat]] = (0..<3).map { i in
            (0..<3).map { j in
                let (r0, r1) = ((i + 1) % 3, (i + 2) % 3)
                let (c0, c1) = ((j + 1) % 3, (j + 2) % 3)
                return a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]
            }
        }
        let determinant: CGFloat = a[0][0] * cofactors[0][0] + a[0][1] * cofactors[0][1] + a[0][2] * cofactors[0][2]
        guard abs(determinant) > 1e-12 else { return self }
        // The inverse is the transposed cofactor matrix over the determinant.
        return PlaneProjection(m: (0..<3).map { i in (0..<3).map { j in cofactors[j][i] / determinant } })
    }

    func apply(_ p: CGPoint) -> CGPoint {
        let x = p.x * m[0][0] + p.y * m[1][0] + m[2][0]
        let y = p.x * m[0][1] + p.y * m[1][1] + m[2][1]
        let w = p.x * m[0][2] + p.y * m[1][2] + m[2][2]
        return CGPoint(x: x / w, y: y / w)
    }

    /// The smallest rectangle holding `r`'s four corners mapped.
    func apply(_ r: CGRect) -> CGRect {
        guard !r.isNull else { return r }
        let corners = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.minX, y: r.maxY),
            CGPoint(x: r.maxX, y: r.maxY),
        ].map(apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}
