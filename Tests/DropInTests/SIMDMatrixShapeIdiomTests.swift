import Testing
import simd

// simd's non-square matrices as geometry code writes them: column-major, C columns of R rows.

extension DropIn {
    @Suite struct SIMDMatrixShapeIdiomTests {
        // A 3×4 projection P = K [R | t], written as simd_float4x3 (four columns of three rows),
        // projects a homogeneous point; its transpose is a simd_float3x4 with the same entries.
        @Test func projectionMatrixAndItsTranspose() {
            let k = simd_float3x3(rows: [
                simd_make_float3(500, 0, 320), simd_make_float3(0, 500, 240), simd_make_float3(0, 0, 1),
            ])
            let rt = simd_float4x3(
                simd_make_float3(1, 0, 0), simd_make_float3(0, 1, 0), simd_make_float3(0, 0, 1),
                simd_make_float3(0.1, 0, 0))
            let p = simd_mul(k, rt)
            let image = p * simd_make_float4(simd_make_float3(0, 0, 2), 1)
            // x = (500·0.1 + 320·2) / 2 = 345, y = 240.
            #expect(image.x / image.z == 345 && image.y / image.z == 240)
            let pt: simd_float3x4 = simd_transpose(p)
            #expect(pt[0, 3] == p[3, 0] && pt.transpose == p)
            // Row vector × matrix equals the transpose times the vector.
            let v = simd_make_float3(1, 2, 3)
            #expect(v * p == pt * v)
        }

        // Products between every compatible shape have the shape (K×R) of (C×R)·(K×C).
        @Test func productsOfNonSquareShapes() {
            let a = simd_float2x3(simd_make_float3(1, 2, 3), simd_make_float3(4, 5, 6))  // 3 rows, 2 columns
            let b = simd_float3x2(simd_make_float2(1, 0), simd_make_float2(0, 1), simd_make_float2(1, 1))
            let ab: simd_float3x3 = a * b
            #expect(ab[2] == simd_make_float3(5, 7, 9))
            let ba: simd_float2x2 = b * a
            // Column 0 of b·a is b · (1, 2, 3) = 1·(1,0) + 2·(0,1) + 3·(1,1) = (4, 5).
            #expect(ba[0] == simd_make_float2(4, 5))
            let c = simd_float4x2(rows: [simd_make_float4(1, 2, 3, 4), simd_make_float4(5, 6, 7, 8)])
            #expect(c[3, 1] == 8 && c.transpose == simd_float2x4(rows: [
                simd_make_float2(1, 5), simd_make_float2(2, 6), simd_make_float2(3, 7), simd_make_float2(4, 8),
            ]))
            let d: simd_float4x4 = simd_float3x4(rows: [
                simd_make_float3(1, 0, 0), simd_make_float3(0, 1, 0), simd_make_float3(0, 0, 1), simd_make_float3(0, 0, 0),
            ]) * simd_float4x3(rows: [simd_make_float4(1, 0, 0, 5), simd_make_float4(0, 1, 0, 6), simd_make_float4(0, 0, 1, 7)])
            #expect(d[3] == simd_make_float4(5, 6, 7, 0))
        }

        // Double matrices work as the float ones do.
        @Test func doubleMatrices() {
            let m = simd_double3x3(diagonal: simd_make_double3(2, 3, 4))
            let e = simd_double4x3(
                simd_make_double3(1, 0, 0), simd_make_double3(0, 1, 0), simd_make_double3(0, 0, 1),
                simd_make_double3(1, 1, 1))
            let product = m * e
            #expect(product[3] == simd_make_double3(2, 3, 4))
            #expect(simd_transpose(product).transpose == product)
            #expect(matrix_identity_double4x4 * simd_make_double4(1, 2, 3, 4) == simd_make_double4(1, 2, 3, 4))
        }

        // simd_make_* fills lanes in order from scalars and shorter vectors; narrowing keeps the
        // first lanes and widening zeroes the new ones.
        @Test func makeOverloads() {
            let xy = simd_make_float2(1, 2)
            #expect(simd_make_float4(xy, simd_make_float2(3, 4)) == simd_float4(1, 2, 3, 4))
            #expect(simd_make_float4(0, xy, 3) == simd_float4(0, 1, 2, 3))
            #expect(simd_make_float3(simd_make_float4(1, 2, 3, 4)) == simd_float3(1, 2, 3))
            #expect(simd_make_float4(xy) == simd_float4(1, 2, 0, 0))
            #expect(simd_make_float2(simd_make_float3(7, 8, 9)) == simd_float2(7, 8))
            #expect(simd_make_double3(1, simd_make_double2(2, 3)) == simd_double3(1, 2, 3))
            #expect(simd_make_int4(simd_make_int2(1, 2), 3, 4) == simd_int4(1, 2, 3, 4))
            #expect(simd_make_int3(5) == simd_int3(5, 0, 0))
        }
    }
}
