import Devices
import Foundation
import ObscuraSupport
import Testing

/// Errors about a file that did not parse quote at most a short, escaped excerpt of it.
@Suite struct ErrorExcerptTests {
    @Test func excerptIsShortAndOnOneLine() {
        let text = String(repeating: "secret line\n", count: 50) + "\u{1B}[2J"
        let excerpt = TextExcerpt.make(text)
        #expect(excerpt.count <= TextExcerpt.limit + 1)
        #expect(!excerpt.contains("\n"))
        #expect(excerpt.hasPrefix("secret line\\nsecret line\\n"))
        #expect(excerpt.hasSuffix("…"))
        #expect(TextExcerpt.make("bell\u{07}esc\u{1B}") == "bell\\u{7}esc\\u{1B}")
    }

    @Test func profileThatIsNotYAMLMappingQuotesOnlyAnExcerpt() throws {
        // A password file parses as one long plain scalar; the old message quoted all of it.
        let lines = (0..<40).map { "user\($0):x:\(1000 + $0):\(1000 + $0):User \($0):/home/user\($0):/bin/sh" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-excerpt-\(UUID()).yaml").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try DeviceProfileLoader.load(path: path)
            Issue.record("a password file loaded as a profile")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix(path + ":1:1: "))
            #expect(message.contains("expected a mapping"))
            #expect(!message.contains("user39"))
            #expect(!message.contains("\n"))
            #expect(message.count < path.count + 160)
        }
    }

    /// Lists nested past the parser's limit are named as such, in the author's terms, at the line that goes too deep.
    @Test func nestingTooDeepSaysSoWithoutTheParsersInnards() {
        let text = "steps:\n  - begin: " + String(repeating: "[", count: 1500) + String(repeating: "]", count: 1500) + "\n"
        do {
            _ = try YAMLDocument.parse(text, file: "deep.yaml")
            Issue.record("1500 nested lists parsed")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("deep.yaml:2:"), "\(message)")
            #expect(message.contains("nested more than 1000 deep"), "\(message)")
            #expect(!message.contains("yaml_set_max_nest_level"), "\(message)")
        }
    }

    @Test func unknownKeyIsEscapedAndCut() throws {
        let key = String(repeating: "k", count: 300)
        do {
            let root = try YAMLDocument.parse("\"\(key)\\u001B\": 1\n", file: "f.yaml")
            _ = try root.mapping(allowedKeys: ["id"])
            Issue.record("an unknown key was accepted")
        } catch {
            let message = "\(error)"
            #expect(!message.contains(key))
            #expect(!message.contains("\u{1B}"))
        }
    }
}
