import ObscuraSupport

/// Reads one entry of `cameras:`.
enum CameraReader {
    static let keys = [
        "id", "type", "position", "constituents", "shares_sensor_with", "optics", "intrinsics", "extrinsics",
        "distortion", "shading", "sensitivities", "noise", "formats", "presets", "flash_modes", "features",
        "depth",
    ]
    static let physicalOnly = [
        "optics", "intrinsics", "extrinsics", "distortion", "shading", "sensitivities", "noise",
    ]

    static func read(_ node: YAMLNode, cameraIDs: [String]) throws -> CameraProfile {
        let map = try node.mapping(allowedKeys: keys)
        let id = try map.required("id").string()
        let type = try map.required("type").choice(DeviceType.self)
        let position = try map.required("position").choice(CameraPosition.self)

        var errors = ErrorCollector()
        func reference(_ node: YAMLNode) throws -> String {
            let other = try node.string()
            guard cameraIDs.contains(other) else {
                var message = "no camera with id \(TextExcerpt.quoted(other)) in this profile"
                if let guess = EditDistance.suggestion(for: other, among: cameraIDs) {
                    message += "; did you mean '\(guess)'?"
                }
                throw node.error(message)
            }
            guard other != id else { throw node.error("a camera cannot refer to itself") }
            return other
        }

        // Constituents: required for multi-camera types, forbidden otherwise (spec §2.2).
        var constituents: [String] = []
        if let list = map.optional("constituents") {
            if type.isMultiCamera {
                let items = try list.sequence()
                for item in items { if let c = errors.attempt({ try reference(item) }) { constituents.append(c) } }
                if let expected = type.constituentTypes, items.count != expected.count {
                    errors.add(
                        list.error(
                            "a \(type.rawValue) has \(expected.count) constituents (spec §2.2), found \(items.count)"))
                }
            } else {
                errors.add(list.error("only dual, dual-wide and triple cameras have constituents"))
            }
        } else if type.isMultiCamera {
            errors.add(node.error("missing key 'constituents' (a \(type.rawValue) is built from other cameras)"))
        }

        // TrueDepth and LiDAR deliver video from a camera they share a sensor with.
        var sharesSensorWith: String?
        if let other = map.optional("shares_sensor_with") {
            if type == .builtInTrueDepthCamera || type == .builtInLiDARDepthCamera {
                sharesSensorWith = errors.attempt { try reference(other) }
            } else {
                errors.add(other.error("only TrueDepth and LiDAR cameras share a sensor with another camera"))
            }
        } else if type == .builtInTrueDepthCamera || type == .builtInLiDARDepthCamera {
            errors.add(node.error("missing key 'shares_sensor_with' (the camera whose sensor gives its video)"))
        }

        let isPhysical = type.isPhysicalLens
        if !isPhysical {
            for key in physicalOnly {
                if let extra = map.keyNode(key) {
                    errors.add(
                        LocatedError(
                            extra.location,
                            "\(node.path): '\(key)' belongs to physical cameras; a \(type.rawValue) takes it from "
                                + (type.isMultiCamera ? "its constituents" : "'shares_sensor_with'")))
                }
            }
        }
        var optics: CameraOptics?
        var intrinsics: CameraIntrinsics?
        var extrinsics: CameraExtrinsics?
        var distortion: LensDistortion?
        var shading: LensShadingProfile?
        var sensitivities: SpectralSensitivities?
        var noise: NoiseModel?
        if isPhysical {
            optics = errors.attempt { try OpticsReader.optics(try map.required("optics")) }
            intrinsics = errors.attempt { try OpticsReader.intrinsics(try map.required("intrinsics")) }
            extrinsics = errors.attempt {
                try OpticsReader.extrinsics(try map.required("extrinsics"), selfID: id, reference: reference)
            }
            if let d = map.optional("distortion") { distortion = errors.attempt { try OpticsReader.distortion(d) } }
            if let s = map.optional("shading") { shading = errors.attempt { try OpticsReader.shading(s) } }
            sensitivities = errors.attempt {
                try map.optional("sensitivities").map(SensorReader.sensitivities) ?? SensorReader.defaultSensitivities
            }
            noise = errors.attempt { try map.optional("noise").map(SensorReader.noise) ?? SensorReader.defaultNoise }
        }

        var formats: [CaptureFormat] = []
        if let list = errors.attempt({ try map.required("formats").sequence() }) {
            if list.isEmpty { errors.add(map.node.error("'formats' must list at least one format")) }
            for item in list {
                if let format = errors.attempt({ try FormatReader.format(item) }) {
                    if formats.contains(where: { $0.id == format.id }) {
                        errors.add(item.error("duplicate format id '\(format.id)'"))
                    }
                    // A photo has at most the sensor's photosites: a larger one is no photo the camera takes (and
                    // would be rendered at that size).
                    let sensor = optics?.sensor
                    let tooBig = format.photoDimensions.first { size in
                        sensor.map { size.width > $0.width || size.height > $0.height } ?? false
                    }
                    if let sensor, let big = tooBig {
                        errors.add(
                            item.error(
                                "photo_px: photo size \(big.width)x\(big.height) is larger than the sensor's "
                                    + "\(sensor.width)x\(sensor.height) (optics.sensor_px)"))
                    }
                    formats.append(format)
                }
            }
        }

        var presets: [SessionPreset: String] = [:]
        if let presetNode = map.optional("presets") {
            let names = SessionPreset.allCases.map(\.rawValue)
            if let presetMap = errors.attempt({ try presetNode.mapping(allowedKeys: names) }) {
                for entry in presetMap.entries {
                    guard let preset = SessionPreset(rawValue: entry.key) else { continue }
                    if let formatID = errors.attempt({ try entry.value.string() }) {
                        if formats.contains(where: { $0.id == formatID }) || formats.isEmpty {
                            presets[preset] = formatID
                        } else {
                            var message = "no format with id \(TextExcerpt.quoted(formatID)) in this camera"
                            if let guess = EditDistance.suggestion(for: formatID, among: formats.map(\.id)) {
                                message += "; did you mean '\(guess)'?"
                            }
                            errors.add(entry.value.error(message))
                        }
                    }
                }
            }
        }

        let flashModes = errors.attempt { try map.required("flash_modes").choices(FlashMode.self) } ?? [.off]
        let features = errors.attempt {
            try map.optional("features").map(FeatureReader.features) ?? FeatureReader.defaultFeatures
        }
        var depth: DepthCapability?
        if let depthNode = map.optional("depth") {
            depth = errors.attempt { try FeatureReader.depth(depthNode) }
        } else if formats.contains(where: { !$0.depthFormats.isEmpty }) {
            errors.add(node.error("has depth formats but no 'depth' section describing the depth technology"))
        }
        try errors.throwIfAny()
        guard let features else { throw LocatedErrors(errors.errors) }
        return CameraProfile(
            id: id, deviceType: type, position: position, constituents: constituents,
            sharesSensorWith: sharesSensorWith, optics: optics, intrinsics: intrinsics, extrinsics: extrinsics,
            distortion: distortion, sensitivities: sensitivities, noise: noise, formats: formats, presets: presets,
            flashModes: flashModes, features: features, depth: depth, shading: shading)
    }
}
