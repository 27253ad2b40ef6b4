import Devices

/// A parsed scenario file: the world it runs in, then the API steps a client makes, each with
/// its expectations and the outputs to save.
public struct Scenario: Sendable {
    /// How time passes while the scenario runs (DESIGN.md, Time).
    public enum Clock: String, Sendable, CaseIterable {
        /// Deterministic, as fast as possible; the default.
        case virtual
        /// Paced to the wall clock.
        case realtime
    }

    /// The file's path as given.
    public let file: String
    /// The file name without `.scenario.yaml`; names the default output directory.
    public let name: String
    /// A line saying what the scenario shows.
    public let description: String?
    /// Device catalogue id or profile path.
    public let device: String
    /// Scene name or path.
    public let scene: String
    /// The noise seed the scenario asks for.
    public let seed: UInt64
    /// The clock mode.
    public let clock: Clock
    /// The steps, in file order.
    public let steps: [StepEntry]
}

/// One step of a scenario, where it sits in the file, what it checks and what it saves.
public struct StepEntry: Sendable {
    /// 1-based position in the `steps` list.
    public let index: Int
    /// The step's key (`capture`, `commit`, …).
    public let key: String
    /// Where the step starts in the file.
    public let location: SourceLocation
    /// The parsed step.
    public let step: any ScenarioStep
    /// Expectations checked after the step ran.
    public let expectations: [any Expectation]
    /// Outputs to save after the step ran.
    public let saves: [SaveRequest]
}
