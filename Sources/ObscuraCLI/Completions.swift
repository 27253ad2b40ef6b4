import ArgumentParser
import Devices
import Scenes

/// Shell completions that know the catalogue: `obscura --generate-completion-script bash` (or zsh,
/// fish) emits a script that asks the tool for these names as the user types.
enum Completions {
    /// Device ids of the catalogue the tool would use from the current directory.
    static let devices = CompletionKind.custom { _, _, _ in
        (try? DeviceCatalog())?.ids ?? []
    }

    /// Scene names of the Scenes folder the tool would use, and the built-in charts.
    static let scenes = CompletionKind.custom { _, _, _ in
        ((try? SceneLoader())?.names ?? []) + BuiltInScenes.names
    }
}
