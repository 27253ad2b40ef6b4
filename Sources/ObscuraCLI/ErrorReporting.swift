import ArgumentParser

import Foundation

/// The one place where any error becomes the message and exit code a user sees.
///
/// Exit codes: 0 success, 1 a failed check (lint problems, failed expectations), 2 bad input
/// (arguments, files), 3 an output that could not be written.
enum ErrorReporting {
    static func exit(with error: Error, command: ParsableCommand.Type) -> Never {
        switch error {
        case let failure as CommandFailure:
            writeError(failure.message)
            Foundation.exit(failure.code)
        default:
            // ArgumentParser's own errors (help, version, validation) keep its wording and codes;
            // a validation message is one line.
            command.exit(withError: error)
        }
    }

    static func writeError(_ message: String) {
        var line = message
        if !line.hasPrefix("error:") && !line.hasPrefix("obscura:") { line = "obscura: " + line }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// A failure that a command reports with a message and an exit code.
struct CommandFailure: Error {
    var message: String
    var code: Int32

    /// Bad input: an argument or file the user must fix (exit 2).
    static func badInput(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 2) }
    /// A check that ran and found problems (exit 1).
    static func checkFailed(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 1) }
    /// An output that could not be written (exit 3).
    static func outputFailed(_ message: String) -> CommandFailure { CommandFailure(message: message, code: 3) }
}
