import Obscura
import ObscuraAV
import ObscuraSupport

/// A fault a scenario schedules under its top-level `faults:` key (spec §21): when it happens, on the
/// session's stream, and what happens.
///
///     faults:
///       - {frame: 10, runtime_error: mediaServicesWereReset}
///       - {seconds: 0.5, interruption: videoDeviceInUseByAnotherClient}
///       - {seconds: 1, end_interruption: true}
///       - {frame: 40, system_pressure: {level: serious, factors: [systemTemperature]}}
///       - {frame: 50, dropped_frames: {count: 3, reason: OutOfBuffers}}
///       - {seconds: 2, disk_full: true}
///       - {frame: 60, flash_thermally_unavailable: true}
///
/// The faults are scheduled with `Emulator.shared.schedule(_:at:)` before the first step runs; each
/// happens before the frame it names, during the `stream` step that reaches it.
public struct ScenarioFault: Sendable {
    /// What happens.
    public let fault: CaptureFault
    /// When.
    public let moment: CaptureFault.Moment
    /// Where the entry starts in the file.
    public let location: SourceLocation

    /// The keys that say when.
    static let momentKeys = ["seconds", "frame"]
    /// The keys that say what, one per fault.
    static let faultKeys = [
        "runtime_error", "interruption", "end_interruption", "system_pressure", "dropped_frames", "disk_full",
        "flash_thermally_unavailable",
    ]

    /// The most frames one `dropped_frames` entry drops; as many as a `stream` step may render.
    static let maximumDroppedFrames = 100_000

    /// Reads one entry of `faults:`.
    init(_ node: YAMLNode) throws {
        let map = try node.mapping(allowedKeys: Self.momentKeys + Self.faultKeys)
        location = node.location
        switch (map.optional("seconds"), map.optional("frame")) {
        case let (seconds?, nil):
            // The same bound as a stream step's length: a later moment is never reached.
            moment = .seconds(try seconds.double(in: 0...StreamStep.maximumSeconds))
        case let (nil, frame?):
            moment = .frame(try frame.int(in: 0...StreamStep.maximumFrames))
        default:
            throw node.error("a fault takes exactly one of 'seconds' or 'frame' (when it happens)")
        }
        let chosen = map.entries.filter { Self.faultKeys.contains($0.key) }
        guard chosen.count == 1, let entry = chosen.first else {
            throw node.error(chosen.isEmpty
                ? "a fault needs one of: \(Self.faultKeys.joined(separator: ", "))"
                : "a fault entry holds one fault, found \(chosen.map(\.key).joined(separator: " and "))")
        }
        fault = try Self.fault(entry.key, entry.value)
    }

    private static func fault(_ key: String, _ value: YAMLNode) throws -> CaptureFault {
        switch key {
        case "runtime_error":
            return .runtimeError(try value.named(runtimeErrorsByName, what: "runtime error"))
        case "interruption":
            return .interruption(try value.named(interruptionReasonsByName, what: "interruption reason"))
        case "end_interruption":
            try requireTrue(value, key)
            return .interruptionEnded
        case "disk_full":
            try requireTrue(value, key)
            return .diskFull
        case "flash_thermally_unavailable":
            return .flashThermallyUnavailable(try value.bool())
        case "system_pressure":
            // `system_pressure: serious`, or with factors: `{level: serious, factors: [peakPower]}`.
            if case .scalar = value.node {
                let level = try value.named(pressureLevelsByName, what: "system pressure level")
                return .systemPressure(level, factors: [])
            }
            let map = try value.mapping(allowedKeys: ["level", "factors"])
            let level = try map.required("level").named(pressureLevelsByName, what: "system pressure level")
            var factors: AVCaptureDevice.SystemPressureState.Factors = []
            for item in try map.optional("factors")?.sequence() ?? [] {
                factors.insert(try item.named(pressureFactorsByName, what: "system pressure factor"))
            }
            return .systemPressure(level, factors: factors)
        default:  // dropped_frames
            let map = try value.mapping(allowedKeys: ["count", "reason"])
            let count = try map.required("count").int(in: 1...maximumDroppedFrames)
            let reason = try map.required("reason").named(droppedFrameReasonsByName, what: "dropped-frame reason")
            return .droppedFrames(count, reason: reason)
        }
    }

    /// `end_interruption: true`: a fault with nothing to say but that it happens.
    private static func requireTrue(_ value: YAMLNode, _ key: String) throws {
        guard try value.bool() else { throw value.error("'\(key)' takes true (remove the entry for no fault)") }
    }

    /// `frame 10: runtime error mediaServicesWereReset (-11819)`.
    public var summary: String { "\(moment): \(fault)" }
}
