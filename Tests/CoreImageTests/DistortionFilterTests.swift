import CoreImage
import Foundation
import Testing

/// The distortions, straightening and the affine clamp and tile against the source point each output pixel should
/// show, written out here. The probe image's red and green encode each pixel centre's own Core Image coordinates, and
/// bilinear interpolation reproduces a linear ramp exactly, so an output pixel's colour names the point it sampled.
@Suite struct DistortionFilterTests {
    /// Coordinates are stored divided by this, to stay within half floats' finest steps.
    static let span = 64.0
    static let (w, h) = (48, 40)
    static let centre = SIMD2<Double>(24, 20)

    /// The probe: red `x / span`, green `y / span` at each pixel centre (x, y) in Core Image's coordinates.
    static func probe(_ w: Int = w, _ h: Int = h) -> CIImage {
        Fixture.image(w, h) { x, y in
            SIMD4(Float((Double(x) + 0.5) / span), Float((Double(h - 1 - y) + 0.5) / span), 0, 1)
        }
    }

    static func rotate(_ v: SIMD2<Double>, _ a: Double) -> SIMD2<Double> {
        SIMD2(cos(a) * v.x - sin(a) * v.y, sin(a) * v.x + cos(a) * v.y)
    }

    static func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    /// Renders `image` over `rect` and compares every pixel with `expected(p)` at its centre `p`: nil for clear, else
    /// the source point, checked where it lies far enough inside the probe (`inside`) for all four taps to be real
    /// pixels. Returns how many pixels were compared, and the largest distance of a source point from its pixel.
    @discardableResult
    static func check(
        _ image: CIImage?, _ rect: CGRect, probe: (w: Int, h: Int) = (w, h), tolerance: Double = 0.05,
        inside: ((SIMD2<Double>) -> Bool)? = nil, _ expected: (SIMD2<Double>) -> SIMD2<Double>?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (count: Int, reach: Double) {
        let out = Fixture.pixels(try #require(image, sourceLocation: sourceLocation), rect)
        let usable =
            inside ?? { q in
                q.x > 0.6 && q.y > 0.6 && q.x < Double(probe.w) - 0.6 && q.y < Double(probe.h) - 0.6
            }
        var count = 0, reach = 0.0
        for (j, row) in out.enumerated() {
            for (i, v) in row.enumerated() {
                let p = SIMD2(Double(rect.minX) + Double(i) + 0.5, Double(rect.maxY) - Double(j) - 0.5)
                guard let q = expected(p) else {
                    #expect(v == .zero, "clear at \(p): \(v)", sourceLocation: sourceLocation)
                    count += 1
                    continue
                }
                guard usable(q) else { continue }
                let got = SIMD2(Double(v.x), Double(v.y)) * span
                #expect(
                    length(got - q) < tolerance && abs(v.w - 1) < 1e-3, "at \(p): sampled \(got), expected \(q)",
                    sourceLocation: sourceLocation)
                count += 1
                reach = max(reach, length(q - p))
            }
        }
        return (count, reach)
    }

    static let whole = CGRect(x: 0, y: 0, width: w, height: h)

    // MARK: Twirl and vortex

    @Test func twirlTurnsByTheAngleFallingLinearlyToTheRadius() throws {
        let f = CIFilter.twirlDistortion()
        f.inputImage = Self.probe()
        f.center = CGPoint(x: 24, y: 20)
        f.radius = 15
        f.angle = 1.3
        let (count, reach) = try Self.check(f.outputImage, Self.whole) { p in
            let v = p - Self.centre, d = Self.length(v)
            return d < 15 ? Self.centre + Self.rotate(v, -1.3 * (1 - d / 15)) : p
        }
        #expect(count > 1500 && reach > 3, "\(count) pixels, reach \(reach)")
        #expect(f.outputImage?.extent == Self.whole)
    }

    @Test func vortexTurnsByTheAngleFallingQuadraticallyToTheRadius() throws {
        let f = CIFilter.vortexDistortion()
        f.inputImage = Self.probe()
        f.center = CGPoint(x: 24, y: 20)
        f.radius = 18
        f.angle = 9
        let (count, reach) = try Self.check(f.outputImage, Self.whole) { p in
            let v = p - Self.centre, d = Self.length(v)
            let t = 1 - d / 18
            return d < 18 ? Self.centre + Self.rotate(v, -9 * t * t) : p
        }
        #expect(count > 1500 && reach > 5, "\(count) pixels, reach \(reach)")
    }

    // MARK: Bump and pinch

    @Test func bumpScalesOffsetsByOneLessScaleTimesTheSquaredFalloff() throws {
        for scale in [0.5, -0.8] {
            let f = CIFilter.bumpDistortion()
            f.inputImage = Self.probe()
            f.center = CGPoint(x: 24, y: 20)
            f.radius = 16
            f.scale = Float(scale)
            let (count, reach) = try Self.check(f.outputImage, Self.whole) { p in
                let v = p - Self.centre, t = 1 - Self.length(v) / 16
                return t > 0 ? Self.centre + v * (1 - scale * t * t) : p
            }
            #expect(count > 1500 && reach > 1, "scale \(scale): \(count) pixels, reach \(reach)")
        }
    }

    @Test func pinchDrawsTheSourceInAlongEachRay() throws {
        let f = CIFilter.pinchDistortion()
        f.inputImage = Self.probe()
        f.center = CGPoint(x: 24, y: 20)
        f.radius = 16
        f.scale = 0.5
        let (count, reach) = try Self.check(f.outputImage, Self.whole) { p in
            let v = p - Self.centre, d = Self.length(v)
            guard d < 16 else { return p }
            // Source distance 16 · (d / 16)^(1 / 1.5), along the same ray.
            return Self.centre + v * (16 * pow(d / 16, 1 / 1.5) / d)
        }
        #expect(count > 1500 && reach > 2, "\(count) pixels, reach \(reach)")
    }

    // MARK: Hole and circle splash

    @Test func holeIsClearInsideAndPushesTheRingsOutKeepingTheirArea() throws {
        let f = CIFilter.holeDistortion()
        f.inputImage = Self.probe()
        f.center = CGPoint(x: 24, y: 20)
        f.radius = 7
        let (count, reach) = try Self.check(f.outputImage, Self.whole) { p in
            let v = p - Self.centre, d = Self.length(v)
            guard d > 7 else { return nil }
            return Self.centre + v * ((d * d - 49).squareRoot() / d)
        }
        #expect(count > 1500 && reach > 3, "\(count) pixels, reach \(reach)")
        #expect(f.outputImage?.extent == Self.whole)
    }

    @Test func circleSplashStreaksTheCircleOutwardsForEver() throws {
        let f = CIFilter.circleSplashDistortion()
        f.inputImage = Self.probe()
        f.center = CGPoint(x: 24, y: 20)
        f.radius = 10
        let image = try #require(f.outputImage)
        #expect(image.extent.isInfinite)
        // Beyond the probe too: every point outside the circle shows the circle's point on its ray.
        let (count, reach) = try Self.check(image, CGRect(x: -30, y: -20, width: 110, height: 80)) { p in
            let v = p - Self.centre, d = Self.length(v)
            return d <= 10 ? p : Self.centre + v * (10 / d)
        }
        #expect(count > 6000 && reach > 40, "\(count) pixels, reach \(reach)")
    }

    // MARK: Straighten

    @Test func straightenTurnsAboutTheCentreAndScalesToCoverTheExtent() throws {
        let f = CIFilter.straighten()
        f.inputImage = Self.probe()
        f.angle = 0.3
        let image = try #require(f.outputImage)
        #expect(image.extent == Self.whole)
        // The turned w × h rectangle covers the upright one at the scale cos + sin · long / short.
        let scale = cos(0.3) + sin(0.3) * 48 / 40
        let (count, _) = try Self.check(image, Self.whole) { p in
            Self.centre + Self.rotate(p - Self.centre, -0.3) / scale
        }
        #expect(count > 1000, "\(count) pixels")
        // The output's corners come from inside the input, so they are opaque.
        let corners = Fixture.pixels(image, Self.whole)
        for (x, y) in [(0, 0), (47, 0), (0, 39), (47, 39)] { #expect(abs(corners[y][x].w - 1) < 1e-3) }
    }

    // MARK: Affine clamp and tile

    @Test func affineClampTransformsTheImageWithItsEdgesExtended() throws {
        let f = CIFilter.affineClamp()
        f.inputImage = Self.probe()
        let t = CGAffineTransform(scaleX: 1.5, y: 0.75).concatenating(CGAffineTransform(translationX: 7, y: -4))
        f.transform = t
        let image = try #require(f.outputImage)
        #expect(image.extent.isInfinite)
        let inverse = t.inverted()
        // The clamped probe holds each coordinate between the outermost pixel centres.
        let (count, _) = try Self.check(image, CGRect(x: -20, y: -20, width: 120, height: 80), inside: { _ in true }) {
            p in
            let q = CGPoint(x: p.x, y: p.y).applying(inverse)
            return SIMD2(min(max(Double(q.x), 0.5), 47.5), min(max(Double(q.y), 0.5), 39.5))
        }
        #expect(count == 120 * 80)
    }

    @Test func affineTileRepeatsTheImageUnderTheTransform() throws {
        let f = CIFilter.affineTile()
        f.inputImage = Self.probe()
        let t = CGAffineTransform(rotationAngle: 0.4).concatenating(CGAffineTransform(translationX: 5, y: 9))
        f.transform = t
        let image = try #require(f.outputImage)
        #expect(image.extent.isInfinite)
        let inverse = t.inverted()
        // Far from the probe: the source point taken modulo the tile, checked away from the tile's seams.
        let (count, _) = try Self.check(image, CGRect(x: -150, y: 200, width: 100, height: 90)) { p in
            let q = CGPoint(x: p.x, y: p.y).applying(inverse)
            let x = Double(q.x) - 48 * (Double(q.x) / 48).rounded(.down)
            let y = Double(q.y) - 40 * (Double(q.y) / 40).rounded(.down)
            return SIMD2(x, y)
        }
        #expect(count > 6000, "\(count) pixels")
    }

    // MARK: Defaults and builders

    @Test func defaultsAreApplesDocumentedOnes() throws {
        func number(_ name: String, _ key: String) -> Double? {
            (CIFilter(name: name)?.value(forKey: key) as? NSNumber)?.doubleValue
                ?? CIFilter(name: name)?.value(forKey: key) as? Double
        }
        func centre(_ name: String) -> CIVector? { CIFilter(name: name)?.value(forKey: kCIInputCenterKey) as? CIVector }
        let radial: [(String, Double)] = [
            ("CITwirlDistortion", 300), ("CIBumpDistortion", 300), ("CIPinchDistortion", 300),
            ("CIHoleDistortion", 150), ("CIVortexDistortion", 300), ("CICircleSplashDistortion", 150),
        ]
        for (name, radius) in radial {
            #expect(number(name, kCIInputRadiusKey) == radius, "\(name)")
            let c = try #require(centre(name), "\(name)")
            #expect(c.x == 150 && c.y == 150, "\(name)")
        }
        #expect(abs((number("CITwirlDistortion", kCIInputAngleKey) ?? 0) - Double.pi) < 1e-9)
        #expect(abs((number("CIVortexDistortion", kCIInputAngleKey) ?? 0) - 56.548667764616276) < 1e-9)
        #expect(number("CIBumpDistortion", kCIInputScaleKey) == 0.5)
        #expect(number("CIPinchDistortion", kCIInputScaleKey) == 0.5)
        #expect(number("CIStraightenFilter", kCIInputAngleKey) == 0)
        for name in ["CIAffineClamp", "CIAffineTile"] {
            let t = CIFilter(name: name)?.value(forKey: kCIInputTransformKey) as? CGAffineTransform
            #expect(t == .identity, "\(name)")
        }
    }

    @Test func buildersSetTheDocumentedKeys() throws {
        let twirl = CIFilter.twirlDistortion()
        twirl.center = CGPoint(x: 3, y: 4)
        twirl.radius = 12
        twirl.angle = 0.25
        #expect((twirl.value(forKey: kCIInputCenterKey) as? CIVector)?.cgPointValue == CGPoint(x: 3, y: 4))
        #expect(twirl.value(forKey: kCIInputRadiusKey) as? Float == 12)
        #expect(twirl.value(forKey: kCIInputAngleKey) as? Float == 0.25)
        let bump = CIFilter.bumpDistortion()
        bump.scale = -0.3
        #expect(bump.value(forKey: kCIInputScaleKey) as? Float == -0.3)
        let pinch = CIFilter.pinchDistortion()
        pinch.scale = 0.9
        #expect(pinch.value(forKey: kCIInputScaleKey) as? Float == 0.9)
        let hole = CIFilter.holeDistortion()
        hole.radius = 5
        #expect(hole.value(forKey: kCIInputRadiusKey) as? Float == 5)
        let vortex = CIFilter.vortexDistortion()
        vortex.angle = 2
        #expect(vortex.value(forKey: kCIInputAngleKey) as? Float == 2)
        let splash = CIFilter.circleSplashDistortion()
        splash.center = CGPoint(x: 1, y: 2)
        #expect((splash.value(forKey: kCIInputCenterKey) as? CIVector)?.cgPointValue == CGPoint(x: 1, y: 2))
        let straighten = CIFilter.straighten()
        straighten.angle = -0.1
        #expect(straighten.value(forKey: kCIInputAngleKey) as? Float == -0.1)
        #expect((straighten as CIFilter).name == "CIStraightenFilter")
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let clamp = CIFilter.affineClamp()
        clamp.transform = t
        #expect(clamp.value(forKey: kCIInputTransformKey) as? CGAffineTransform == t)
        let tile = CIFilter.affineTile()
        #expect(tile.transform == .identity)
        tile.transform = t
        #expect(tile.value(forKey: kCIInputTransformKey) as? CGAffineTransform == t)
        // The typed and the named filter give the same image.
        let named = try #require(CIFilter(name: "CITwirlDistortion"))
        named.setValue(Self.probe(), forKey: kCIInputImageKey)
        named.setValue(CIVector(x: 3, y: 4), forKey: kCIInputCenterKey)
        named.setValue(12, forKey: kCIInputRadiusKey)
        named.setValue(0.25, forKey: kCIInputAngleKey)
        twirl.inputImage = Self.probe()
        let a = Fixture.pixels(try #require(named.outputImage), Self.whole)
        let b = Fixture.pixels(try #require(twirl.outputImage), Self.whole)
        #expect(a == b)
        #expect(a != Fixture.pixels(Self.probe(), Self.whole))
    }

    @Test func missingImageGivesNil() {
        for name in [
            "CITwirlDistortion", "CIBumpDistortion", "CIPinchDistortion", "CIHoleDistortion", "CIVortexDistortion",
            "CICircleSplashDistortion", "CIStraightenFilter", "CIAffineClamp", "CIAffineTile",
        ] {
            #expect(CIFilter(name: name) != nil, "\(name)")
            #expect(CIFilter(name: name)?.outputImage == nil, "\(name)")
        }
    }
}
