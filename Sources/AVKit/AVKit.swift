// On Linux, `import AVKit` gives camera code what the SDK's module re-exports: AVFoundation, with its capture API.
// AVKit's own classes (player and picture-in-picture views, route pickers, capture event interactions) are user
// interface, which Linux has none of.
@_exported import AVFoundation
