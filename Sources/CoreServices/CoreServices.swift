// On Linux, `import CoreServices` gives camera code the `kUTType…` identifiers, as MobileCoreServices does (iOS 14
// moved them there). They live with the capture API beside `UTType`.
@_exported import Foundation
@_exported import ObscuraAV
