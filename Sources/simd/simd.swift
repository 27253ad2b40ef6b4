// On Linux, `import simd` gives iOS capture code the emulated API.
@_exported import ObscuraAV
