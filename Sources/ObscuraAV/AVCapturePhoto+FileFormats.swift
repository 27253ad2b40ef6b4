import Foundation
import Imaging
import Sensor

/// The file a processed photo is written as: the codec the settings named, at their quality.
package enum PhotoFileFormat: Equatable {
    case png
    /// `quality` is `AVVideoQualityKey`, 0…1.
    case jpeg(quality: Double)
    case heic(quality: Double)

    /// Apple documents no default for `AVVideoQualityKey` in photo settings; 0.9 is our choice,
    /// close to what iPhone JPEGs measure.
    package static let defaultQuality = 0.9

    init(_ settings: AVCapturePhotoSettings) {
        let properties = settings.format?[AVVideoCompressionPropertiesKey] as? [String: Any]
        let asked = properties?[AVVideoQualityKey]
        let quality = (asked as? Double) ?? (asked as? Float).map(Double.init) ?? (asked as? NSNumber)?.doubleValue
        let q = min(1, max(0, quality ?? Self.defaultQuality))
        switch settings.codec {
        case .jpeg?: self = .jpeg(quality: q)
        case .hevc?: self = .heic(quality: q)
        default: self = .png
        }
    }
}

extension AVCapturePhoto {
    /// The Exif a phone writes: Make "Apple", the device's name as Model, exposure, f-number,
    /// ISO, focal length, flash, and the orientation the photo connection gave (spec §5).
    func exif(_ r: RenderedPhoto) -> ExifMetadata {
        let request = pending.request
        // A virtual camera has no lens of its own: the physical camera that renders it does.
        let optics = request.profile.renderingOptics(for: request.camera)
        return ExifMetadata(
            make: "Apple", model: request.profile.name, software: "Obscura", orientation: extras.orientation,
            exposureTimeSeconds: r.exposureDurationSeconds, fNumber: optics?.fNumber ?? 0,
            iso: Int(r.iso.rounded()), focalLengthMM: optics?.focalLengthMM ?? 0,
            focalLength35mmEquivalentMM: optics.map { Int($0.focalLength35mmEquivalentMM.rounded()) },
            flashFired: r.flashFired, pixelWidth: r.pixels.width, pixelHeight: r.pixels.height,
            isSRGB: r.encoding == .sRGB)
    }

    /// The settings of the thumbnail embedded in the photo's file (spec §4): the codec the file carries it in
    /// (JPEG in a JPEG's Exif, HEVC as a HEIC's thumbnail item, JPEG as a RAW photo's DNG preview) and the size
    /// resolved for it; nil when none was asked.
    public var embeddedThumbnailPhotoFormat: [String: Any]? {
        if isRawPhoto {
            let size = resolvedSettings.rawEmbeddedThumbnailDimensions
            guard size.width > 0, size.height > 0 else { return nil }
            return [
                AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: Int(size.width),
                AVVideoHeightKey: Int(size.height),
            ]
        }
        let size = resolvedSettings.embeddedThumbnailDimensions
        guard size.width > 0, size.height > 0 else { return nil }
        let codec: AVVideoCodecType
        switch extras.fileFormat {
        case .heic: codec = .hevc
        case .jpeg: codec = .jpeg
        case .png: return nil
        }
        return [AVVideoCodecKey: codec, AVVideoWidthKey: Int(size.width), AVVideoHeightKey: Int(size.height)]
    }

    /// The thumbnail's pixels: the photo scaled to the resolved size; nil when none was asked.
    func thumbnailPixels(_ r: RenderedPhoto) -> PixelPlane<UInt8>? {
        let size = resolvedSettings.embeddedThumbnailDimensions
        guard !isRawPhoto, size.width > 0, size.height > 0, r.pixels.channels == 3 else { return nil }
        return PreviewImage.scaled(r.pixels, width: Int(size.width), height: Int(size.height))
    }

    /// The Exif with the thumbnail in its IFD1 as a JPEG, at the highest of a few qualities whose APP1 segment
    /// fits (`ExifThumbnail.app1Capacity`); the Exif unchanged when there is no thumbnail or none fits.
    private func exifWithThumbnail(_ exif: [UInt8]?, _ r: RenderedPhoto) -> [UInt8]? {
        guard let thumbnail = thumbnailPixels(r) else { return exif }
        for quality in [85, 70, 50, 30] {
            guard let jpeg = try? JPEG.encode(thumbnail, quality: quality, segments: []),
                let tiff = ExifThumbnail.adding(jpeg: jpeg, to: exif)
            else { continue }
            if tiff.count + 6 <= ExifThumbnail.app1Capacity { return tiff }
        }
        return exif
    }

    private func iccProfile(_ r: RenderedPhoto) -> [UInt8] {
        r.encoding == .sRGB ? ICCProfile.sRGB : ICCProfile.displayP3
    }

