import ArgumentParser
import Foundation
import ISP
import Imaging

/// `obscura image`: what camera apps do with a capture (wide-colour viewer, print scanner, depth masks).
struct ImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Operations on captured PNGs: wide-gamut highlight, print scanner, depth blend, P3 triangle.",
        subcommands: [WideGamutCommand.self, ScanCommand.self, BlendCommand.self, TriangleCommand.self]
    )
}

/// `obscura image wide-gamut IN OUT`.
struct WideGamutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wide-gamut",
        abstract: "Keep the colour of pixels outside sRGB and turn the rest grey.",
        discussion: """
            A Display P3-tagged input is decoded as Display P3; any other input as sRGB (which has nothing outside \
            sRGB). Pixels are converted to extended linear sRGB; those with a channel outside 0…1 keep their colour, \
            the others become the grey of equal luminance. OUT is a 16-bit Display P3 PNG, so kept colours show as \
            they were.
            """
    )

    @Argument(help: "The input PNG.") var input: String
    @Argument(help: "The output PNG (- for standard output).") var output: String
    @Option(
        parsing: .unconditional, help: "How far outside 0…1 a linear sRGB channel must be to count as outside sRGB.")
    var tolerance: Float = 0.001
    @Flag(help: "Print JSON with stable keys instead of text.") var json = false

    func run() throws {
        guard tolerance.isFinite, tolerance >= 0 else {
            throw CommandFailure.badInput("--tolerance: expected a distance of 0 or more, not \(tolerance)")
        }
        try OutputFiles.checkNotAnInput((output, "the output"), inputs: [(input, "the input")])
        let image = try ImageFiles.read(input)
        guard image.channels >= 3 else {
            throw CommandFailure.badInput("\(input): expected an RGB image, got \(image.channels) channel(s)")
        }
        let linear: FloatPlane = switch (image.pixels, image.colorSpace) {
        case (.eightBit(let p), .displayP3): WideColor.extendedLinearSRGB(fromDisplayP3: p)
        case (.sixteenBit(let p), .displayP3): WideColor.extendedLinearSRGB(fromDisplayP3: p)
        case (.eightBit(let p), _): WideColor.extendedLinearSRGB(fromSRGB: p)
        case (.sixteenBit(let p), _): WideColor.extendedLinearSRGB(fromSRGB: p)
        }
        let highlighted = WideColor.highlightOutOfGamut(linear, tolerance: tolerance)
        var outside = 0
        for y in 0..<linear.height {
            for x in 0..<linear.width
            where WideColor.isOutsideSRGB(SIMD3(linear[x, y, 0], linear[x, y, 1], linear[x, y, 2]),
                                          tolerance: tolerance) {
                outside += 1
            }
        }
        let encoded = UInt16Image(converting: WideColor.displayP3(fromExtendedLinearSRGB: highlighted))
        try ImageFiles.write(PNGImage(pixels: encoded, colorSpace: .displayP3), to: output)
        let total = linear.width * linear.height
        let percent = 100 * Double(outside) / Double(max(1, total))
        if json {
            try printJSON(WideGamutReport(outside: outside, total: total, percent: (percent * 1e4).rounded() / 1e4,
                                          tolerance: Double(tolerance)))
        } else {
            say("\(outside) of \(total) pixels outside sRGB (\(format(percent, 2)) %)")
        }
    }
}

private struct WideGamutReport: Encodable {
    /// Pixels with a linear sRGB channel outside 0…1 by more than `tolerance`.
    var outside: Int
    var total: Int
    var percent: Double
    var tolerance: Double
}

