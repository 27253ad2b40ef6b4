import Foundation
import Imaging

/// A value a layer instruction holds or ramps linearly (Capture rules §25 rule 16).
protocol RampValue {
    /// The value a fraction `t` (0…1) of the way from `a` to `b`.
    static func mix(_ a: Self, _ b: Self, _ t: Double) -> Self
}

extension Float: RampValue {
    static func mix(_ a: Float, _ b: Float, _ t: Double) -> Float { a + (b - a) * Float(t) }
}

extension CGAffineTransform: RampValue {
    static func mix(_ a: CGAffineTransform, _ b: CGAffineTransform, _ t: Double) -> CGAffineTransform {
        func m(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * CGFloat(t) }
        return CGAffineTransform(
            a: m(a.a, b.a), b: m(a.b, b.b), c: m(a.c, b.c), d: m(a.d, b.d), tx: m(a.tx, b.tx), ty: m(a.ty, b.ty))
    }
}

extension CGRect: RampValue {
    static func mix(_ a: CGRect, _ b: CGRect, _ t: Double) -> CGRect {
        func m(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * CGFloat(t) }
        return CGRect(
            x: m(a.minX, b.minX), y: m(a.minY, b.minY), width: m(a.width, b.width), height: m(a.height, b.height))
    }
}

/// One property of a layer instruction over time: values held from a time on, and linear ramps over a time range,
/// in order of their start. Before the first, `initial` holds; after a ramp ends, its end value holds until the next.
struct Ramps<Value: RampValue> {
    struct Step {
        let range: CMTimeRange
        let from: Value, to: Value
    }

    let initial: Value
    private(set) var steps: [Step] = []

    init(initial: Value) { self.initial = initial }

    /// Holds `value` from `time` on.
    mutating func set(_ value: Value, at time: CMTime) {
        insert(Step(range: CMTimeRange(start: time, duration: .zero), from: value, to: value))
    }

    /// Moves from `a` to `b` over `range`.
    mutating func ramp(from a: Value, to b: Value, over range: CMTimeRange) {
        insert(Step(range: range, from: a, to: b))
    }

    /// A step starting where another does replaces it.
    private mutating func insert(_ step: Step) {
        steps.removeAll { $0.range.start == step.range.start }
        steps.append(step)
        steps.sort { $0.range.start < $1.range.start }
    }

    /// The value at `seconds`.
    func value(at seconds: Double) -> Value {
        guard let step = steps.last(where: { $0.range.start.seconds <= seconds + 1e-9 }) else { return initial }
        let length = step.range.duration.seconds
        guard length > 0, seconds < step.range.end.seconds else { return step.to }
        return Value.mix(step.from, step.to, (seconds - step.range.start.seconds) / length)
    }

    /// The ramp covering `time` for the `get…Ramp` methods: a ramp, or a value held until the next step; false past
    /// the last step's end (its end value then holds).
    func ramp(
        at time: CMTime, start: UnsafeMutablePointer<Value>?, end: UnsafeMutablePointer<Value>?,
        range: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        let index = steps.lastIndex { $0.range.start <= time }
        let next = steps.first { $0.range.start > time }?.range.start ?? .positiveInfinity
        guard let index else {
            start?.pointee = initial
            end?.pointee = initial
            range?.pointee = CMTimeRange(start: .zero, end: next)
            return true
        }
        let step = steps[index]
        if time < step.range.end {
            start?.pointee = step.from
            end?.pointee = step.to
            range?.pointee = step.range
            return true
        }
        start?.pointee = step.to
        end?.pointee = step.to
        range?.pointee = CMTimeRange(start: step.range.end, end: next)
        return next.isNumeric
    }
}

/// A video composition taken at the moment a consumer starts (Capture rules §25 rule 16): its settings and
/// instructions as values, so that later changes to the app's objects do not reach a running export.
struct VideoCompositionPlan {
    struct Layer {
        let trackID: CMPersistentTrackID
        let transforms: Ramps<CGAffineTransform>
        let opacities: Ramps<Float>
        let crops: Ramps<CGRect>
        let instruction: AVVideoCompositionLayerInstruction
    }

    struct Instruction {
        let range: CMTimeRange
        /// The background's red, green and blue codes.
        let background: SIMD3<UInt8>
        /// The layers, the first on top.
        let layers: [Layer]
        let instruction: any AVVideoCompositionInstructionProtocol
    }

    /// What `AVVideoComposition.isValid(for:timeRange:validationDelegate:)` reports.
    enum Fault {
        case value(String)
        case gap(CMTimeRange)
        case instruction(any AVVideoCompositionInstructionProtocol)
        case track(any AVVideoCompositionInstructionProtocol, AVVideoCompositionLayerInstruction, AVAsset)
    }

