import Foundation
import Imaging
import ObscuraAV

/// Writes a step's depth maps and confidence maps.
///
/// - `depth` (stream steps): the step's last delivered depth map as a 16-bit greyscale PNG in
///   millimetres (0 = no depth; 65.535 m at most) and, beside it, the same map in metres as a
///   Portable Float Map (`.pfm`: `Pf` header, little-endian 32-bit floats, bottom row first), and
///   a picture to look at, `<name>-view.png`: the map in viridis from near to far, holes grey, with
///   a legend in metres (Imaging `DepthColorizer`).
/// - `depth_visualisation` (stream steps): 8-bit grey, near bright, far dark, scaled to the map's
///   own disparity range; holes black.
/// - `confidence_map` (capture steps): each Constant Color photo's confidence map, 8-bit grey,
///   255 = full confidence.
enum AuxiliarySaver {
    static func save(
        _ entry: StepEntry, _ outcome: StepOutcome, _ context: RunContext, output: OutputDirectory?,
        verdicts: inout [ExpectationResult]
    ) throws -> [ScenarioResult.SavedFile] {
        guard let output else { return [] }
        var saved: [ScenarioResult.SavedFile] = []
        func missing(_ request: SaveRequest, _ what: String) {
            verdicts.append(ExpectationResult(
                key: "save", passed: false, expected: "a \(what) to save", actual: "none delivered",
                location: request.location))
        }
        for request in entry.saves {
            let base = request.relativePath.map { String($0.dropLast(4)) }
                ?? String(format: "step%02d-%@", entry.index, request.kind.rawValue)
            switch request.kind {
            case .photo, .fallback: continue
            case .depth, .depth_visualisation:
                guard let depth = context.stream.lastDepth else {
                    missing(request, "depth map")
                    continue
                }
                let (w, h, metres) = depthMetres(depth)
                if request.kind == .depth {
                    let mm = UInt16Image(width: w, height: h, elements: metres.map { m -> UInt16 in
                        guard m.isFinite, m > 0 else { return 0 }
                        return UInt16(min(65535, (Double(m) * 1000).rounded()))
                    })
                    let png = try PNG.encode(PNGImage(pixels: mm, text: [PNGText(key: "Comment", value: "depth in millimetres")]))
                    // Linked, not shown: 16-bit millimetres look black in a browser; the colour view below is shown.
                    saved.append(
                        .init(kind: "depth (16-bit, mm)", file: try output.write(png, to: base + ".png"), image: false))
                    saved.append(.init(kind: "depth float (m)", file: try output.write(pfm(w, h, metres), to: base + ".pfm"), image: false))
                    let colorizer = DepthColorizer(fitting: metres)
                    let view = try PNG.encode(PNGImage(
                        pixels: colorizer.view(metres, width: w, height: h), colorSpace: .sRGB,
                        text: [PNGText(key: "Comment", value: colorizer.legendDescription)]))
                    let viewFile = try output.write(view, to: base + "-view.png")
                    var viewed = ScenarioResult.SavedFile(kind: "depth (colour)", file: viewFile, image: true)
                    viewed.depthRangeMetres = [colorizer.near, colorizer.far]
                    saved.append(viewed)
                } else {
                    let disparity = metres.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
                    let valid = disparity.filter { $0.isFinite }
                    let lo = valid.min() ?? 0
                    let hi = valid.max() ?? 1
                    let grey = UInt8Image(width: w, height: h, elements: disparity.map { d -> UInt8 in
                        guard d.isFinite else { return 0 }
                        return UInt8(max(1, min(255, ((d - lo) / max(hi - lo, 1e-6) * 254 + 1).rounded())))
                    })
                    let png = try PNG.encode(PNGImage(pixels: grey))
                    saved.append(.init(kind: "depth visualisation", file: try output.write(png, to: base + ".png"), image: true))
                }
            case .confidence_map:
                let maps = outcome.photos.compactMap(\.constantColorConfidenceMap)
                if maps.isEmpty { missing(request, "confidence map") }
                for (n, map) in maps.enumerated() {
                    let w = CVPixelBufferGetWidth(map)
                    let h = CVPixelBufferGetHeight(map)
                    _ = CVPixelBufferLockBaseAddress(map, .readOnly)
                    let stride = CVPixelBufferGetBytesPerRow(map)
                    var values = [UInt8](repeating: 0, count: w * h)
                    if let base = CVPixelBufferGetBaseAddress(map) {
                        for y in 0..<h {
                            for x in 0..<w { values[y * w + x] = base.load(fromByteOffset: y * stride + x, as: UInt8.self) }
                        }
                    }
                    _ = CVPixelBufferUnlockBaseAddress(map, .readOnly)
                    let png = try PNG.encode(PNGImage(pixels: UInt8Image(width: w, height: h, elements: values)))
                    let name = maps.count > 1 ? base + "-\(n + 1).png" : base + ".png"
                    saved.append(.init(kind: "confidence map", file: try output.write(png, to: name), image: true))
                }
            }
        }
        return saved
    }

    /// The map in metres, row-major from the top.
    static func depthMetres(_ depth: AVDepthData) -> (Int, Int, [Float]) {
        let map = depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap
        let w = CVPixelBufferGetWidth(map)
        let h = CVPixelBufferGetHeight(map)
        _ = CVPixelBufferLockBaseAddress(map, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(map, .readOnly) }
        let stride = CVPixelBufferGetBytesPerRow(map)
        var values = [Float](repeating: .nan, count: w * h)
        if let base = CVPixelBufferGetBaseAddress(map) {
            for y in 0..<h {
                for x in 0..<w { values[y * w + x] = base.load(fromByteOffset: y * stride + x * 4, as: Float.self) }
            }
        }
        return (w, h, values)
    }

    /// A Portable Float Map: greyscale `Pf`, a negative scale for little-endian, rows bottom first.
    static func pfm(_ w: Int, _ h: Int, _ values: [Float]) -> [UInt8] {
        var bytes = [UInt8]("Pf\n\(w) \(h)\n-1.0\n".utf8)
        bytes.reserveCapacity(bytes.count + w * h * 4)
        for y in (0..<h).reversed() {
            for x in 0..<w {
                let bits = values[y * w + x].bitPattern.littleEndian
                withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }
}
