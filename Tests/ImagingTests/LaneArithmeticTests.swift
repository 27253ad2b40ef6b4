import Imaging
import Testing

/// The spelled-out lane-wise operators against the standard library's generic ones, bit for bit, on values chosen to
/// catch a wrong lane, a wrong order of additions, a negation written as a sign flip, or a mask read the wrong way.
///
/// The standard library's versions are reached through generic functions, where overload resolution cannot see the
/// concrete operators.
@Suite struct LaneArithmeticTests {
    static func add<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint { a + b }
    static func subtract<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint { a - b }
    static func multiply<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint { a * b }
    static func divide<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint { a / b }
    static func scaled<V: SIMD>(_ s: V.Scalar, _ b: V) -> V where V.Scalar: FloatingPoint { s * b }
    static func shifted<V: SIMD>(_ b: V, _ s: V.Scalar) -> V where V.Scalar: FloatingPoint { b - s }
    static func over<V: SIMD>(_ s: V.Scalar, _ b: V) -> V where V.Scalar: FloatingPoint { s / b }
    static func negated<V: SIMD>(_ a: V) -> V where V.Scalar: FloatingPoint { -a }
    static func total<V: SIMD>(_ a: V) -> V.Scalar where V.Scalar: FloatingPoint { a.sum() }
    static func chosen<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint {
        a.replacing(with: b, where: b .< a)
    }
    static func anyBelow<V: SIMD>(_ a: V, _ b: V) -> Bool where V.Scalar: FloatingPoint { any(a .< b) }

    /// Signed zeros, NaN, infinities, a subnormal and values whose sums round differently in another order.
    static let doubles: [Double] = [
        0, -0.0, 1, -1, .nan, .infinity, -.infinity, 1e308, -1e308, .leastNormalMagnitude / 4, 0.1, 3, 1e16, -1e16,
    ]
    static let floats: [Float] = [
        0, -0.0, 1, -1, .nan, .infinity, -.infinity, 3e38, -3e38, .leastNormalMagnitude / 4, 0.1, 3, 1e8, -1e8,
    ]

    func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
    func same(_ a: Float, _ b: Float) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    @Test func threeDoubleLanesMatchTheStandardLibrary() {
        let v = Self.doubles
        var checked = 0
        for i in v.indices {
            for j in v.indices {
                let a = SIMD3<Double>(v[i], v[j], v[(i + j) % v.count])
                let b = SIMD3<Double>(v[j], v[(i * 3 + 1) % v.count], v[i])
                let s = v[(i + 2 * j) % v.count]
                let pairs: [(SIMD3<Double>, SIMD3<Double>)] = [
                    (a + b, Self.add(a, b)), (a - b, Self.subtract(a, b)), (a * b, Self.multiply(a, b)),
                    (a / b, Self.divide(a, b)), (s * b, Self.scaled(s, b)), (b - s, Self.shifted(b, s)),
                    (s / b, Self.over(s, b)), (-a, Self.negated(a)),
                    (a.replacing(with: b, where: b .< a), Self.chosen(a, b)),
                ]
                for (mine, standard) in pairs {
                    for lane in 0..<3 { #expect(same(mine[lane], standard[lane])) }
                }
                #expect(same(a.sum(), Self.total(a)))
                #expect(any(a .< b) == Self.anyBelow(a, b))
                checked += 1
            }
        }
        #expect(checked == v.count * v.count)
    }

    @Test func twoDoubleLanesMatchTheStandardLibrary() {
        let v = Self.doubles
        for i in v.indices {
            for j in v.indices {
                let a = SIMD2<Double>(v[i], v[j]), b = SIMD2<Double>(v[j], v[(i + 5) % v.count])
                let s = v[(i + j) % v.count]
                var compound = a
                compound += b
                compound *= s
                let pairs: [(SIMD2<Double>, SIMD2<Double>)] = [
                    (a + b, Self.add(a, b)), (a * b, Self.multiply(a, b)), (a / b, Self.divide(a, b)),
                    (s * b, Self.scaled(s, b)), (b - s, Self.shifted(b, s)), (-a, Self.negated(a)),
                    (a.replacing(with: b, where: b .< a), Self.chosen(a, b)),
                    (compound, Self.multiply(Self.add(a, b), SIMD2(repeating: s))),
                ]
                for (mine, standard) in pairs {
                    for lane in 0..<2 { #expect(same(mine[lane], standard[lane])) }
                }
                #expect(same(a.sum(), Self.total(a)))
                #expect(any(a .< b) == Self.anyBelow(a, b))
            }
        }
    }

    @Test func fourFloatLanesMatchTheStandardLibrary() {
        let v = Self.floats
        for i in v.indices {
            for j in v.indices {
                let a = SIMD4<Float>(v[i], v[j], v[(i + j) % v.count], v[(i * j) % v.count])
                let b = SIMD4<Float>(v[j], v[(i * 3 + 1) % v.count], v[i], v[(j + 7) % v.count])
                let s = v[(i + 2 * j) % v.count]
                let pairs: [(SIMD4<Float>, SIMD4<Float>)] = [
                    (a + b, Self.add(a, b)), (a - b, Self.subtract(a, b)), (a * b, Self.multiply(a, b)),
                    (a / b, Self.divide(a, b)), (s * b, Self.scaled(s, b)), (b - s, Self.shifted(b, s)),
                    (s / b, Self.over(s, b)), (-a, Self.negated(a)),
                    (a.replacing(with: b, where: b .< a), Self.chosen(a, b)),
                ]
                for (mine, standard) in pairs {
                    for lane in 0..<4 { #expect(same(mine[lane], standard[lane])) }
                }
                #expect(same(a.sum(), Self.total(a)))
                #expect(any(a .< b) == Self.anyBelow(a, b))
            }
        }
    }

    @Test func negationKeepsPositiveZeroAsTheStandardLibraryDoes() {
        // 0 − (+0) is +0 where a sign flip would give −0.
        #expect((-SIMD3<Double>(0, 0, 0)).x.sign == .plus)
        #expect((-SIMD4<Float>(-0.0, 0, 1, 2)).x.sign == .plus)
    }
}
