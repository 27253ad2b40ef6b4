import Foundation
import Testing
import simd

// simd as camera code uses it on intrinsics and extrinsics (spec §10), checked against closed forms.

extension DropIn {
    @Suite struct SIMDIdiomTests {
        @Test func intrinsicMatrixFromRowsProjectsAPoint() {
            let (fx, fy, cx, cy): (Float, Float, Float, Float) = (1000, 1000, 320, 240)
            let K = simd_float3x3(rows: [
                simd_make_float3(fx, 0, cx), simd_make_float3(0, fy, cy), simd_make_float3(0, 0, 1),
            ])
            let X = simd_float3(0.1, -0.2, 2)
            let h = K * X
            // u = fx·X/Z + cx, v = fy·Y/Z + cy.
            #expect(abs(h.x / h.z - (fx * 0.1 / 2 + cx)) < 1e-4)
            #expect(abs(h.y / h.z - (fy * -0.2 / 2 + cy)) < 1e-4)
            #expect(simd_mul(K, X) == h)
            #expect(K.transpose[0, 2] == cx && K[2, 0] == cx)
        }

        @Test func columnInitialisersAndSubscripts() {
            let m = simd_float3x3(simd_float3(1, 2, 3), simd_float3(4, 5, 6), simd_float3(7, 8, 9))
            #expect(m.columns.1 == simd_float3(4, 5, 6))
            #expect(m[2] == simd_float3(7, 8, 9) && m[2, 0] == 7)
            #expect(simd_float3x3(diagonal: simd_float3(2, 3, 4))[1, 1] == 3)
            #expect(simd_transpose(m).columns.0 == simd_float3(1, 4, 7))
        }

        @Test func extrinsicsTransformAHomogeneousPoint() {
            // A camera 10 mm to the right of the reference, no rotation: x shifts by −10.
            let extrinsics = simd_float4x3(
                simd_float3(1, 0, 0), simd_float3(0, 1, 0), simd_float3(0, 0, 1), simd_float3(-10, 0, 0))
            let p = extrinsics * simd_float4(100, 50, 1000, 1)
            #expect(p == simd_float3(90, 50, 1000))
            let K = simd_float3x3(diagonal: simd_float3(2, 2, 1))
            let P = K * extrinsics
            #expect(P * simd_float4(100, 50, 1000, 1) == simd_float3(180, 100, 1000))
        }

        @Test func matrixProductsComposeRightToLeft() {
            let scale = simd_float3x3(diagonal: simd_float3(2, 2, 1))
            let shift = simd_float3x3(simd_float3(1, 0, 0), simd_float3(0, 1, 0), simd_float3(5, 7, 1))
            let v = simd_float3(1, 1, 1)
            #expect((shift * scale) * v == shift * (scale * v))
            #expect((shift * scale) * v == simd_float3(7, 9, 1))
            #expect(simd_mul(scale, shift) * v == simd_float3(12, 16, 1))
        }

        @Test func inverseOfAnIntrinsicMatrix() {
            let K = simd_float3x3(rows: [simd_float3(800, 0, 400), simd_float3(0, 800, 300), simd_float3(0, 0, 1)])
            let inverse = simd_inverse(K)
            // K⁻¹ = [[1/f, 0, −cx/f], [0, 1/f, −cy/f], [0, 0, 1]].
            #expect(abs(inverse[0, 0] - 1.0 / 800) < 1e-7 && abs(inverse[2, 0] + 0.5) < 1e-6)
            let product = inverse * K
            for c in 0..<3 { for r in 0..<3 { #expect(abs(product[c, r] - (c == r ? 1 : 0)) < 1e-5) } }
        }

        @Test func fourByFourIdentityAndInverse() {
            let v = simd_float4(1, 2, 3, 1)
            #expect(matrix_identity_float4x4 * v == v)
            var translation = matrix_identity_float4x4
            translation.columns.3 = simd_float4(4, 5, 6, 1)
            #expect(translation * v == simd_float4(5, 7, 9, 1))
            #expect(simd_inverse(translation) * simd_float4(5, 7, 9, 1) == v)
            #expect(
                simd_float4x4(rows: [
                    simd_float4(1, 0, 0, 4), simd_float4(0, 1, 0, 5), simd_float4(0, 0, 1, 6), simd_float4(0, 0, 0, 1),
                ]) == translation)
        }

        @Test func vectorFunctions() {
            let a = simd_float3(3, 4, 0), b = simd_float3(0, 0, 2)
            #expect(simd_length(a) == 5)
            #expect(simd_normalize(a) == simd_float3(0.6, 0.8, 0))
            #expect(simd_dot(a, b) == 0)
            #expect(simd_cross(simd_float3(1, 0, 0), simd_float3(0, 1, 0)) == simd_float3(0, 0, 1))
            #expect(length(a - b) == simd_distance(a, b))
            #expect(cross(a, b) == simd_float3(8, -6, 0))
        }
    }
}
