import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// Mattes as a portrait app asks for them, in the process's default world: the default phone's
    /// LiDAR camera, and the default scene, potted violets with no one in view.
    @Suite struct PortraitMatteIdioms {
        /// The session a portrait app builds: depth first, then every matte the output offers.
        static func portraitSession() throws -> (AVCaptureSession, AVCapturePhotoOutput) {
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.beginConfiguration()
            session.sessionPreset = .photo
            let device = try #require(AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: device)
            if session.canAddInput(input) { session.addInput(input) }
            if session.canAddOutput(output) { session.addOutput(output) }
            output.isDepthDataDeliveryEnabled = output.isDepthDataDeliverySupported
            output.isPortraitEffectsMatteDeliveryEnabled = output.isPortraitEffectsMatteDeliverySupported
            output.enabledSemanticSegmentationMatteTypes = output.availableSemanticSegmentationMatteTypes
            session.commitConfiguration()
            return (session, output)
        }

        @Test func depthCameraOffersTheMattesOnceDepthIsOn() throws {
            let (_, output) = try Self.portraitSession()
            #expect(output.isDepthDataDeliveryEnabled)
            #expect(output.isPortraitEffectsMatteDeliveryEnabled)
            #expect(output.enabledSemanticSegmentationMatteTypes.contains(.skin))
            #expect(output.enabledSemanticSegmentationMatteTypes.contains(.hair))
        }

        @Test func theBackWideCameraHasNoDepthAndNoMatte() throws {
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.beginConfiguration()
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            session.commitConfiguration()
            #expect(!output.isPortraitEffectsMatteDeliverySupported)
            #expect(output.availableSemanticSegmentationMatteTypes.isEmpty)
        }

        @Test func noOneInViewMeansNoMatte() throws {
            let (session, output) = try Self.portraitSession()
            session.startRunning()
            defer { session.stopRunning() }
            let settings = AVCapturePhotoSettings()
            settings.isDepthDataDeliveryEnabled = true
            settings.isPortraitEffectsMatteDeliveryEnabled = true
            settings.enabledSemanticSegmentationMatteTypes = [.skin, .hair]
            let log = EventLog()
            output.capturePhoto(with: settings, delegate: log)
            #expect(log.waitForFinishes())
            let photo = try #require(log.photos.first)
            // The resolved settings promise the size a matte would have; the photo shows no person.
            #expect(photo.resolvedSettings.portraitEffectsMatteDimensions.width
                == photo.resolvedSettings.photoDimensions.width / 2)
            #expect(photo.portraitEffectsMatte == nil)
            #expect(photo.semanticSegmentationMatte(for: .skin) == nil)
            #expect(photo.semanticSegmentationMatte(for: .teeth) == nil)
        }
    }
}
