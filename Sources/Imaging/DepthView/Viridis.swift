/// The viridis colour map (van der Walt and Smith, 2015; matplotlib's default since 2.0): dark
/// purple through teal to yellow, with lightness rising steadily, so equal steps in value look like
/// equal steps in colour and the order survives grey-scale printing and the common colour-vision
/// deficiencies.
///
/// The anchors are every 8th entry (and the last) of the published 256-entry table in matplotlib's
/// `_cm_listed.py` (released under CC0), as sRGB-encoded fractions; values between anchors are
/// interpolated linearly, which stays within 1.7/255 of the full table.
public enum Viridis {
    /// (table index 0…255, red, green, blue), sRGB-encoded 0…1.
    public static let anchors: [(index: Int, red: Double, green: Double, blue: Double)] = [
        (0, 0.267004, 0.004874, 0.329415),
        (8, 0.277018, 0.050344, 0.375715),
        (16, 0.282327, 0.094955, 0.417331),
        (24, 0.282884, 0.135920, 0.453427),
        (32, 0.278826, 0.175490, 0.483397),
        (40, 0.270595, 0.214069, 0.507052),
        (48, 0.258965, 0.251537, 0.524736),
        (56, 0.244972, 0.287675, 0.537260),
        (64, 0.229739, 0.322361, 0.545706),
        (72, 0.214298, 0.355619, 0.551184),
        (80, 0.199430, 0.387607, 0.554642),
        (88, 0.185556, 0.418570, 0.556753),
        (96, 0.172719, 0.448791, 0.557885),
        (104, 0.160665, 0.478540, 0.558115),
        (112, 0.149039, 0.508051, 0.557250),
        (120, 0.137770, 0.537492, 0.554906),
        (128, 0.127568, 0.566949, 0.550556),
        (136, 0.120565, 0.596422, 0.543611),
        (144, 0.120638, 0.625828, 0.533488),
        (152, 0.132268, 0.655014, 0.519661),
        (160, 0.157851, 0.683765, 0.501686),
        (168, 0.196571, 0.711827, 0.479221),
        (176, 0.246070, 0.738910, 0.452024),
        (184, 0.304148, 0.764704, 0.419943),
        (192, 0.369214, 0.788888, 0.382914),
        (200, 0.440137, 0.811138, 0.340967),
        (208, 0.515992, 0.831158, 0.294279),
        (216, 0.595839, 0.848717, 0.243329),
        (224, 0.678489, 0.863742, 0.189503),
        (232, 0.762373, 0.876424, 0.137064),
        (240, 0.845561, 0.887322, 0.099702),
        (248, 0.926106, 0.897330, 0.104071),
        (255, 0.993248, 0.906157, 0.143936),
    ]

    /// The colour at `t` (0 = dark purple, 1 = yellow; clamped), sRGB-encoded 0…1.
    public static func color(_ t: Double) -> (red: Double, green: Double, blue: Double) {
        let position = (t.isNaN ? 0 : min(max(t, 0), 1)) * 255
        var upper = 1
        while upper < anchors.count - 1 && Double(anchors[upper].index) < position { upper += 1 }
        let a = anchors[upper - 1], b = anchors[upper]
        let f = (position - Double(a.index)) / Double(b.index - a.index)
        return (a.red + (b.red - a.red) * f, a.green + (b.green - a.green) * f, a.blue + (b.blue - a.blue) * f)
    }

    /// The colour at `t` as 8-bit sRGB.
    public static func color8(_ t: Double) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let c = color(t)
        func byte(_ v: Double) -> UInt8 { UInt8(min(max((v * 255).rounded(), 0), 255)) }
        return (byte(c.red), byte(c.green), byte(c.blue))
    }
}
