import Foundation
import Imaging
import ObscuraSupport
import Spectra

/// Reads one entry of `objects`: a named shape, where it stands, what covers it and how it moves.
struct ObjectReader {
    static let keys = [
        "name", "shape", "size_m", "radius_m", "position_m", "rotation", "material", "card", "screen", "motion",
        "code", "person",
    ]

    enum ShapeKind: String, CaseIterable { case plane, box, sphere, disc }
    enum CardKind: String, CaseIterable {
        case colorchecker
        case skinPatches = "skin-patches"
        case image
        case photo
    }

    /// The scene's materials by name; names that were declared but failed to load map to a
    /// placeholder so that their users do not report a second, misleading error.
    let materials: [String: Material]
    /// Where relative texture paths start.
    let baseDirectory: String
    /// Where textures may come from: the scene file's folder and any folder the caller allowed.
    let confinement: FileConfinement

    func read(_ raw: YAMLNode) throws -> SceneObject {
        let node = raw.labelledByName
        let m = try node.mapping(allowedKeys: Self.keys)
        var errors = ErrorCollector()
        let name = errors.attempt { try m.required("name").string() }
        let shape = errors.attempt { try readShape(m) }
        let position = errors.attempt { try m.optional("position_m")?.vector3() ?? .zero }
        let rotation = errors.attempt { try m.optional("rotation").map(Self.readRotation) ?? .identity }
        let covering = errors.attempt { () throws -> (Surface, ScreenMovie?) in
            let source = try m.exactlyOne(of: ["material", "card", "screen"], what: "an object's surface")
            if source == "material" { return (.uniform(try material(try m.required("material"))), nil) }
            let node = try m.required(source)
            switch (source, shape) {
            case (_, .plane?), (_, nil), ("card", .sphere?): break
            case ("card", _?):
                throw node.error("cards map onto planes and spheres only; make this object's shape one of them")
            default:
                throw node.error("\(source)s map onto planes only; make this object's shape a plane")
            }
            return source == "card" ? (try readCard(node), nil) : try readScreen(node)
        }
        let surface = covering?.0
        let motion = errors.attempt { try m.optional("motion").map(Self.readMotion) ?? .none }
        let code = errors.attempt { () throws -> CodeAnnotation? in
            guard let node = m.optional("code") else { return nil }
            if let shape, case .plane = shape {
            } else if shape != nil {
                throw node.error("codes are printed on planes only; make this object's shape a plane")
            }
            return try Self.readCode(node)
        }
        let person = errors.attempt { () throws -> (PersonPart, [PersonPart?]?)? in
            guard let node = m.optional("person") else { return nil }
            return try Self.readPerson(node, surface: surface)
        }
        try errors.throwIfAny()
        let parts = try collected(person, at: node)
        return SceneObject(
            name: try collected(name, at: node), shape: try collected(shape, at: node),
            transform: Transform(
                position: try collected(position, at: node), rotation: try collected(rotation, at: node)),
            surface: try collected(surface, at: node), motion: try collected(motion, at: node),
            code: try collected(code, at: node), person: parts?.0, materialParts: parts?.1, movie: covering?.1)
    }

    /// The part of a person an object is, `person: skin`; or, for an image card that shows more than one
    /// part, the palette materials that show each, `person: {skin: [skin, lips], hair: [hair]}`, where a
    /// material named under no part shows none. Returns the first part named and, for the mapping, each
    /// material's part in palette order.
    static func readPerson(_ node: YAMLNode, surface: Surface?) throws -> (PersonPart, [PersonPart?]?) {
        guard case .mapping = node.node else { return (try node.choice(PersonPart.self), nil) }
        let m = try node.mapping(allowedKeys: PersonPart.allCases.map(\.rawValue))
        guard let surface else { return (.body, nil) }  // The surface's own error is reported.
        guard case let .image(_, _, _, palette) = surface else {
            throw node.error("parts by material need an image card; name one part for the whole object")
        }
        guard let first = m.entries.first else { throw node.error("needs at least one part") }
        var parts = [PersonPart?](repeating: nil, count: palette.count)
        var named = Set<String>()
        for entry in m.entries {
            let part = PersonPart(rawValue: entry.key)!
            for item in try entry.value.sequence() {
                let name = try item.string()
                guard palette.contains(where: { $0.name == name }) else {
                    throw item.error(
                        "\(TextExcerpt.quoted(name)) is not in the card's palette; "
                            + "expected one of: \(palette.map(\.name).joined(separator: ", "))")
                }
                guard named.insert(name).inserted else {
                    throw item.error("\(TextExcerpt.quoted(name)) is already given a part")
                }
                for (index, material) in palette.enumerated() where material.name == name { parts[index] = part }
            }
        }
        return (PersonPart(rawValue: first.key)!, parts)
    }

