import AVFoundation
import CoreMedia
import Testing

extension DropIn {
    @Suite struct InputPortIdiomTests {
        // A camera input's video port names its source and carries the active format's description.
        @Test func videoPortDescribesItsSource() throws {
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: device)
            let port = try #require(input.ports.first { $0.mediaType == .video })
            #expect(port.sourceDeviceType == .builtInWideAngleCamera && port.sourceDevicePosition == .back)
            #expect(port.isEnabled)
            let description = try #require(port.formatDescription)
            #expect(description.dimensions.width == device.activeFormat.formatDescription.dimensions.width)
            #expect(CMFormatDescriptionGetMediaType(description) == kCMMediaType_Video)
        }
    }
}
