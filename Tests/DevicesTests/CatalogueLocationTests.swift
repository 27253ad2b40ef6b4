import Devices
import Foundation
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
}