    /// A printed code: `{type: qr, value: "https://example.com"}`; the value must fit the type.
    static func readCode(_ node: YAMLNode) throws -> CodeAnnotation {
        let m = try node.mapping(allowedKeys: ["type", "value"])
        var errors = ErrorCollector()
        let symbology = errors.attempt { try m.required("type").choice(CodeAnnotation.Symbology.self) }
        let valueNode = try m.required("value")
        let value = errors.attempt { try valueNode.string() }
        try errors.throwIfAny()
        let code = CodeAnnotation(symbology: try collected(symbology, at: node), value: try collected(value, at: node))
        if let problem = CodeAnnotation.problem(symbology: code.symbology, value: code.value) {
            throw valueNode.error(problem)
        }
        // A value the symbology's capacity cannot hold (a QR code of thousands of characters) would leave the card
        // blank; where the encoder is there to say so, it is an error here.
        if CodeSymbol.isAvailable {
            do { _ = try CodeSymbol.draw(code) } catch { throw valueNode.error("\(error)") }
        }
        return code
    }

    /// A declared material; unknown names get the nearest declared one as a suggestion.
    func material(_ node: YAMLNode) throws -> Material {
        let name = try node.string()
        if let hit = materials[name] { return hit }
        var message = "no material named \(TextExcerpt.quoted(name)) in this scene"
        if let guess = EditDistance.suggestion(for: name, among: materials.keys.sorted()) {
            message += "; did you mean '\(guess)'?"
        } else if !materials.isEmpty {
            message += " (declared: \(materials.keys.sorted().joined(separator: ", ")))"
        }
        throw node.error(message)
    }

    private func readShape(_ m: YAMLMapping) throws -> Shape {
        let kind = try m.required("shape").choice(ShapeKind.self)
        switch kind {
        case .plane, .box:
            try m.reject(["radius_m"], because: "does not apply to a \(kind.rawValue); give size_m")
            let sizes = try m.required("size_m").positiveDoubles(count: kind == .plane ? 2 : 3)
            return kind == .plane
                ? .plane(width: sizes[0], height: sizes[1]) : .box(width: sizes[0], height: sizes[1], depth: sizes[2])
        case .sphere, .disc:
            try m.reject(["size_m"], because: "does not apply to a \(kind.rawValue); give radius_m")
            let r = try m.required("radius_m").positiveDouble()
            return kind == .sphere ? .sphere(radius: r) : .disc(radius: r)
        }
    }

    /// Yaw/pitch/roll in degrees (applied roll, pitch, then yaw), or an axis and an angle.
    static func readRotation(_ node: YAMLNode) throws -> Rotation {
        let m = try node.mapping(allowedKeys: ["yaw_deg", "pitch_deg", "roll_deg", "axis", "angle_deg"])
        if m.has("axis") || m.has("angle_deg") {
            try m.reject(["yaw_deg", "pitch_deg", "roll_deg"], because: "cannot be combined with axis and angle_deg")
            let axis = try m.required("axis").direction()
            let angle = try m.required("angle_deg").double()
            return Rotation(axis: axis, radians: angle * .pi / 180)
        }
        var errors = ErrorCollector()
        let angles = ["yaw_deg", "pitch_deg", "roll_deg"].map { key in
            errors.attempt { try m.optional(key)?.double() ?? 0 }
        }
        try errors.throwIfAny()
        return Rotation(yawDegrees: angles[0] ?? 0, pitchDegrees: angles[1] ?? 0, rollDegrees: angles[2] ?? 0)
    }

