import Obscura
import Foundation
import ObscuraAV
import Testing

// Nested in the serialized streaming suite: these tests also advance the shared virtual clock.
extension AVCaptureStreamingTests {
@Suite struct AVDepthDataTests {
    /// One raw 320×240 disparity map of a speckled wall 1.5 m away (a matcher needs texture: the
    /// profile's `holes: occlusion-and-textureless`) from the iPhone 7 Plus dual camera, under the
    /// emulator's default seed or `seed`.
    static func rawDepth(seed: UInt64? = nil) throws -> AVDepthData {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: DepthScenes.texturedWall(distance: 1.5))
            if let seed { Emulator.shared.seed = seed }
            return try #require(try StreamRig.unfilteredDepth(frames: 1).first)
        }
    }

    // DESIGN "Noise": seeded. Streamed depth draws its matching noise from the emulator's seed:
    // the same seed repeats the map, another seed changes almost every value, and no value is
    // negative (spec §9: disparity is 1/Z; unmatched pixels are holes).
    @Test func streamedDepthNoiseFollowsTheSeed() throws {
        let a = try AVCapturePhotoDepthTests.values(Self.rawDepth(seed: 31)).values
        let b = try AVCapturePhotoDepthTests.values(Self.rawDepth(seed: 31)).values
        let c = try AVCapturePhotoDepthTests.values(Self.rawDepth(seed: 32)).values
        #expect(a.count == 320 * 240 && a.count == c.count)
        #expect(zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
        let finite = zip(a, c).filter { $0.isFinite && $1.isFinite }
        #expect(finite.count > a.count / 2)
        #expect(finite.filter { $0 != $1 }.count > finite.count * 9 / 10)
        #expect(a.allSatisfy { $0.isNaN || $0 > 0 })
    }

    @Test func conversionIsReciprocalAndRejectsNonDepthTypes() throws {
        let disparity = try Self.rawDepth().converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        let depth = disparity.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        #expect(depth.depthDataType == kCVPixelFormatType_DepthFloat32)
        #expect(disparity.availableDepthDataTypes.count == 4)
        let a = disparity.depthDataMap, b = depth.depthDataMap
        CVPixelBufferLockBaseAddress(a, .readOnly)
        CVPixelBufferLockBaseAddress(b, .readOnly)
        let pa = CVPixelBufferGetBaseAddress(a)!.assumingMemoryBound(to: Float.self)
        let pb = CVPixelBufferGetBaseAddress(b)!.assumingMemoryBound(to: Float.self)
        let centre = 120 * CVPixelBufferGetBytesPerRow(a) / 4 + 160
        #expect(abs(pa[centre] * pb[centre] - 1) < 1e-6)  // disparity = 1 / depth (spec §9)
        // spec §13 N14.
        expectException(.invalidArgumentException, "'420v' is not a supported depth data type") {
            _ = disparity.converting(toDepthDataType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        }
    }

    @Test func dictionaryRepresentationRoundTrip() throws {
        let original = try Self.rawDepth()
        var type: NSString?
        let dictionary = try #require(original.dictionaryRepresentation(forAuxiliaryDataType: &type))
        #expect(type as String? == kCGImageAuxiliaryDataTypeDisparity as String)
        let back = try AVDepthData(fromDictionaryRepresentation: dictionary)
        #expect(back.depthDataType == original.depthDataType)
        #expect(back.depthDataAccuracy == original.depthDataAccuracy)
        #expect(back.isDepthDataFiltered == original.isDepthDataFiltered)
        #expect(back.cameraCalibrationData?.intrinsicMatrix == original.cameraCalibrationData?.intrinsicMatrix)
        var d2: NSString?
        let again = try #require(back.dictionaryRepresentation(forAuxiliaryDataType: &d2))
        #expect(again[kCGImageAuxiliaryDataInfoData] as? Data == dictionary[kCGImageAuxiliaryDataInfoData] as? Data)
        #expect(throws: (any Error).self) { try AVDepthData(fromDictionaryRepresentation: [:]) }
    }

    @Test func exifOrientationSwapsSize() throws {
        let turned = try Self.rawDepth().applyingExifOrientation(.right)
        #expect(CVPixelBufferGetWidth(turned.depthDataMap) == 240 && CVPixelBufferGetHeight(turned.depthDataMap) == 320)
    }

    @Test func pointMappingHandCase() {
        // Table [0, 0.1], centre (50, 50), 100×100: r_max = 50√2, r = 30, t = 30/(50√2) = 0.42426,
        // m = 0.042426, x' = 50 + 30 · 1.042426 = 81.2728 (spec §10 reference algorithm).
        var table: [Float32] = [0, 0.1]
        let data = Data(bytes: &table, count: 8)
        let p = AVCameraCalibrationData.lensDistortionPoint(
            for: CGPoint(x: 80, y: 50), lookupTable: data, distortionOpticalCenter: CGPoint(x: 50, y: 50),
            imageSize: CGSize(width: 100, height: 100))
        #expect(abs(p.x - 81.2728) < 1e-3 && abs(p.y - 50) < 1e-9)
    }

    @Test func rectifyOfDistortIsIdentity() throws {
        let calibration = try #require(try Self.rawDepth().cameraCalibrationData)
        #expect(calibration.lensDistortionLookupTable != nil)
        let size = CGSize(width: 320, height: 240)
        for p in [CGPoint(x: 10, y: 12), CGPoint(x: 300, y: 200), CGPoint(x: 160, y: 120)] {
            let back = calibration.undistortedPoint(for: calibration.distortedPoint(for: p, imageSize: size), imageSize: size)
            #expect(abs(back.x - p.x) < 0.05 && abs(back.y - p.y) < 0.05)
        }
        #expect(calibration.intrinsicMatrix.columns.2.z == 1)
    }
}
}
