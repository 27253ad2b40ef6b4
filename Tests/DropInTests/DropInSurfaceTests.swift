import Obscura
import Foundation
import Testing

/// The drop-in modules offer Apple's names only: every public top-level symbol that `import AVFoundation` (and
/// CoreMedia, CoreVideo, simd, QuartzCore, UniformTypeIdentifiers, MobileCoreServices, Vision) brings is spelled as
/// Apple spells it.
/// The symbols are read from the built modules with `swift symbolgraph-extract`, so a
/// new public name anywhere in the mirrored API is checked without a list to keep in step.
extension DropIn {
    @Suite struct DropInSurfaceTests {
        /// Prefixes and names of Apple's frameworks that the drop-in modules mirror.
        static let applePrefixes = [
            "AV", "CM", "CV", "CG", "CF", "CA", "NS", "kCV", "kCM", "kCG", "kCF", "kAudio", "kCA", "simd_", "matrix_",
            "vector_", "VN", "UT",
            // MobileCoreServices' type identifiers (kUTTypeJPEG)
            "kUTType",
            // Core Audio's types and linear PCM flags, as a microphone's format description hands them out
            "Audio", "kLinearPCM",
            // Dispatch's serial queue, which capture actors take their executor from
            "Dispatch",
            // PhotoKit
            "PH",
        ]
        static let appleNames: Set<String> = [
        "FourCharCode", "OSType", "OSStatus", "Unmanaged", "noErr",
        // Darwin's time constants (NSEC_PER_SEC and its relatives carry the NS prefix)
        "USEC_PER_SEC",
        // Core Audio's Swift overlay over a buffer list
        "UnsafeMutableAudioBufferListPointer",
        // simd's unprefixed vector functions
        "dot", "cross", "length", "length_squared", "normalize", "distance", "distance_squared",
        // Vision's Swift interface of iOS 18, whose names carry no prefix
        "VisionRequest", "ImageProcessingRequest", "VisionObservation", "BoundingBoxProviding", "QuadrilateralProviding",
        "ImageRequestHandler", "VisionResult", "VisionError", "RequestDescriptor", "CoordinateOrigin", "NormalizedPoint",
        "NormalizedRect", "DetectRectanglesRequest", "DetectBarcodesRequest", "RecognizeTextRequest",
        "DetectTextRectanglesRequest", "DetectFaceRectanglesRequest", "DetectFaceLandmarksRequest",
        "GenerateAttentionBasedSaliencyImageRequest",
        "GenerateObjectnessBasedSaliencyImageRequest", "RectangleObservation", "BarcodeObservation", "BarcodeSymbology",
        "RecognizedTextObservation", "RecognizedText", "TextObservation", "FaceObservation", "SaliencyImageObservation",
        "PixelBufferObservation",
    ]
        /// Names that belong to the Obscura control module and must never leak into the drop-in surface.
        static let controlNames = ["Emulator", "Emulation", "TraceEntry", "CaptureRule", "DepthDataError", "Obscura"]

        /// The folder of the test bundle's build products, where the `.swiftmodule` files are.
        static var buildDirectory: URL {
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        }

        /// The public top-level names a module exports, as the symbol graph lists them.
        static func topLevelNames(of module: String) throws -> Set<String> {
            let build = buildDirectory
            let modules = build.appendingPathComponent("Modules")
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("dropin-symbols-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: output) }
            // C modules of dependencies are found through their module maps.
            var arguments = ["symbolgraph-extract", "-module-name", module, "-I", modules.path]
            let fileManager = FileManager.default
            let root = build.deletingLastPathComponent().deletingLastPathComponent()
            let moduleMaps = [
                build.appendingPathComponent("CPNG.build/module.modulemap"),
                build.appendingPathComponent("CJPEG.build/module.modulemap"),
                build.appendingPathComponent("CHEIF.build/module.modulemap"),
                build.appendingPathComponent("CFFmpeg.build/module.modulemap"),
                build.appendingPathComponent("CZXing.build/module.modulemap"),
                root.appendingPathComponent("checkouts/Yams/Sources/CYaml/include/module.modulemap"),
            ]
            for map in moduleMaps where fileManager.fileExists(atPath: map.path) {
                arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
            #if arch(x86_64)
            let triple = "x86_64-unknown-linux-gnu"
            #else
            let triple = "aarch64-unknown-linux-gnu"
            #endif
            arguments += ["-target", triple, "-output-dir", output.path, "-minimum-access-level", "public"]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift"] + arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "symbolgraph-extract failed for \(module)")
            var names = Set<String>()
            for file in try fileManager.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
                let data = try Data(contentsOf: output.appendingPathComponent(file))
                let graph = try JSONDecoder().decode(SymbolGraph.self, from: data)
                for symbol in graph.symbols where symbol.pathComponents.count == 1 {
                    names.insert(String(symbol.pathComponents[0].prefix { $0 != "(" }))
                }
            }
            return names
        }

        struct SymbolGraph: Decodable {
            struct Symbol: Decodable { let pathComponents: [String] }
            let symbols: [Symbol]
        }

        @Test(arguments: [
            "ObscuraAV", "AVFoundation", "CoreMedia", "CoreVideo", "simd", "Vision", "ImageIO", "UniformTypeIdentifiers",
            "MobileCoreServices", "Photos",
        ])
        func everyTopLevelNameIsApples(module: String) throws {
            let names = try Self.topLevelNames(of: module)
            if module == "ObscuraAV" { #expect(names.count > 100) }  // the mirrored API is really read
            for name in names.sorted() {
                let apple = Self.appleNames.contains(name) || Self.applePrefixes.contains { name.hasPrefix($0) }
                #expect(apple, "\(module) exports the non-Apple name \(name)")
                #expect(!Self.controlNames.contains { name.contains($0) }, "\(module) exports \(name)")
            }
        }
    }
}
