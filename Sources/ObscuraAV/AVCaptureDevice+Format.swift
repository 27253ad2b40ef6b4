import Devices
import Foundation

extension AVCaptureDevice {
    /// One capture format of a device (spec §2.3), built from the profile's format.
    open class Format: NSObject, @unchecked Sendable {
        let profile: CaptureFormat
        let depthProfile: (DepthFormat, DepthPixelFormat)?
        /// The format's media description: dimensions and pixel format (`'420f'`, `'hdis'`, …).
        public let formatDescription: CMFormatDescription
        /// `.video`, or `.depthData` for depth formats.
        public let mediaType: AVMediaType
        /// Supported frame-rate ranges.
        public let videoSupportedFrameRateRanges: [AVFrameRateRange]
        /// Depth formats compatible with this video format; empty means no depth.
        public let supportedDepthDataFormats: [Format]
        /// The device and camera the format belongs to, and what is derived from them once
        /// (AVCaptureDevice+FormatCapabilities.swift).
        let optics = FormatOptics()

        init(video profile: CaptureFormat) {
            self.profile = profile
            depthProfile = nil
            formatDescription = CMFormatDescription(
                mediaType: kCMMediaType_Video, mediaSubType: fourCharCode(profile.pixelFormat.rawValue),
                dimensions: CMVideoDimensions(width: Int32(profile.video.width), height: Int32(profile.video.height)))
            mediaType = .video
            videoSupportedFrameRateRanges = profile.frameRateRanges.map {
                AVFrameRateRange(minFrameRate: $0.minFPS, maxFrameRate: $0.maxFPS)
            }
            // Each depth size is offered in every pixel format the profile lists (spec §7 [I]).
            supportedDepthDataFormats = profile.depthFormats.flatMap { depth in
                depth.pixelFormats.map { Format(depth: depth, pixelFormat: $0, of: profile) }
            }
        }

        init(depth: DepthFormat, pixelFormat: DepthPixelFormat, of video: CaptureFormat) {
            profile = video
            depthProfile = (depth, pixelFormat)
            formatDescription = CMFormatDescription(
                mediaType: kCMMediaType_Metadata, mediaSubType: pixelFormat.fourCharCode,
                dimensions: CMVideoDimensions(
                    width: Int32(depth.dimensions.width), height: Int32(depth.dimensions.height)))
            mediaType = .depthData
            videoSupportedFrameRateRanges = [AVFrameRateRange(minFrameRate: 1, maxFrameRate: depth.maxFPS)]
            supportedDepthDataFormats = []
        }

        /// Colour spaces, narrowest gamut first; sRGB is always among them (spec §2.3 [D]).
        public var supportedColorSpaces: [AVCaptureColorSpace] {
            depthProfile == nil ? profile.colorSpaces.map(AVCaptureColorSpace.init) : []
        }

        /// Photo sizes this format can produce, ascending (spec §2.3).
        public var supportedMaxPhotoDimensions: [CMVideoDimensions] {
            guard depthProfile == nil else { return [] }
            return profile.photoDimensions.sorted().map {
                CMVideoDimensions(width: Int32($0.width), height: Int32($0.height))
            }
        }

        /// The largest photo size the API before iOS 16 reaches (deprecated in favour of `supportedMaxPhotoDimensions`):
        /// the largest of at most 4032 × 3024 pixels. The 48 MP sizes of quad-pixel sensors came with
        /// `maxPhotoDimensions` and are asked for only through it, so code written for the older switches keeps getting
        /// 12 MP photos on those phones (Capture rules §4, our choice where Apple is silent).
        public var highResolutionStillImageDimensions: CMVideoDimensions {
            let sizes = supportedMaxPhotoDimensions
            return sizes.last { Int($0.width) * Int($0.height) <= 4032 * 3024 } ?? sizes.first ?? CMVideoDimensions()
        }

        /// Whether this is the format to choose for the best photos under `.inputPriority` (spec §2.3).
        public var isHighestPhotoQualitySupported: Bool { depthProfile == nil && profile.highestPhotoQuality }

        /// Whether the format may be used with a multi-camera session; Obscura emulates none.
        public var isMultiCamSupported: Bool { false }

        /// `<AVCaptureDeviceFormat: 'vide'/'420f' 4032x3024, { 1- 30 fps}>`-like text.
        open override var description: String {
            let d = formatDescription.dimensions
            let rates = videoSupportedFrameRateRanges.map { "\(Int($0.minFrameRate))-\(Int($0.maxFrameRate)) fps" }
            return "<AVCaptureDeviceFormat: '\(mediaType == .video ? "vide" : "dpth")'/"
                + "'\(fourCharString(formatDescription.mediaSubType.rawValue))' \(d.width)x\(d.height), "
                + "{ \(rates.joined(separator: ", ")) }>"
        }

        var maxFPS: Double { videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 30 }
        var minFPS: Double { videoSupportedFrameRateRanges.map(\.minFrameRate).min() ?? 1 }
        var dimensions: CMVideoDimensions { formatDescription.dimensions }
    }
}
