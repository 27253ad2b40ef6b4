// On Linux, `import CoreMedia` gives iOS capture code the emulated API.
@_exported import ObscuraAV
