import AVFoundation
import Testing

// Preview-layer conversions against hand-computed closed forms (spec §19.2). Device points are normalised to the
// sensor's landscape image; the connection turns that image clockwise by its rotation angle for display.

/// A running-ready session with the back camera, and a preview layer on it laid out as a phone screen.
private func previewOnPhone(
    _ gravity: AVLayerVideoGravity, size: CGSize = CGSize(width: 390, height: 844)
) throws -> (AVCaptureVideoPreviewLayer, CGSize) {
    let session = AVCaptureSession()
    session.beginConfiguration()
    session.sessionPreset = .vga640x480
    let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
    session.addInput(try AVCaptureDeviceInput(device: device))
    session.commitConfiguration()
    let layer = AVCaptureVideoPreviewLayer(session: session)
    layer.videoGravity = gravity
    layer.frame = CGRect(origin: .zero, size: size)
    let d = device.activeFormat.formatDescription.dimensions
    return (layer, CGSize(width: CGFloat(d.width), height: CGFloat(d.height)))
}

private func close(_ a: CGPoint, _ b: CGPoint) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

extension DropIn {
    @Suite struct AVCaptureVideoPreviewLayerIdiomTests {
        @Test func gravityRawValuesAreApples() {
            #expect(AVLayerVideoGravity.resize.rawValue == "AVLayerVideoGravityResize")
            #expect(AVLayerVideoGravity.resizeAspect.rawValue == "AVLayerVideoGravityResizeAspect")
            #expect(AVLayerVideoGravity.resizeAspectFill.rawValue == "AVLayerVideoGravityResizeAspectFill")
        }

        @Test func previewLayerConnectsToTheSessionCamera() throws {
            let (layer, _) = try previewOnPhone(.resizeAspect)
            let connection = try #require(layer.connection)
            #expect(connection.videoPreviewLayer === layer)
            #expect(connection.output == nil)
            // spec §1.5 [O]: a preview starts upright for a phone in portrait.
            #expect(connection.videoRotationAngle == 90)
            #expect(layer.session != nil)
        }

        @Test func previewLayerWithNoConnection() {
            let layer = AVCaptureVideoPreviewLayer(sessionWithNoConnection: AVCaptureSession())
            #expect(layer.connection == nil && layer.session != nil)
            #expect(layer.videoGravity == .resizeAspect)
        }

        @Test func resizeGravityInPortraitSwapsAxes() throws {
            let (layer, _) = try previewOnPhone(.resize, size: CGSize(width: 300, height: 400))
            // Portrait back camera: device = (y / H, 1 − x / W).
            let device = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 75, y: 100))
            #expect(close(device, CGPoint(x: 0.25, y: 0.75)))
            #expect(close(layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 300, y: 0)), CGPoint(x: 0, y: 0)))
            #expect(close(layer.layerPointConverted(fromCaptureDevicePoint: CGPoint(x: 1, y: 1)), CGPoint(x: 0, y: 400)))
        }

        @Test func resizeAspectLetterboxes() throws {
            let (layer, video) = try previewOnPhone(.resizeAspect)
            // Displayed video is the sensor turned upright: video.height wide, video.width tall, scaled to fit.
            let (vw, vh) = (video.height, video.width)
            let scale = min(390 / vw, 844 / vh)
            let top = (844 - vh * scale) / 2
            // The top-centre of the displayed video is the middle of the sensor's left edge.
            let device = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 195, y: top))
            #expect(close(device, CGPoint(x: 0, y: 0.5)))
            let corner = layer.layerPointConverted(fromCaptureDevicePoint: CGPoint(x: 0, y: 0))
            #expect(close(corner, CGPoint(x: (390 + vw * scale) / 2, y: top)))
        }

        @Test func resizeAspectFillCrops() throws {
            let (layer, video) = try previewOnPhone(.resizeAspectFill)
            let (vw, vh) = (video.height, video.width)
            let scale = max(390 / vw, 844 / vh)
            let left = (390 - vw * scale) / 2
            // The layer's left edge at mid-height cuts into the video: a = −left / (vw·scale), b = 0.5.
            let a = -left / (vw * scale)
            let device = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 0, y: 422))
            #expect(close(device, CGPoint(x: 0.5, y: 1 - a)))
        }

        @Test func conversionsAreInverseForEveryGravityAndRotation() throws {
            for gravity in [AVLayerVideoGravity.resize, .resizeAspect, .resizeAspectFill] {
                let (layer, _) = try previewOnPhone(gravity)
                let connection = try #require(layer.connection)
                for angle: CGFloat in [0, 90, 180, 270] {
                    connection.videoRotationAngle = angle
                    for p in [CGPoint(x: 10, y: 20), CGPoint(x: 195, y: 422), CGPoint(x: 389, y: 843)] {
                        let device = layer.captureDevicePointConverted(fromLayerPoint: p)
                        let back = layer.layerPointConverted(fromCaptureDevicePoint: device)
                        #expect(abs(back.x - p.x) < 1e-6 && abs(back.y - p.y) < 1e-6, "\(gravity.rawValue) \(angle)")
                    }
                }
            }
        }

        @Test func landscapeConnectionMapsStraightThrough() throws {
            let (layer, _) = try previewOnPhone(.resize, size: CGSize(width: 640, height: 480))
            try #require(layer.connection).videoRotationAngle = 0
            let device = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 160, y: 360))
            #expect(close(device, CGPoint(x: 0.25, y: 0.75)))
        }

        @Test func mirroredPreviewFlipsTheDisplayedX() throws {
            let (layer, _) = try previewOnPhone(.resize, size: CGSize(width: 300, height: 400))
            let connection = try #require(layer.connection)
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = true
            // Portrait and mirrored: device = (y / H, x / W).
            let device = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 75, y: 100))
            #expect(close(device, CGPoint(x: 0.25, y: 0.25)))
        }

        @Test func metadataRectsOfTheWholeLayer() throws {
            let (layer, _) = try previewOnPhone(.resize)
            let whole = layer.metadataOutputRectConverted(fromLayerRect: layer.bounds)
            #expect(abs(whole.minX) < 1e-9 && abs(whole.minY) < 1e-9)
            #expect(abs(whole.width - 1) < 1e-9 && abs(whole.height - 1) < 1e-9)
        }

        @Test func metadataRectConversionsAreInverse() throws {
            let (layer, video) = try previewOnPhone(.resizeAspectFill)
            let face = CGRect(x: 0.2, y: 0.3, width: 0.25, height: 0.4)
            let onScreen = layer.layerRectConverted(fromMetadataOutputRect: face)
            // Portrait: the sensor's x runs down the screen and its y across, so the sides trade axes.
            let scale = max(390 / video.height, 844 / video.width)
            #expect(abs(onScreen.height - 0.25 * video.width * scale) < 1e-9)
            #expect(abs(onScreen.width - 0.4 * video.height * scale) < 1e-9)
            let back = layer.metadataOutputRectConverted(fromLayerRect: onScreen)
            #expect(abs(back.minX - face.minX) < 1e-9 && abs(back.minY - face.minY) < 1e-9)
            #expect(abs(back.width - face.width) < 1e-9 && abs(back.height - face.height) < 1e-9)
        }
    }
}
