import AVFoundation
import Testing
import UniformTypeIdentifiers

// Types as camera code names its files and formats: Apple's camera sample writes each movie to
// `URL.temporaryDirectory.appending(component: UUID().uuidString).appendingPathExtension(for: .quickTimeMovie)`;
// ImageIO and the photo output take a type's identifier. Identifiers, extensions and MIME types are Apple's.
extension DropIn {
    @Suite struct UniformTypeIdentifiersIdiomTests {
        @Test func aMovieFileNamedByItsType() {
            let url = URL.temporaryDirectory.appending(component: "take").appendingPathExtension(for: .quickTimeMovie)
            #expect(url.lastPathComponent == "take.mov")
            var mp4 = URL(fileURLWithPath: "/tmp/clip")
            mp4.appendPathExtension(for: .mpeg4Movie)
            #expect(mp4.lastPathComponent == "clip.mp4")
            #expect(URL(fileURLWithPath: "/tmp").appendingPathComponent("a", conformingTo: .jpeg).lastPathComponent == "a.jpeg")
            #expect(URL(fileURLWithPath: "/tmp").appendingPathComponent("a.jpg", conformingTo: .image).lastPathComponent == "a.jpg")
            // An abstract type has no extension to add.
            #expect(URL(fileURLWithPath: "/tmp/x").appendingPathExtension(for: .movie).lastPathComponent == "x")
        }

        @Test func identifiersTagsAndConformance() {
            #expect(UTType.jpeg.identifier == "public.jpeg" && UTType.heic.identifier == "public.heic")
            #expect(UTType.quickTimeMovie.identifier == AVFileType.mov.rawValue)
            #expect(UTType.jpeg.identifier == AVFileType.jpg.rawValue && UTType.heic.identifier == AVFileType.heic.rawValue)
            #expect(UTType.jpeg.preferredFilenameExtension == "jpeg" && UTType.jpeg.preferredMIMEType == "image/jpeg")
            #expect(UTType(filenameExtension: "JPG") == .jpeg)
            #expect(UTType(filenameExtension: "mov", conformingTo: .movie) == .quickTimeMovie)
            #expect(UTType(filenameExtension: "mov", conformingTo: .image) == nil)
            #expect(UTType(mimeType: "video/mp4") == .mpeg4Movie)
            #expect(UTType("com.adobe.raw-image")?.conforms(to: .rawImage) == true)
            #expect(UTType.heic.conforms(to: .image) && UTType.heic.conforms(to: .data) && !UTType.heic.conforms(to: .movie))
            #expect(UTType.quickTimeMovie.conforms(to: .audiovisualContent) && UTType.movie.isSupertype(of: .mpeg4Movie))
            #expect(UTType.image.isSubtype(of: .data) && !UTType.image.isSubtype(of: .image))
            #expect(UTType.jpeg.isPublic && !UTType.quickTimeMovie.isPublic)
        }
    }
}
