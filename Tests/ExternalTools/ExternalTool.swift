import Foundation
import Testing

/// A program or runtime library that some tests need and the package does not: an independent reader
/// such as exiftool, or a library loaded at run time such as FFmpeg's.
///
/// A test that needs a missing one is skipped with the Debian package that installs it. With
/// `OBSCURA_REQUIRE_TOOLS=1` in the environment, as `.ci/run` sets it, the test fails instead, so that a
/// run cannot pass by skipping. This small target is shared by the test targets; each lists its own tools
/// in its `ExternalTool+Catalogue.swift`.
public struct ExternalTool: Sendable {
    /// What a person would look for: `exiftool`, `FFmpeg's libraries`.
    public let name: String
    /// The Debian packages that install it, for `apt-get install`.
    public let packages: String
    /// Where the program is, or the library's name; nil when it is missing.
    public let location: String?

    public var isPresent: Bool { location != nil }

    /// Whether a missing tool fails a test rather than skipping it.
    public static let mustBePresent = ProcessInfo.processInfo.environment["OBSCURA_REQUIRE_TOOLS"] == "1"

    /// The skip's reason, naming the packages.
    public var absence: String { "missing \(name): apt-get install \(packages)" }

    /// Something present exactly when `present` holds, such as a codec the API offers.
    public init(_ name: String, packages: String, present: Bool) {
        self.name = name
        self.packages = packages
        location = present ? name : nil
    }

    private init(_ name: String, packages: String, location: String?) {
        self.name = name
        self.packages = packages
        self.location = location
    }

    /// A program found as a shell finds it (`PATH`, then the usual folders), under `name` or one of the
    /// `alternatives`, that exits 0 when asked its version. A file that is there but cannot run (a broken
    /// installation, `/dev/null` bound over it, which `isExecutableFile` may still accept) counts as missing.
    public static func program(
        _ name: String, alternatives: [String] = [], packages: String, versionArgument: String
    ) -> ExternalTool {
        let folders =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/local/bin", "/bin"]
        let candidates = ([name] + alternatives).flatMap { program in folders.map { "\($0)/\(program)" } }
        let found = candidates.first(where: isRegularExecutable)
        let runs = found.map { answers($0, versionArgument) } ?? false
        return ExternalTool(name, packages: packages, location: runs ? found : nil)
    }

    /// OpenCV's frontal-face cascade, which Vision's face request and the metadata output's faces detect with. A
    /// file bound over with `/dev/null` is empty, so it counts as missing. The absence suites cover the other case.
    public static let faceCascade = ExternalTool(
        "OpenCV's face cascade", packages: "opencv-data",
        present: ((try? FileManager.default.attributesOfItem(atPath: faceCascadePath)[.size] as? Int) ?? 0) > 0)
    /// Where Debian's `opencv-data` installs the cascade.
    public static let faceCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"

    /// dlib's 68-point shape predictor, which Vision's face landmarks request places its points with.
    public static let landmarkModel = ExternalTool(
        "dlib's face landmark model", packages: "libdlib-data",
        present: ((try? FileManager.default.attributesOfItem(atPath: landmarkModelPath)[.size] as? Int) ?? 0) > 0)
    /// Where Debian's `libdlib-data` installs the model.
    public static let landmarkModelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

    /// Shared libraries that all load.
    public static func libraries(_ name: String, packages: String, _ sonames: [String]) -> ExternalTool {
        let loaded = sonames.allSatisfy { soname in
            guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return false }
            dlclose(handle)
            return true
        }
        return ExternalTool(name, packages: packages, location: loaded ? sonames.first : nil)
    }

    /// A non-empty regular file (after links) that may be executed.
    private static func isRegularExecutable(_ path: String) -> Bool {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else { return false }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        return attributes[.type] as? FileAttributeType == .typeRegular && size > 0
            && FileManager.default.isExecutableFile(atPath: resolved)
    }

    /// Whether `path argument` exits 0 within a minute.
    private static func answers(_ path: String, _ argument: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [argument]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch { return false }
        guard finished.wait(timeout: .now() + 60) == .success else {
            process.terminate()
            return false
        }
        return process.terminationStatus == 0
    }

    /// The program's path, or the library's name. A missing tool ends the test here: skipped (cancelled,
    /// with the reason), or failed under `OBSCURA_REQUIRE_TOOLS=1`. For a check partway through a test, after
    /// the checks that need no tool; a test that needs the tool throughout takes the `.needs` trait instead.
    @discardableResult
    public func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        if let location { return location }
        if Self.mustBePresent { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
        try Test.cancel(Comment(rawValue: absence), sourceLocation: sourceLocation)
    }

    fileprivate var failure: String { absence + " (OBSCURA_REQUIRE_TOOLS=1: a missing tool fails)" }
}

/// Skips a test or suite whose tools are missing, naming their packages, or under
/// `OBSCURA_REQUIRE_TOOLS=1` fails each of its tests without running it.
public struct ExternalToolTrait: TestTrait, SuiteTrait, TestScoping {
    let tools: [ExternalTool]

    public var isRecursive: Bool { true }

    private var missing: [ExternalTool] { tools.filter { !$0.isPresent } }

    public func prepare(for test: Test) async throws {
        let missing = self.missing
        guard !missing.isEmpty, !ExternalTool.mustBePresent else { return }
        // A condition that does not hold is how Swift Testing skips a test with a reason.
        let reason = missing.map(\.absence).joined(separator: "; ")
        try await ConditionTrait.enabled(if: false, Comment(rawValue: reason)).prepare(for: test)
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let missing = self.missing
        guard missing.isEmpty else {
            for tool in missing { Issue.record(Comment(rawValue: tool.failure), sourceLocation: test.sourceLocation) }
            return
        }
        try await function()
    }
}

extension Trait where Self == ExternalToolTrait {
    /// The test or suite needs these programs or libraries; see `ExternalTool`.
    public static func needs(_ tools: ExternalTool...) -> Self { ExternalToolTrait(tools: tools) }
}
