import Foundation
@testable import Imaging
import Testing

/// A picture of `width × height` pixels of `background`, with discs (centre and radius in pixels) of their own
/// colour, each pixel covered by 4 × 4 samples.
private func discs(
    width: Int, height: Int, background: [Float], _ shapes: [(x: Double, y: Double, r: Double, colour: [Float])]
) -> PixelPlane<Float> {
    PixelPlane<Float>(width: width, height: height, channels: background.count) { x, y, c in
        var value = background[c]
        for shape in shapes {
            var covered = 0
            for sy in 0..<4 {
                for sx in 0..<4 {
                    let dx = Double(x) + (Double(sx) + 0.5) / 4 - shape.x
                    let dy = Double(y) + (Double(sy) + 0.5) / 4 - shape.y
                    if dx * dx + dy * dy <= shape.r * shape.r { covered += 1 }
                }
            }
            let a = Float(covered) / 16
            value = a * shape.colour[c] + (1 - a) * value
        }
        return value
    }
}

/// How much of `inner` lies inside `outer` (normalised boxes).
private func shareInside(_ inner: SaliencyMap.Region, _ outer: (x: Double, y: Double, width: Double, height: Double))
    -> Double
{
    let w = max(0, min(inner.x + inner.width, outer.x + outer.width) - max(inner.x, outer.x))
    let h = max(0, min(inner.y + inner.height, outer.y + outer.height) - max(inner.y, outer.y))
    return w * h / (inner.width * inner.height)
}

@Suite struct SaliencyTests {
    @Test func theBarrierDistanceOfAPlateauIsItsStepAndTheGroundsIsNone() {
        // A square 0.6 high on ground 0.2: every path from inside to the border climbs down the step, 0.4; every
        // ground pixel reaches the border along the ground, 0.
        let n = Saliency.workingSide
        let channel = (0..<n * n).map { k -> Float in
            let (x, y) = (k % n, k / n)
            return (20..<40).contains(x) && (24..<44).contains(y) ? 0.6 : 0.2
        }
        let distance = Saliency.barrierDistance(channel)
        for k in 0..<(n * n) {
            let expected = channel[k] == 0.6 ? 0.4 : 0
            #expect(abs(distance[k] - expected) < 1e-6, "pixel \(k % n), \(k / n): \(distance[k])")
        }
    }

    @Test func theBarrierDistanceClimbsOverTheHighestWallAroundAWell() {
        // A dark well (0.1) inside a bright ring (0.9) on ground 0.5: leaving the well means climbing the ring, so the
        // well's distance is 0.9 − 0.1 = 0.8, however the path runs.
        let n = Saliency.workingSide
        let channel = (0..<n * n).map { k -> Float in
            let d = hypot(Double(k % n) - 31.5, Double(k / n) - 31.5)
            return d < 8 ? 0.1 : d < 14 ? 0.9 : 0.5
        }
        let distance = Saliency.barrierDistance(channel)
        #expect(abs(distance[32 * n + 32] - 0.8) < 1e-6)
        #expect(abs(distance[32 * n + 32 + 10] - 0.4) < 1e-6)
    }

    @Test func attentionFavoursTheObjectNearerTheCentre() throws {
        // Two alike discs, one at the centre and one near a corner: objectness scores them alike, attention the
        // central one, by the centre bias exp(−d²/2σ²) with σ a third of the side.
        let picture = discs(
            width: 400, height: 400, background: [0.3, 0.3, 0.3],
            [(x: 200, y: 200, r: 30, colour: [0.9, 0.9, 0.9]), (x: 70, y: 70, r: 30, colour: [0.9, 0.9, 0.9])])
        let objects = Saliency.map(.objectness, of: picture).regions(limit: 3)
        #expect(objects.count == 2 && abs(objects[0].confidence - objects[1].confidence) < 0.05, "\(objects)")
        let attention = Saliency.map(.attention, of: picture)
        func heat(_ x: Double, _ y: Double) -> Float { attention.values[Int(y / 400 * 68) * 68 + Int(x / 400 * 68)] }
        // The corner disc lies (130, 130) pixels from the centre, 0.325 of the side each way: weight
        // exp(−2 · 0.325² / (2 · (1/3)²)) = 0.39 of the centre's.
        #expect(heat(200, 200) == 1)
        #expect(abs(heat(70, 70) - 0.39) < 0.06, "\(heat(70, 70))")
        let region = try #require(attention.regions(limit: 1).first)
        #expect(abs(region.x + region.width / 2 - 0.5) < 0.03 && abs(region.y + region.height / 2 - 0.5) < 0.03)
    }

    @Test(arguments: [Saliency.Kind.attention, .objectness]) func aFlatPictureHasNothingSalient(kind: Saliency.Kind) {
        // Within a few codes of grey everywhere.
        let picture = PixelPlane<Float>(width: 320, height: 240, channels: 3) { x, y, _ in
            0.5 + 0.01 * Float((x * 7 + y * 3) % 5) / 5
        }
        let map = Saliency.map(kind, of: picture)
        #expect(map.values.count == SaliencyMap.side * SaliencyMap.side)
        #expect(map.values.allSatisfy { $0 == 0 })
        #expect(map.regions(limit: 3).isEmpty)
    }

