import ArgumentParser

/// The `obscura` command line: the root command and its subcommands.
public struct ObscuraCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "obscura",
        abstract: "Apple's AVFoundation camera capture on Linux, with physics behind the pixels.",
        subcommands: [
            RunCommand.self, ExplainCommand.self, ColorCommand.self, DevicesCommand.self, RenderCommand.self, ImageCommand.self,
            ValidateCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line with the process arguments, exiting with the code `ExitCodes` assigns.
    public static func main() {
        main(Array(CommandLine.arguments.dropFirst()))
    }

    /// Runs the command line with the given arguments (without the program name).
    public static func main(_ arguments: [String]) {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            ErrorReporting.exit(with: error, command: self)
        }
    }
}
