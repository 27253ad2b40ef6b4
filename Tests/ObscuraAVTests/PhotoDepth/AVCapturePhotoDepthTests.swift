import Obscura
import Foundation
import ObscuraAV
import Testing

/// Photo depth: `AVCapturePhoto.depthData`, embedding, the dual camera's zoom lock, rules 17–18
/// (spec §2.2, §3.2, §5, §9, §13 N5). Photos use the iPhone 7 Plus dual camera's 1920×1080
/// format with its 160×90 depth, so photo depth is 384×216.
struct AVCapturePhotoDepthTests {
    /// A dual-camera photo session in the 1920×1080 format with the smallest depth format.
    static func dualRig(depth: Bool = true) throws -> PhotoRig {
        let rig = try PhotoRig(.builtInDualCamera, preset: .photo, start: false)
        let format = try #require(rig.device.formats.first { CMVideoFormatDescriptionGetDimensions($0.formatDescription).width == 1920 })
        try rig.device.lockForConfiguration()
        rig.device.activeFormat = format
        rig.device.activeDepthDataFormat = format.supportedDepthDataFormats.min {
            CMVideoFormatDescriptionGetDimensions($0.formatDescription).width
                < CMVideoFormatDescriptionGetDimensions($1.formatDescription).width
        }
        rig.device.unlockForConfiguration()
        if depth { rig.output.isDepthDataDeliveryEnabled = true }
        rig.session.startRunning()
        return rig
    }

    static func depthSettings(filtered: Bool = true, format: [String: Any]? = nil) -> AVCapturePhotoSettings {
        let settings = format.map { AVCapturePhotoSettings(format: $0) } ?? AVCapturePhotoSettings()
        settings.isDepthDataDeliveryEnabled = true
        settings.isDepthDataFiltered = filtered
        return settings
    }

    /// The map's values as Float32, row-major.
    static func values(_ depth: AVDepthData) throws -> (width: Int, height: Int, values: [Float]) {
        let converted = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        let map = converted.depthDataMap
        _ = CVPixelBufferLockBaseAddress(map, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(map, .readOnly) }
        let w = CVPixelBufferGetWidth(map), h = CVPixelBufferGetHeight(map)
        let stride = CVPixelBufferGetBytesPerRow(map)
        let base = try #require(CVPixelBufferGetBaseAddress(map))
        var out: [Float] = []
        out.reserveCapacity(w * h)
        for y in 0..<h {
            let row = (base + y * stride).assumingMemoryBound(to: Float.self)
            for x in 0..<w { out.append(row[x]) }
        }
        return (w, h, out)
    }

    // spec §13 N5 (first case), rule 17: settings ask for depth, the output does not deliver it.
    @Test func depthWithoutOutputOptInRaisesN5() throws {
        try onDevice("iphone-7-plus") {
            let rig = try Self.dualRig(depth: false)
            expectException(
                .invalidArgumentException,
                capturePrefix + "settings.depthDataDeliveryEnabled must be NO if self.isDepthDataDeliveryEnabled is NO"
            ) { rig.output.capturePhoto(with: Self.depthSettings(), delegate: RecordingPhotoDelegate()) }
        }
    }

