import Foundation
import Testing

@testable import Imaging

/// The pieces of `FaceLandmarker` that can be checked without the model: dlib's serialisation, read from bytes written
/// by hand from its definition, and the similarity between two shapes, against a turn and scale applied here.
@Suite struct FaceLandmarkerTests {
    // An integer is a byte holding the count of bytes that follow (the sign in its top bit), then the magnitude's
    // bytes, lowest first.
    @Test func integersReadAsDlibWritesThem() throws {
        var reader = DlibReader(bytes: [0x01, 0x01, 0x81, 0x88, 0x02, 0x34, 0x12, 0x00])
        #expect(try reader.integer() == 1)
        #expect(try reader.integer() == -136)
        #expect(try reader.integer() == 0x1234)
        #expect(try reader.integer() == 0)
        #expect(throws: DlibReader.Failure.self) { try reader.integer() }
        var short = DlibReader(bytes: [0x03, 0x01])
        #expect(throws: DlibReader.Failure.self) { try short.integer() }
    }

    // A float is an integer mantissa and an integer power of two: 0xf1384d · 2⁻²⁹; a column is its negated row and
    // column counts, then its values.
    @Test func floatsAndColumnsReadAsDlibWritesThem() throws {
        var reader = DlibReader(bytes: [0x03, 0x4d, 0x38, 0xf1, 0x81, 0x1d])
        #expect(try reader.float() == Float(Double(0xf1_384d) / Double(1 << 29)))
        var column = DlibReader(bytes: [0x81, 0x02, 0x81, 0x01, 0x01, 0x03, 0x00, 0x81, 0x05, 0x01, 0x01])
        #expect(try column.column() == [3, -5 * 2])
        var wide = DlibReader(bytes: [0x81, 0x01, 0x81, 0x02])
        #expect(throws: DlibReader.Failure.self) { try wide.column() }
    }

    // Points turned by 20° and scaled by 1.5 about somewhere else, then moved: the similarity is that turn and scale.
    @Test func theSimilarityBetweenShapesIsTheirTurnAndScale() {
        let from: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 2), SIMD2(-0.5, 1.5), SIMD2(0.3, -0.7)]
        let angle = 20 * Double.pi / 180, scale = 1.5
        let (c, s) = (scale * cos(angle), scale * sin(angle))
        let to = from.map { p in SIMD2(c * p.x - s * p.y, s * p.x + c * p.y) + SIMD2(4, -3) }
        let m = FaceLandmarker.similarity(from: from, to: to)
        #expect(abs(m.0.x - c) < 1e-12 && abs(m.0.y + s) < 1e-12)
        #expect(abs(m.1.x - s) < 1e-12 && abs(m.1.y - c) < 1e-12)
    }
}
