import ArgumentParser
import Foundation
import ObscuraSupport

/// The `obscura` command line: the root command and its subcommands.
public struct ObscuraCommand: ParsableCommand {
    /// The tool's version, printed by `obscura --version`.
    public static let version = "0.3.0"

    public static let configuration = CommandConfiguration(
        commandName: "obscura",
        abstract: "Apple's AVFoundation camera capture on Linux, with physics behind the pixels.",
        version: version,
        subcommands: [
            RunCommand.self, ExplainCommand.self, ColorCommand.self, DevicesCommand.self, RenderCommand.self, ImageCommand.self,
            ValidateCommand.self, ReportCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line with the process arguments, exiting with the code `ExitCodes` assigns.
    public static func main() {
        main(Array(CommandLine.arguments.dropFirst()))
    }

    /// Runs the command line with the given arguments (without the program name).
    public static func main(_ arguments: [String]) {
        if let word = arguments.first, let message = unknownCommandMessage(word) {
            ErrorReporting.writeError(message)
            FileHandle.standardError.write(Data("See 'obscura --help'.\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            ErrorReporting.exit(with: error, command: self)
        }
    }

    /// The subcommand names a user may type first.
    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// The message for a first word that is no subcommand, as git and swift print it: the nearest
    /// name when it is a plausible typo, followed by where the list of commands is. Options pass through.
    static func unknownCommandMessage(_ word: String) -> String? {
        guard !word.hasPrefix("-"), !commandNames.contains(word) else { return nil }
        var message = "unknown command \(TextExcerpt.quoted(word))."
        if let guess = EditDistance.suggestion(for: word, among: commandNames) {
            message += " Did you mean '\(guess)'?"
        }
        return message
    }
}
