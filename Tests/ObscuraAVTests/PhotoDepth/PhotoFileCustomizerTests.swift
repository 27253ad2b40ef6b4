import ExternalTools
import Foundation
import Obscura
import ObscuraAV
import Testing

/// `fileDataRepresentation(with:)` (spec §5): what a customizer replaces or strips, read back by exiftool.
struct PhotoFileCustomizerTests {
    /// Adds a location to the photo's own metadata and strips the depth, as an app that geotags does.
    final class Geotagger: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {
        func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? {
            var metadata = photo.metadata
            metadata["{GPS}"] = [
                "Latitude": 48.858_37, "LatitudeRef": "N", "Longitude": 2.294_48, "LongitudeRef": "E",
                "Altitude": 35.5, "AltitudeRef": 0, "TimeStamp": "12:34:56.50", "DateStamp": "2026:11:29",
                "HPositioningError": 4.25,
            ] as [String: Any]
            return metadata
        }
        func replacementDepthData(for photo: AVCapturePhoto) -> AVDepthData? { nil }
    }

    /// Keeps everything: every method's default.
    final class Keeper: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {}

    /// Strips the metadata.
    final class Stripper: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {
        func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? { nil }
    }

    static func photo() throws -> AVCapturePhoto {
        try Emulator.shared.use(scene: DepthScenes.occluder(near: 0.5, far: 2.0, cardSize: 0.4, textured: true))
        let rig = try AVCapturePhotoDepthTests.dualRig()
        let settings = PhotoFileFormatTests.settings(.jpeg, depth: true)
        return try #require(capture(rig, settings).photos.first)
    }

    // spec §5 [D]: the location a customizer adds is written as Exif's GPS IFD (exiftool reads it back in
    // decimal degrees), the rest of the metadata stays, and the stripped depth is gone.
    @Test(.needs(.exiftool)) func aGeotagIsWrittenAndDepthStripped() throws {
        try onDevice("iphone-7-plus") {
            let photo = try Self.photo()
            let plain = try #require(photo.fileDataRepresentation())
            #expect((try? AVDepthData(fromFileData: plain)) != nil)
            let data = try #require(photo.fileDataRepresentation(with: Geotagger()))
            let url = try PhotoFileFormatTests.temporary(data, "jpg")
            defer { try? FileManager.default.removeItem(at: url) }
            let tags = try PhotoFileFormatTests.exiftool(url)
            // Seconds are kept to 1/10,000, so the degrees to about 3e-8.
            #expect(abs(((tags["GPSLatitude"] as? NSNumber)?.doubleValue ?? 0) - 48.858_37) < 1e-6)
            #expect(abs(((tags["GPSLongitude"] as? NSNumber)?.doubleValue ?? 0) - 2.294_48) < 1e-6)
            #expect(tags["GPSLatitudeRef"] as? String == "N" && tags["GPSLongitudeRef"] as? String == "E")
            #expect((tags["GPSAltitude"] as? NSNumber)?.doubleValue == 35.5)
            #expect(tags["GPSTimeStamp"] as? String == "12:34:56.5")
            #expect(tags["GPSDateStamp"] as? String == "2026:11:29")
            #expect((tags["GPSHPositioningError"] as? NSNumber)?.doubleValue == 4.25)
            #expect(tags["Make"] as? String == "Apple")
            #expect(tags["Orientation"] as? Int == photo.metadata["Orientation"] as? Int)
            let exposure = try #require((photo.metadata["{Exif}"] as? [String: Any])?["ExposureTime"] as? Double)
            #expect(abs(((tags["ExposureTime"] as? NSNumber)?.doubleValue ?? 0) - exposure) < exposure * 1e-3)
            #expect(tags["NumberOfImages"] == nil)
            #expect(throws: (any Error).self) { try AVDepthData(fromFileData: data) }
        }
    }

    // spec §5 [D]: a customizer that keeps everything gives the file fileDataRepresentation() gives; one that
    // strips the metadata gives a file without Exif.
    @Test(.needs(.exiftool)) func keepingIsTheDefaultAndNilStrips() throws {
        try onDevice("iphone-7-plus") {
            let photo = try Self.photo()
            let plain = try #require(photo.fileDataRepresentation())
            #expect(photo.fileDataRepresentation(with: Keeper()) == plain)
            let stripped = try #require(photo.fileDataRepresentation(with: Stripper()))
            let url = try PhotoFileFormatTests.temporary(stripped, "jpg")
            defer { try? FileManager.default.removeItem(at: url) }
            let tags = try PhotoFileFormatTests.exiftool(url)
            #expect(tags["Make"] == nil && tags["ExposureTime"] == nil && tags["Orientation"] == nil)
            #expect(tags["NumberOfImages"] as? Int == 2)
        }
    }
}