    @Test(arguments: [Saliency.Kind.attention, .objectness]) func aDiscOnPlainGroundIsTheSalientRegion(
        kind: Saliency.Kind
    ) throws {
        let picture = discs(
            width: 400, height: 300, background: [0.45, 0.42, 0.4], [(x: 250, y: 120, r: 40, colour: [0.9, 0.2, 0.15])])
        let map = Saliency.map(kind, of: picture)
        #expect(map.values.allSatisfy { (0...1).contains($0) })
        #expect(map.values.max() == 1)
        let region = try #require(map.regions(limit: 1).first)
        // The disc's box, widened by two map pixels for the smoothing and the map's coarse grid.
        let slack = 2.0 / Double(SaliencyMap.side)
        let disc = (
            x: 210 / 400.0 - slack, y: 80 / 300.0 - slack, width: 80 / 400.0 + 2 * slack,
            height: 80 / 300.0 + 2 * slack
        )
        #expect(shareInside(region, disc) > 0.95, "\(region)")
        // It covers most of the disc, not a corner of it.
        #expect(region.width * region.height > 0.5 * (80 / 400.0) * (80 / 300.0), "\(region)")
    }

    @Test func objectnessFindsEachOfSeveralObjectsAndAttentionOne() {
        let picture = discs(
            width: 480, height: 320, background: [0.3, 0.35, 0.3],
            [(x: 110, y: 100, r: 36, colour: [0.9, 0.85, 0.2]), (x: 350, y: 210, r: 44, colour: [0.15, 0.2, 0.85])])
        let objects = Saliency.map(.objectness, of: picture).regions(limit: 3)
        #expect(objects.count == 2, "\(objects)")
        let centres = objects.map { (($0.x + $0.width / 2) * 480, ($0.y + $0.height / 2) * 320) }
        for (x, y) in [(110.0, 100.0), (350.0, 210.0)] {
            #expect(centres.contains { abs($0.0 - x) < 12 && abs($0.1 - y) < 12 }, "\(centres) lacks \(x), \(y)")
        }
        #expect(Saliency.map(.attention, of: picture).regions(limit: 1).count == 1)
    }

    @Test func aColourDifferenceAloneStandsOutInColourButNotInLuma() {
        // Red on green of the same BT.601 luma: 0.299·0.8 + 0.587·0.2 + 0.114·0.2 = 0.38 = 0.299·0.2 + 0.587·0.5 + …
        let red: [Float] = [0.8, 0.2, 0.2]
        let lumaOfRed = 0.299 * red[0] + 0.587 * red[1] + 0.114 * red[2]
        let greenG = (lumaOfRed - 0.299 * 0.2 - 0.114 * 0.2) / 0.587
        let green: [Float] = [0.2, greenG, 0.2]
        let colour = discs(width: 320, height: 240, background: green, [(x: 160, y: 120, r: 30, colour: red)])
        let luma = PixelPlane<Float>(width: 320, height: 240) { x, y, _ in
            0.299 * colour[x, y, 0] + 0.587 * colour[x, y, 1] + 0.114 * colour[x, y, 2]
        }
        for kind in [Saliency.Kind.attention, .objectness] {
            #expect(Saliency.map(kind, of: colour).regions(limit: 1).count == 1)
            #expect(Saliency.map(kind, of: luma).regions(limit: 1).isEmpty)
        }
    }

    @Test func anObjectAtTheBorderIsLessAnObjectThanOneInside() {
        // The same two discs, one cut by the left border: the border is the background's, so the cut one is
        // reached from it without a barrier.
        let picture = discs(
            width: 400, height: 300, background: [0.4, 0.4, 0.4],
            [(x: 10, y: 150, r: 40, colour: [0.85, 0.85, 0.85]), (x: 260, y: 150, r: 40, colour: [0.85, 0.85, 0.85])])
        let map = Saliency.map(.objectness, of: picture)
        func heat(_ x: Double, _ y: Double) -> Float {
            map.values[Int(y / 300 * 68) * 68 + Int(x / 400 * 68)]
        }
        #expect(heat(260, 150) == 1)
        #expect(heat(20, 150) < 0.1)
    }

    @Test func aRegionLimitsThePixelsItLooksAt() throws {
        // The disc lies in the right half; looking at the left half finds nothing, at the right half finds it.
        let picture = discs(
            width: 400, height: 200, background: [0.5, 0.5, 0.5], [(x: 300, y: 100, r: 30, colour: [0.1, 0.1, 0.1])])
        #expect(Saliency.map(.objectness, of: picture, columns: 0..<200).regions(limit: 3).isEmpty)
        let region = try #require(Saliency.map(.objectness, of: picture, columns: 200..<400).regions(limit: 3).first)
        #expect(abs((region.x + region.width / 2) - 0.5) < 0.03 && abs((region.y + region.height / 2) - 0.5) < 0.03)
    }
}
