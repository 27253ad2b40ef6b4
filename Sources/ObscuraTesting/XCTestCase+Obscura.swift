#if canImport(XCTest)
import Obscura
import XCTest

extension XCTestCase {
    /// Runs `body` in an emulated world of its own (see `Emulator.withWorld`), for XCTest suites:
    /// `try withObscura(device: "iphone-7-plus", scene: "hand-on-desk") { … }`.
    public func withObscura<R>(
        device: String = "iphone-15-pro", scene: String? = nil, seed: UInt64? = nil, clock: Emulator.ClockMode? = nil,
        _ body: () throws -> R
    ) throws -> R {
        try Emulator.shared.withWorld(device: device, scene: scene, seed: seed, clock: clock, body)
    }

    /// The asynchronous form of `withObscura`.
    public func withObscura<R>(
        device: String = "iphone-15-pro", scene: String? = nil, seed: UInt64? = nil, clock: Emulator.ClockMode? = nil,
        _ body: () async throws -> R
    ) async throws -> R {
        try await Emulator.shared.withWorld(device: device, scene: scene, seed: seed, clock: clock, body)
    }
}
#endif
