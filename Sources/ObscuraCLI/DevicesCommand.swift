import ArgumentParser

/// `obscura devices`: the virtual-device catalogue.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List, show and lint the virtual devices in DeviceProfiles/."
    )
}
