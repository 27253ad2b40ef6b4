import ArgumentParser
import Foundation
import Obscura
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
        Terminal.lineBufferStandardOutput()
        // Scenario files and options choose the device, scene and seed; OBSCURA_DEVICE and its kin, set for
        // tests in the same shell, choose nothing here.
        Emulator.shared.leaveEnvironmentUnread()
        if let (message, path) = unknownCommandMessage(arguments) {
            ErrorReporting.writeError(message)
            FileHandle.standardError.write(Data("See '\(path) --help'.\n".utf8))
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
        unknownCommandMessage([word])?.message
    }

    /// The message for a mistyped subcommand at any level (`obscura devices shwo`, `obscura image scna`),
    /// with the command it was typed under, whose `--help` lists the right names. The words are followed
    /// down the command tree until an option, a command without subcommands, or a word that is no
    /// subcommand; that word is reported when it is one. Under a command with a default subcommand
    /// (`devices` runs `list`) a word may be that command's argument, so it is reported only when it is
    /// a plausible typo of a subcommand's name.
    static func unknownCommandMessage(_ arguments: [String]) -> (message: String, path: String)? {
        var command: ParsableCommand.Type = ObscuraCommand.self
        var path = "obscura"
        for word in arguments {
            let atRoot = path == "obscura"
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            let names = subcommands.map { $0._commandName } + (atRoot ? ["help"] : [])
            // `obscura help devices show` names commands after `help`: they are checked the same way.
            if word == "help" && atRoot {
                return arguments.count > 1 ? unknownCommandMessage(Array(arguments.dropFirst())) : nil
            }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path += " " + word
                continue
            }
            let guess = EditDistance.suggestion(for: word, among: names)
            if command.configuration.defaultSubcommand != nil && guess == nil { return nil }
            var message = "unknown command \(TextExcerpt.quoted(word))"
            message += atRoot ? "." : " for '\(path)'."
            if let guess { message += " Did you mean '\(guess)'?" }
            return (message, path)
        }
        return nil
    }
}
