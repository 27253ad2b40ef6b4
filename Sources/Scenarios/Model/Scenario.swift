import ObscuraSupport
import Scenes

/// A parsed scenario file: the world it runs in, then the API steps a client makes, each with
/// its expectations and the outputs to save.
public struct Scenario: Sendable {
    /// How time passes while the scenario runs (the clock modes of the Testing on Linux article).
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
    /// Device catalogue id, or the profile's path resolved against the scenario's folder.
    public let device: String
    /// The device as the file names it (or the default id): what reports show.
    public let deviceReference: String
    /// The scene file's path, resolved.
    public let scene: String
    /// The scene as the file names it (or the default name): what reports show.
    public let sceneReference: String
    /// The scene, loaded and validated with the scenario.
    public let sceneValue: Scene
    /// The noise seed the scenario asks for.
    public let seed: UInt64
    /// The clock mode.
    public let clock: Clock
    /// The faults scheduled on the session's stream (`faults:`), in file order.
    public let faults: [ScenarioFault]
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
