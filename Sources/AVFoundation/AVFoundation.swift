// On Linux, `import AVFoundation` gives iOS capture code the emulated API.
@_exported import ObscuraAV
