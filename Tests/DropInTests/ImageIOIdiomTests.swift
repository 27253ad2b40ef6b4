import AVFoundation
import ExternalTools
import Foundation
import ImageIO
import Testing

extension DropIn {
    /// ImageIO as photo apps use it on a captured photo's file: reading its properties, picture, thumbnail and
    /// depth, and copying it with a location added. The properties are checked against the photo's own metadata
    /// and, for the copy, against exiftool, an independent reader.
    @Suite struct ImageIOIdiomTests {
        /// A JPEG photo turned a quarter (Exif 6) with an embedded thumbnail, and its file.
        static func portraitPhoto() throws -> (AVCapturePhoto, Data) {
            let rig = try PhotoSessionRig()
            try #require(rig.photoOutput.connection(with: .video)).videoRotationAngle = 90
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg]
            let photo = try rig.captureOne(settings)
            return (photo, try #require(photo.fileDataRepresentation()))
        }

        @Test func aSourceReadsThePhotosPropertiesAndPicture() throws {
            let (photo, data) = try Self.portraitPhoto()
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            #expect(CGImageSourceGetType(source) as String? == "public.jpeg")
            #expect(CGImageSourceGetCount(source) == 1)
            let properties = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
            let width = try #require(photo.metadata[kCGImagePropertyPixelWidth as String] as? Int)
            let height = try #require(photo.metadata[kCGImagePropertyPixelHeight as String] as? Int)
            #expect((properties[kCGImagePropertyPixelWidth as String] as? NSNumber)?.intValue == width)
            #expect((properties[kCGImagePropertyOrientation as String] as? NSNumber)?.intValue == 6)
            let exif = try #require(properties[kCGImagePropertyExifDictionary as String] as? [String: Any])
            let photoExif = try #require(photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
            #expect(
                (exif[kCGImagePropertyExifExposureTime as String] as? NSNumber)?.doubleValue
                    == (photoExif[kCGImagePropertyExifExposureTime as String] as? NSNumber)?.doubleValue)
            // The picture as stored, unturned; the file's size among the container's properties.
            let image = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            #expect(image.width == width && image.height == height)
            let container = try #require(CGImageSourceCopyProperties(source, nil) as? [String: Any])
            #expect((container[kCGImagePropertyFileSize as String] as? NSNumber)?.intValue == data.count)
            // Data of no image format makes a source with no type and no pictures, as ImageIO's does.
            let junk = try #require(CGImageSourceCreateWithData(Data("not an image".utf8) as CFData, nil))
            #expect(CGImageSourceGetType(junk) == nil && CGImageSourceGetCount(junk) == 0)
            #expect(CGImageSourceCreateImageAtIndex(junk, 0, nil) == nil)
        }

