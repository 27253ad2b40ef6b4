import Foundation
import Imaging
import Testing

/// Property dictionaries written as Exif and read back (ImageIO's key names, Exif 2.32's types).
struct ImagePropertiesWritingTests {
    // Exif 2.32 §4.6.6: latitude and longitude are three rationals, degrees, minutes and seconds; read back they
    // are decimal degrees again, to the 1/10,000 s the seconds keep (3e-8 of a degree).
    @Test func aLocationSurvivesTheRoundTrip() throws {
        let written: [String: Any] = [
            "Orientation": 6,
            "{TIFF}": ["Make": "Apple", "Model": "iPhone 15 Pro"],
            "{Exif}": ["ExposureTime": 1.0 / 120, "FNumber": 1.78, "ISOSpeedRatings": [64], "ExposureBiasValue": -0.7],
            "{GPS}": [
                "Latitude": 33.856_84, "LatitudeRef": "S", "Longitude": 151.215_28, "LongitudeRef": "E",
                "TimeStamp": "23:59:01.25", "GPSVersion": [2, 3, 0, 0],
            ] as [String: Any],
        ]
        let tiff = try #require(ImageProperties.exifTIFF(from: written))
        let read = ImageProperties.exif(tiff: tiff)
        #expect((read["Orientation"] as? NSNumber)?.intValue == 6)
        let tiffTags = try #require(read["{TIFF}"] as? [String: Any])
        #expect(tiffTags["Make"] as? String == "Apple" && tiffTags["Model"] as? String == "iPhone 15 Pro")
        let exif = try #require(read["{Exif}"] as? [String: Any])
        #expect((exif["ExposureTime"] as? NSNumber)?.doubleValue == 1.0 / 120)
        #expect((exif["FNumber"] as? NSNumber)?.doubleValue == 1.78)
        #expect((exif["ISOSpeedRatings"] as? [NSNumber])?.map(\.intValue) == [64])
        #expect((exif["ExposureBiasValue"] as? NSNumber)?.doubleValue == -0.7)
        let gps = try #require(read["{GPS}"] as? [String: Any])
        #expect(abs(((gps["Latitude"] as? NSNumber)?.doubleValue ?? 0) - 33.856_84) < 3e-8)
        #expect(abs(((gps["Longitude"] as? NSNumber)?.doubleValue ?? 0) - 151.215_28) < 3e-8)
        #expect(gps["LatitudeRef"] as? String == "S" && gps["LongitudeRef"] as? String == "E")
        #expect(gps["TimeStamp"] as? String == "23:59:01.25")
        #expect((gps["GPSVersion"] as? [NSNumber])?.map(\.intValue) == [2, 3, 0, 0])
    }

    // Keys no table names are left out; nothing to write gives no structure.
    @Test func unknownKeysAreLeftOut() {
        #expect(ImageProperties.exifTIFF(from: ["{MakerApple}": ["1": 2], "Custom": "x"]) == nil)
    }

    // Exif 2.32 §4.6.6: a thumbnail is IFD1, JPEG-compressed, its bytes at JPEGInterchangeFormat. Added to a
    // structure, it reads back byte for byte and the tags around it stay; a second one replaces the link.
    @Test func aThumbnailIsTheSecondIFD() throws {
        let tiff = try #require(ImageProperties.exifTIFF(from: ["Orientation": 3, "{TIFF}": ["Make": "Apple"]]))
        #expect(ExifThumbnail.jpeg(in: tiff) == nil)
        let first: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9], second: [UInt8] = [0xFF, 0xD8, 9, 0xFF, 0xD9]
        let once = try #require(ExifThumbnail.adding(jpeg: first, to: tiff))
        #expect(ExifThumbnail.jpeg(in: once) == first)
        let read = ImageProperties.exif(tiff: once)
        #expect((read["Orientation"] as? NSNumber)?.intValue == 3)
        #expect((read["{TIFF}"] as? [String: Any])?["Make"] as? String == "Apple")
        let twice = try #require(ExifThumbnail.adding(jpeg: second, to: once))
        #expect(ExifThumbnail.jpeg(in: twice) == second)
        // Without Exif, the thumbnail gets a structure of its own.
        #expect(ExifThumbnail.adding(jpeg: first, to: nil).flatMap(ExifThumbnail.jpeg(in:)) == first)
        // A little-endian structure is not one this writer made.
        #expect(ExifThumbnail.adding(jpeg: first, to: [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
    }
}