    // spec §5 [D]: no depth unless asked; §7 [T W17]: photo depth is more than twice the
    // streaming size; §9: the dual camera is relative, disparity, with calibration.
    @Test func depthDataOnlyWhenAskedAtMoreThanTwiceStreamingSize() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 500, distance: 1))
            let rig = try Self.dualRig()
            #expect(capture(rig, AVCapturePhotoSettings()).photos.first?.depthData == nil)
            let photo = try #require(capture(rig, Self.depthSettings()).photos.first)
            let depth = try #require(photo.depthData)
            let streaming = CMVideoFormatDescriptionGetDimensions(
                try #require(rig.device.activeDepthDataFormat).formatDescription)
            let map = depth.depthDataMap
            #expect(CVPixelBufferGetWidth(map) > 2 * Int(streaming.width))
            #expect(CVPixelBufferGetHeight(map) > 2 * Int(streaming.height))
            #expect(depth.depthDataType == rig.device.activeDepthDataFormat.map { CMFormatDescriptionGetMediaSubType($0.formatDescription) })
            #expect(depth.depthDataAccuracy == .relative)
            #expect(depth.isDepthDataFiltered)
            #expect(depth.cameraCalibrationData != nil)
        }
    }

    // spec §9 [D]: normalised disparity is 1/Z. A speckled wall facing the camera (a matcher needs
    // texture): the median disparity is 1/Z up to the dual camera's per-capture calibration scale
    // error, which the iPhone 7 Plus profile states as 3 % (relative_error_at_1m); we allow 3σ = 9 %.
    // Unfiltered, so no hole filling takes part.
    @Test func disparityOfAPlaneIsOneOverZ() throws {
        try onDevice("iphone-7-plus") {
            for z in [0.8, 2.0] {
                try Emulator.shared.use(scene: DepthScenes.texturedWall(distance: z))
                let rig = try Self.dualRig()
                let depth = try #require(capture(rig, Self.depthSettings(filtered: false)).photos.first?.depthData)
                #expect(!depth.isDepthDataFiltered)
                let finite = try Self.values(depth).values.filter(\.isFinite).sorted()
                #expect(finite.count > 1000)
                let median = Double(finite[finite.count / 2])
                #expect(abs(median * z - 1) < 0.09, "Z = \(z) m: median disparity \(median) 1/m")
            }
        }
    }

    // spec §9, DisparityModel: the wide camera sees a strip of the wall beside the card that the
    // tele camera, 10 mm to its right, cannot (both speckled, so texture makes no holes). Its width in map pixels is f·B·(1/Z_near − 1/Z_far)
    // and its height the card's, f·s/Z_near; the unfiltered map's hole fraction must match that
    // closed form within 35 % (pixel rounding at a strip a few pixels wide). Filtered maps have no holes.
    @Test func holeFractionAroundAnOccludingEdge() throws {
        try onDevice("iphone-7-plus") {
            let (near, far, size) = (0.5, 2.0, 0.4)
            try Emulator.shared.use(scene: DepthScenes.occluder(near: near, far: far, cardSize: size, textured: true))
            let rig = try Self.dualRig()
            let delegate = capture(rig, Self.depthSettings(filtered: false))
            let depth = try #require(delegate.photos.first?.depthData)
            let (w, h, values) = try Self.values(depth)
            let calibration = try #require(depth.cameraCalibrationData)
            let f = Double(calibration.intrinsicMatrix.columns.0.x) * Double(w)
                / Double(calibration.intrinsicMatrixReferenceDimensions.width)
            let baseline = 0.00998  // metres: the profile's tele extrinsic translation x (9.98 mm)
            let expected = f * baseline * (1 / near - 1 / far) * (f * size / near) / Double(w * h)
            let holes = Double(values.filter(\.isNaN).count) / Double(values.count)
            #expect(holes > 0)
            #expect(abs(holes / expected - 1) < 0.35, "holes \(holes), closed form \(expected)")
            let filtered = try #require(capture(rig, Self.depthSettings()).photos.first?.depthData)
            #expect(try Self.values(filtered).values.allSatisfy { !$0.isNaN })
        }
    }

    // DESIGN "Noise": seeded. Photo depth draws its matching noise from the emulator's seed, as
    // the picture does: the same seed and capture order repeat the map exactly, another seed
    // changes almost every value. Raw disparity, no filtering.
    @Test func photoDepthNoiseFollowsTheSeed() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: DepthScenes.texturedWall(distance: 1))
            func disparities(seed: UInt64) throws -> [Float] {
                Emulator.shared.seed = seed
                let rig = try Self.dualRig()
                let depth = try #require(capture(rig, Self.depthSettings(filtered: false)).photos.first?.depthData)
                return try Self.values(depth).values
            }
            let a = try disparities(seed: 5), b = try disparities(seed: 5), c = try disparities(seed: 6)
            #expect(a.count == b.count && a.count == c.count)
            #expect(zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
            let finite = zip(a, c).filter { $0.isFinite && $1.isFinite }
            #expect(finite.count > a.count / 2)
            #expect(finite.filter { $0 != $1 }.count > finite.count * 9 / 10)
            #expect(a.allSatisfy { $0.isNaN || $0 > 0 })
        }
    }

    // spec §5 [D] `fileDataRepresentation()` includes depth with `embedsDepthDataInPhoto`; Obscura
    // reads it back with `AVDepthData(fromFileData:)`. An uncompressed format's file is PNG, whose
    // round trip keeps size, type, flags, every value (NaN holes included) and the calibration.
    @Test func depthRoundTripsThroughFileData() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: DepthScenes.occluder(near: 0.5, far: 2.0, cardSize: 0.4, textured: true))
            let rig = try Self.dualRig()
            let uncompressed: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            let photo = try #require(
                capture(rig, Self.depthSettings(filtered: false, format: uncompressed)).photos.first)
            let depth = try #require(photo.depthData)
            let file = try #require(photo.fileDataRepresentation())
            let read = try AVDepthData(fromFileData: file)
            #expect(read.depthDataType == depth.depthDataType)
            #expect(read.isDepthDataFiltered == depth.isDepthDataFiltered)
            #expect(read.depthDataAccuracy == depth.depthDataAccuracy)
            let a = try Self.values(depth), b = try Self.values(read)
            #expect(a.width == b.width && a.height == b.height)
            #expect(zip(a.values, b.values).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
            #expect(read.cameraCalibrationData?.intrinsicMatrix == depth.cameraCalibrationData?.intrinsicMatrix)
            // Without embedding, the file holds no depth.
            let plain = Self.depthSettings(filtered: false, format: uncompressed)
            plain.embedsDepthDataInPhoto = false
            let bare = try #require(capture(rig, plain).photos.first?.fileDataRepresentation())
            #expect(throws: (any Error).self) { try AVDepthData(fromFileData: bare) }
        }
    }

    // spec §2.2 [T W17][D]: depth delivery on the dual camera holds the zoom at 2×; turning it
    // off or removing the output releases it.
    @Test func dualCameraPhotoDepthLocksZoomAtTwo() throws {
        try onDevice("iphone-7-plus") {
            let rig = try Self.dualRig(depth: false)
            #expect(rig.device.videoZoomFactor == 1)
            rig.output.isDepthDataDeliveryEnabled = true
            #expect(rig.device.videoZoomFactor == 2)
            try rig.device.lockForConfiguration()
            rig.device.videoZoomFactor = 1.5
            rig.device.unlockForConfiguration()
            #expect(rig.device.videoZoomFactor == 2)
            rig.output.isDepthDataDeliveryEnabled = false
            #expect(rig.device.videoZoomFactor == 1.5)
            rig.output.isDepthDataDeliveryEnabled = true
            #expect(rig.device.videoZoomFactor == 2)
            rig.session.removeOutput(rig.output)
            #expect(rig.device.videoZoomFactor == 1.5)
        }
    }
}
