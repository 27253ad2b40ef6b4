import CoreVideo
import Foundation
import Testing

// Pixel-buffer code written as iOS apps write it (spec §18.2, §18.3).

/// Counts release callbacks; a C callback cannot capture, so it reaches this through its refCon.
final class ReleaseCounter: @unchecked Sendable {
    var count = 0
}

extension DropIn {
    @Suite struct CoreVideoIdiomTests {
        @Test func createWithAttributesAsCFDictionary() throws {
            let attrs =
                [
                    kCVPixelBufferCGImageCompatibilityKey: kCFBooleanTrue,
                    kCVPixelBufferCGBitmapContextCompatibilityKey: kCFBooleanTrue,
                    kCVPixelBufferMetalCompatibilityKey: kCFBooleanTrue,
                    kCVPixelBufferIOSurfacePropertiesKey: [:] as CFDictionary,
                ] as CFDictionary
            var pb: CVPixelBuffer?
            let status = CVPixelBufferCreate(kCFAllocatorDefault, 640, 480, kCVPixelFormatType_32BGRA, attrs, &pb)
            #expect(status == kCVReturnSuccess)
            let buffer = try #require(pb)
            #expect(CVPixelBufferGetWidth(buffer) == 640 && CVPixelBufferGetHeight(buffer) == 480)
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
            // spec §18.2 [D]: rows hold at least width × 4 bytes.
            #expect(CVPixelBufferGetBytesPerRow(buffer) >= 640 * 4)
        }

        @Test func createWithStringKeyedAttributes() {
            let attrs: [String: Any] = [kCVPixelBufferMetalCompatibilityKey as String: true]
            var pb: CVPixelBuffer?
            let status = CVPixelBufferCreate(
                kCFAllocatorDefault, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, attrs as CFDictionary, &pb)
            #expect(status == kCVReturnSuccess)
            #expect(pb.map(CVPixelBufferGetPlaneCount) == 2)
        }

        @Test func createRejectsUnknownPixelFormat() {
            var pb: CVPixelBuffer?
            // spec §18.2 [D]: an unsupported format is kCVReturnInvalidPixelFormat and no buffer.
            #expect(CVPixelBufferCreate(kCFAllocatorDefault, 16, 16, 0x6E6F_7065, nil, &pb) == kCVReturnInvalidPixelFormat)
            #expect(pb == nil)
        }

        @Test func createRejectsZeroSize() {
            var pb: CVPixelBuffer?
            let status = CVPixelBufferCreate(kCFAllocatorDefault, 0, 480, kCVPixelFormatType_32BGRA, nil, &pb)
            #expect(status == kCVReturnInvalidArgument)
        }

        @Test func planeZeroOfANonPlanarBufferIsTheBuffer() throws {
            var pb: CVPixelBuffer?
            _ = CVPixelBufferCreate(kCFAllocatorDefault, 320, 240, kCVPixelFormatType_DepthFloat32, nil, &pb)
            let depthMap = try #require(pb)
            CVPixelBufferLockBaseAddress(depthMap, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(depthMap, .readOnly) }
            // spec §18.2 [D]: as IOSurface, plane 0 of a non-planar buffer answers for the whole buffer.
            #expect(CVPixelBufferGetWidthOfPlane(depthMap, 0) == 320)
            #expect(CVPixelBufferGetHeightOfPlane(depthMap, 0) == 240)
            #expect(CVPixelBufferGetBytesPerRowOfPlane(depthMap, 0) == CVPixelBufferGetBytesPerRow(depthMap))
            #expect(CVPixelBufferGetBaseAddressOfPlane(depthMap, 0) == CVPixelBufferGetBaseAddress(depthMap))
            #expect(CVPixelBufferGetPlaneCount(depthMap) == 0 && !CVPixelBufferIsPlanar(depthMap))
            // Other indexes stay empty.
            #expect(CVPixelBufferGetWidthOfPlane(depthMap, 1) == 0)
            #expect(CVPixelBufferGetBaseAddressOfPlane(depthMap, 1) == nil)
        }

        @Test func biPlanarBufferHasHalfSizeInterleavedChroma() throws {
            var pb: CVPixelBuffer?
            _ = CVPixelBufferCreate(
                kCFAllocatorDefault, 1920, 1080, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &pb)
            let buffer = try #require(pb)
            #expect(CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 2)
            #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 1920 && CVPixelBufferGetHeightOfPlane(buffer, 0) == 1080)
            #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 960 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 540)
            #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 1) >= 960 * 2)
            // spec §18.2 [D]: a planar buffer's base address is not a plane's.
            #expect(CVPixelBufferGetBaseAddress(buffer) == nil)
        }

        @Test func writePixelsThroughTheBaseAddress() throws {
            var pb: CVPixelBuffer?
            _ = CVPixelBufferCreate(kCFAllocatorDefault, 4, 3, kCVPixelFormatType_32BGRA, nil, &pb)
            let buffer = try #require(pb)
            CVPixelBufferLockBaseAddress(buffer, [])
            let base = try #require(CVPixelBufferGetBaseAddress(buffer))
            let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
            base.storeBytes(of: 0xFF00_00FF as UInt32, toByteOffset: 2 * bytesPerRow + 3 * 4, as: UInt32.self)
            CVPixelBufferUnlockBaseAddress(buffer, [])
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            let again = try #require(CVPixelBufferGetBaseAddress(buffer))
            let read = again.load(fromByteOffset: 2 * bytesPerRow + 12, as: UInt32.self)
            CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
            #expect(read == 0xFF00_00FF)
        }

