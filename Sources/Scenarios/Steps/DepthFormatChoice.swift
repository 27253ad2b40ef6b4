import Foundation
import ObscuraAV
import ObscuraSupport

/// `depth_format: {width: 320, height: 240, type: DepthFloat16}`: one of the active format's
/// `supportedDepthDataFormats`, by size, pixel type, or both.
struct DepthFormatChoice: CustomStringConvertible, Sendable {
    static let typesByName: [String: OSType] = [
        "DepthFloat16": kCVPixelFormatType_DepthFloat16, "DepthFloat32": kCVPixelFormatType_DepthFloat32,
        "DisparityFloat16": kCVPixelFormatType_DisparityFloat16,
        "DisparityFloat32": kCVPixelFormatType_DisparityFloat32,
    ]

    let width: Int?
    let height: Int?
    let type: OSType?

    init(_ node: YAMLNode) throws {
        let map = try node.mapping(allowedKeys: ["width", "height", "type"])
        width = try map.optional("width")?.positiveInt()
        height = try map.optional("height")?.positiveInt()
        type = try map.optional("type")?.named(Self.typesByName, what: "depth data type")
        if width == nil && height == nil && type == nil {
            throw node.error("'depth_format' needs width, height or type")
        }
    }

    static func typeName(_ type: OSType) -> String {
        typesByName.first { $0.value == type }?.key ?? String(type)
    }

    var description: String {
        [width.map { "width \($0)" }, height.map { "height \($0)" }, type.map { "type \(Self.typeName($0))" }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    static func describe(_ format: AVCaptureDevice.Format) -> String {
        let d = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
        return "\(d.width)x\(d.height) \(typeName(CMFormatDescriptionGetMediaSubType(format.formatDescription)))"
    }

    func pick(on device: AVCaptureDevice) throws -> AVCaptureDevice.Format {
        let formats = device.activeFormat.supportedDepthDataFormats
        let match = formats.first { f in
            let d = CMVideoFormatDescriptionGetDimensions(f.formatDescription)
            return (width.map { Int(d.width) == $0 } ?? true) && (height.map { Int(d.height) == $0 } ?? true)
                && (type.map { CMFormatDescriptionGetMediaSubType(f.formatDescription) == $0 } ?? true)
        }
        guard let match else {
            let offered = formats.isEmpty ? "none" : formats.map(Self.describe).joined(separator: ", ")
            throw StepFailure("no depth format with \(description); the active format offers: \(offered)")
        }
        return match
    }
}
