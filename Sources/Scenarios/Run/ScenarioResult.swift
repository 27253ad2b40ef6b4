import Obscura
import Foundation

/// Everything a run produced, as `report.json` holds it.
public struct ScenarioResult: Sendable, Codable {
    /// A delivered photo, summarised.
    public struct PhotoSummary: Sendable, Codable {
        public let photoCount: Int
        public let timestampSeconds: Double
        public let isConstantColorFallbackPhoto: Bool
        public let constantColorConfidenceLevel: Float
        public let isFlashEnabled: Bool
        public let dimensions: String
        /// Saved file, relative to the output directory.
        public let file: String?
        /// Mean 8-bit value over all pixels and channels of the photo's file, for the flash story.
        public let meanSignal: Double?

        // report.json's keys are snake_case, as every JSON output of the tool is.
        enum CodingKeys: String, CodingKey {
            case photoCount = "photo_count", timestampSeconds = "timestamp_seconds"
            case isConstantColorFallbackPhoto = "is_constant_color_fallback_photo"
            case constantColorConfidenceLevel = "constant_color_confidence_level"
            case isFlashEnabled = "is_flash_enabled", dimensions, file, meanSignal = "mean_signal"
        }
    }

    /// One step's record.
    public struct StepResult: Sendable, Codable {
        public let index: Int
        public let key: String
        public let location: String
        public let apiCalls: [String]
        public let specSections: [String]
        public let exception: StepOutcome.RaisedException?
        public let failure: String?
        public let callbacks: [Callback]
        public let photos: [PhotoSummary]
        public let notifications: [String]
        public let before: [String: String]
        public let after: [String: String]
        public let expectations: [ExpectationResult]
        /// Virtual time at the end of the step, in seconds.
        public let clockSeconds: Double
        /// Stream deliveries (video, depth, audio, metadata, synchronizer) during the step.
        let deliveries: [StreamRecord.Delivery]
        /// Every rule the API evaluated during the step, from `Emulator.shared.trace`.
        public let rules: [Rule]
        /// Explanations the step added (the depth rate computation, scene changes).
        public let notes: [String]
        /// Depth maps, visualisations and confidence maps saved, relative to the output directory.
        public let savedFiles: [SavedFile]
        /// Wall-clock seconds the step took (JUnit's per-test time). Not part of report.json, which
        /// stays byte-for-byte the same from run to run.
        public var wallSeconds: Double? = nil

        enum CodingKeys: String, CodingKey {
            case index, key, location, apiCalls = "api_calls", specSections = "spec_sections", exception, failure
            case callbacks, photos, notifications, before, after, expectations, clockSeconds = "clock_seconds"
            case deliveries, rules, notes, savedFiles = "saved_files"
        }

        /// The kind of each stream delivery of the step (`video`, `depth`, …), in order.
        public var deliveryKinds: [String] { deliveries.map(\.kind) }

        /// Whether every expectation of the step held and nothing unexpected happened.
        public var passed: Bool { expectations.allSatisfy(\.passed) }
    }

    /// One rule of `Emulator.shared.trace`.
    public struct Rule: Sendable, Codable {
        public let section: String
        public let rule: Int?
        /// `passed`, `raised` or `decided`.
        public let outcome: String
        public let sentence: String
    }

    /// A saved auxiliary file; `image` is true for files the report shows (8-bit PNG; a 16-bit depth
    /// map, which a browser shows nearly black, is linked instead).
    public struct SavedFile: Sendable, Codable {
        public let kind: String
        public let file: String
        public let image: Bool
        /// The nearest and farthest depth in metres, for a colourised depth map's legend.
        public var depthRangeMetres: [Double]? = nil

        enum CodingKeys: String, CodingKey {
            case kind, file, image, depthRangeMetres = "depth_range_metres"
        }
    }

    /// A delegate callback on the timeline.
    public struct Callback: Sendable, Codable {
        public let name: String
        public let photoCount: Int?
        public let seconds: Double?

        enum CodingKeys: String, CodingKey { case name, photoCount = "photo_count", seconds }
    }

    /// A fault the scenario scheduled (`faults:`, spec §21): when, what, and where the file says so.
    public struct ScheduledFault: Sendable, Codable {
        /// `at frame 10`, `at 0.5 s`.
        public let at: String
        /// `runtime error mediaServicesWereReset (-11819)`.
        public let fault: String
        /// `file:line:column` of the entry.
        public let location: String
    }

    public let name: String
    public let file: String
    public let description: String?
    public let device: String
    public let scene: String
    public let seed: UInt64
    public let clock: String
    public private(set) var steps: [StepResult]
    /// The faults the scenario scheduled; absent from report.json when it scheduled none.
    public var faults: [ScheduledFault]? = nil
    /// Wall-clock seconds the whole run took; like the steps' times, not part of report.json.
    public var wallSeconds: Double? = nil
    /// The scenario file as the user named it (relative to the working directory, or absolute as
    /// given), for the locations of JUnit reports and terminal messages, which a CI annotation or an
    /// editor opens from the working directory. report.json keeps paths relative to the scenario's
    /// folder instead (`ReportPrivacy`); like the times, this is kept in the run record (`RunRecord`).
    public var givenFile: String? = nil

    enum CodingKeys: String, CodingKey {
        case name, file, description, device, scene, seed, clock, steps, faults
    }

    /// Copies the steps' wall-clock times from `timed` (the same steps before a JSON round trip).
    mutating func restoreTimes(from timed: [StepResult]) {
        restoreTimes(timed.map(\.wallSeconds))
    }

    /// Sets the steps' wall-clock times, in order.
    mutating func restoreTimes(_ times: [Double?]) {
        for i in steps.indices where i < times.count { steps[i].wallSeconds = times[i] }
    }

    /// `location` (`file:line:column` as report.json holds it) with the scenario's file named as the
    /// user gave it; other files' locations, and everything without a given file, unchanged.
    public func locatedAsGiven(_ location: String) -> String {
        guard let givenFile, givenFile != file, location.hasPrefix(file + ":") else { return location }
        return givenFile + location.dropFirst(file.count)
    }

    /// Every expectation verdict, in order.
    public var expectations: [ExpectationResult] { steps.flatMap(\.expectations) }
    /// Whether the scenario passed.
    public var passed: Bool { steps.allSatisfy(\.passed) }
    /// Failed expectations.
    public var failures: [ExpectationResult] { expectations.filter { !$0.passed } }
}
