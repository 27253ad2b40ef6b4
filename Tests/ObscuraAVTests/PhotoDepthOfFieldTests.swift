import Foundation
import Obscura
import ObscuraAV
import Testing

/// Photos have the lens's depth of field: what lies away from the focus distance is spread over its circle of
/// confusion, as in the stream (spec §16; *How the physics works*, "Video").
@Suite struct PhotoDepthOfFieldTests {
    /// A light grey wall 0.5 m ahead, its left half covered by a darker card: a vertical edge through the middle of
    /// the picture, under even light. The step is small enough for the photo's tone curve to be nearly straight
    /// over it, so the edge's profile keeps the shape of the light's.
    private func edgeScene() throws -> String {
        let text = """
            description: A dark grey card over the left half of a light grey wall, 0.5 m from the camera.
            device:
              position_m: [0.0, 0.0, 0.5]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {cct_k: 5000}
              lux: 800
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 1.0
            materials:
              - {name: light, reflectance: 0.5}
              - {name: dark, reflectance: 0.3}
            objects:
              - {name: wall, shape: plane, size_m: [4.0, 4.0], material: light}
              - {name: card, shape: plane, size_m: [2.0, 4.0], position_m: [-1.0, 0.0, 0.001], material: dark}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dof-edge-\(UUID().uuidString).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The width, pixels, over which a BGRA photo's green channel climbs from the dark side to the light side of
    /// the edge: the columns whose mean over the middle rows lies between 3 % and 97 % of the step.
    private func edgeWidth(_ photo: AVCapturePhoto) throws -> Int {
        let buffer = try #require(photo.pixelBuffer)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        let rows = (height / 4)..<(3 * height / 4)
        let columns: [Double] = (0..<width).map { x in
            rows.reduce(0.0) { sum, y in
                sum + Double(base.advanced(by: y * stride).assumingMemoryBound(to: UInt8.self)[4 * x + 1])
            } / Double(rows.count)
        }
        // Levels read beside the edge, beyond the widest circle here but near enough that the lens's fall-off
        // towards the corners does not tilt them.
        let middle = width / 2
        let black = columns[(middle - 60)..<(middle - 45)].reduce(0, +) / 15
        let white = columns[(middle + 45)..<(middle + 60)].reduce(0, +) / 15
        #expect(white > black + 20)
        return columns[(middle - 45)..<(middle + 45)].filter {
            ($0 - black) / (white - black) > 0.03 && ($0 - black) / (white - black) < 0.97
        }.count
    }

    private func photo(lensPosition: Float?) throws -> (photo: AVCapturePhoto, device: AVCaptureDevice) {
        try Emulator.shared.use(scene: edgeScene())
        // Full HD, so that the nearest focus's circle spans enough pixels to measure.
        let rig = try PhotoRig(preset: .hd1920x1080)
        defer { rig.session.stopRunning() }
        if let lensPosition {
            try rig.device.lockForConfiguration()
            rig.device.setFocusModeLocked(lensPosition: lensPosition, completionHandler: nil)
            rig.device.unlockForConfiguration()
        }
        let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        return (try #require(capture(rig, settings).photos.first), rig.device)
    }

    // Autofocus on the wall leaves the edge sharp. With the lens locked at its nearest focus, s =
    // `minimumFocusDistance` (spec §2.4: lens position 0), the edge 0.5 m away spreads over the circle of
    // confusion of the thin lens, fx · A · (0.5 − s) / (0.5 · (s − f)) pixels for the wide lens's f = 6.8 mm at
    // `lensAperture` (an aperture A = f / N), with fx from the format's field of view. The columns between 3 % and
    // 97 % of the step cover 0.86 of the circle's diameter: a disc's share beyond a chord 0.86 of its radius from
    // its centre is 3 %.
    @Test func aPhotoWithTheLensFocusedNearSpreadsAFarEdgeOverItsCircleOfConfusion() throws {
        try onDevice {
            let (focused, _) = try photo(lensPosition: nil)
            #expect(try edgeWidth(focused) <= 3)
            let (near, device) = try photo(lensPosition: 0)
            let width = Double(try #require(focused.pixelBuffer.map(CVPixelBufferGetWidth)))
            let fx = width / 2 / tan(Double(device.activeFormat.videoFieldOfView) / 2 * .pi / 180)
            let f = 0.0068, aperture = 0.0068 / Double(device.lensAperture)
            let s = Double(device.minimumFocusDistance) / 1000
            let circle = fx * aperture * (0.5 - s) / (0.5 * (s - f))
            #expect(circle > 10)
            let measured = Double(try edgeWidth(near))
            #expect(
                measured > 0.78 * circle && measured < 0.95 * circle, "\(measured) px against a \(circle) px circle")
        }
    }
}
