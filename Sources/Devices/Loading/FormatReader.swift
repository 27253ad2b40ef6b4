import ObscuraSupport

/// Reads one entry of a camera's `formats:` list.
enum FormatReader {
    static let keys = [
        "id", "video_px", "pixel_format", "fps_ranges", "color_spaces", "photo_px", "highest_photo_quality", "depth",
        "constant_color", "binned", "field_of_view_deg", "stabilization_modes", "video_hdr", "intrinsic_reference_px",
        "readout", "binned_full_well_e", "binned_read_noise_e", "provenance",
    ]
    static let depthKeys = ["size_px", "pixel_formats", "max_fps"]

    static func format(_ node: YAMLNode) throws -> CaptureFormat {
        let map = try node.mapping(allowedKeys: keys)
        let video = try map.required("video_px").dimensions()
        let id = try map.optional("id")?.string() ?? "\(video)-\(try map.required("pixel_format").string())"

        var ranges: [FrameRateRange] = []
        let rangesNode = try map.required("fps_ranges")
        let rangeItems = try rangesNode.sequence()
        guard !rangeItems.isEmpty else { throw rangesNode.error("must list at least one frame-rate range") }
        for item in rangeItems {
            let pair = try item.sequence(count: 2)
            let low = try pair[0].positiveDouble()
            let high = try pair[1].positiveDouble()
            guard low <= high else { throw item.error("frame-rate range is not ordered: \(low) > \(high)") }
            ranges.append(FrameRateRange(minFPS: low, maxFPS: high))
        }

        var depthFormats: [DepthFormat] = []
        if let depthNode = map.optional("depth") {
            for item in try depthNode.sequence() {
                let depthMap = try item.mapping(allowedKeys: depthKeys)
                let sizeNode = try depthMap.required("size_px")
                let size = try sizeNode.dimensions()
                // Depth formats always match the video aspect ratio (spec §2.3 [D]); 0.5 % allows
                // sizes rounded to whole pixels.
                if abs(size.aspectRatio / video.aspectRatio - 1) > 0.005 {
                    throw sizeNode.error(
                        "depth size \(size) does not have the video format's aspect ratio (\(video)); "
                            + "depth formats must match it (spec §2.3)")
                }
                guard size.width <= video.width && size.height <= video.height else {
                    throw sizeNode.error("depth size \(size) is larger than the video (\(video))")
                }
                depthFormats.append(
                    DepthFormat(
                        dimensions: size,
                        pixelFormats: try depthMap.required("pixel_formats").choices(DepthPixelFormat.self),
                        maxFPS: try depthMap.required("max_fps").positiveDouble()))
            }
        }
        return CaptureFormat(
            id: id, video: video, pixelFormat: try map.required("pixel_format").choice(VideoPixelFormat.self),
            frameRateRanges: ranges, colorSpaces: try map.required("color_spaces").choices(CaptureColorSpace.self),
            photoDimensions: try map.required("photo_px").sequence().map { try photoSize($0) },
            highestPhotoQuality: try map.optional("highest_photo_quality")?.bool() ?? false,
            depthFormats: depthFormats, constantColor: try map.optional("constant_color")?.bool(),
            capabilities: try capabilities(map, video: video),
            provenance: try ProvenanceReader.read(map, sectionKeys: keys))
    }

    /// The facts a real device reports for the format (spec §2.3); absent keys stay nil and are
    /// derived from the camera.
    static func capabilities(_ map: YAMLMapping, video: Dimensions) throws -> FormatCapabilities {
        var facts = FormatCapabilities()
        facts.binned = try map.optional("binned")?.bool()
        facts.videoHDR = try map.optional("video_hdr")?.bool()
        if let node = map.optional("field_of_view_deg") {
            let degrees = try node.double()
            guard degrees > 0 && degrees < 180 else {
                throw node.error("a field of view lies between 0 and 180 degrees, found \(degrees)")
            }
            facts.fieldOfViewDegrees = degrees
        }
        if let node = map.optional("stabilization_modes") {
            let modes = try node.choices(StabilizationMode.self)
            // Every format can run unstabilised (spec §2.3 [D]: `.off` is always supported).
            guard modes.contains(.off) else {
                throw node.error("stabilization modes must include 'off': every format can run without stabilisation")
            }
            facts.stabilizationModes = modes
        }
        if let node = map.optional("intrinsic_reference_px") {
            let reference = try node.dimensions()
            // The calibration refers to the picture the format delivers, so it has its aspect ratio;
            // 0.5 % allows sides rounded to whole pixels (spec §10).
            if abs(reference.aspectRatio / video.aspectRatio - 1) > 0.005 {
                throw node.error(
                    "intrinsic reference \(reference) does not have the video format's aspect ratio (\(video)); "
                        + "it is the part of the sensor the format shows (spec §10)")
            }
            facts.intrinsicReference = reference
        }
        facts.readout = try readout(map, binned: facts.binned)
        return facts
    }

    /// The most pixels a photo may have: 200 million, the largest phone sensors' count (our choice), so that a
    /// mistyped size is an error here and not an allocation of gigabytes when the photo is rendered.
    static let maximumPhotoPixels = 200_000_000

    /// One `photo_px` entry, within `maximumPhotoPixels`.
    static func photoSize(_ node: YAMLNode) throws -> Dimensions {
        let size = try node.dimensions()
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= maximumPhotoPixels else {
            throw node.error(
                "a photo of \(size.width)x\(size.height) is over the \(maximumPhotoPixels / 1_000_000) megapixels "
                    + "a photo may have")
        }
        return size
    }

    /// The format's `readout` with its binned read's values; a stated `binned` must agree with it.
    static func readout(_ map: YAMLMapping, binned: Bool?) throws -> FormatReadout? {
        let fullWell = map.optional("binned_full_well_e")
        let readNoise = map.optional("binned_read_noise_e")
        guard let node = map.optional("readout") else {
            if let extra = fullWell ?? readNoise { throw extra.error("binned values need 'readout: binned'") }
            return nil
        }
        let mode = try node.choice(FormatReadout.Mode.self)
        if let binned, binned != (mode == .binned) {
            throw node.error("readout '\(mode.rawValue)' contradicts 'binned: \(binned)'")
        }
        if mode != .binned, let extra = fullWell ?? readNoise {
            throw extra.error("binned values need 'readout: binned', found '\(mode.rawValue)'")
        }
        return FormatReadout(
            mode: mode, binnedFullWellE: try fullWell.map { try $0.double(in: SensorReader.fullWellRange) },
            binnedReadNoiseE: try readNoise.map { try $0.double(in: SensorReader.readNoiseRange) })
    }
}
