import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import Testing

/// The transitions, each against its closed form computed here on small images: time 0 gives the source, time 1 the
/// target, and in between the front, band, bars or holes lie where the formula puts them.
@Suite struct TransitionFilterTests {
    static let (w, h) = (40, 20)
    static let rect = CGRect(x: 0, y: 0, width: w, height: h)

    /// Opaque source and target that differ at every pixel, indexed by column and row from the top.
    static func sourceColour(_ x: Int, _ y: Int) -> SIMD4<Float> {
        SIMD4(0.1 + 0.02 * Float(x), 0.3, 0.05 * Float(y % 4), 1)
    }
    static func targetColour(_ x: Int, _ y: Int) -> SIMD4<Float> { SIMD4(0.9, 0.1 + 0.01 * Float(y), 0.6, 1) }
    static let source = Fixture.image(w, h, sourceColour)
    static let target = Fixture.image(w, h, targetColour)

    /// The centre of the pixel at column x, row y from the top, in Core Image's coordinates (y up).
    static func centre(_ x: Int, _ y: Int) -> SIMD2<Float> { SIMD2(Float(x) + 0.5, Float(h - 1 - y) + 0.5) }

    /// Renders the filter over the images' rectangle and compares every pixel with `expected(x, y)`.
    static func check(
        _ filter: CIFilter, _ label: String, _ expected: (Int, Int) -> SIMD4<Float>
    ) throws -> Int {
        let out = Fixture.pixels(try #require(filter.outputImage), rect)
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w where !Fixture.close(out[y][x], expected(x, y)) {
                if wrong == 0 { Issue.record("\(label): (\(x), \(y)) is \(out[y][x]), expected \(expected(x, y))") }
                wrong += 1
            }
        }
        return wrong
    }

