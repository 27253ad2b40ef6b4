import Foundation

/// What each camera of a device can do, as `obscura devices show` prints it.
///
/// A flat, encodable view of a profile: per camera its type, constituents, flash modes,
/// features, depth technology, presets and every format with its frame rates, colour spaces,
/// photo sizes, depth formats and Constant Color support.
public struct CapabilityMatrix: Sendable, Codable, Hashable {
    /// One format row.
    public struct Format: Sendable, Codable, Hashable {
        public var id: String
        public var video: String
        public var pixelFormat: String
        public var frameRates: [String]
        public var colorSpaces: [String]
        public var maxPhotoDimensions: [String]
        public var highestPhotoQuality: Bool
        public var constantColor: Bool
        /// `WxH fourcc,… ≤N fps` per depth format.
        public var depthFormats: [String]

        enum CodingKeys: String, CodingKey {
            case id, video, pixelFormat = "pixel_format", frameRates = "frame_rates", colorSpaces = "color_spaces"
            case maxPhotoDimensions = "max_photo_dimensions", highestPhotoQuality = "highest_photo_quality"
            case constantColor = "constant_color", depthFormats = "depth_formats"
        }
    }

    /// One camera.
    public struct Camera: Sendable, Codable, Hashable {
        public var id: String
        public var deviceType: String
        public var position: String
        public var isVirtualDevice: Bool
        public var constituents: [String]
        public var hasFlash: Bool
        public var flashModes: [String]
        public var constantColor: Bool
        public var depthDelivery: Bool
        public var depthTechnology: String?
        public var depthAccuracy: String?
        public var constituentPhotoDelivery: Bool
        public var calibrationDataDelivery: Bool
        public var intrinsicMatrixDelivery: Bool
        public var maxPhotoQualityPrioritization: String
        public var presets: [String: String]
        public var formats: [Format]

        enum CodingKeys: String, CodingKey {
            case id, deviceType = "device_type", position, isVirtualDevice = "is_virtual_device", constituents
            case hasFlash = "has_flash", flashModes = "flash_modes", constantColor = "constant_color"
            case depthDelivery = "depth_delivery", depthTechnology = "depth_technology"
            case depthAccuracy = "depth_accuracy", constituentPhotoDelivery = "constituent_photo_delivery"
            case calibrationDataDelivery = "calibration_data_delivery"
            case intrinsicMatrixDelivery = "intrinsic_matrix_delivery"
            case maxPhotoQualityPrioritization = "max_photo_quality_prioritization", presets, formats
        }
    }

    public var id: String
    public var name: String
    public var family: String
    /// The flash kind, or nil without a flash.
    public var flash: String?
    public var flashModules: Int
    public var cameras: [Camera]

    // Keys are snake_case, as every JSON output of the obscura tool is.
    enum CodingKeys: String, CodingKey {
        case id, name, family, flash, flashModules = "flash_modules", cameras
    }

    /// The matrix of a profile.
    public init(_ profile: DeviceProfile) {
        id = profile.id
        name = profile.name
        family = profile.family
        flash = profile.flash?.kind.rawValue
        flashModules = profile.flash?.modules.count ?? 0
        cameras = profile.cameras.map { camera in
            Camera(
                id: camera.id, deviceType: camera.deviceType.rawValue, position: camera.position.rawValue,
                isVirtualDevice: camera.isVirtualDevice, constituents: camera.constituents,
                hasFlash: profile.hasFlash(camera), flashModes: camera.flashModes.map(\.rawValue),
                constantColor: camera.formats.contains { camera.supportsConstantColor(with: $0) },
                depthDelivery: camera.hasDepthFormats, depthTechnology: camera.depth?.technology.rawValue,
                depthAccuracy: camera.depth?.accuracy.rawValue,
                constituentPhotoDelivery: camera.features.constituentPhotoDelivery,
                calibrationDataDelivery: camera.features.calibrationDataDelivery,
                intrinsicMatrixDelivery: camera.features.intrinsicMatrixDelivery,
                maxPhotoQualityPrioritization: camera.features.maxPhotoQualityPrioritization.rawValue,
                presets: Dictionary(uniqueKeysWithValues: camera.presets.map { ($0.key.rawValue, $0.value) }),
                formats: camera.formats.map { format in
                    Format(
                        id: format.id, video: format.video.description, pixelFormat: format.pixelFormat.rawValue,
                        frameRates: format.frameRateRanges.map { "\(number($0.minFPS))-\(number($0.maxFPS))" },
                        colorSpaces: format.colorSpaces.map(\.rawValue),
                        maxPhotoDimensions: format.photoDimensions.map(\.description),
                        highestPhotoQuality: format.highestPhotoQuality,
                        constantColor: camera.supportsConstantColor(with: format),
                        depthFormats: format.depthFormats.map {
                            "\($0.dimensions) \($0.pixelFormats.map(\.rawValue).joined(separator: ","))"
                                + " ≤\(number($0.maxFPS)) fps"
                        })
                })
        }
    }

    /// A readable multi-line rendering.
    public var text: String {
        var out = "\(name) (\(id)), \(family); flash: \(flash.map { "\($0), \(flashModules) LEDs" } ?? "none")\n"
        for c in cameras {
            out += "\n\(c.id): \(c.deviceType), \(c.position)"
            out += c.constituents.isEmpty ? "\n" : " = [\(c.constituents.joined(separator: ", "))]\n"
            out += "  flash modes: [\(c.flashModes.joined(separator: ", "))]  Constant Color: \(yes(c.constantColor))"
            out += "  depth: \(c.depthTechnology.map { "\($0) (\(c.depthAccuracy ?? ""))" } ?? "no")\n"
            out += "  constituent photos: \(yes(c.constituentPhotoDelivery))  calibration data: "
            out += "\(yes(c.calibrationDataDelivery))  intrinsic matrix: \(yes(c.intrinsicMatrixDelivery))"
            out += "  max quality: \(c.maxPhotoQualityPrioritization)\n"
            if !c.presets.isEmpty {
                out +=
                    "  presets: "
                    + c.presets.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }
                    .joined(separator: ", ") + "\n"
            }
            for f in c.formats {
                out +=
                    "  \(f.id.padding(toLength: 16, withPad: " ", startingAt: 0))"
                    + " fps \(f.frameRates.joined(separator: " "))"
                out +=
                    "  [\(f.colorSpaces.joined(separator: ", "))]  photo \(f.maxPhotoDimensions.joined(separator: " "))"
                if f.highestPhotoQuality { out += "  HQ" }
                if f.constantColor { out += "  CC" }
                out += "\n"
                for d in f.depthFormats { out += "      depth \(d)\n" }
            }
        }
        return out
    }
}

private func number(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
private func yes(_ b: Bool) -> String { b ? "yes" : "no" }