/// `obscura image scan IN OUT [--clip 1%]`.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find a print in a photo, flatten it and stretch its contrast.",
        discussion: """
            Detects the most prominent quadrilateral, maps it onto an upright rectangle (homography, bilinear \
            sampling) and stretches each channel with ends-in clipping. Corners are printed in Vision's \
            convention: normalised, origin at the bottom left.

            IN is a PNG, JPEG or HEIC photo (HEIC where libheif can decode HEVC). The rectangle keeps the print's \
            true aspect ratio, recovered from the four corners by projective geometry (Zhang & He 2007), with the \
            first camera matrix known of: --intrinsics; the PNG's own `Obscura.Intrinsics` text (every Obscura \
            photo records it); the JPEG's or HEIC's Exif focal length (FocalLength with the focal-plane resolution, \
            or FocalLengthIn35mmFilm), principal point at the centre; or the focal length the quadrilateral itself \
            implies, principal point at the centre and square pixels. When none applies (a print facing the camera, \
            or turned about one axis only), the ratio is that of the longer opposite edges in pixels. The output \
            says which was used: intrinsics, exif, estimated-focal or edge-ratio.
            """
    )

    @Argument(help: "The photo (PNG, JPEG or HEIC).") var input: String
    @Argument(help: "The scanned print (PNG; - for standard output).") var output: String
    @Option(help: "Percentage of pixels clipped at each end of every channel, e.g. 1% or 0.5.")
    var clip: String = "1%"
    @Option(help: "The photo's camera matrix, fx,fy,cx,cy in pixels; by default its Obscura.Intrinsics text.")
    var intrinsics: String?
    @Flag(help: "Print JSON with stable keys instead of text.") var json = false

    func run() throws {
        try OutputFiles.checkNotAnInput((output, "the output"), inputs: [(input, "the photo")])
        var camera: PinholeIntrinsics?
        if let intrinsics {
            guard let parsed = PinholeIntrinsics(text: intrinsics) else {
                throw CommandFailure.badInput(
                    "--intrinsics: expected four numbers fx,fy,cx,cy with positive focal lengths, not '\(intrinsics)'")
            }
            camera = parsed
        }
        let trimmed = clip.hasSuffix("%") ? String(clip.dropLast()) : clip
        guard let percent = Double(trimmed.trimmingCharacters(in: .whitespaces)), percent >= 0, percent < 50 else {
            throw CommandFailure.badInput("--clip: expected a percentage from 0 to 50, such as 1%, not '\(clip)'")
        }
        let stretch = ContrastStretch(clip: percent / 100)
        let photo = try ImageFiles.readPhoto(input)
        var image = photo.image
        var cameraMethod = RectangleAspectRatio.Method.cameraIntrinsics
        if camera == nil { camera = ScanCommand.recordedIntrinsics(image) }
        if camera == nil, let exif = photo.exif?.intrinsics(width: image.width, height: image.height) {
            camera = exif
            cameraMethod = .exif
        }
        let detector = QuadrilateralDetector()
        let quad: DetectedQuadrilateral?
        var aspect: RectangleAspectRatio?
        /// The print flattened to its rectangle's aspect ratio.
        func flatten<C: PixelComponent>(_ p: PixelPlane<C>, _ quad: DetectedQuadrilateral) -> PixelPlane<C>? {
            let corners = quad.pixelCorners(width: p.width, height: p.height)
            let ratio = RectangleAspectRatio(
                corners: corners, intrinsics: camera, intrinsicsMethod: cameraMethod,
                imageSize: SIMD2(Double(p.width), Double(p.height)))
            aspect = ratio
            let size = PerspectiveCorrection.outputSize(for: corners, aspectRatio: ratio.value)
            return PerspectiveCorrection.rectify(p, corners: corners, size: size)
        }
        switch image.pixels {
        case .eightBit(let p):
            quad = detector.detect(in: p)
            if let quad, let flat = flatten(p, quad) { image.pixels = .eightBit(stretch.apply(to: flat)) }
        case .sixteenBit(let p):
            quad = detector.detect(in: p)
            if let quad, let flat = flatten(p, quad) { image.pixels = .sixteenBit(stretch.apply(to: flat)) }
        }
        guard let quad, let aspect else { throw CommandFailure.checkFailed("\(input): no quadrilateral found") }
        try ImageFiles.write(PNGImage(pixels: image.pixels, colorSpace: image.colorSpace), to: output)
        let report = ScanReport(
            quad: quad, width: image.width, height: image.height, clipPercent: percent, aspect: aspect)
        if json {
            try printJSON(report)
        } else {
            for (name, p) in zip(["top left", "top right", "bottom right", "bottom left"], report.corners) {
                say("\(name): (\(format(p[0], 4)), \(format(p[1], 4)))")
            }
            say("confidence: \(format(Double(quad.confidence), 3))")
            let source = switch (aspect.method, camera) {
            case (.cameraIntrinsics, _): "the camera intrinsics"
            case (.exif, _): "the Exif focal length"
            case (.estimatedFocalLength, nil): "the focal length the corners imply: no intrinsics known"
            case (.estimatedFocalLength, _):
                "the focal length the corners imply: they do not fit a rectangle seen by the known camera"
            case (.edgeLengths, _): "the edge ratio: the corners fix no focal length"
            }
            say("aspect ratio: \(format(aspect.value, 4)) (width/height, method \(aspect.method.rawValue): from \(source))")
            say("output: \(image.width)x\(image.height), clipped \(format(percent, 2)) % at each end")
        }
    }

    /// The intrinsics an Obscura photo records, scaled to the file's size when it was resized after capture
    /// (`Obscura.Dimensions` gives the size they belong to).
    static func recordedIntrinsics(_ image: PNGImage) -> PinholeIntrinsics? {
        guard let recorded = PinholeIntrinsics(pngText: image.text) else { return nil }
        let size = image.textValue(forKey: "Obscura.Dimensions")?.split(separator: "x").compactMap { Double($0) }
        guard let size, size.count == 2, size[0] > 0, size[1] > 0 else { return recorded }
        return recorded.scaled(x: Double(image.width) / size[0], y: Double(image.height) / size[1])
    }
}