    /// The depth map to embed, if the settings asked for it.
    private var embeddedDepth: DepthMap? {
        guard extras.embedsDepth else { return nil }
        return extras.depth?.map
    }

    /// What the photo's file holds beside its pixels, as the settings ask: the Exif, the depth and the mattes.
    func defaultContents(_ r: RenderedPhoto) -> PhotoFileContents {
        PhotoFileContents(exif: exif(r).tiff, depth: embeddedDepth, mattes: embeddedMattes)
    }

    /// The mattes to embed: the portrait effects matte when `embedsPortraitEffectsMatteInPhoto`, and
    /// the semantic segmentation mattes asked for when `embedsSemanticSegmentationMattesInPhoto`, in
    /// the settings' order; only those the photo has (a person in view).
    var embeddedMattes: [MatteFileCoding.Embedded] {
        guard !isRawPhoto, let mattes = extras.mattes else { return [] }
        var out: [MatteFileCoding.Embedded] = []
        if extras.embedsPortraitMatte, let plane = mattes.portraitPlane {
            out.append(.init(plane: plane, auxiliaryDataType: kCGImageAuxiliaryDataTypePortraitEffectsMatte as String))
        }
        if extras.embedsSemanticMattes {
            for type in mattes.semanticTypes {
                guard let plane = mattes.semanticPlane(type), let auxiliary = type.auxiliaryDataType else { continue }
                out.append(.init(plane: plane, auxiliaryDataType: auxiliary))
            }
        }
        return out
    }

    /// JPEG with Exif (APP1) and ICC (APP2); with depth or mattes, an MPF index and each as a further
    /// image, grey, at libjpeg quality 100, its XMP in its own APP1: the depth first, then the mattes
    /// (`MatteFileCoding`).
    func jpegFileData(_ r: RenderedPhoto, quality: Double, contents: PhotoFileContents? = nil) -> Data? {
        let contents = contents ?? defaultContents(r)
        let q = Int((quality * 100).rounded())
        let exif = exifWithThumbnail(contents.exif, r)
        var segments = exif.map { [JPEG.Segment(marker: 0xE1, data: Array("Exif".utf8) + [0, 0] + $0)] } ?? []
        var others: [[UInt8]] = []
        if let depth = contents.depth {
            let (image, xmp) = DepthImageCoding.encode(depth)
            let xmpSegment = JPEG.Segment(marker: 0xE1, data: Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp)
            guard let second = try? JPEG.encode(image, quality: 100, segments: [xmpSegment]) else { return nil }
            others.append(second)
        }
        guard let matteImages = MatteFileCoding.jpegImages(contents.mattes) else { return nil }
        others += matteImages
        guard !others.isEmpty else {
            return (try? JPEG.encode(r.pixels, quality: q, segments: segments, iccProfile: iccProfile(r))).map {
                Data($0)
            }
        }
        segments.append(
            JPEG.Segment(marker: 0xE2, data: MultiPictureFormat.placeholderIndex(imageCount: 1 + others.count)))
        guard let first = try? JPEG.encode(r.pixels, quality: q, segments: segments, iccProfile: iccProfile(r)),
            let file = MultiPictureFormat.join(first: first, others: others)
        else { return nil }
        return Data(file)
    }

    /// HEIC: HEVC through libheif with Exif and ICC; with depth, a losslessly coded auxiliary
    /// depth image carrying its XMP; with mattes, a losslessly coded auxiliary image each, of Apple's
    /// auxiliary type for the matte (`MatteFileCoding`).
    ///
    /// `AVVideoQualityKey` q becomes libheif's quality 50·q (spec §5 [I]). libheif's scale is x265's
    /// rate factor turned around, and it is steep: a 12 MP iPhone 15 Pro photo of the default scene is
    /// 10.8 MB at libheif's 90, 2.2 MB at 50 and 1.5 MB at 45, against 2.9 MB for the JPEG at q = 0.9.
    /// At 50·q the default q = 0.9 gives about half the JPEG's bytes, as Apple presents HEIF against
    /// JPEG, and it encodes in about half the time of libheif's 90.
    func heicFileData(_ r: RenderedPhoto, quality: Double, contents: PhotoFileContents? = nil) -> Data? {
        let contents = contents ?? defaultContents(r)
        let depth = contents.depth.map(DepthImageCoding.encode)
        let file = try? HEIF.encode(
            r.pixels, quality: Int((quality * 50).rounded()), iccProfile: iccProfile(r), exif: contents.exif,
            depth: depth?.image, depthXMP: depth?.xmp, auxiliaries: MatteFileCoding.heifAuxiliaries(contents.mattes),
            thumbnail: thumbnailPixels(r))
        return file.map { Data($0) }
    }
}

/// What a photo file holds beside its pixels: the Exif TIFF structure (nil for none), the depth and the mattes.
struct PhotoFileContents {
    var exif: [UInt8]?
    var depth: DepthMap?
    var mattes: [MatteFileCoding.Embedded]
}
