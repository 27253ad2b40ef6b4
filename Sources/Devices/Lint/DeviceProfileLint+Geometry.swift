import Foundation

extension DeviceProfileLint.Context {
    /// Intrinsics against optics, extrinsics references, and the distortion tables.
    func checkGeometry(_ camera: CameraProfile, report: (String, String) -> Void) {
        if let optics = camera.optics, let k = camera.intrinsics {
            // fx = f / pixel pitch at full sensor size, scaled to the reference dimensions (spec §10).
            let scale = Double(k.reference.width) / Double(optics.sensor.width)
            let expected = optics.focalLengthPixels * scale
            if abs(k.fx / expected - 1) > 0.02 {
                report(
                    "intrinsics.fx_px",
                    String(
                        format: "fx %.1f px disagrees with focal_length_mm / pixel_size_um = %.1f px", k.fx, expected))
            }
            if abs(k.fy / k.fx - 1) > 0.01 {
                report("intrinsics.fy_px", "fy differs from fx, but the sensor has square pixels")
            }
            if abs(k.cx / Double(k.reference.width) - 0.5) > 0.05 || abs(k.cy / Double(k.reference.height) - 0.5) > 0.05
            {
                report("intrinsics", "the principal point is far from the image centre")
            }
            if abs(optics.sensor.aspectRatio / k.reference.aspectRatio - 1) > 0.005 {
                report("intrinsics.reference_px", "the reference dimensions have another aspect ratio than the sensor")
            }
        }
        if let e = camera.extrinsics {
            let isIdentity = (0..<3).allSatisfy { i in
                (0..<3).allSatisfy { j in abs(e.rotation[i][j] - (i == j ? 1 : 0)) < 1e-6 }
            }
            if e.reference == camera.id {
                if !isIdentity || e.translationMM.contains(where: { $0 != 0 }) {
                    report(
                        "extrinsics",
                        "a camera that is its own reference has identity rotation and zero translation (spec §10)")
                }
            } else if let reference = profile.camera(e.reference) {
                if reference.extrinsics?.reference != reference.id {
                    report("extrinsics.reference", "reference camera '\(reference.id)' is not itself a reference")
                }
            }
        }
        if let distortion = camera.distortion, let size = camera.intrinsics?.reference {
            checkDistortion(distortion, size: size, report: report)
        }
    }

    /// The forward map must be monotone in radius, and the inverse table must undo it.
    private func checkDistortion(_ d: LensDistortion, size: Dimensions, report: (String, String) -> Void) {
        let w = Double(size.width)
        let h = Double(size.height)
        if d.centerX > w || d.centerY > h {
            report("distortion.center_px", "the distortion centre lies outside the \(size) image")
            return
        }
        // Radius after the forward map, at each table node: must increase, or the lens would fold
        // the image over itself.
        let n = d.lookupTable.count
        let radii = (0..<n).map { Double($0) / Double(n - 1) * (1 + d.lookupTable[$0]) }
        if zip(radii, radii.dropFirst()).contains(where: { $0 >= $1 }) {
            report(
                "distortion.lookup_table",
                "the distorted radius does not increase with radius: the table folds the image")
        }
        // inverse ∘ forward ≈ identity along the diagonal towards the farthest corner.
        let dx = max(d.centerX, w - d.centerX)
        let dy = max(d.centerY, h - d.centerY)
        let rMax = (dx * dx + dy * dy).squareRoot()
        var worst = 0.0
        for k in 0...200 {
            let t = Double(k) / 200
            let x = d.centerX + (w - d.centerX >= d.centerX ? 1 : -1) * dx * t
            let y = d.centerY + (h - d.centerY >= d.centerY ? 1 : -1) * dy * t
            let f = LensDistortion.map(
                x: x, y: y, table: d.lookupTable, centerX: d.centerX, centerY: d.centerY, width: w, height: h)
            let b = LensDistortion.map(
                x: f.x, y: f.y, table: d.inverseLookupTable, centerX: d.centerX, centerY: d.centerY,
                width: w, height: h)
            worst = max(worst, ((b.x - x) * (b.x - x) + (b.y - y) * (b.y - y)).squareRoot())
        }
        // A tenth of a thousandth of the half-diagonal: well under a pixel, above table rounding.
        if worst > 1e-4 * rMax + 0.05 {
            report(
                "distortion.inverse_lookup_table",
                String(format: "is not the inverse of lookup_table: a round trip misses by %.2f px", worst))
        }
    }

    /// Flash checks: calibration close to the truth, of the same kind of spectrum.
    func checkFlash() {
        guard let flash = profile.flash else { return }
        for (i, entry) in flash.calibration.enumerated() {
            guard let module = flash.modules.first(where: { $0.id == entry.module }) else { continue }
            let key = "flash.calibration[\(i)]"
            let ratio = entry.intensityCD / module.intensityCD
            // A factory calibration is a measurement of this unit: within 10 % in intensity and a few
            // nanometres in peak (LED binning), or it describes another LED.
            if abs(ratio - 1) > 0.10 {
                report(
                    "\(key).intensity_cd",
                    String(
                        format: "calibrated intensity is %.0f %% off the module's %.1f cd", (ratio - 1) * 100,
                        module.intensityCD))
            }
            switch (module.spectrum, entry.spectrum) {
            case let (.cieLED(a, shiftA), .cieLED(b, shiftB)):
                if a != b { report("\(key).spectrum", "calibrates \(b) but the module is \(a)") }
                if abs(shiftB - shiftA) > 3 {
                    report("\(key).spectrum.peak_shift_nm", "the calibrated peak is more than 3 nm off the module's")
                }
            case let (.ohnoLED(p, _), .ohnoLED(q, _)):
                if abs(p - q) > 3 {
                    report("\(key).spectrum", "the calibrated peak is more than 3 nm off the module's")
                }
            default:
                break
            }
        }
        if !profile.cameras.contains(where: { $0.position == .back }) {
            report("flash", "a flash without a back camera")
        }
    }
}
