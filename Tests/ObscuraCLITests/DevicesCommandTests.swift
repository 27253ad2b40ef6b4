import Foundation
import Testing

/// `obscura devices …`, run as a user runs it: output and exit codes.
@Suite struct DevicesCommandTests {
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try CLIRunner.run(arguments)
        return (result.status, result.stdout, result.stderr)
    }

    @Test func listsTheCatalogue() throws {
        let r = try run(["devices"])
        #expect(r.status == 0)
        #expect(r.out.contains("iphone-15-pro (default)  iPhone 15 Pro"))
        #expect(r.out.contains("ipad-10th-gen  iPad (10th generation)"))
        #expect(r.out.contains("no flash, no depth, no Constant Color"))
    }

    @Test func showPrintsSortedJSON() throws {
        let r = try run(["devices", "show", "iphone-7-plus", "--json"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(json?["id"] as? String == "iphone-7-plus")
        #expect(r.out.contains("\"320x240 hdis,fdis,hdep,fdep ≤24 fps\""))
        // Sorted keys: "cameras" precedes "family", which precedes "id".
        let c = try #require(r.out.range(of: "\"cameras\""))
        let i = try #require(r.out.range(of: "\"id\" : \"iphone-7-plus\""))
        #expect(c.lowerBound < i.lowerBound)
    }

    @Test func showUnknownDeviceIsBadInput() throws {
        let r = try run(["devices", "show", "iphone-7-pluss"])
        #expect(r.status == 2)
        #expect(r.err.contains("did you mean 'iphone-7-plus'?"))
    }

    @Test func lintCatalogueIsClean() throws {
        let r = try run(["devices", "lint"])
        #expect(r.status == 0)
        #expect(r.out.contains("no problems"))
    }

    @Test func lintReportsLocatedProblemsAndExitsOne() throws {
        let file = "Tests/DevicesTests/Broken/lint-baseline.yaml"
        let r = try run(["devices", "lint", file])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("\(file):68:20: cameras[2] (back-dual).depth.baseline_mm: "))
    }

    @Test func listJSONNamesEveryDeviceOnce() throws {
        let r = try run(["devices", "--json"])
        #expect(r.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
        let ids = entries.compactMap { $0["id"] as? String }
        #expect(Set(ids) == ["iphone-7-plus", "iphone-x", "iphone-14", "iphone-15-pro", "ipad-pro-m4", "ipad-10th-gen"])
        #expect(ids.count == 6)
        #expect(entries.filter { ($0["is_default"] as? Bool) == true }.count == 1)
    }

    @Test func lintJSONGivesLocationsAndExitsOne() throws {
        let file = "Tests/DevicesTests/Broken/wrong-type.yaml"
        let r = try run(["devices", "lint", "--json", file])
        #expect(r.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["line"] as? Int == 11)
        #expect(problems.first?["column"] as? Int == 17)
    }
}
