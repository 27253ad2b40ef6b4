import CoreMedia
import CoreVideo
import Foundation
import Testing

// Format descriptions and sample buffers made by hand, as apps do for tests and pipelines (spec §18.4).

private func bgraBuffer(_ width: Int, _ height: Int) throws -> CVPixelBuffer {
    var pb: CVPixelBuffer?
    _ = CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_32BGRA, nil, &pb)
    return try #require(pb)
}

/// A ready sample buffer of `buffer`, at time zero.
private func readySample(of buffer: CVPixelBuffer) throws -> CMSampleBuffer {
    var description: CMFormatDescription?
    _ = CMVideoFormatDescriptionCreateForImageBuffer(
        allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescriptionOut: &description)
    var timing = CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
    var sampleBuffer: CMSampleBuffer?
    _ = CMSampleBufferCreateReadyWithImageBuffer(
        allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescription: try #require(description),
        sampleTiming: &timing, sampleBufferOut: &sampleBuffer)
    return try #require(sampleBuffer)
}

extension DropIn {
    @Suite struct CMSampleBufferIdiomTests {
        @Test func formatDescriptionForAnImageBuffer() throws {
            let buffer = try bgraBuffer(640, 480)
            var description: CMFormatDescription?
            let status = CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescriptionOut: &description)
            #expect(status == noErr)
            let format = try #require(description)
            #expect(format.dimensions.width == 640 && format.dimensions.height == 480)
            #expect(format.mediaType == .video)
            #expect(format.mediaSubType == .pixelFormat_32BGRA)
            #expect(CMFormatDescriptionGetMediaSubType(format) == kCVPixelFormatType_32BGRA)
            #expect(CMVideoFormatDescriptionGetDimensions(format).width == 640)
        }

        @Test func mediaSubTypePrintsAsQuotedFourCharacterCode() {
            // spec §18.4 [D]: subtypes print as their four characters in single quotes.
            let fullRange = CMFormatDescription.MediaSubType(rawValue: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            #expect("\(fullRange)" == "'420f'")
            #expect(CMFormatDescription.MediaSubType.hevc.description == "'hvc1'")
            #expect(CMFormatDescription.MediaType.video.description == "'vide'")
            #expect(CMFormatDescription.MediaSubType("hdis").rawValue == kCVPixelFormatType_DisparityFloat16)
        }

        @Test func sampleBufferFromAnImageBuffer() throws {
            let buffer = try bgraBuffer(320, 240)
            var description: CMFormatDescription?
            _ = CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescriptionOut: &description)
            let format = try #require(description)
            var timing = CMSampleTimingInfo(
                duration: CMTimeMake(value: 1, timescale: 30), presentationTimeStamp: CMTimeMake(value: 7, timescale: 30),
                decodeTimeStamp: .invalid)
            var sampleBuffer: CMSampleBuffer?
            let status = CMSampleBufferCreateReadyWithImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: buffer, formatDescription: format, sampleTiming: &timing,
                sampleBufferOut: &sampleBuffer)
            #expect(status == noErr)
            let sample = try #require(sampleBuffer)
            #expect(CMSampleBufferGetImageBuffer(sample) === buffer)
            #expect(CMSampleBufferGetPresentationTimeStamp(sample) == CMTimeMake(value: 7, timescale: 30))
            #expect(CMSampleBufferGetDuration(sample) == CMTimeMake(value: 1, timescale: 30))
            #expect(CMSampleBufferGetNumSamples(sample) == 1)
        }

        @Test func sampleBufferRefusesAMismatchedDescription() throws {
            let small = try bgraBuffer(320, 240), large = try bgraBuffer(640, 480)
            var description: CMFormatDescription?
            _ = CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: large, formatDescriptionOut: &description)
            let format = try #require(description)
            var timing = CMSampleTimingInfo()
            var sampleBuffer: CMSampleBuffer?
            let status = CMSampleBufferCreateReadyWithImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: small, formatDescription: format, sampleTiming: &timing,
                sampleBufferOut: &sampleBuffer)
            #expect(status == kCMSampleBufferError_InvalidMediaFormat)
            #expect(sampleBuffer == nil)
        }

        @Test func sampleBufferAttachmentsRoundTrip() throws {
            let buffer = try bgraBuffer(32, 32)
            let sample = try readySample(of: buffer)
            var k = matrix_identity_float3x3
            let data = withUnsafeBytes(of: &k) { Data($0) }
            CMSetAttachment(
                sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, value: data as CFData,
                attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
            let read = CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil)
            #expect((read as? Data)?.count == MemoryLayout<matrix_float3x3>.size)
            // The image buffer's attachments are reachable the same way.
            CVBufferSetAttachment(buffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_601_4, .shouldPropagate)
            let matrix = CMGetAttachment(buffer, key: kCVImageBufferYCbCrMatrixKey, attachmentModeOut: nil)
            #expect(matrix as? String == "ITU_R_601_4")
        }

        // The attachments all at once, as frame-metadata code reads them: a sample buffer's propagate, so asking for
        // those that do not gives none; a buffer without attachments gives nil.
        @Test func attachmentsCopyAsADictionary() throws {
            let buffer = try bgraBuffer(32, 32)
            let sample = try readySample(of: buffer)
            #expect(CMCopyDictionaryOfAttachments(
                allocator: kCFAllocatorDefault, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate) == nil)
            var k = matrix_identity_float3x3
            let data = withUnsafeBytes(of: &k) { Data($0) }
            CMSetAttachment(
                sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, value: data as CFData,
                attachmentMode: kCMAttachmentMode_ShouldPropagate)
            let all = CMCopyDictionaryOfAttachments(
                allocator: kCFAllocatorDefault, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate)
            let attachments = try #require(all as? [String: Any])
            #expect(attachments.count == 1)
            #expect((attachments[kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix as String] as? Data) == data)
            #expect(CMCopyDictionaryOfAttachments(
                allocator: nil, target: sample, attachmentMode: kCMAttachmentMode_ShouldNotPropagate) == nil)
            CVBufferSetAttachment(buffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_601_4, .shouldPropagate)
            let image = CMCopyDictionaryOfAttachments(
                allocator: nil, target: buffer, attachmentMode: kCMAttachmentMode_ShouldPropagate) as? [String: Any]
            #expect(image?[kCVImageBufferYCbCrMatrixKey as String] as? String == "ITU_R_601_4")
        }

        @Test func formatDescriptionFromCodecAndSize() throws {
            var description: CMVideoFormatDescription?
            let status = CMVideoFormatDescriptionCreate(
                allocator: kCFAllocatorDefault, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, width: 1920,
                height: 1080, extensions: nil, formatDescriptionOut: &description)
            #expect(status == noErr)
            let format = try #require(description)
            #expect(format.mediaSubType == .pixelFormat_420YpCbCr8BiPlanarFullRange)
            #expect(format.dimensions.width == 1920 && format.dimensions.height == 1080)
        }

        @Test func imageBufferSizes() throws {
            let buffer = try bgraBuffer(640, 480)
            #expect(CVImageBufferGetEncodedSize(buffer) == CGSize(width: 640, height: 480))
            #expect(CVImageBufferGetDisplaySize(buffer) == CGSize(width: 640, height: 480))
            #expect(CVImageBufferGetCleanRect(buffer) == CGRect(x: 0, y: 0, width: 640, height: 480))
        }
    }
}
