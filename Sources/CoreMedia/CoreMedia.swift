// On Linux, `import CoreMedia` gives iOS capture code the emulated API. As the SDK's module does,
// it brings CoreVideo too, since sample buffers hand out `CVImageBuffer`s.
@_exported import CoreVideo
@_exported import ObscuraAV
