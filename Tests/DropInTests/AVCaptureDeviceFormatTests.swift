import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct Format {
        // A wide camera sees between 60° and 80° across (a 24–28 mm-equivalent lens); the
        // distortion-corrected view is never wider.
        @Test func fieldOfViewOfTheWideCamera() throws {
            let format = try backCamera().activeFormat
            #expect(format.videoFieldOfView > 55 && format.videoFieldOfView < 85)
            #expect(format.geometricDistortionCorrectedVideoFieldOfView <= format.videoFieldOfView)
            #expect(format.geometricDistortionCorrectedVideoFieldOfView > format.videoFieldOfView * 0.9)
        }

        // The telephoto sees a narrower field than the wide camera, the ultra-wide a wider one.
        @Test func fieldsOfViewOrderByFocalLength() throws {
            let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
            let views = triple.constituentDevices.map(\.activeFormat.videoFieldOfView)
            #expect(views == views.sorted(by: >))
        }

        // spec §2.4 [D]: manual exposure at the ends of the format's ranges is accepted.
        @Test func exposureRangesOfTheFormat() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            let format = device.activeFormat
            #expect(format.minExposureDuration < format.maxExposureDuration)
            #expect(format.minISO > 0 && format.minISO < format.maxISO)
            try configure(device) {
                device.setExposureModeCustom(duration: format.maxExposureDuration, iso: format.maxISO)
            }
            #expect(device.iso == format.maxISO)
        }

        // Zoom crops the sensor without upscaling up to the threshold; the maximum lies beyond it.
        @Test func zoomLimitsOfTheFormat() throws {
            for format in try backCamera().formats {
                #expect(format.videoZoomFactorUpscaleThreshold >= 1)
                #expect(format.videoMaxZoomFactor > format.videoZoomFactorUpscaleThreshold)
            }
        }

        // The usual format search: an unbinned format, with cinematic stabilisation if any. The
        // telephoto's 12 MP sensor reads its full-size format unbinned.
        @Test func pickAFormatByCapabilities() throws {
            let tele = try #require(AVCaptureDevice.default(.builtInTelephotoCamera, for: .video, position: .back))
            let unbinned = tele.formats.filter { !$0.isVideoBinned && $0.mediaType == .video }
            #expect(!unbinned.isEmpty)
            let stabilised = tele.formats.first { $0.isVideoStabilizationModeSupported(.cinematic) }
            #expect(tele.formats.allSatisfy { $0.isVideoStabilizationModeSupported(.off) })
            if let stabilised { #expect(stabilised.isVideoStabilizationModeSupported(.standard)) }
            _ = tele.formats.filter(\.isVideoHDRSupported)
        }

        // A format at most half the sensor's size in each direction is read out 2 × 2 binned; the
        // iPhone 15 Pro's 48 MP wide camera gives its 12 MP formats that way.
        @Test func binnedFormatsOfTheQuadPixelSensor() throws {
            let device = try backCamera()
            // 8064 × 6048 pixels against formats of at most 4032 × 3024.
            #expect(device.formats.allSatisfy { $0.isVideoBinned && $0.videoZoomFactorUpscaleThreshold >= 2 })
        }

        // The back wide camera focuses by phase detection.
        @Test func autoFocusSystem() throws {
            #expect(try backCamera().activeFormat.autoFocusSystem == .phaseDetection)
        }
    }
}
