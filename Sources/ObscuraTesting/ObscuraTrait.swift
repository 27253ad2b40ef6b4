import Obscura
import Testing

/// A Swift Testing trait that runs a test (or every test of a suite) in an emulated world of its
/// own: `@Test(.obscura(device: "iphone-15-pro", scene: "violets-warm-room"))`. Tests running in
/// parallel never see each other's device, scene, seed or clock.
public struct ObscuraTrait: TestTrait, SuiteTrait, TestScoping {
    /// The device profile id or path.
    public let device: String
    /// The scene name or path; the default scene when nil.
    public let scene: String?
    /// The sensor-noise seed; 0 when nil.
    public let seed: UInt64?
    /// The clock mode; free-running virtual time when nil.
    public let clock: Emulator.ClockMode?

    /// Each test of a suite gets a fresh world.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's trait scopes each of its tests, not the suite as a whole.
        guard testCase != nil || !test.isSuite else {
            try await function()
            return
        }
        try await Emulator.shared.withWorld(device: device, scene: scene, seed: seed, clock: clock) {
            try await function()
        }
    }
}

extension Trait where Self == ObscuraTrait {
    /// Runs the test in its own emulated world: a fresh instance of `device` (a catalogue id such as
    /// `iphone-15-pro`, or a path to a profile), looking at `scene`, with the noise `seed` and the
    /// `clock` given.
    public static func obscura(
        device: String = "iphone-15-pro", scene: String? = nil, seed: UInt64? = nil, clock: Emulator.ClockMode? = nil
    ) -> Self {
        ObscuraTrait(device: device, scene: scene, seed: seed, clock: clock)
    }
}
