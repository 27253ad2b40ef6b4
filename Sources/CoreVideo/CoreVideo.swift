// On Linux, `import CoreVideo` gives iOS capture code the emulated API.
@_exported import ObscuraAV
