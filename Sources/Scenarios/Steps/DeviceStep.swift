import ObscuraAV
import ObscuraSupport

/// `device: {format: {width: 1920, height: 1080}, fps: 30, color_space: P3_D65}`: sets the
/// device's lock-protected properties, in that order (take the lock first with `- lock`).
struct DeviceStep: ScenarioStep {
    static let key = "device"
    static let summary = "chooses the device's format, frame rate, colour space and depth format (lock-protected)"

    enum FormatChoice {
        case index(Int)
        case dimensions(width: Int, height: Int)
    }

    let format: FormatChoice?
    let fps: Int?
    let colorSpace: AVCaptureColorSpace?
    let depthFormat: DepthFormatChoice?
    let depthFPS: Int?

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step)
            .mapping(allowedKeys: ["format", "fps", "color_space", "depth_format", "depth_fps"])
        depthFormat = try map.optional("depth_format").map(DepthFormatChoice.init)
        // A rate becomes a CMTime timescale, an Int32: a larger one would trap rather than reach the
        // device's own rate checks (spec §2.4 [D]); our choice to refuse it here.
        depthFPS = try map.optional("depth_fps")?.int(in: 1...Self.maximumRate)
        if let node = map.optional("format") {
            if case .scalar = node.node {
                format = .index(try node.int(in: 0...999))
            } else {
                let dims = try node.mapping(allowedKeys: ["width", "height"])
                format = .dimensions(width: try dims.required("width").positiveInt(),
                                     height: try dims.required("height").positiveInt())
            }
        } else {
            format = nil
        }
        fps = try map.optional("fps")?.int(in: 1...Self.maximumRate)
        colorSpace = try map.optional("color_space")?.named(colorSpacesByName, what: "colour space")
    }

    /// The largest rate a CMTime of one frame (`value: 1, timescale: fps`) can hold.
    static let maximumRate = Int(Int32.max)

    var apiCalls: [String] {
        var calls: [String] = []
        switch format {
        case let .index(i): calls.append("device.activeFormat = device.formats[\(i)]")
        case let .dimensions(w, h): calls.append("device.activeFormat = device.formats.first { $0 is \(w)×\(h) }")
        case nil: break
        }
        if let fps {
            calls.append("device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: \(fps))")
            calls.append("device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: \(fps))")
        }
        if let colorSpace { calls.append("device.activeColorSpace = .\(colorSpaceName(colorSpace))") }
        if let depthFormat {
            calls.append("device.activeDepthDataFormat = device.activeFormat.supportedDepthDataFormats.first { "
                + depthFormat.description + " }")
        }
        if let depthFPS { calls.append("device.activeDepthDataMinFrameDuration = CMTime(value: 1, timescale: \(depthFPS))") }
        return calls
    }

    var specSections: [String] { ["§2.3", "§2.4", "§2.5", "§2.6"] }

    func perform(_ context: RunContext) throws {
        let device = try context.requireDevice()
        if let format {
            device.activeFormat = try Self.pick(format, on: device)
        }
        if let fps {
            let duration = CMTime(value: 1, timescale: Int32(clamping: fps))
            device.activeVideoMinFrameDuration = duration
            device.activeVideoMaxFrameDuration = duration
        }
        if let colorSpace { device.activeColorSpace = colorSpace }
        if let depthFormat { device.activeDepthDataFormat = try depthFormat.pick(on: device) }
        if let depthFPS {
            device.activeDepthDataMinFrameDuration = CMTime(value: 1, timescale: Int32(clamping: depthFPS))
        }
    }

    private static func pick(_ choice: FormatChoice, on device: AVCaptureDevice) throws -> AVCaptureDevice.Format {
        let formats = device.formats
        switch choice {
        case let .index(i):
            guard i < formats.count else {
                throw StepFailure("format index \(i) is out of range: the device has \(formats.count) formats")
            }
            return formats[i]
        case let .dimensions(w, h):
            let match = formats.first {
                let d = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
                return Int(d.width) == w && Int(d.height) == h
            }
            guard let match else {
                let sizes = formats.map {
                    let d = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
                    return "\(d.width)x\(d.height)"
                }
                throw StepFailure("no format of \(w)x\(h); the device offers \(sizes.joined(separator: ", "))")
            }
            return match
        }
    }
}