    let frameDuration: CMTime
    let renderSize: CGSize
    let renderScale: Float
    let instructions: [Instruction]
    let filter: AVVideoComposition.FrameFilter?

    init(_ composition: AVVideoComposition) {
        let settings = composition.lock.withLock { composition.settings }
        frameDuration = settings.frameDuration
        renderSize = settings.renderSize
        renderScale = settings.renderScale
        filter = settings.filter
        instructions = settings.instructions.map { instruction in
            guard let built = instruction as? AVVideoCompositionInstruction else {
                return Instruction(
                    range: instruction.timeRange, background: .zero, layers: [], instruction: instruction)
            }
            let layers = built.layerInstructions.map { layer in
                layer.lock.withLock {
                    Layer(
                        trackID: layer.track, transforms: layer.transforms, opacities: layer.opacities,
                        crops: layer.crops, instruction: layer)
                }
            }
            return Instruction(
                range: built.timeRange, background: Self.codes(built.backgroundColor), layers: layers,
                instruction: built)
        }
    }

    /// The frames' width and height, pixels.
    var width: Int { max(1, Int(renderSize.width.rounded())) }
    var height: Int { max(1, Int(renderSize.height.rounded())) }

    /// A background colour's codes: its first three components (a grey's one), opaque black for none.
    static func codes(_ colour: CGColor?) -> SIMD3<UInt8> {
        guard let c = colour?.components, !c.isEmpty else { return .zero }
        func code(_ v: CGFloat) -> UInt8 { UInt8((min(max(Double(v), 0), 1) * 255).rounded()) }
        return c.count >= 4 ? SIMD3(code(c[0]), code(c[1]), code(c[2])) : SIMD3(repeating: code(c[0]))
    }

    /// The composition's faults for `asset` over `range` (the asset's whole duration where invalid), in the order
    /// Apple's validation reports them: values, then instructions, empty stretches and tracks.
    func faults(asset: AVAsset?, range asked: CMTimeRange) -> [Fault] {
        var faults: [Fault] = []
        if !(renderSize.width > 0 && renderSize.height > 0) { faults.append(.value("renderSize")) }
        if !(frameDuration.isNumeric && frameDuration > .zero) { faults.append(.value("frameDuration")) }
        if renderScale <= 0 { faults.append(.value("renderScale")) }
        if filter != nil { return faults }
        let range =
            asked.isValid && asked.end.isNumeric
            ? asked : CMTimeRange(start: .zero, duration: asset?.duration ?? .zero)
        var covered = range.start
        var previousEnd: CMTime?
        for item in instructions.sorted(by: { $0.range.start < $1.range.start }) {
            let r = item.range
            let overlaps = previousEnd.map { r.start < $0 } ?? false
            guard r.isValid, r.start.isNumeric, r.end.isNumeric, r.duration > .zero, !overlaps else {
                faults.append(.instruction(item.instruction))
                continue
            }
            previousEnd = r.end
            if r.end <= range.start || r.start >= range.end { continue }
            if r.start > covered { faults.append(.gap(CMTimeRange(start: covered, end: r.start))) }
            covered = max(covered, r.end)
            if let asset {
                for layer in item.layers where asset.track(withTrackID: layer.trackID)?.mediaType != .video {
                    faults.append(.track(item.instruction, layer.instruction, asset))
                }
            }
        }
        if covered < range.end { faults.append(.gap(CMTimeRange(start: covered, end: range.end))) }
        return faults
    }

    /// Throws `AVError.invalidVideoComposition` for what stops a consumer composing `asset`: a size or duration
    /// that is not positive, an instruction whose range is not a range or overlaps another, a layer whose track the
    /// asset lacks. An empty stretch is no fault here: its frames show black (our choice).
    func check(asset: AVAsset, range: CMTimeRange) throws(AVError) {
        for fault in faults(asset: asset, range: range) {
            let reason: String
            switch fault {
            case .gap: continue
            case .value(let key): reason = "the video composition's \(key) is not positive"
            case .instruction(let instruction):
                reason =
                    "the instruction over \(instruction.timeRange.start.seconds) s for "
                    + "\(instruction.timeRange.duration.seconds) s is empty or overlaps another"
            case .track(_, let layer, _):
                reason = "a layer instruction draws track \(layer.trackID), which the asset lacks"
            }
            throw AVError(.invalidVideoComposition, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
        }
    }

    /// The instruction whose range holds `seconds`.
    func instruction(at seconds: Double) -> Instruction? {
        instructions.first { $0.range.start.seconds <= seconds + 1e-9 && seconds < $0.range.end.seconds - 1e-9 }
    }
}
