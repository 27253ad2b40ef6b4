import Dispatch

/// Wall-clock time of each stage of a capture (for the benchmark's breakdown).
struct StageClock {
    private var last = DispatchTime.now().uptimeNanoseconds
    private(set) var laps: [ConstantColorResult.Stage] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        laps.append(ConstantColorResult.Stage(name: name, seconds: Double(now - last) / 1e9))
        last = now
    }
}