    /// A velocity in m/s and an angular velocity in degrees per second about a world axis
    /// (the vector's direction is the axis, its length the speed).
    static func readMotion(_ node: YAMLNode) throws -> Motion {
        let m = try node.mapping(allowedKeys: ["velocity_m_per_s", "angular_velocity_deg_per_s"])
        var errors = ErrorCollector()
        let velocity = errors.attempt { try m.optional("velocity_m_per_s")?.vector3() ?? .zero }
        let angular = errors.attempt { try m.optional("angular_velocity_deg_per_s")?.vector3() ?? .zero }
        try errors.throwIfAny()
        return Motion(velocity: velocity ?? .zero, angularVelocity: (angular ?? .zero) * (.pi / 180))
    }

    // MARK: Cards

    private static let cardKeys: [CardKind: [String]] = [
        .colorchecker: ["type", "border_reflectance", "gap"],
        .skinPatches: ["type", "columns", "first", "count", "border_reflectance", "gap"],
        .image: ["type", "png", "palette"],
        .photo: ["type", "file"],
    ]

    private func readCard(_ node: YAMLNode) throws -> Surface {
        let typeNode = node.node.mapping?["type"].map { YAMLNode($0, file: node.file, path: node.path + ".type") }
        guard let typeNode else {
            _ = try node.mapping(allowedKeys: Array(Set(Self.cardKeys.values.joined())).sorted())
            throw node.error("a card needs a type: colorchecker, skin-patches, image or photo")
        }
        let kind = try typeNode.choice(CardKind.self)
        let m = try node.mapping(allowedKeys: Self.cardKeys[kind] ?? ["type"])
        switch kind {
        case .colorchecker:
            let (border, gap) = try readBorder(m)
            return Cards.chart(columns: 6, rows: 4, patches: ColorChecker.patches, borderReflectance: border, gap: gap)
        case .skinPatches:
            return try readSkinPatches(m)
        case .image:
            return try readImage(m)
        case .photo:
            return PhotoPrint.surface(of: try readPicture(try m.required("file"), what: "photo"))
        }
    }

    /// A lit screen showing a still picture, `{still: x.png, nits: 200}`, or playing a movie,
    /// `{movie: clip.mp4, nits: 200, loop: true}`.
    private func readScreen(_ node: YAMLNode) throws -> (Surface, ScreenMovie?) {
        let m = try node.mapping(allowedKeys: ["still", "movie", "nits", "loop"])
        let source = try m.exactlyOne(of: ["still", "movie"], what: "a screen's picture")
        var errors = ErrorCollector()
        // 200 cd/m² is a common office monitor's white; phones reach 1000 and more outdoors.
        let nits = errors.attempt { try m.optional("nits")?.double(in: 0.1...10_000) ?? 200 }
        if source == "still" {
            try m.reject(["loop"], because: "applies to a movie only")
            let picture = errors.attempt { try readPicture(try m.required("still"), what: "still") }
            try errors.throwIfAny()
            return (Screen.surface(of: try collected(picture, at: node), nits: try collected(nits, at: node)), nil)
        }
        let loops = errors.attempt { try m.optional("loop")?.bool() ?? false }
        let movieNode = try m.required("movie")
        let decoded = errors.attempt { () throws -> DecodedMovie in
            let path = try confinedPath(movieNode, what: "movie")
            do {
                return try MovieFile.read(path)
            } catch {
                throw movieNode.error(
                    "cannot read the movie \(TextExcerpt.quoted(try movieNode.string())): \(error)")
            }
        }
        try errors.throwIfAny()
        let movie = ScreenMovie(
            movie: try collected(decoded, at: node), nits: try collected(nits, at: node),
            loops: try collected(loops, at: node))
        return (movie.surface(frame: 0), movie)
    }

    /// The path a scene names for a file it reads, relative to the scene's folder, checked against the
    /// confinement: a shared scene file must not read (and so publish) files outside the folders the user
    /// trusts; links are resolved first, so a link in the scene's folder cannot escape it.
    private func confinedPath(_ node: YAMLNode, what: String) throws -> String {
        let given = try node.string()
        let path = given.hasPrefix("/") ? given : (baseDirectory as NSString).appendingPathComponent(given)
        guard confinement.contains(path) else {
            throw node.error(
                "the \(what) \(TextExcerpt.quoted(given)) lies outside the scene's folder"
                    + (confinement.roots.count > 1 ? " and the allowed folders" : "")
                    + "; move it beside the scene or allow its folder (obscura run --allow-path DIR)")
        }
        return path
    }

