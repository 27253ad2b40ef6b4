import Foundation
import ObscuraAV

/// Why depth runs at the rate it does (spec §2.5): depth comes with every n-th video frame,
/// n = ceil(video fps / depth cap), so its rate is video fps / n, an integer fraction of the
/// video rate that does not exceed the depth format's cap.
enum DepthRate {
    /// The depth rate for a video rate and a depth cap, in frames per second.
    static func rate(videoFPS: Double, capFPS: Double) -> Double {
        guard capFPS > 0, videoFPS > 0 else { return 0 }
        // A small tolerance keeps 30 / 30 from becoming 2 through rounding of the durations.
        return videoFPS / (videoFPS / capFPS - 1e-9).rounded(.up)
    }

    /// The narration of the rate for a device's current settings; empty without depth.
    static func explanation(_ device: AVCaptureDevice, _ context: RunContext) -> [String] {
        guard device.activeDepthDataFormat != nil,
            context.outputs.values.contains(where: { $0 is AVCaptureDepthDataOutput })
        else { return [] }
        let video = 1 / device.activeVideoMinFrameDuration.seconds
        let capDuration = device.activeDepthDataMinFrameDuration
        guard capDuration.isNumeric, capDuration.seconds > 0 else {
            return ["Depth is stopped: activeDepthDataMinFrameDuration is not finite (spec §2.5)."]
        }
        let cap = 1 / capDuration.seconds
        let n = (video / cap - 1e-9).rounded(.up)
        let depth = video / n
        return [String(
            format: "Depth runs at %@ fps: video at %@ fps, depth capped at %@ fps by activeDepthDataMinFrameDuration; "
                + "depth comes with one video frame in n = ceil(%@ / %@) = %@, so %@ / %@ = %@ fps (spec §2.5).",
            fmt(depth), fmt(video), fmt(cap), fmt(video), fmt(cap), fmt(n), fmt(video), fmt(n), fmt(depth))]
    }

    static func fmt(_ x: Double) -> String {
        // Int(x) traps beyond Int's range and on infinities; such figures print as they are.
        x.isFinite && abs(x) < 1e15 && x == x.rounded() ? String(Int(x)) : String(format: "%.3f", x)
    }
}
