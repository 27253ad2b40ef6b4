import Foundation
import ObscuraSupport

/// Cross-checks a loaded profile for impossible combinations, in the spirit of Android's CTS
/// camera-metadata checks. Each problem points at the value it questions.
///
/// The loader already guarantees types, ranges and references; lint checks that the values agree
/// with each other and with Apple's documented rules (spec sections cited per check).
public enum DeviceProfileLint {
    /// Loads a file and lints it: load errors if it does not load, lint problems otherwise.
    public static func problems(inFile path: String) -> [LocatedError] {
        do {
            return problems(in: try DeviceProfileLoader.load(path: path))
        } catch let list as LocatedErrors {
            return list.errors
        } catch let error as LocatedError {
            return [error]
        } catch {
            return [LocatedError(SourceLocation(file: path, line: 1, column: 1), "\(error)")]
        }
    }

    /// Every problem found in a loaded profile, in file order.
    public static func problems(in profile: DeviceProfile) -> [LocatedError] {
        let lint = Context(profile: profile)
        if let expected = URL(fileURLWithPath: profile.sourceFile).deletingPathExtension().lastPathComponent
            as String?, !profile.sourceFile.isEmpty, expected != profile.id
        {
            lint.report("id", "id '\(profile.id)' differs from the file name '\(expected).yaml'")
        }
        for (index, camera) in profile.cameras.enumerated() {
            lint.checkCamera(camera, index: index)
        }
        lint.checkFlash()
        return LocatedErrors(lint.problems).errors
    }

    /// Lint state: the profile and the problems so far.
    final class Context {
        let profile: DeviceProfile
        var problems: [LocatedError] = []

        init(profile: DeviceProfile) { self.profile = profile }

        func report(_ rawPath: String, _ message: String, label: String = "") {
            let prefix = label.isEmpty ? rawPath : label
            problems.append(LocatedError(profile.location(of: rawPath), "\(prefix): \(message)"))
        }
    }
}
