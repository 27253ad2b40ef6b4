// The control module for tests and tools: choose the device, scene, seed and clock of the emulated
// world, per task or per process, and read what the capture API did. It is never part of the
// drop-in names that `import AVFoundation` gives.
@_exported import ObscuraAV
@_exported import CaptureRules