        // ImageIO's keys are CoreFoundation strings, as on Apple's platforms: they key `[CFString: Any]`
        // dictionaries without a cast, in both directions, and `as String` keys the `[String: Any]` ones.
        @Test func keysAreCoreFoundationStrings() throws {
            let (photo, data) = try Self.portraitPhoto()
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            let properties = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any])
            #expect((properties[kCGImagePropertyOrientation] as? NSNumber)?.intValue == 6)
            let exif = try #require(properties[kCGImagePropertyExifDictionary] as? [CFString: Any])
            let photoExif = try #require(photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
            let exposure = try #require(exif[kCGImagePropertyExifExposureTime] as? NSNumber)
            let photoExposure = photoExif[kCGImagePropertyExifExposureTime as String] as? NSNumber
            #expect(exposure.doubleValue == photoExposure?.doubleValue)
            // The same keys found in a dictionary keyed by `AnyHashable`, whatever form the keys were stored in.
            let anyKeyed = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [AnyHashable: Any])
            #expect((anyKeyed[kCGImagePropertyOrientation] as? NSNumber)?.intValue == 6)
            let literal: [AnyHashable: Any] = [kCGImagePropertyOrientation: 3]
            #expect(literal[kCGImagePropertyOrientation as String] as? Int == 3)
            // Options written without casts reach the destination: the lower quality makes the smaller file.
            let image = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            let low: [CFString: Any] = [kCGImageDestinationLossyCompressionQuality: 0.2]
            let high: [CFString: Any] = [kCGImageDestinationLossyCompressionQuality: 0.95]
            let small = try Self.written(image, "public.jpeg", low), large = try Self.written(image, "public.jpeg", high)
            #expect(small.count < large.count, "\(small.count) bytes at 0.2, \(large.count) at 0.95")
        }

        // The embedded thumbnail by default; one made from the picture, turned upright and at most 200 pixels,
        // when asked.
        @Test func thumbnailsComeEmbeddedOrMadeToMeasure() throws {
            let (photo, data) = try Self.portraitPhoto()
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            let embedded = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, nil))
            let size = photo.resolvedSettings.embeddedThumbnailDimensions
            #expect(embedded.width == Int(size.width) && embedded.height == Int(size.height))
            let options: [CFString: Any] = [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: 200,
            ]
            let made = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary))
            #expect(max(made.width, made.height) == 200)
            #expect(made.height > made.width, "turned to portrait: \(made.width)×\(made.height)")
        }

        // A HEIC photo's thumbnail item is its embedded thumbnail, at the size the settings resolved.
        @Test(.needs(.libheif)) func aHEICsThumbnailItemIsItsEmbeddedThumbnail() throws {
            let rig = try PhotoSessionRig()
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            settings.embeddedThumbnailPhotoFormat = [
                AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160, AVVideoHeightKey: 160,
            ]
            let photo = try rig.captureOne(settings)
            let data = try #require(photo.fileDataRepresentation())
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            #expect(CGImageSourceGetType(source) as String? == "public.heic")
            let thumbnail = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, nil))
            let size = photo.resolvedSettings.embeddedThumbnailDimensions
            #expect(thumbnail.width == Int(size.width) && thumbnail.height == Int(size.height))
            // Without one, only the options that allow it make one from the picture.
            let plain = try rig.captureOne(AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]))
            let plainData = try #require(plain.fileDataRepresentation())
            let plainSource = try #require(CGImageSourceCreateWithData(plainData as CFData, nil))
            #expect(CGImageSourceCreateThumbnailAtIndex(plainSource, 0, nil) == nil)
            let ifAbsent = [kCGImageSourceCreateThumbnailFromImageIfAbsent: true] as CFDictionary
            #expect(CGImageSourceCreateThumbnailAtIndex(plainSource, 0, ifAbsent) != nil)
        }

        // The geotagging idiom: the photo copied through a destination with a {GPS} dictionary added, as an
        // iOS app does before saving; exiftool reads the position, and the camera's Exif is kept.
        @Test(.needs(.exiftool)) func aDestinationCopiesThePhotoWithALocation() throws {
            let (_, data) = try Self.portraitPhoto()
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            let type = try #require(CGImageSourceGetType(source))
            let output = NSMutableData()
            let destination = try #require(CGImageDestinationCreateWithData(output as CFMutableData, type, 1, nil))
            let gps: [String: Any] = [
                kCGImagePropertyGPSLatitude as String: 51.5007, kCGImagePropertyGPSLatitudeRef as String: "N",
                kCGImagePropertyGPSLongitude as String: 0.1246, kCGImagePropertyGPSLongitudeRef as String: "W",
            ]
            CGImageDestinationAddImageFromSource(
                destination, source, 0, [kCGImagePropertyGPSDictionary as String: gps] as CFDictionary)
            #expect(CGImageDestinationFinalize(destination))
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("geotagged-\(UUID().uuidString).jpg")
            try (output as Data).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ExternalTool.exiftool.require())
            process.arguments = ["-j", "-n", url.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let json = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let tags = try #require((try JSONSerialization.jsonObject(with: json) as? [[String: Any]])?.first)
            #expect(abs(((tags["GPSLatitude"] as? NSNumber)?.doubleValue ?? 0) - 51.5007) < 1e-6)
            #expect(abs(((tags["GPSLongitude"] as? NSNumber)?.doubleValue ?? 0) + 0.1246) < 1e-6)
            #expect(tags["Make"] as? String == "Apple")
            #expect(tags["Orientation"] as? Int == 6)
            // A type no destination writes gives none.
            #expect(CGImageDestinationCreateWithData(NSMutableData(), "com.example.none" as CFString, 1, nil) == nil)
        }

        /// The file a destination of `type` writes for one image, with `properties`.
        static func written(_ image: CGImage, _ type: String, _ properties: [CFString: Any]? = nil) throws -> Data {
            let output = NSMutableData()
            let destination = try #require(
                CGImageDestinationCreateWithData(output as CFMutableData, type as CFString, 1, nil))
            CGImageDestinationAddImage(destination, image, properties as CFDictionary?)
            #expect(CGImageDestinationFinalize(destination))
            return output as Data
        }

        // A CGImage written as PNG comes back byte for byte; as JPEG, the quality passed with the image sets the
        // size (a lower quality, a smaller file). Finalising twice, or with nothing added, fails.
        @Test func aCGImageIsWrittenAtTheQualityAsked() throws {
            let (photo, _) = try Self.portraitPhoto()
            let image = try #require(photo.cgImageRepresentation())
            let png = try Self.written(image, "public.png")
            let pngSource = try #require(CGImageSourceCreateWithData(png as CFData, nil))
            let back = try #require(CGImageSourceCreateImageAtIndex(pngSource, 0, nil))
            #expect(back.width == image.width && back.height == image.height)
            func rgb(_ i: CGImage) -> [UInt8] {
                let bytes = [UInt8](i.dataProvider!.data! as Data)
                return (0..<(i.width * i.height)).flatMap { k in
                    let row = k / i.width, column = k % i.width
                    return (0..<3).map { bytes[row * i.bytesPerRow + column * i.bitsPerPixel / 8 + $0] }
                }
            }
            #expect(rgb(back) == rgb(image))
            let low = try Self.written(image, "public.jpeg", [kCGImageDestinationLossyCompressionQuality: 0.3])
            let high = try Self.written(image, "public.jpeg", [kCGImageDestinationLossyCompressionQuality: 1.0])
            #expect(low.count < high.count, "\(low.count) bytes at 0.3, \(high.count) at 1.0")
            let empty = try #require(CGImageDestinationCreateWithData(NSMutableData(), "public.jpeg" as CFString, 1, nil))
            #expect(!CGImageDestinationFinalize(empty))
        }

        // The CoreFoundation idiom of photo-saving helpers: a CFDataCreateMutable buffer, the file type as
        // `AVFileType.jpg as CFString`, the bytes read back with CFDataGetBytePtr; the buffer holds a JPEG (SOI
        // FF D8 first, EOI FF D9 last) of the photo's size.
        @Test func aFileTypeAndCoreFoundationDataMakeAFile() throws {
            let (photo, _) = try Self.portraitPhoto()
            let image = try #require(photo.cgImageRepresentation())
            let data: CFMutableData = CFDataCreateMutable(nil, 0)
            #expect(AVFileType.jpg as CFString == "public.jpeg" as CFString)
            let destination = try #require(CGImageDestinationCreateWithData(data, AVFileType.jpg as CFString, 1, nil))
            CGImageDestinationAddImage(destination, image, [kCGImageDestinationLossyCompressionQuality: 0.8] as CFDictionary)
            #expect(CGImageDestinationFinalize(destination))
            let length = CFDataGetLength(data)
            let bytes = try #require(CFDataGetBytePtr(data))
            #expect(length > 1000)
            #expect((bytes[0], bytes[1]) == (0xFF, 0xD8) && (bytes[length - 2], bytes[length - 1]) == (0xFF, 0xD9))
            let copy = try #require(CFDataCreate(nil, bytes, length))
            let source = try #require(CGImageSourceCreateWithData(copy, nil))
            let back = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            #expect(back.width == image.width && back.height == image.height)
            // The clock apps time their processing with counts seconds from 2001.
            let now = CFAbsoluteTimeGetCurrent() + kCFAbsoluteTimeIntervalSince1970
            #expect(abs(now - Date().timeIntervalSince1970) < 5)
            #expect(CGFloat(truncating: NSNumber(value: 2.5)) == 2.5)
        }

        /// Lumina's idiom: a photo's JPEG through a data provider into a `CGImage`: the file's size and colour
        /// space, and the same picture ImageIO decodes from the same bytes. A PNG comes back byte for byte.
        @Test func imagesFromDataProviders() throws {
            let (photo, data) = try Self.portraitPhoto()
            let provider = try #require(CGDataProvider(data: data as CFData))
            let image = try #require(
                CGImage(jpegDataProviderSource: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent))
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            let decoded = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            #expect(image.width == decoded.width && image.height == decoded.height)
            #expect(image.colorSpace?.name == decoded.colorSpace?.name)
            let a = [UInt8](image.dataProvider!.data! as Data), b = [UInt8](decoded.dataProvider!.data! as Data)
            #expect(image.bytesPerRow == decoded.bytesPerRow && a == b)
            // Not a JPEG: nil.
            let text = try #require(CGDataProvider(data: Data("not a picture".utf8) as CFData))
            let notJPEG = CGImage(
                jpegDataProviderSource: text, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
            #expect(notJPEG == nil)

            let picture = try #require(photo.cgImageRepresentation())
            let png = try Self.written(picture, "public.png")
            let pngProvider = try #require(CGDataProvider(data: png as CFData))
            let pngImage = try #require(
                CGImage(
                    pngDataProviderSource: pngProvider, decode: nil, shouldInterpolate: false, intent: .defaultIntent))
            #expect(pngImage.width == picture.width && pngImage.bitsPerComponent == 8)
            let pngBytes = [UInt8](pngImage.dataProvider!.data! as Data)
            let original = [UInt8](picture.dataProvider!.data! as Data)
            let channels = pngImage.bitsPerPixel / 8
            for k in [0, picture.width * picture.height / 2 + 17, picture.width * picture.height - 1] {
                let (row, column) = (k / picture.width, k % picture.width)
                let p = row * pngImage.bytesPerRow + column * channels
                let q = row * picture.bytesPerRow + column * picture.bitsPerPixel / 8
                #expect(Array(pngBytes[p..<(p + 3)]) == Array(original[q..<(q + 3)]), "pixel \(k)")
            }
        }

        // The depth idiom of Apple's depth samples: the file's auxiliary disparity through ImageIO into
        // AVDepthData, equal to the photo's own depth in map size.
        @Test func depthComesBackThroughTheAuxiliaryDataInfo() throws {
            let (session, output) = try PortraitMatteIdioms.portraitSession()
            session.startRunning()
            defer { session.stopRunning() }
            let settings = AVCapturePhotoSettings()
            settings.isDepthDataDeliveryEnabled = true
            settings.embedsDepthDataInPhoto = true
            let log = EventLog()
            output.capturePhoto(with: settings, delegate: log)
            #expect(log.waitForFinishes())
            let photo = try #require(log.photos.first)
            let data = try #require(photo.fileDataRepresentation())
            let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            let info = try #require(
                CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDisparity)
                    as? [AnyHashable: Any])
            let depth = try AVDepthData(fromDictionaryRepresentation: info)
            #expect(depth.depthDataType == kCVPixelFormatType_DisparityFloat32)
            let own = try #require(photo.depthData)
            #expect(CVPixelBufferGetWidth(depth.depthDataMap) == CVPixelBufferGetWidth(own.depthDataMap))
            #expect(CVPixelBufferGetHeight(depth.depthDataMap) == CVPixelBufferGetHeight(own.depthDataMap))
            // The entries are found by the constants themselves, as depth code reads the map's size and bytes.
            let description = try #require(info[kCGImageAuxiliaryDataInfoDataDescription] as? [String: Any])
            let width = try #require(description["Width"] as? Int), height = try #require(description["Height"] as? Int)
            #expect(width == CVPixelBufferGetWidth(own.depthDataMap) && height == CVPixelBufferGetHeight(own.depthDataMap))
            let bytes = try #require(info[kCGImageAuxiliaryDataInfoData] as? Data)
            #expect(bytes.count >= width * height * 4)
        }
    }
}
