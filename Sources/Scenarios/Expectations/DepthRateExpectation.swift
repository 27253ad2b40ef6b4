import Foundation
import ObscuraAV
import ObscuraSupport

/// `depth_rate: {video_fps: 30, depth_fps: 15}`: the device's video rate and the depth rate it
/// implies (spec §2.5: video fps / ceil(video fps / depth cap)); when the step streamed depth,
/// the delivered depth rate must agree too.
struct DepthRateExpectation: Expectation {
    static let keys = ["depth_rate"]
    let videoFPS: Double?
    let depthFPS: Double
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("depth_rate")
        let map = try node.mapping(allowedKeys: ["video_fps", "depth_fps"])
        videoFPS = try map.optional("video_fps")?.positiveDouble()
        depthFPS = try map.required("depth_fps").positiveDouble()
        location = node.location
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        var expected = "depth at \(DepthRate.fmt(depthFPS)) fps"
        if let videoFPS { expected = "video at \(DepthRate.fmt(videoFPS)) fps, " + expected }
        guard let device = context.device, device.activeDepthDataFormat != nil else {
            return ExpectationResult(
                key: "depth_rate", passed: false, expected: expected, actual: "the device has no depth format",
                location: location)
        }
        let video = 1 / device.activeVideoMinFrameDuration.seconds
        let cap = device.activeDepthDataMinFrameDuration
        let computed = cap.isNumeric && cap.seconds > 0 ? DepthRate.rate(videoFPS: video, capFPS: 1 / cap.seconds) : 0
        var actual = "video at \(DepthRate.fmt(video)) fps, cap \(cap.isNumeric ? DepthRate.fmt(1 / cap.seconds) : "none") fps, "
            + "so depth at \(DepthRate.fmt(computed)) fps"
        var passed = abs(computed - depthFPS) <= 1e-6 * depthFPS && (videoFPS.map { abs($0 - video) < 1e-6 * $0 } ?? true)
        let depth = outcome.deliveries.filter { $0.kind == "depth" && !$0.dropped }
        if depth.count > 1, let delivered = Double(FramesExpectation.measured("fps", depth)) {
            actual += "; delivered \(DepthRate.fmt(delivered)) fps"
            passed = passed && abs(delivered - depthFPS) <= 0.005 * depthFPS
        }
        return ExpectationResult(key: "depth_rate", passed: passed, expected: expected, actual: actual, location: location)
    }
}
