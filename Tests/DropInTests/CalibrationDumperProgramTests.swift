import AVFoundation
import Foundation
import Testing

/// A calibration dumper written as public ones are: the dual-wide camera, constituent photo delivery
/// with calibration data, and every constituent's intrinsics, extrinsics and lens distortion printed
/// as text, one camera a block.
final class CalibrationDumper: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCapturePhotoOutput()
    private let lock = NSLock()
    private var _dump: [String] = []
    let finished = DispatchSemaphore(value: 0)

    var dump: [String] { lock.withLock { _dump } }

    func configure() throws -> AVCaptureDevice {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .photo
        guard let camera = AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back)
            ?? AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back)
        else { throw CocoaError(.featureUnsupported) }
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) { session.addOutput(output) }
        output.isVirtualDeviceConstituentPhotoDeliveryEnabled = output.isVirtualDeviceConstituentPhotoDeliverySupported
        return camera
    }

    func capture(_ camera: AVCaptureDevice) {
        let settings = AVCapturePhotoSettings()
        settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = camera.constituentDevices
        settings.isCameraCalibrationDataDeliveryEnabled = output.isCameraCalibrationDataDeliverySupported
        if let smallest = camera.activeFormat.supportedMaxPhotoDimensions.first { settings.maxPhotoDimensions = smallest }
        output.capturePhoto(with: settings, delegate: self)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        guard let calibration = photo.cameraCalibrationData else { return }
        let k = calibration.intrinsicMatrix
        let e = calibration.extrinsicMatrix
        let reference = calibration.intrinsicMatrixReferenceDimensions
        let table = calibration.lensDistortionLookupTable.map { $0.count / MemoryLayout<Float>.size } ?? 0
        var text = "camera \(photo.sourceDeviceType?.rawValue ?? "?")\n"
        text += String(format: "  fx %.2f fy %.2f cx %.2f cy %.2f", k.columns.0.x, k.columns.1.y, k.columns.2.x, k.columns.2.y)
        text += "  reference \(Int(reference.width))x\(Int(reference.height))\n"
        text += String(format: "  translation %.3f %.3f %.3f mm", e.columns.3.x, e.columns.3.y, e.columns.3.z)
        text += "  pixel size \(calibration.pixelSize) mm\n"
        text += "  distortion centre \(calibration.lensDistortionCenter) table \(table) values"
        lock.withLock { _dump.append(text) }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        finished.signal()
    }
}

extension DropIn {
    @Suite struct CalibrationDumperProgramTests {
        // spec §5, §10 [D]: each constituent photo carries its own calibration: a pinhole intrinsic
        // matrix with square pixels, its place relative to the reference camera, and a distortion table.
        @Test func everyConstituentsCalibrationIsDumped() throws {
            let dumper = CalibrationDumper()
            let camera = try dumper.configure()
            try #require(dumper.output.isCameraCalibrationDataDeliverySupported)
            dumper.session.startRunning()
            defer { dumper.session.stopRunning() }
            dumper.capture(camera)
            #expect(dumper.finished.wait(timeout: .now() + 120) == .success)
            let dump = dumper.dump
            #expect(dump.count == camera.constituentDevices.count, "\(dump)")
            for block in dump {
                #expect(block.contains("fx ") && block.contains("table "), "\(block)")
                // Square pixels: fx equals fy in the printout.
                let fields = block.split(separator: " ")
                if let fx = fields.firstIndex(of: "fx").map({ Double(fields[$0 + 1]) ?? 0 }),
                    let fy = fields.firstIndex(of: "fy").map({ Double(fields[$0 + 1]) ?? 0 })
                {
                    #expect(abs(fx - fy) <= 0.01 * fx, "\(block)")
                }
                #expect(!block.contains("table 0 values"), "\(block)")
            }
            // The two cameras sit apart: their translations differ.
            let translations = Set(dump.compactMap { $0.split(separator: "\n").first { $0.contains("translation") } })
            #expect(translations.count == dump.count)
        }
    }
}
