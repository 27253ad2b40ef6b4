import Imaging
import Testing

/// The depth colouriser against the published viridis table (matplotlib `_cm_listed.py`,
/// `_viridis_data`, entries written here as 8-bit sRGB).
struct DepthColorizerTests {
    /// Published entries: (table index, red, green, blue) × 255, rounded.
    static let published: [(index: Int, rgb: (UInt8, UInt8, UInt8))] = [
        (0, (68, 1, 84)),  // 0.267004, 0.004874, 0.329415
        (64, (59, 82, 139)),  // 0.229739, 0.322361, 0.545706
        (128, (33, 145, 140)),  // 0.127568, 0.566949, 0.550556
        (255, (253, 231, 37)),  // 0.993248, 0.906157, 0.143936
    ]

    /// Depths from 1 m to 3 m: the depth at table index i is 1 + 2 · i/255 metres.
    @Test func knownDepthsTakeThePublishedColours() {
        let colorizer = DepthColorizer(near: 1, far: 3)
        for entry in Self.published {
            let c = colorizer.color(metres: Float(1 + 2 * Double(entry.index) / 255))
            #expect(c == entry.rgb, "index \(entry.index): \(c)")
        }
    }

    /// Between the anchors the map interpolates; published entries there differ by at most 2/255
    /// (our anchors keep the interpolation within 1.7/255, and both sides round).
    @Test func betweenAnchorsStaysOnTheTable() {
        let colorizer = DepthColorizer(near: 0, far: 255)
        // entries 100: 0.166617, 0.463708, 0.558119; 191: 0.360741, 0.785964, 0.387814;
        // 250: 0.945636, 0.899815, 0.112838
        for (index, rgb) in [(100, (42, 118, 142)), (191, (92, 200, 99)), (250, (241, 229, 29))] {
            let c = colorizer.color(metres: Float(index))
            let (r, g, b) = (Int(c.red), Int(c.green), Int(c.blue))
            #expect(abs(r - rgb.0) <= 2 && abs(g - rgb.1) <= 2 && abs(b - rgb.2) <= 2, "index \(index): \(c)")
        }
    }

    @Test func holesAreNeutralGreyAndOutOfRangeDepthsClamp() {
        let colorizer = DepthColorizer(near: 1, far: 3)
        for hole: Float in [.nan, 0, -0.5, .infinity] {
            #expect(colorizer.color(metres: hole) == (128, 128, 128))
        }
        #expect(colorizer.color(metres: 0.2) == (68, 1, 84))
        #expect(colorizer.color(metres: 40) == (253, 231, 37))
    }

    @Test func fittingSpansTheValidDepths() {
        let fitted = DepthColorizer(fitting: [Float.nan, 2.5, 0.75, -1, 4, .infinity])
        #expect(fitted.near == 0.75 && fitted.far == 4)
        // A flat map still gets a range to draw a legend on.
        let flat = DepthColorizer(fitting: [2, 2, 2])
        #expect(flat.near < 2 && flat.far > 2)
    }

    /// The view is the coloured map with a legend to its right: the map's pixels are unchanged,
    /// and the legend shows both ends of the colour map and the hole grey.
    @Test func viewKeepsTheMapAndAddsALegend() {
        let (w, h) = (64, 48)
        let metres = (0..<(w * h)).map { i -> Float in i % w < 4 ? .nan : 1 + 2 * Float(i % w) / Float(w) }
        let colorizer = DepthColorizer(fitting: metres)
        let view = colorizer.view(metres, width: w, height: h)
        let map = colorizer.colorize(metres, width: w, height: h)
        #expect(view.channels == 3 && map.channels == 3)
        #expect(view.width > w && view.height >= h)
        for y in 0..<h {
            for x in 0..<w {
                #expect((0..<3).allSatisfy { view[x, y, $0] == map[x, y, $0] })
            }
        }
        var legend: Set<[UInt8]> = []
        for y in 0..<view.height {
            for x in w..<view.width { legend.insert((0..<3).map { view[x, y, $0] }) }
        }
        #expect(legend.contains([68, 1, 84]) && legend.contains([253, 231, 37]))
        #expect(legend.contains([128, 128, 128]) && legend.contains([0, 0, 0]))
        #expect(colorizer.legendDescription.contains("viridis"))
    }
}
