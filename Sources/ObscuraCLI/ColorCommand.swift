import ArgumentParser

/// `obscura color`: colour-science calculations.
struct ColorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "color",
        abstract: "Colour-science calculations: colour differences, illuminants, chart patches."
    )
}