private extension PNGImage {
    init(pixels: PNGImage.Pixels, colorSpace: PNGColorSpace) {
        switch pixels {
        case .eightBit(let p): self.init(pixels: p, colorSpace: colorSpace)
        case .sixteenBit(let p): self.init(pixels: p, colorSpace: colorSpace)
        }
    }
}

private struct ScanReport: Encodable {
    /// Top-left, top-right, bottom-right, bottom-left; normalised, origin at the bottom left.
    var corners: [[Double]]
    var confidence: Double
    var width: Int
    var height: Int
    var clipPercent: Double
    /// The flattened print's width over height, and how it was found: `intrinsics`, `exif`, `estimated-focal` or
    /// `edge-ratio`.
    var aspectRatio: Double
    var aspectRatioMethod: String

    enum CodingKeys: String, CodingKey {
        case corners, confidence, width, height, clipPercent = "clip_percent", aspectRatio = "aspect_ratio"
        case aspectRatioMethod = "aspect_ratio_method"
    }

    init(quad: DetectedQuadrilateral, width: Int, height: Int, clipPercent: Double, aspect: RectangleAspectRatio) {
        corners = [quad.topLeft, quad.topRight, quad.bottomRight, quad.bottomLeft].map {
            [($0.x * 1e6).rounded() / 1e6, ($0.y * 1e6).rounded() / 1e6]
        }
        confidence = (Double(quad.confidence) * 1e4).rounded() / 1e4
        self.width = width
        self.height = height
        self.clipPercent = clipPercent
        aspectRatio = (aspect.value * 1e6).rounded() / 1e6
        aspectRatioMethod = aspect.method.rawValue
    }
}

