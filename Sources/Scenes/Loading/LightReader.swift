import Imaging
import ObscuraSupport
import Spectra

/// Reads the `ambient` section and the entries of `lights`.
struct LightReader {
    enum Kind: String, CaseIterable { case directional, point, spot }

    static let ambientKeys = ["spectrum", "lux", "direction", "diffuse_fraction", "key_angular_radius_deg"]
    static let lightKeys: [Kind: [String]] = [
        .directional: ["name", "type", "spectrum", "lux", "direction"],
        .point: ["name", "type", "spectrum", "intensity_cd", "position_m"],
        .spot: [
            "name", "type", "spectrum", "intensity_cd", "position_m", "aim_at_m", "aim_at_object",
            "beam_half_angle_deg",
        ],
    ]

    /// Object positions by name, for `aim_at_object`.
    let objectPositions: [String: Vector3]

    static func readAmbient(_ node: YAMLNode) throws -> AmbientLight {
        let m = try node.mapping(allowedKeys: ambientKeys)
        var errors = ErrorCollector()
        let spectrum = errors.attempt { try SpectrumReader.read(try m.required("spectrum")) }
        let lux = errors.attempt { try m.required("lux").nonNegativeDouble() }
        let direction = errors.attempt { try m.optional("direction")?.direction() ?? Vector3(0, 1, 0) }
        let diffuse = errors.attempt { try m.optional("diffuse_fraction")?.double(in: 0...1) ?? 0.5 }
        let radius = errors.attempt { try m.optional("key_angular_radius_deg")?.double(in: 0...45) ?? 0 }
        try errors.throwIfAny()
        return AmbientLight(
            spectrum: try collected(spectrum, at: node), illuminance: try collected(lux, at: node),
            direction: try collected(direction, at: node), diffuseFraction: try collected(diffuse, at: node),
            keyAngularRadiusDegrees: try collected(radius, at: node))
    }

    func read(_ raw: YAMLNode) throws -> Light {
        let node = raw.labelledByName
        let typeNode = node.node.mapping?["type"].map { YAMLNode($0, file: node.file, path: node.path + ".type") }
        guard let typeNode else {
            _ = try node.mapping(allowedKeys: Array(Set(Self.lightKeys.values.joined())).sorted())
            throw node.error("a light needs a type: directional, point or spot")
        }
        let kind = try typeNode.choice(Kind.self)
        let m = try node.mapping(allowedKeys: Self.lightKeys[kind] ?? [])
        var errors = ErrorCollector()
        let name = errors.attempt { try m.required("name").string() }
        let spectrum = errors.attempt { try SpectrumReader.read(try m.required("spectrum")) }
        let geometry = errors.attempt { () throws -> Light.Kind in
            switch kind {
            case .directional:
                var inner = ErrorCollector()
                let towards = inner.attempt { try m.required("direction").direction() }
                let lux = inner.attempt { try m.required("lux").nonNegativeDouble() }
                try inner.throwIfAny()
                return .directional(
                    towardsLight: try collected(towards, at: node), illuminance: try collected(lux, at: node))
            case .point:
                var inner = ErrorCollector()
                let position = inner.attempt { try m.required("position_m").vector3() }
                let intensity = inner.attempt { try m.required("intensity_cd").nonNegativeDouble() }
                try inner.throwIfAny()
                return .point(
                    position: try collected(position, at: node), intensity: try collected(intensity, at: node))
            case .spot:
                return try readSpot(m, node: node)
            }
        }
        try errors.throwIfAny()
        return Light(
            name: try collected(name, at: node), spectrum: try collected(spectrum, at: node),
            kind: try collected(geometry, at: node))
    }

    private func readSpot(_ m: YAMLMapping, node: YAMLNode) throws -> Light.Kind {
        var errors = ErrorCollector()
        let position = errors.attempt { try m.required("position_m").vector3() }
        let intensity = errors.attempt { try m.required("intensity_cd").nonNegativeDouble() }
        // A cos^m beam cannot reach 90°, where the spot's fall-off model is zero by definition.
        let halfAngle = errors.attempt { () throws -> Double in
            let node = try m.required("beam_half_angle_deg")
            let value = try node.positiveDouble()
            guard value < 90 else { throw node.error("must be less than 90, found \(value)") }
            return value
        }
        let target = errors.attempt { () throws -> (Vector3, YAMLNode) in
            let source = try m.exactlyOne(of: ["aim_at_m", "aim_at_object"], what: "a spot light's aim")
            let value = try m.required(source)
            if source == "aim_at_m" { return (try value.vector3(), value) }
            return (try objectPosition(value), value)
        }
        try errors.throwIfAny()
        let from = try collected(position, at: node)
        let (to, targetNode) = try collected(target, at: node)
        guard (to - from).length > 1e-9 else { throw targetNode.error("a spot light cannot aim at its own position") }
        return .spot(
            position: from, axis: (to - from).normalized, intensity: try collected(intensity, at: node),
            beamHalfAngleDegrees: try collected(halfAngle, at: node))
    }

    /// The position of a named object; unknown names get a suggestion.
    func objectPosition(_ node: YAMLNode) throws -> Vector3 {
        let name = try node.string()
        if let hit = objectPositions[name] { return hit }
        var message = "no object named \(TextExcerpt.quoted(name)) in this scene"
        if let guess = EditDistance.suggestion(for: name, among: objectPositions.keys.sorted()) {
            message += "; did you mean '\(guess)'?"
        }
        throw node.error(message)
    }

    /// The `device` section: position, what it looks at, which way is up, and its motion.
    func readDevice(_ node: YAMLNode) throws -> DevicePlacement {
        let m = try node.mapping(allowedKeys: ["position_m", "look_at_m", "look_at_object", "up", "motion"])
        var errors = ErrorCollector()
        let position = errors.attempt { try m.required("position_m").vector3() }
        let target = errors.attempt { () throws -> (Vector3, YAMLNode) in
            let source = try m.exactlyOne(of: ["look_at_m", "look_at_object"], what: "the device's view")
            let value = try m.required(source)
            if source == "look_at_m" { return (try value.vector3(), value) }
            return (try objectPosition(value), value)
        }
        let up = errors.attempt { try m.optional("up")?.direction() ?? Vector3(0, 1, 0) }
        let motion = errors.attempt { try m.optional("motion").map(ObjectReader.readMotion) ?? .none }
        try errors.throwIfAny()
        let from = try collected(position, at: node)
        let (to, targetNode) = try collected(target, at: node)
        let forward = to - from
        guard forward.length > 1e-9 else { throw targetNode.error("the device cannot look at its own position") }
        let upVector = try collected(up, at: node)
        if forward.normalized.cross(upVector).length < 1e-6 {
            throw (m.optional("up") ?? targetNode).error("'up' is parallel to the viewing direction")
        }
        return DevicePlacement(position: from, lookAt: to, up: upVector, motion: try collected(motion, at: node))
    }
}
