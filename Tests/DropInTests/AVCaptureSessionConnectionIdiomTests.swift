import AVFoundation
import Foundation
import Testing

extension DropIn {
    /// Connections made by hand, as multi-camera code makes them.
    @Suite struct AVCaptureSessionConnectionIdiomTests {
        // spec §1.2 [D]: inputs and outputs added without connections have none until the app adds one.
        @Test func manualConnectionCarriesFrames() throws {
            let session = AVCaptureSession()
            let camera = try #require(AVCaptureDevice.default(for: .video))
            let input = try AVCaptureDeviceInput(device: camera)
            let output = AVCaptureVideoDataOutput()
            session.beginConfiguration()
            session.addInputWithNoConnections(input)
            session.addOutputWithNoConnections(output)
            #expect(session.connections.isEmpty)
            #expect(output.connection(with: .video) == nil)
            let videoPort = try #require(input.ports.first { $0.mediaType == .video })
            let connection = AVCaptureConnection(inputPorts: [videoPort], output: output)
            #expect(session.canAddConnection(connection))
            session.addConnection(connection)
            #expect(output.connection(with: .video) === connection)
            #expect(!session.canAddConnection(connection))
            // A depth port does not fit a video data output.
            if let depthPort = input.ports.first(where: { $0.mediaType == .depthData }) {
                #expect(!session.canAddConnection(AVCaptureConnection(inputPorts: [depthPort], output: output)))
            }
            session.commitConfiguration()

            let counter = FrameCounter()
            output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "manual-connection"))
            session.startRunning()
            #expect(counter.frames.wait(timeout: .now() + 30) == .success)
            session.stopRunning()
            session.removeConnection(connection)
            #expect(output.connection(with: .video) == nil)
        }

        // spec §1.2, §19.1 [D]: a preview layer attached without a connection gets the one the app makes, as
        // Apple's multi-camera sample builds its previews.
        @Test func previewLayerConnectionMadeByHand() throws {
            let session = AVCaptureSession()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            let layer = AVCaptureVideoPreviewLayer()
            session.beginConfiguration()
            #expect(session.canAddInput(input))
            session.addInputWithNoConnections(input)
            layer.setSessionWithNoConnection(session)
            #expect(layer.connection == nil)
            let port = try #require(
                input.ports(for: .video, sourceDeviceType: camera.deviceType, sourceDevicePosition: camera.position)
                    .first)
            let connection = AVCaptureConnection(inputPort: port, videoPreviewLayer: layer)
            #expect(session.canAddConnection(connection))
            session.addConnection(connection)
            session.commitConfiguration()
            #expect(layer.connection === connection)
            #expect(session.connections.contains { $0 === connection })
            #expect(!session.canAddConnection(AVCaptureConnection(inputPort: port, videoPreviewLayer: layer)))
            session.startRunning()
            #expect(layer.isPreviewing)
            session.stopRunning()
            session.removeConnection(connection)
            #expect(layer.connection == nil)
        }
    }
}