/// `obscura image blend PHOTO DISPARITY OUT`.
struct BlendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blend",
        abstract: "Blend a colour into a photo's background, using a disparity (or depth) map as the mask.",
        discussion: """
            DISPARITY is a grey PNG of any size, resampled to the photo's; 0 marks a hole. Its values are normalised \
            to 0…1 between the farthest and nearest valid samples: near is foreground and stays, far takes the \
            colour. With --depth the map holds depth (as `obscura render --depth` writes it) and is converted to \
            disparity (1/depth) first.
            """
    )

    @Argument(help: "The photo (PNG).") var photo: String
    @Argument(help: "The disparity map (grey PNG).") var disparity: String
    @Argument(help: "The output PNG (- for standard output).") var output: String
    @Option(help: "The background colour: a name (blue, red, green, black, white, grey) or #RRGGBB.")
    var color: String = "blue"
    @Option(
        parsing: .unconditional,
        help: "Normalised disparity (0 far … 1 near) between background and foreground; soft mask if absent.")
    var threshold: Float?
    @Flag(help: "The map holds depth, not disparity.") var depth = false

    func run() throws {
        try OutputFiles.checkNotAnInput(
            (output, "the output"), inputs: [(photo, "the photo"), (disparity, "the disparity map")])
        guard let rgb = BlendCommand.parseColor(color) else {
            throw CommandFailure.badInput("--color: expected a colour name or #RRGGBB, not '\(color)'")
        }
        if let threshold, !(0...1).contains(threshold) {
            throw CommandFailure.badInput("--threshold: expected a value from 0 to 1, not \(threshold)")
        }
        let image = try ImageFiles.read(photo)
        let map = try ImageFiles.read(disparity)
        guard map.channels == 1 else {
            throw CommandFailure.badInput("\(disparity): expected a grey map, got \(map.channels) channels")
        }
        var values: FloatPlane = switch map.pixels {
        case .eightBit(let p): FloatPlane(converting: p)
        case .sixteenBit(let p): FloatPlane(converting: p)
        }
        if depth { values = DepthDisparity.disparity(fromDepth: values) }
        let blend = BackgroundBlend(color: rgb, threshold: threshold)
        let pixels: PNGImage.Pixels = switch image.pixels {
        case .eightBit(let p): .eightBit(blend.apply(to: p, disparity: values))
        case .sixteenBit(let p): .sixteenBit(UInt16Image(converting: blend.apply(to: FloatPlane(converting: p),
                                                                                   disparity: values)))
        }
        try ImageFiles.write(PNGImage(pixels: pixels, colorSpace: image.colorSpace), to: output)
    }

    static func parseColor(_ text: String) -> SIMD3<Float>? {
        let names: [String: SIMD3<Float>] = [
            "blue": SIMD3(0, 0, 1), "red": SIMD3(1, 0, 0), "green": SIMD3(0, 1, 0), "black": SIMD3(0, 0, 0),
            "white": SIMD3(1, 1, 1), "grey": SIMD3(0.5, 0.5, 0.5), "gray": SIMD3(0.5, 0.5, 0.5),
        ]
        if let named = names[text.lowercased()] { return named }
        guard text.hasPrefix("#"), text.count == 7, let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return SIMD3(Float((value >> 16) & 255), Float((value >> 8) & 255), Float(value & 255)) / 255
    }
}

/// `obscura image triangle OUT`.
struct TriangleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triangle",
        abstract: "Draw the Display P3 primaries' triangle mixed in linear light (left) and in gamma space (right).",
        discussion: "OUT is a 16-bit Display P3 PNG, twice as wide as --size."
    )

    @Argument(help: "The output PNG (- for standard output).") var output: String
    @Option(help: "Height of each triangle in pixels.") var size: Int = 512

    func run() throws {
        // The picture is 2·size × size pixels; held to the render limit, as --size is elsewhere.
        let largest = Int(Double(RenderJob.maximumPixels / 2).squareRoot())
        guard (8...largest).contains(size) else {
            throw CommandFailure.badInput(
                "--size: expected 8 to \(largest) pixels (the picture, twice as wide, stays within "
                    + "\(RenderJob.maximumPixels) pixels), not \(size)")
        }
        let picture = UInt16Image(converting: GamutTriangle.render(size: size))
        try ImageFiles.write(PNGImage(pixels: picture, colorSpace: .displayP3), to: output)
        say("wrote \(output == OutputFiles.standardOutput ? "standard output" : output): \(2 * size)x\(size), "
            + "16-bit Display P3 (left: mixed in linear light, right: in gamma space)")
    }
}

/// PNG input and output with the CLI's error tiers: unreadable input is bad input, unwritable output exit 3.
enum ImageFiles {
    /// The most pixels an input picture may have: 50 million, room for the largest photo the catalogue's
    /// devices take (48 MP, 8064x6048). The operations hold several floating-point copies of a picture,
    /// tens of bytes a pixel, so this keeps a command within a few gigabytes however small the file
    /// that declares the picture. Our choice.
    static let maximumPixels = 50_000_000

    static func read(_ path: String) throws -> PNGImage {
        do {
            return try PNG.read(contentsOf: path, maximumPixels: maximumPixels)
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
    }

    /// A photo as a camera app reads it (`PictureFile`): a PNG, or a JPEG or HEIC decoded to its 8-bit RGB
    /// values with the focal length its Exif records.
    static func readPhoto(_ path: String) throws -> (image: PNGImage, exif: ExifFocalLength?) {
        do {
            let picture = try PictureFile.read(path, maximumPixels: maximumPixels)
            return (picture.image, picture.exif)
        } catch {
            throw CommandFailure.badInput("\(path): \(error.message)")
        }
    }

    /// Writes a PNG to a file or, for `-`, to standard output.
    static func write(_ image: PNGImage, to path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try PNG.encode(image)
        } catch {
            throw CommandFailure.outputFailed("\(path): \(error)")
        }
        try OutputFiles.write(bytes, to: path)
    }
}
