import ObscuraAV
import ObscuraSupport

/// `output: photo` or `output: {type: video_data, name: preview}`: makes an output and adds it.
struct OutputStep: ScenarioStep {
    static let key = "output"
    static let summary = "makes an output (photo, video_data, movie_file, depth_data, still_image, audio_data, metadata) and adds it"

    enum Kind: String, CaseIterable {
        case photo, video_data, movie_file, depth_data, still_image, audio_data, metadata

        var typeName: String {
            switch self {
            case .photo: return "AVCapturePhotoOutput"
            case .video_data: return "AVCaptureVideoDataOutput"
            case .movie_file: return "AVCaptureMovieFileOutput"
            case .depth_data: return "AVCaptureDepthDataOutput"
            case .still_image: return "AVCaptureStillImageOutput"
            case .audio_data: return "AVCaptureAudioDataOutput"
            case .metadata: return "AVCaptureMetadataOutput"
            }
        }

        func make() -> AVCaptureOutput {
            switch self {
            case .photo: return AVCapturePhotoOutput()
            case .video_data: return AVCaptureVideoDataOutput()
            case .movie_file: return AVCaptureMovieFileOutput()
            case .depth_data: return AVCaptureDepthDataOutput()
            case .still_image: return AVCaptureStillImageOutput()
            case .audio_data: return AVCaptureAudioDataOutput()
            case .metadata: return AVCaptureMetadataOutput()
            }
        }
    }

    let kind: Kind
    let name: String

    init(value: YAMLNode?, step: YAMLNode) throws {
        let node = try Self.requireValue(value, step: step)
        let kinds = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0.rawValue, $0) })
        if case .scalar = node.node {
            kind = try node.named(kinds, what: "output type")
            name = kind.rawValue
        } else {
            let map = try node.mapping(allowedKeys: ["type", "name"])
            kind = try map.required("type").named(kinds, what: "output type")
            name = try map.optional("name")?.string() ?? kind.rawValue
        }
    }

    var apiCalls: [String] { ["let \(name) = \(kind.typeName)()", "session.addOutput(\(name))"] }
    var specSections: [String] { ["§1.2"] }

    func perform(_ context: RunContext) throws {
        let output = kind.make()
        context.session.addOutput(output)
        // A metadata output detects nothing until told what to look for: everything it offers.
        if let metadata = output as? AVCaptureMetadataOutput, context.session.outputs.contains(where: { $0 === output }) {
            metadata.metadataObjectTypes = metadata.availableMetadataObjectTypes
        }
        // Registered only once added: a refused output (spec §13 N12) leaves the context as it was.
        if context.outputs[name] == nil { context.outputOrder.append(name) }
        context.outputs[name] = output
    }
}
