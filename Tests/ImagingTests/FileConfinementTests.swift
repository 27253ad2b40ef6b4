import Foundation
import Imaging
import Testing

/// Confinement compares real paths: `..` and links are resolved before the check.
@Suite struct FileConfinementTests {
    @Test func dotDotAndLinksAreResolved() throws {
        let inside = try TemporaryDirectory()
        defer { inside.cleanUp() }
        let outside = try TemporaryDirectory()
        defer { outside.cleanUp() }
        let confinement = FileConfinement(allowing: [inside.path])
        #expect(confinement.contains(inside.path + "/a/b.yaml"))
        #expect(!confinement.contains(inside.path + "/../x.yaml"))
        #expect(!confinement.contains(inside.path + "/missing/../../x.yaml"))
        #expect(!confinement.contains(outside.path + "/x.yaml"))
        try FileManager.default.createSymbolicLink(atPath: inside.path + "/link", withDestinationPath: outside.path)
        #expect(!confinement.contains(inside.path + "/link/x.yaml"))
        // A folder whose name starts like the root's is not inside it.
        #expect(!confinement.contains(inside.path + "-sibling/x.yaml"))
    }

    @Test func folderOfAPath() {
        #expect(FileConfinement.folder(of: "t.scenario.yaml") == ".")
        #expect(FileConfinement.folder(of: "-") == ".")
        #expect(FileConfinement.folder(of: "/x") == "/")
        #expect(FileConfinement.folder(of: "a/b/c.yaml") == "a/b")
        #expect(FileConfinement.folder(of: "a/b/") == "a")
    }
}
