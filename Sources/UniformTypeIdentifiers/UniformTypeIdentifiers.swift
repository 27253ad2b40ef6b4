// On Linux, `import UniformTypeIdentifiers` gives camera code `UTType` and the URL helpers written with it. The type
// lives with the capture API, which names its files by it, so `import AVFoundation` brings it too.
@_exported import Foundation
@_exported import ObscuraAV