    /// A PNG, JPEG or HEIC picture a card or screen shows. 16 megapixels, as for textures, is far past
    /// any scene's need and keeps a small file from declaring gigabytes of pixels. Our choice.
    private func readPicture(_ node: YAMLNode, what: String) throws -> PNGImage {
        let path = try confinedPath(node, what: what)
        do {
            return try PictureFile.read(path, maximumPixels: Self.maximumTexturePixels).image
        } catch {
            throw node.error("cannot read the \(what) \(TextExcerpt.quoted(try node.string())): \(error.message)")
        }
    }

    /// The most pixels a texture or picture may have.
    static let maximumTexturePixels = 1 << 24

    private func readBorder(_ m: YAMLMapping) throws -> (Double, Double) {
        var errors = ErrorCollector()
        let border = errors.attempt { try m.optional("border_reflectance")?.double(in: 0...1) ?? 0.03 }
        let gap = errors.attempt { try m.optional("gap")?.double(in: 0...0.9) ?? 0.15 }
        try errors.throwIfAny()
        return (border ?? 0.03, gap ?? 0.15)
    }

    /// Skin patches `first` … `first + count − 1` in reading order, `columns` to a row; a short
    /// last row is padded with the border material.
    private func readSkinPatches(_ m: YAMLMapping) throws -> Surface {
        let total = SkinTones.patches.count
        var errors = ErrorCollector()
        let columns = errors.attempt { try m.required("columns").int(in: 1...total) }
        let first = errors.attempt { try m.optional("first")?.int(in: 1...total) ?? 1 }
        let countNode = m.optional("count")
        let count = errors.attempt { try countNode?.int(in: 1...total) }
        let border = errors.attempt { try readBorder(m) }
        try errors.throwIfAny()
        let start = first ?? 1
        let n = (count ?? nil) ?? (total - start + 1)
        if let countNode, start + n - 1 > total {
            throw countNode.error("patches \(start)…\(start + n - 1) run past the last skin patch, \(total)")
        }
        let cols = try collected(columns, at: m.node)
        let (borderReflectance, gap) = try collected(border, at: m.node)
        let rows = (n + cols - 1) / cols
        let borderMaterial = Material.neutral("chart border", reflectance: borderReflectance)
        var patches = SkinTones.patches[(start - 1)..<(start - 1 + n)].map {
            Material(name: $0.name, reflectance: $0.reflectance)
        }
        while patches.count < rows * cols { patches.append(borderMaterial) }
        return .grid(columns: cols, rows: rows, patches: patches, border: borderMaterial, gap: gap)
    }

    /// A greyscale PNG whose pixel values index `palette`, a list of material names.
    private func readImage(_ m: YAMLMapping) throws -> Surface {
        var errors = ErrorCollector()
        let paletteNode = try m.required("palette")
        let palette = errors.attempt { () throws -> [Material] in
            let items = try paletteNode.sequence()
            guard !items.isEmpty else { throw paletteNode.error("needs at least one material") }
            var inner = ErrorCollector()
            let found = items.map { item in inner.attempt { try material(item) } }
            try inner.throwIfAny()
            return found.compactMap { $0 }
        }
        let pngNode = try m.required("png")
        let image = errors.attempt { () throws -> (Int, Int, [UInt16]) in
            let path = try confinedPath(pngNode, what: "texture")
            let png: PNGImage
            do {
                png = try PNG.read(contentsOf: path, maximumPixels: Self.maximumTexturePixels)
            } catch {
                throw pngNode.error("cannot read the texture: \(error)")
            }
            guard png.channels == 1 else {
                throw pngNode.error(
                    "a texture must be a greyscale PNG of palette indices, found \(png.channels) channels")
            }
            switch png.pixels {
            case let .eightBit(plane): return (plane.width, plane.height, plane.packedElements.map(UInt16.init))
            case let .sixteenBit(plane): return (plane.width, plane.height, plane.packedElements)
            }
        }
        try errors.throwIfAny()
        let (width, height, indices) = try collected(image, at: pngNode)
        let materials = try collected(palette, at: paletteNode)
        if let bad = indices.firstIndex(where: { Int($0) >= materials.count }) {
            throw pngNode.error(
                "pixel (\(bad % width), \(bad / width)) has value \(indices[bad]), but the palette has only "
                    + "\(materials.count) entries")
        }
        return .image(width: width, height: height, indices: indices, palette: materials)
    }
}
