import Foundation
import Obscura
import ObscuraAV
import ObscuraSupport

/// `stream: {seconds: 1}` or `stream: {frames: 30}`: lets the running session stream on the
/// virtual clock with `Emulator.shared.run(for:)` or `runFrames(_:)`, recording every delivery.
struct StreamStep: ScenarioStep {
    static let key = "stream"
    static let summary = "streams video, depth, audio and metadata for a time or a number of frames"

    enum Amount {
        case seconds(Double)
        case frames(Int)
    }

    let amount: Amount

    /// The most frames one step streams, however it is asked for.
    static let maximumFrames = 100_000
    /// The longest stream one step asks for.
    static let maximumSeconds = 3_600.0

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step).mapping(allowedKeys: ["seconds", "frames"])
        switch (map.optional("seconds"), map.optional("frames")) {
        case let (seconds?, nil):
            let value = try seconds.positiveDouble()
            // Virtual time is cheap to ask for and costly to render: an hour bounds the work, and
            // keeps the figure far from CMTime's limits. Our choice.
            guard value <= Self.maximumSeconds else {
                throw seconds.error("a stream lasts at most \(Int(Self.maximumSeconds)) s, found \(value)")
            }
            amount = .seconds(value)
        case let (nil, frames?): amount = .frames(try frames.int(in: 1...Self.maximumFrames))
        default: throw map.node.error("'stream' takes exactly one of 'seconds' or 'frames'")
        }
    }

    var apiCalls: [String] {
        switch amount {
        case let .seconds(s): return ["Emulator.shared.run(for: CMTime(seconds: \(s), preferredTimescale: 600))"]
        case let .frames(n): return ["Emulator.shared.runFrames(\(n))"]
        }
    }

    var specSections: [String] { ["§1.4", "§2.5", "§7", "§8"] }

    func perform(_ context: RunContext) throws {
        attachDelegates(context)
        if let device = context.device { context.notes.append(contentsOf: DepthRate.explanation(device, context)) }
        try checkFrameBudget(context)
        switch amount {
        case let .seconds(s): Emulator.shared.run(for: CMTime(seconds: s, preferredTimescale: 600))
        case let .frames(n): Emulator.shared.runFrames(n)
        }
    }

    /// A stream given in seconds renders at most as many frames as one given in frames may, at the
    /// device's active rate.
    private func checkFrameBudget(_ context: RunContext) throws {
        guard case let .seconds(s) = amount, let device = context.device else { return }
        let frameSeconds = device.activeVideoMinFrameDuration.seconds
        guard frameSeconds.isFinite, frameSeconds > 0 else { return }
        let frames = s / frameSeconds
        if frames > Double(Self.maximumFrames) {
            throw StepFailure(
                "\(DepthRate.fmt(s)) s at \(DepthRate.fmt((1 / frameSeconds * 1000).rounded() / 1000)) fps is "
                    + "\(Int(frames.rounded())) frames; a stream renders at most \(Self.maximumFrames)")
        }
    }

    /// Every data output not yet heard gets the scenario's record as its delegate.
    private func attachDelegates(_ context: RunContext) {
        let record = context.stream
        for name in context.outputOrder {
            guard let output = context.outputs[name] else { continue }
            record.name(output, name)
            switch output {
            case let o as AVCaptureVideoDataOutput where o.sampleBufferDelegate == nil:
                o.setSampleBufferDelegate(record, queue: record.queue)
            case let o as AVCaptureDepthDataOutput where o.delegate == nil:
                o.setDelegate(record, callbackQueue: record.queue)
            case let o as AVCaptureAudioDataOutput where o.sampleBufferDelegate == nil:
                o.setSampleBufferDelegate(record, queue: record.queue)
            case let o as AVCaptureMetadataOutput where o.metadataObjectsDelegate == nil:
                o.setMetadataObjectsDelegate(record, queue: record.queue)
            default: break
            }
        }
    }
}