        @Test func attachmentsRoundTripWithTheirMode() throws {
            var pb: CVPixelBuffer?
            _ = CVPixelBufferCreate(kCFAllocatorDefault, 8, 8, kCVPixelFormatType_32BGRA, nil, &pb)
            let buffer = try #require(pb)
            CVBufferSetAttachment(
                buffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_P3_D65, .shouldPropagate)
            var mode = CVAttachmentMode.shouldNotPropagate
            let primaries = CVBufferGetAttachment(buffer, kCVImageBufferColorPrimariesKey, &mode)?.takeUnretainedValue()
            #expect(primaries as? String == "P3_D65")
            #expect(mode == .shouldPropagate)
            #expect(CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, nil) as? String == "P3_D65")
        }

        @Test func removedAttachmentIsGone() throws {
            var pb: CVPixelBuffer?
            _ = CVPixelBufferCreate(kCFAllocatorDefault, 8, 8, kCVPixelFormatType_32BGRA, nil, &pb)
            let buffer = try #require(pb)
            CVBufferSetAttachment(
                buffer, kCVImageBufferTransferFunctionKey, kCVImageBufferTransferFunction_sRGB, .shouldPropagate)
            CVBufferRemoveAttachment(buffer, kCVImageBufferTransferFunctionKey)
            #expect(CVBufferGetAttachment(buffer, kCVImageBufferTransferFunctionKey, nil) == nil)
        }

        @Test func copyAttachmentsReturnsOneMode() throws {
            var pb: CVPixelBuffer?
            _ = CVPixelBufferCreate(kCFAllocatorDefault, 8, 8, kCVPixelFormatType_32BGRA, nil, &pb)
            let buffer = try #require(pb)
            #expect(CVBufferCopyAttachments(buffer, .shouldPropagate) == nil)
            CVBufferSetAttachment(
                buffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2, .shouldPropagate)
            CVBufferSetAttachment(buffer, "Note" as CFString, "local" as CFString, .shouldNotPropagate)
            let propagated = try #require(CVBufferCopyAttachments(buffer, .shouldPropagate) as? [String: Any])
            #expect(propagated.count == 1)
            #expect(propagated[kCVImageBufferColorPrimariesKey as String] as? String == "ITU_R_709_2")
        }

        @Test func poolMakesBuffersOfItsAttributes() throws {
            let attrs: [String: Any] = [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
                kCVPixelBufferWidthKey as String: 1280,
                kCVPixelBufferHeightKey as String: 720,
                kCVPixelBufferIOSurfacePropertiesKey as String: [String: Any](),
            ]
            var pool: CVPixelBufferPool?
            #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, nil, attrs as CFDictionary, &pool) == kCVReturnSuccess)
            let created = try #require(pool)
            var first: CVPixelBuffer?, second: CVPixelBuffer?
            #expect(CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, created, &first) == kCVReturnSuccess)
            _ = CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, created, &second)
            let a = try #require(first), b = try #require(second)
            #expect(CVPixelBufferGetWidth(a) == 1280 && CVPixelBufferGetHeight(a) == 720)
            #expect(CVPixelBufferGetPixelFormatType(a) == kCVPixelFormatType_32BGRA)
            // Two buffers out of a pool at once never share memory.
            #expect(CVPixelBufferGetBaseAddress(a) != CVPixelBufferGetBaseAddress(b))
        }

        @Test func poolWithoutDimensionsFails() {
            let attrs = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] as CFDictionary
            var pool: CVPixelBufferPool?
            // spec §18.2 [I]: a pool needs width, height and format to make buffers.
            #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, nil, attrs, &pool) == kCVReturnInvalidArgument)
            #expect(pool == nil)
        }

        @Test func createWithBytesWrapsCallerMemoryAndReleasesIt() throws {
            let width = 16, height = 4, bytesPerRow = 80
            let memory = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * height, alignment: 16)
            defer { memory.deallocate() }
            memory.initializeMemory(as: UInt8.self, repeating: 7, count: bytesPerRow * height)
            let counter = ReleaseCounter()
            let refCon = Unmanaged.passUnretained(counter).toOpaque()
            do {
                var pb: CVPixelBuffer?
                let status = CVPixelBufferCreateWithBytes(
                    kCFAllocatorDefault, width, height, kCVPixelFormatType_OneComponent8, memory, bytesPerRow,
                    { refCon, _ in
                        if let refCon { Unmanaged<ReleaseCounter>.fromOpaque(refCon).takeUnretainedValue().count += 1 }
                    }, refCon, nil, &pb)
                #expect(status == kCVReturnSuccess)
                let buffer = try #require(pb)
                #expect(CVPixelBufferGetBaseAddress(buffer) == memory)
                #expect(CVPixelBufferGetBytesPerRow(buffer) == bytesPerRow)
                #expect(counter.count == 0)
            }
            // spec §18.2 [D]: the release callback runs once the buffer is freed.
            #expect(counter.count == 1)
        }

        @Test func createWithBytesRefusesPlanarFormats() {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: 64 * 64, alignment: 16)
            defer { memory.deallocate() }
            var pb: CVPixelBuffer?
            let status = CVPixelBufferCreateWithBytes(
                kCFAllocatorDefault, 32, 32, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, memory, 64, nil, nil, nil, &pb)
            #expect(status == kCVReturnInvalidPixelFormat)
        }
    }
}
