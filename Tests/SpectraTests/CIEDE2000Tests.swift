import Testing
import Spectra

/// The 34 test pairs of Sharma, Wu & Dalal 2005 (Color Res. Appl. 30:21, Table 1), with the
/// published ΔE00 to 4 decimals.
private let sharmaPairs: [(Lab, Lab, Double)] = [
    (Lab(L: 50, a: 2.6772, b: -79.7751), Lab(L: 50, a: 0, b: -82.7485), 2.0425),
    (Lab(L: 50, a: 3.1571, b: -77.2803), Lab(L: 50, a: 0, b: -82.7485), 2.8615),
    (Lab(L: 50, a: 2.8361, b: -74.0200), Lab(L: 50, a: 0, b: -82.7485), 3.4412),
    (Lab(L: 50, a: -1.3802, b: -84.2814), Lab(L: 50, a: 0, b: -82.7485), 1.0000),
    (Lab(L: 50, a: -1.1848, b: -84.8006), Lab(L: 50, a: 0, b: -82.7485), 1.0000),
    (Lab(L: 50, a: -0.9009, b: -85.5211), Lab(L: 50, a: 0, b: -82.7485), 1.0000),
    (Lab(L: 50, a: 0, b: 0), Lab(L: 50, a: -1, b: 2), 2.3669),
    (Lab(L: 50, a: -1, b: 2), Lab(L: 50, a: 0, b: 0), 2.3669),
    (Lab(L: 50, a: 2.4900, b: -0.0010), Lab(L: 50, a: -2.4900, b: 0.0009), 7.1792),
    (Lab(L: 50, a: 2.4900, b: -0.0010), Lab(L: 50, a: -2.4900, b: 0.0010), 7.1792),
    (Lab(L: 50, a: 2.4900, b: -0.0010), Lab(L: 50, a: -2.4900, b: 0.0011), 7.2195),
    (Lab(L: 50, a: 2.4900, b: -0.0010), Lab(L: 50, a: -2.4900, b: 0.0012), 7.2195),
    (Lab(L: 50, a: -0.0010, b: 2.4900), Lab(L: 50, a: 0.0009, b: -2.4900), 4.8045),
    (Lab(L: 50, a: -0.0010, b: 2.4900), Lab(L: 50, a: 0.0010, b: -2.4900), 4.8045),
    (Lab(L: 50, a: -0.0010, b: 2.4900), Lab(L: 50, a: 0.0011, b: -2.4900), 4.7461),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 50, a: 0, b: -2.5), 4.3065),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 73, a: 25, b: -18), 27.1492),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 61, a: -5, b: 29), 22.8977),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 56, a: -27, b: -3), 31.9030),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 58, a: 24, b: 15), 19.4535),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 50, a: 3.1736, b: 0.5854), 1.0000),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 50, a: 3.2972, b: 0), 1.0000),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 50, a: 1.8634, b: 0.5757), 1.0000),
    (Lab(L: 50, a: 2.5, b: 0), Lab(L: 50, a: 3.2592, b: 0.3350), 1.0000),
    (Lab(L: 60.2574, a: -34.0099, b: 36.2677), Lab(L: 60.4626, a: -34.1751, b: 39.4387), 1.2644),
    (Lab(L: 63.0109, a: -31.0961, b: -5.8663), Lab(L: 62.8187, a: -29.7946, b: -4.0864), 1.2630),
    (Lab(L: 61.2901, a: 3.7196, b: -5.3901), Lab(L: 61.4292, a: 2.2480, b: -4.9620), 1.8731),
    (Lab(L: 35.0831, a: -44.1164, b: 3.7933), Lab(L: 35.0232, a: -40.0716, b: 1.5901), 1.8645),
    (Lab(L: 22.7233, a: 20.0904, b: -46.6940), Lab(L: 23.0331, a: 14.9730, b: -42.5619), 2.0373),
    (Lab(L: 36.4612, a: 47.8580, b: 18.3852), Lab(L: 36.2715, a: 50.5065, b: 21.2231), 1.4146),
    (Lab(L: 90.8027, a: -2.0831, b: 1.4410), Lab(L: 91.1528, a: -1.6435, b: 0.0447), 1.4441),
    (Lab(L: 90.9257, a: -0.5406, b: -0.9208), Lab(L: 88.6381, a: -0.8985, b: -0.7239), 1.5381),
    (Lab(L: 6.7747, a: -0.2908, b: -2.4247), Lab(L: 5.8714, a: -0.0985, b: -2.2286), 0.6377),
    (Lab(L: 2.0776, a: 0.0795, b: -1.1350), Lab(L: 0.9033, a: -0.0636, b: -0.5514), 0.9082),
]

@Suite struct CIEDE2000Tests {
    @Test(arguments: Array(sharmaPairs.enumerated()))
    func sharmaPair(_ item: (offset: Int, element: (Lab, Lab, Double))) {
        let (a, b, expected) = item.element
        let got = DeltaE.ciede2000(a, b)
        #expect(abs(got - expected) < 1e-4, "pair \(item.offset + 1): \(got) vs \(expected)")
        // ΔE00 is symmetric in its arguments.
        #expect(abs(DeltaE.ciede2000(b, a) - expected) < 1e-4, "pair \(item.offset + 1) reversed")
    }

    @Test func tableHas34Pairs() {
        #expect(sharmaPairs.count == 34)
    }

    @Test func cie76IsEuclidean() {
        #expect(abs(DeltaE.cie76(Lab(L: 50, a: 0, b: 0), Lab(L: 53, a: 4, b: 0)) - 5) < 1e-12)
    }
}
