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
}
