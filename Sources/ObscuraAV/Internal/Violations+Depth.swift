import CaptureRules
import Foundation

// Named violations of the depth and streaming API (STYLE.md: contract violations go through
// named helpers; kept beside Violations.swift so the depth work stays in its own files).
extension Violation {
    // spec §9 [D], §13 N14: converting to a type that is not one of the four depth formats.
    static func unsupportedDepthDataType(_ type: OSType) -> Violation {
        .invalidArgument(
            "-[AVDepthData depthDataByConvertingToDepthDataType:]",
            "'\(fourCharString(type))' is not a supported depth data type. Use -availableDepthDataTypes",
            CaptureRule("§9", .documented, "converting(toDepthDataType:) takes one of availableDepthDataTypes"))
    }

    // spec §2.5 [D]: activeDepthDataFormat must come from activeFormat.supportedDepthDataFormats.
    static func unsupportedDepthDataFormat() -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice setActiveDepthDataFormat:]",
            "Unsupported format. Use -activeFormat.supportedDepthDataFormats to discover valid formats",
            CaptureRule("§2.5", .documented, "activeDepthDataFormat must be one of activeFormat.supportedDepthDataFormats"))
    }

    // spec §2.5 [D]: the depth minimum frame duration must lie in the depth format's range.
    static func unsupportedDepthFrameDuration(_ duration: CMTime) -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice setActiveDepthDataMinFrameDuration:]",
            "the passed activeDepthDataMinFrameDuration \(duration.value):\(duration.timescale) is not supported by "
                + "the device. Use -activeDepthDataFormat.videoSupportedFrameRateRanges to discover valid ranges.",
            CaptureRule("§2.5", .documented, "activeDepthDataMinFrameDuration must lie in the depth format's range"))
    }

    // spec §8 [O], §13 N13: the synchronizer's initializer validates its outputs.
    static func synchronizer(_ message: String) -> Violation {
        .invalidArgument(
            "-[AVCaptureDataOutputSynchronizer initWithDataOutputs:]", message,
            CaptureRule("§8", .observed, "synchronized outputs must be supported, in one session and connected"))
    }

    // spec §8 [D][O]: a delegate needs a queue.
    static func delegateWithoutQueue(_ method: String) -> Violation {
        .invalidArgument(
            method, "queue may not be NULL unless delegate is also nil",
            CaptureRule("§8", .documented, "a non-nil delegate needs a callback queue"))
    }
}
