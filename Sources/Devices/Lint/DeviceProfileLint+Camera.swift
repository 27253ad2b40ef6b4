import Foundation

extension DeviceProfileLint.Context {
    /// Checks one camera; every message starts with `cameras[i] (id)`.
    func checkCamera(_ camera: CameraProfile, index: Int) {
        let raw = "cameras[\(index)]"
        let label = "\(raw) (\(camera.id))"
        func report(_ key: String, _ message: String) {
            let rawPath = key.isEmpty ? raw : "\(raw).\(key)"
            self.report(rawPath, message, label: key.isEmpty ? label : "\(label).\(key)")
        }

        // Constituent types in Apple's order, shortest focal length first (spec §2.2 [O]).
        if let expected = camera.deviceType.constituentTypes {
            let actual = camera.constituents.compactMap { profile.camera($0) }
            let types = actual.map(\.deviceType)
            if types != expected && types.count == expected.count {
                report(
                    "constituents",
                    "a \(camera.deviceType.rawValue) has constituents of types "
                        + "[\(expected.map(\.rawValue).joined(separator: ", "))] in that order (spec §2.2), found "
                        + "[\(types.map(\.rawValue).joined(separator: ", "))]")
            }
            for other in actual where other.position != camera.position {
                report(
                    "constituents",
                    "constituent '\(other.id)' faces \(other.position.rawValue), not \(camera.position.rawValue)")
            }
        }
        if let shared = camera.sharesSensorWith.flatMap({ profile.camera($0) }) {
            if !shared.deviceType.isPhysicalLens || shared.position != camera.position {
                report("shares_sensor_with", "'\(shared.id)' must be a physical camera on the same side")
            }
        }

        checkDepth(camera, report: report)
        checkFlashModes(camera, report: report)
        checkFeatures(camera, report: report)
        checkFormats(camera, index: index, report: report)
        checkGeometry(camera, report: report)
        if let noise = camera.noise, noise.readNoiseE >= noise.fullWellE / 10 {
            report(
                "noise.read_noise_e",
                "read noise \(noise.readNoiseE) e⁻ is implausible for a \(noise.fullWellE) e⁻ well")
        }
    }

    private func checkDepth(_ camera: CameraProfile, report: (String, String) -> Void) {
        // Only dual, dual-wide, triple, TrueDepth and LiDAR cameras deliver depth (spec §2.1).
        if camera.hasDepthFormats && !camera.deviceType.canDeliverDepth {
            report("formats", "has depth formats, but a \(camera.deviceType.rawValue) cannot deliver depth"
                    + " (spec §2.1)")
        }
        guard let depth = camera.depth else { return }
        if !camera.hasDepthFormats {
            report("depth", "describes depth, but no format offers a depth format")
        }
        if let expected = camera.deviceType.depthTechnology, depth.technology != expected {
            report(
                "depth.technology",
                "a \(camera.deviceType.rawValue) measures depth by \(expected.rawValue),"
                    + " not \(depth.technology.rawValue)"
            )
        }
        // Dual-camera disparity is always relative; TrueDepth and LiDAR are absolute (spec §9 [D]).
        let expectedAccuracy: DepthAccuracy = depth.technology == .dualCameraDisparity ? .relative : .absolute
        if depth.accuracy != expectedAccuracy {
            report(
                "depth.accuracy",
                "\(depth.technology.rawValue) depth has \(expectedAccuracy.rawValue) accuracy (spec §9)")
        }
        guard depth.technology == .dualCameraDisparity else { return }
        guard let baseline = depth.baselineMM else {
            report("depth", "disparity depth needs 'baseline_mm'")
            return
        }
        // The baseline follows from the constituents' extrinsics: the distance between their
        // translations when both are given relative to the same reference camera (spec §10).
        let pair = camera.constituents.compactMap { profile.camera($0) }.filter { $0.extrinsics != nil }
        let disparityPair = camera.deviceType == .builtInTripleCamera ? Array(pair.prefix(2)) : Array(pair.suffix(2))
        guard disparityPair.count == 2, let a = disparityPair[0].extrinsics, let b = disparityPair[1].extrinsics,
            a.reference == b.reference
        else { return }
        let d = zip(a.translationMM, b.translationMM).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        if abs(d - baseline) > 0.5 {
            report(
                "depth.baseline_mm",
                "baseline \(baseline) mm disagrees with the extrinsics of '\(disparityPair[0].id)' and "
                    + "'\(disparityPair[1].id)', which are \(String(format: "%.2f", d)) mm apart")
        }
    }

