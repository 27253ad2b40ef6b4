import Foundation

// The type identifiers older camera code names through MobileCoreServices (deprecated in iOS 15 for `UTType`):
// the same identifiers as `UTType`'s, as `CFString`, for `CGImageDestinationCreateWithData(data, kUTTypeJPEG, 1,
// nil)`, an image picker's media types and the like. `import MobileCoreServices` or `import CoreServices` brings them.

nonisolated(unsafe) public let kUTTypeItem: CFString = "public.item"
nonisolated(unsafe) public let kUTTypeContent: CFString = "public.content"
nonisolated(unsafe) public let kUTTypeData: CFString = "public.data"
nonisolated(unsafe) public let kUTTypeImage: CFString = "public.image"
nonisolated(unsafe) public let kUTTypeJPEG: CFString = "public.jpeg"
nonisolated(unsafe) public let kUTTypePNG: CFString = "public.png"
nonisolated(unsafe) public let kUTTypeTIFF: CFString = "public.tiff"
nonisolated(unsafe) public let kUTTypeGIF: CFString = "com.compuserve.gif"
nonisolated(unsafe) public let kUTTypeRawImage: CFString = "public.camera-raw-image"
nonisolated(unsafe) public let kUTTypeLivePhoto: CFString = "com.apple.live-photo"
nonisolated(unsafe) public let kUTTypeAudiovisualContent: CFString = "public.audiovisual-content"
nonisolated(unsafe) public let kUTTypeMovie: CFString = "public.movie"
nonisolated(unsafe) public let kUTTypeVideo: CFString = "public.video"
nonisolated(unsafe) public let kUTTypeQuickTimeMovie: CFString = "com.apple.quicktime-movie"
nonisolated(unsafe) public let kUTTypeMPEG4: CFString = "public.mpeg-4"
nonisolated(unsafe) public let kUTTypeAudio: CFString = "public.audio"
nonisolated(unsafe) public let kUTTypeMPEG4Audio: CFString = "public.mpeg-4-audio"
nonisolated(unsafe) public let kUTTypeText: CFString = "public.text"
nonisolated(unsafe) public let kUTTypePlainText: CFString = "public.plain-text"
nonisolated(unsafe) public let kUTTypeJSON: CFString = "public.json"