    static func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: Float) -> SIMD4<Float> { a * (1 - t) + b * t }

    /// The mask of the disintegration: its green rises from 0 at the left to 39/40 at the right.
    static let mask = Fixture.image(w, h) { x, _ in SIMD4(0, Float(x) / Float(w), 0, 1) }

    /// Every transition with both images set (and the mask where it needs one).
    static func allTransitions() -> [CIFilter] {
        let names = [
            "CIDissolveTransition", "CISwipeTransition", "CICopyMachineTransition", "CIBarsSwipeTransition",
            "CIModTransition", "CIDisintegrateWithMaskTransition", "CIFlashTransition",
        ]
        return names.compactMap { name in
            let f = CIFilter(name: name)
            f?.setValue(source, forKey: kCIInputImageKey)
            f?.setValue(target, forKey: "inputTargetImage")
            if name == "CIDisintegrateWithMaskTransition" { f?.setValue(mask, forKey: kCIInputMaskImageKey) }
            // The swipes cross the images' own rectangle.
            if f?.inputKeys.contains(kCIInputExtentKey) == true {
                f?.setValue(CIVector(cgRect: rect), forKey: kCIInputExtentKey)
            }
            return f
        }
    }

    // MARK: Parameters

    @Test func documentedDefaults() throws {
        let extent = CIVector(x: 0, y: 0, z: 300, w: 300)
        let numbers: [String: [String: Double]] = [
            "CIDissolveTransition": ["inputTime": 0],
            "CISwipeTransition": ["inputTime": 0, "inputAngle": 0, "inputWidth": 300, "inputOpacity": 0],
            "CICopyMachineTransition": ["inputTime": 0, "inputAngle": 0, "inputWidth": 200, "inputOpacity": 1.3],
            "CIBarsSwipeTransition": ["inputTime": 0, "inputAngle": Double.pi, "inputWidth": 30, "inputBarOffset": 10],
            "CIModTransition": ["inputTime": 0, "inputAngle": 2, "inputRadius": 150, "inputCompression": 300],
            "CIDisintegrateWithMaskTransition": ["inputTime": 0, "inputShadowRadius": 8, "inputShadowDensity": 0.65],
            "CIFlashTransition": [
                "inputTime": 0, "inputMaxStriationRadius": 2.58, "inputStriationStrength": 0.5,
                "inputStriationContrast": 1.375, "inputFadeThreshold": 0.85,
            ],
        ]
        for (name, keys) in numbers {
            let f = try #require(CIFilter(name: name), "\(name)")
            for (key, value) in keys {
                #expect(StylizeFilterTests.number(f.value(forKey: key)) == value, "\(name) \(key)")
            }
            #expect(f.outputImage == nil, "\(name) without images")
            f.setValue(Self.source, forKey: kCIInputImageKey)
            #expect(f.outputImage == nil, "\(name) without a target")
        }
        let swipe = try #require(CIFilter(name: "CISwipeTransition"))
        let copy = try #require(CIFilter(name: "CICopyMachineTransition"))
        #expect(swipe.value(forKey: kCIInputExtentKey) as? CIVector == extent)
        #expect(copy.value(forKey: kCIInputExtentKey) as? CIVector == extent)
        #expect(swipe.value(forKey: kCIInputColorKey) as? CIColor == CIColor(red: 1, green: 1, blue: 1))
        #expect(copy.value(forKey: kCIInputColorKey) as? CIColor == CIColor(red: 0.6, green: 1, blue: 1))
        #expect(swipe.inputKeys.count == 8 && copy.inputKeys.count == 8)
        let flash = try #require(CIFilter(name: "CIFlashTransition"))
        #expect(flash.value(forKey: kCIInputColorKey) as? CIColor == CIColor(red: 1, green: 0.8, blue: 0.6))
        #expect(flash.value(forKey: kCIInputExtentKey) as? CIVector == extent)
        #expect(flash.value(forKey: kCIInputCenterKey) as? CIVector == CIVector(x: 150, y: 150))
        #expect(flash.inputKeys.count == 10)
        let mod = try #require(CIFilter(name: "CIModTransition"))
        #expect(mod.value(forKey: kCIInputCenterKey) as? CIVector == CIVector(x: 150, y: 150))
        let dis = try #require(CIFilter(name: "CIDisintegrateWithMaskTransition"))
        #expect(dis.value(forKey: "inputShadowOffset") as? CIVector == CIVector(x: 0, y: -10))
        #expect(dis.inputKeys.prefix(3) == ["inputImage", "inputTargetImage", "inputMaskImage"])
    }

    @Test func typedBuildersSetTheirKeys() throws {
        let dissolve = CIFilter.dissolveTransition()
        (dissolve.inputImage, dissolve.targetImage, dissolve.time) = (Self.source, Self.target, 0.25)
        #expect(dissolve.value(forKey: "inputTargetImage") as? CIImage === Self.target)
        #expect(StylizeFilterTests.number(dissolve.value(forKey: "inputTime")) == 0.25)
        let swipe = CIFilter.swipeTransition()
        (swipe.extent, swipe.color, swipe.angle, swipe.width, swipe.opacity) = (
            CGRect(x: 1, y: 2, width: 3, height: 4), CIColor(red: 0, green: 0, blue: 1), 0.5, 12, 0.75
        )
        #expect(swipe.value(forKey: "inputExtent") as? CIVector == CIVector(x: 1, y: 2, z: 3, w: 4))
        #expect(swipe.value(forKey: "inputColor") as? CIColor == CIColor(red: 0, green: 0, blue: 1))
        #expect(StylizeFilterTests.number(swipe.value(forKey: "inputOpacity")) == 0.75)
        #expect(StylizeFilterTests.number(swipe.value(forKey: "inputWidth")) == 12)
        let copy = CIFilter.copyMachineTransition()
        (copy.opacity, copy.width) = (0.5, 20)
        #expect(StylizeFilterTests.number(copy.value(forKey: "inputOpacity")) == 0.5)
        let bars = CIFilter.barsSwipeTransition()
        (bars.angle, bars.width, bars.barOffset) = (1, 7, 3)
        #expect(StylizeFilterTests.number(bars.value(forKey: "inputBarOffset")) == 3)
        #expect(StylizeFilterTests.number(bars.value(forKey: "inputWidth")) == 7)
        let mod = CIFilter.modTransition()
        (mod.center, mod.angle, mod.radius, mod.compression) = (CGPoint(x: 4, y: 5), 1, 20, 60)
        #expect(mod.value(forKey: "inputCenter") as? CIVector == CIVector(x: 4, y: 5))
        #expect(StylizeFilterTests.number(mod.value(forKey: "inputCompression")) == 60)
        let flash = CIFilter.flashTransition()
        (flash.center, flash.extent, flash.color, flash.fadeThreshold) = (
            CGPoint(x: 1, y: 2), CGRect(x: 0, y: 0, width: 8, height: 9), CIColor(red: 1, green: 1, blue: 0), 0.7
        )
        (flash.maxStriationRadius, flash.striationStrength, flash.striationContrast) = (3, 0.25, 2)
        #expect(flash.value(forKey: "inputCenter") as? CIVector == CIVector(x: 1, y: 2))
        #expect(flash.value(forKey: "inputExtent") as? CIVector == CIVector(x: 0, y: 0, z: 8, w: 9))
        #expect(StylizeFilterTests.number(flash.value(forKey: "inputFadeThreshold")) == Double(Float(0.7)))
        #expect(StylizeFilterTests.number(flash.value(forKey: "inputMaxStriationRadius")) == 3)
        #expect(StylizeFilterTests.number(flash.value(forKey: "inputStriationStrength")) == 0.25)
        #expect(StylizeFilterTests.number(flash.value(forKey: "inputStriationContrast")) == 2)
        let dis = CIFilter.disintegrateWithMaskTransition()
        (dis.maskImage, dis.shadowRadius, dis.shadowDensity, dis.shadowOffset) = (
            Self.mask, 4, 0.5, CGPoint(x: 1, y: -2)
        )
        #expect(dis.value(forKey: "inputMaskImage") as? CIImage === Self.mask)
        #expect(StylizeFilterTests.number(dis.value(forKey: "inputShadowRadius")) == 4)
        #expect(dis.value(forKey: "inputShadowOffset") as? CIVector == CIVector(x: 1, y: -2))
    }

    // MARK: Ends

    @Test func timeZeroGivesTheSourceAndTimeOneTheTarget() throws {
        for filter in Self.allTransitions() {
            for (time, expected) in [(0.0, Self.sourceColour), (1.0, Self.targetColour), (-3.0, Self.sourceColour)] {
                filter.setValue(time, forKey: "inputTime")
                #expect(try Self.check(filter, "\(filter.name) at \(time)", expected) == 0)
            }
            #expect(filter.outputImage?.extent == Self.rect, "\(filter.name)")
        }
    }

    // MARK: Closed forms

    @Test func dissolveIsTheLinearMix() throws {
        let filter = CIFilter.dissolveTransition()
        (filter.inputImage, filter.targetImage) = (Self.source, Self.target)
        for t: Float in [0.25, 0.6] {
            filter.time = t
            #expect(
                try Self.check(filter, "t \(t)") { x, y in Self.mix(Self.sourceColour(x, y), Self.targetColour(x, y), t)
                } == 0)
        }
    }

    /// The swipe's front over [0, 40] along +x with a band of 8: its leading edge at 0 + t · (40 + 8), the target
    /// behind the band, the source ahead and a linear mix across it.
    @Test func swipeBandLiesWhereTheClosedFormPutsIt() throws {
        let filter = CIFilter.swipeTransition()
        (filter.inputImage, filter.targetImage, filter.extent, filter.width, filter.angle) = (
            Self.source, Self.target, Self.rect, 8, 0
        )
        filter.time = 0.5
        let edge: Float = 0.5 * 48
        func fraction(_ x: Int) -> Float { min(max((edge - (Float(x) + 0.5)) / 8, 0), 1) }
        #expect(
            try Self.check(filter, "opacity 0") { x, y in
                Self.mix(Self.sourceColour(x, y), Self.targetColour(x, y), fraction(x))
            } == 0)
        // Pixels 0…15 show the target, 24… the source.
        #expect(fraction(15) == 1 && fraction(24) == 0 && fraction(20) == 0.4375)
        // The colour at the opacity covers the band only.
        (filter.color, filter.opacity) = (CIColor(red: 1, green: 0, blue: 0), 0.5)
        #expect(
            try Self.check(filter, "opacity ½") { x, y in
                let f = fraction(x), under = Self.mix(Self.sourceColour(x, y), Self.targetColour(x, y), f)
                return f > 0 && f < 1 ? Self.mix(under, SIMD4(1, 0, 0, 1), 0.5) : under
            } == 0)
        // Turned a quarter, the front moves up from the bottom row: over [0, 20] with a band of 8.
        (filter.angle, filter.opacity, filter.time) = (.pi / 2, 0, 0.25)
        let upEdge: Float = 0.25 * 28
        #expect(
            try Self.check(filter, "upwards") { x, y in
                let f = min(max((upEdge - Self.centre(x, y).y) / 8, 0), 1)
                return Self.mix(Self.sourceColour(x, y), Self.targetColour(x, y), f)
            } == 0)
    }

    /// The copier's light: the target wherever the band has reached, lit by the colour with strength
    /// min(1, opacity · (1 − |2f − 1|)).
    @Test func copyMachineLightsTheBandOverTheTarget() throws {
        let filter = CIFilter.copyMachineTransition()
        (filter.inputImage, filter.targetImage, filter.extent, filter.width, filter.angle) = (
            Self.source, Self.target, Self.rect, 10, 0
        )
        (filter.color, filter.opacity, filter.time) = (CIColor(red: 0, green: 1, blue: 0), 1.3, 0.4)
        let edge: Float = 0.4 * 50
        #expect(
            try Self.check(filter, "light") { x, y in
                let f = min(max((edge - (Float(x) + 0.5)) / 10, 0), 1)
                guard f > 0 else { return Self.sourceColour(x, y) }
                return Self.mix(Self.targetColour(x, y), SIMD4(0, 1, 0, 1), min(1.3 * (1 - abs(2 * f - 1)), 1))
            } == 0)
    }

    /// Bars 5 pixels tall, stacked up from y = 0, swiping along +x over the 40 pixels: even bars' edge at
    /// t · (40 + 10), odd bars' 10 behind it.
    @Test func barsSwipeAlternateBarsLagByTheOffset() throws {
        let filter = CIFilter.barsSwipeTransition()
        (filter.inputImage, filter.targetImage) = (Self.source, Self.target)
        (filter.angle, filter.width, filter.barOffset, filter.time) = (0, 5, 10, 0.5)
        #expect(
            try Self.check(filter, "bars") { x, y in
                let p = Self.centre(x, y)
                let bar = Int((p.y / 5).rounded(.down))
                let edge: Float = 25 - (bar % 2 == 0 ? 0 : 10)
                return p.x < edge ? Self.targetColour(x, y) : Self.sourceColour(x, y)
            } == 0)
    }

    /// The holes open where (1 + sin(2π·u.x) · cos(2π·u.y · radius / compression)) / 2 < time, u being the point
    /// about the centre turned by −angle, in radii.
    @Test func modHolesOpenBelowTheTime() throws {
        let filter = CIFilter.modTransition()
        (filter.inputImage, filter.targetImage) = (Self.source, Self.target)
        (filter.center, filter.angle, filter.radius, filter.compression) = (CGPoint(x: 20, y: 10), 0.3, 16, 40)
        filter.time = 0.5
        var shown = 0
        #expect(
            try Self.check(filter, "holes") { x, y in
                let d = Self.centre(x, y) - SIMD2(20, 10)
                let (c, s) = (cosf(0.3), sinf(0.3))
                let u = SIMD2(d.x * c + d.y * s, -d.x * s + d.y * c) / 16
                let pattern = (1 + sinf(2 * .pi * u.x) * cosf(2 * .pi * u.y * 16 / 40)) / 2
                if pattern < 0.5 { shown += 1 }
                return pattern < 0.5 ? Self.targetColour(x, y) : Self.sourceColour(x, y)
            } == 0)
        #expect(shown > 100 && shown < 700, "about half the pixels are holes: \(shown)")
    }

    /// The mask's green rises to the right, so at time t the target shows where x / 40 < t.
    @Test func disintegrationFollowsTheMask() throws {
        let filter = CIFilter.disintegrateWithMaskTransition()
        (filter.inputImage, filter.targetImage, filter.maskImage, filter.time) = (
            Self.source, Self.target, Self.mask, 0.31
        )
        #expect(
            try Self.check(filter, "mask") { x, y in
                Float(x) / 40 < 0.31 ? Self.targetColour(x, y) : Self.sourceColour(x, y)
            } == 0)
    }

    /// The flash from (10, 5) over the images' rectangle, whose farthest corner is √(30² + 15²) away: a disc of the
    /// colour of radius R · t / F over the source until the fade threshold F = 0.8, then the colour fading into the
    /// target.
    @Test func flashGrowsThenFadesIntoTheTarget() throws {
        let filter = CIFilter.flashTransition()
        (filter.inputImage, filter.targetImage, filter.extent, filter.center) = (
            Self.source, Self.target, Self.rect, CGPoint(x: 10, y: 5)
        )
        (filter.color, filter.fadeThreshold, filter.time) = (CIColor(red: 1, green: 1, blue: 0), 0.8, 0.4)
        let reach = (30 * 30 + 15 * 15 as Float).squareRoot(), flash = SIMD4<Float>(1, 1, 0, 1)
        var lit = 0
        #expect(
            try Self.check(filter, "growing") { x, y in
                let d = Self.centre(x, y) - SIMD2(10, 5)
                let inside = (d * d).sum() < (reach / 2) * (reach / 2)
                if inside { lit += 1 }
                return inside ? flash : Self.sourceColour(x, y)
            } == 0)
        #expect(lit > 50 && lit < 800, "part of the image is lit: \(lit)")
        filter.time = 0.9
        #expect(try Self.check(filter, "fading") { x, y in Self.mix(flash, Self.targetColour(x, y), 0.5) } == 0)
    }
}