    private func checkFlashModes(_ camera: CameraProfile, report: (String, String) -> Void) {
        if !camera.flashModes.contains(.off) {
            report("flash_modes", "must include off (every camera can capture without flash)")
        }
        // A camera without a flash supports only [.off] (spec §2.7, §3.1, §13 N3).
        if !profile.hasFlash(camera) && camera.flashModes != [.off] {
            let why = profile.flash == nil ? "the device has no flash" : "the flash is on the back"
            report("flash_modes", "must be [off]: \(why)")
        }
    }

    private func checkFeatures(_ camera: CameraProfile, report: (String, String) -> Void) {
        let features = camera.features
        let anyConstantColor = features.constantColor || camera.formats.contains { $0.constantColor == true }
        if anyConstantColor {
            // Constant Color needs the flash to fire: flash mode on or auto (spec §11 [D]).
            if !profile.hasFlash(camera) || !camera.flashModes.contains(where: { $0 != .off }) {
                report(
                    "features.constant_color",
                    "Constant Color needs a flash that can fire (spec §11), and this camera has none")
            }
            // Only the wide and dual-wide cameras support it (spec §11 [T?], emulator choice [I]).
            if camera.deviceType != .builtInWideAngleCamera && camera.deviceType != .builtInDualWideCamera {
                report(
                    "features.constant_color",
                    "Constant Color is supported on builtInWideAngleCamera and builtInDualWideCamera only (spec §11)")
            }
        }
        if features.constituentPhotoDelivery && !camera.deviceType.isMultiCamera {
            report(
                "features.constituent_photo_delivery",
                "only virtual multi-camera devices deliver constituent photos (spec §3.1)")
        }
        // Calibration data comes with constituent photos (spec §3.1 [D]).
        if features.calibrationDataDelivery && !features.constituentPhotoDelivery {
            report(
                "features.calibration_data_delivery",
                "calibration data delivery requires constituent photo delivery (spec §3.1)")
        }
    }

    private func checkFormats(_ camera: CameraProfile, index: Int, report: (String, String) -> Void) {
        for (i, format) in camera.formats.enumerated() {
            let key = "formats[\(i)]"
            // sRGB is always supported, and the list runs narrowest first (spec §2.3 [D]).
            if !format.colorSpaces.contains(.sRGB) {
                report("\(key).color_spaces", "must include sRGB (spec §2.3)")
            }
            if format.colorSpaces.map(\.rank) != format.colorSpaces.map(\.rank).sorted() {
                report("\(key).color_spaces", "must be ordered narrowest first (spec §2.3)")
            }
            if format.photoDimensions.isEmpty {
                report("\(key).photo_px", "needs at least one photo size")
            }
            if format.photoDimensions != format.photoDimensions.sorted() {
                report("\(key).photo_px", "supportedMaxPhotoDimensions are ascending (spec §2.3)")
            }
            for (j, depth) in format.depthFormats.enumerated() where depth.maxFPS > format.maxFPS {
                report(
                    "\(key).depth[\(j)].max_fps",
                    "depth rate \(depth.maxFPS) fps exceeds the video's maximum \(format.maxFPS) fps (spec §2.5)")
            }
            if format.constantColor == true && !camera.features.constantColor && !profile.hasFlash(camera) {
                report("\(key).constant_color", "Constant Color needs a flash (spec §11)")
            }
        }
        for (preset, id) in camera.presets.sorted(by: { $0.key < $1.key }) {
            guard let format = camera.formats.first(where: { $0.id == id }) else { continue }
            if let named = preset.namedDimensions, named != format.video {
                report(
                    "presets.\(preset.rawValue)",
                    "preset \(preset.rawValue) selects \(format.video) video, not \(named)")
            }
            // `.photo` selects a format with the highest photo quality (spec §2.3 [D]).
            if preset == .photo && !format.highestPhotoQuality {
                report("presets.photo", "the photo preset must select a format with highest_photo_quality (spec §2.3)")
            }
        }
    }
}
