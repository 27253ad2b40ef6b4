import Dispatch
import Foundation

/// Wall-clock and process CPU time of each stage of a capture (for the benchmark's breakdown). CPU time over wall
/// time says how many cores a stage kept busy.
struct StageClock {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = StageClock.processCPUSeconds()
    private(set) var laps: [ConstantColorResult.Stage] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.processCPUSeconds()
        laps.append(ConstantColorResult.Stage(name: name, seconds: Double(now - last) / 1e9, cpuSeconds: cpu - lastCPU))
        (last, lastCPU) = (now, cpu)
    }

    /// CPU time this process has used on all its threads, seconds.
    static func processCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
