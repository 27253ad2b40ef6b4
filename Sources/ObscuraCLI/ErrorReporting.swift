import ArgumentParser
import Foundation
import ObscuraSupport

/// The one place where any error becomes the message and exit code a user sees.
///
/// Exit codes: 0 success, 1 a check that ran and found problems (lint, failed expectations),
/// 2 bad input (a file or value the user must fix), 3 an output that could not be written,
/// 64 a command line that does not parse (ArgumentParser's usage code).
enum ErrorReporting {
    static func exit(with error: Error, command: ParsableCommand.Type) -> Never {
        if let failure = error as? CommandFailure {
            writeError(failure.message)
            Foundation.exit(failure.code)
        }
        let code = command.exitCode(for: error)
        if code == .success {
            // --help and friends: ArgumentParser prints them and exits 0.
            command.exit(withError: error)
        }
        // A bad argument: the problem as an error line, then ArgumentParser's usage line and its pointer
        // to `--help`, as swift-argument-parser prints them by default.
        let lines = command.fullMessage(for: error).split(separator: "\n").map(String.init)
        let problem = lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "\(error)"
        writeError(problem)
        let rest = lines.drop { $0 != problem }.dropFirst()
        if !rest.isEmpty {
            FileHandle.standardError.write(Data((rest.joined(separator: "\n") + "\n").utf8))
        }
        Foundation.exit(code.rawValue)
    }

    /// Writes each line of `message` as `error: …`. A message with several lines holds several
    /// problems (a file with many mistakes), one a line.
    static func writeError(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true).map { line -> String in
            var text = String(line)
            if text.hasPrefix("obscura: ") { text.removeFirst("obscura: ".count) }
            // ArgumentParser's own messages start `Error: `.
            if text.lowercased().hasPrefix("error: ") { text.removeFirst("error: ".count) }
            // Escaped, so text from an input file cannot drive the terminal or forge another line.
            return Terminal.paint("error:", .red, for: STDERR_FILENO) + " " + TextExcerpt.make(text, limit: 4000)
        }
        let text = (lines.isEmpty ? ["error: unknown failure"] : lines).joined(separator: "\n")
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A failure that a command reports with a message and an exit code.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var code: Int32

    var description: String { message }

    /// Bad input: an argument or file the user must fix (exit 2).
    static func badInput(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 2) }
    /// A check that ran and found problems (exit 1).
    static func checkFailed(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 1) }
    /// An output that could not be written (exit 3).
    static func outputFailed(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 3) }
}
