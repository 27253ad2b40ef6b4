// On Linux, `import MobileCoreServices` gives older camera code the `kUTType…` identifiers it names files and
// media types by. They live with the capture API beside `UTType`.
@_exported import Foundation
@_exported import ObscuraAV
