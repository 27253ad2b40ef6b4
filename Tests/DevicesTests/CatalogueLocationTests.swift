import Devices
import Foundation
import ObscuraSupport
import Testing

/// Where the catalogue is found: an explicit path, else `OBSCURA_PROFILES`, else the walk up from the current
/// directory; a path given but not a folder is an answer of nothing, not a reason to look elsewhere.
struct CatalogueLocationTests {
    @Test func explicitPathThenEnvironmentThenTheWalk() {
        let profiles = TestPaths.profiles
        let file = profiles + "/README.md"
        let inside = TestPaths.repositoryRoot.appendingPathComponent("Sources/Devices").path
        #expect(DeviceCatalog.locate(explicit: profiles, environment: [:], executable: nil) == profiles)
        #expect(DeviceCatalog.locate(explicit: file, environment: [:], currentDirectory: inside, executable: nil) == nil)
        #expect(DeviceCatalog.locate(environment: ["OBSCURA_PROFILES": profiles], executable: nil) == profiles)
        #expect(
            DeviceCatalog.locate(
                environment: ["OBSCURA_PROFILES": file], currentDirectory: inside, executable: nil) == nil)
        // An empty variable is not set: the walk from inside the repository reaches its profiles.
        let walked = DeviceCatalog.locate(
            environment: ["OBSCURA_PROFILES": ""], currentDirectory: inside, executable: nil)
        #expect(
            walked.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                == URL(fileURLWithPath: profiles).standardizedFileURL.path)
    }

    /// A path that is not a folder is named in the error, as the user gave it; only when nothing was given does the
    /// error say the walk found no catalogue.
    @Test func theErrorNamesThePathThatIsNotAFolder() {
        let file = TestPaths.profiles + "/README.md"
        do {
            _ = try DeviceCatalog(directory: file)
            Issue.record("a file was taken for the catalogue")
        } catch let error as LocatedError {
            #expect(error.location.file == file && error.message.contains("not a folder"), "\(error)")
        } catch { Issue.record("unexpected \(error)") }
        let variable = ProjectFolder.notFound(
            named: "DeviceProfiles", explicit: nil, variable: "OBSCURA_PROFILES",
            environment: ["OBSCURA_PROFILES": file])
        #expect(variable.location.file == file && variable.message == "OBSCURA_PROFILES=\(file) is not a folder")
        let none = ProjectFolder.notFound(
            named: "DeviceProfiles", explicit: nil, variable: "OBSCURA_PROFILES", environment: [:])
        #expect(none.message.contains("cannot find the DeviceProfiles directory"))
    }
}
