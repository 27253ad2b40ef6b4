import Foundation
import Obscura
import Testing

/// `activeMaxExposureDuration`: the longest exposure auto-exposure chooses, for the stream and for
/// photos (spec §2.4). Auto-exposure drives metered rate × time × ISO to a fixed target (ISO
/// 12232), so in a dim scene the product time × ISO is fixed by the light: a longer limit buys a
/// longer time at a proportionally lower ISO, a shorter one the opposite.
@Suite struct AVCaptureDeviceMaxExposureTests {
    /// A grey card filling the view in dim light: dark enough that auto-exposure reaches its default
    /// longest time and raises the ISO, not so dark that the ISO tops out.
    static func dimScene() throws -> String { try PhotoScenes.greyCard(lux: 40, distance: 1) }

    static func setMax(_ device: AVCaptureDevice, _ duration: CMTime) throws {
        try device.lockForConfiguration()
        device.activeMaxExposureDuration = duration
        device.unlockForConfiguration()
    }

    /// The stream's exposure now: duration in seconds and ISO.
    static func exposure(_ device: AVCaptureDevice) -> (time: Double, iso: Double) {
        (device.exposureDuration.seconds, Double(device.iso))
    }

    // spec §2.4 [D]: the default lies within the active format's exposure range; setting needs the
    // lock, and a value outside the range raises NSRangeException.
    @Test func defaultIsWithinTheFormatAndSettingFollowsTheRules() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let format = device.activeFormat
            let value = device.activeMaxExposureDuration
            #expect(value.isValid)
            #expect(value <= format.maxExposureDuration && value >= format.minExposureDuration)
            expectException(.genericException, "lockForConfiguration") {
                device.activeMaxExposureDuration = format.maxExposureDuration
            }
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            let longer = CMTimeAdd(format.maxExposureDuration, CMTime(value: 1, timescale: 10))
            expectException(.rangeException, "activeMaxExposureDuration") { device.activeMaxExposureDuration = longer }
            expectException(.rangeException, "activeMaxExposureDuration") {
                device.activeMaxExposureDuration = CMTime(value: 1, timescale: 10_000_000)
            }
            expectNoException { device.activeMaxExposureDuration = format.maxExposureDuration }
            #expect(device.activeMaxExposureDuration == format.maxExposureDuration)
        }
    }

    // spec §2.4 [D]: `.invalid` restores the default, and so does a new active format; observers hear
    // the change.
    @Test func invalidAndANewFormatRestoreTheDefault() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let original = device.activeMaxExposureDuration
            let longest = device.activeFormat.maxExposureDuration
            try #require(longest > original)
            var heard: [CMTime] = []
            let observation = device.observe(\.activeMaxExposureDuration, options: [.new]) { _, change in
                if let value = change.newValue { heard.append(value) }
            }
            defer { observation.invalidate() }
            try Self.setMax(device, longest)
            #expect(device.activeMaxExposureDuration == longest)
            try Self.setMax(device, .invalid)
            #expect(device.activeMaxExposureDuration == original)
            #expect(heard.first == longest && heard.last == original)

            try Self.setMax(device, longest)
            let other = try #require(device.formats.first { $0 !== device.activeFormat && $0.mediaType == .video })
            try device.lockForConfiguration()
            device.activeFormat = other
            device.unlockForConfiguration()
            #expect(device.activeMaxExposureDuration <= other.maxExposureDuration)
            #expect(device.activeMaxExposureDuration != longest || other.maxExposureDuration == longest)
        }
    }

    // In a dim scene the stream's auto-exposure stops at the limit: a longer one gives a longer
    // exposure at a lower ISO with the same time × ISO (the light did not change), a shorter one a
    // shorter exposure at a higher ISO; the exposure never exceeds the limit or the format's maximum.
    @Test func streamExposureFollowsTheLimit() throws {
        try onDevice {
            try Emulator.shared.use(scene: Self.dimScene())
            let device = try #require(AVCaptureDevice.default(for: .video))
            let limit = device.activeMaxExposureDuration.seconds
            let base = Self.exposure(device)
            // The scene is dim: the default limit is reached and the ISO raised, with room either way.
            try #require(abs(base.time / limit - 1) < 1e-3, "time \(base.time) s at a limit of \(limit) s")
            try #require(base.iso > 4 * Double(device.activeFormat.minISO))
            try #require(base.iso < Double(device.activeFormat.maxISO) / 4)

            let longer = min(4 * limit, device.activeFormat.maxExposureDuration.seconds)
            try Self.setMax(device, CMTime(seconds: longer, preferredTimescale: 1_000_000_000))
            let long = Self.exposure(device)
            #expect(long.time > base.time * 1.5 && long.time <= longer * (1 + 1e-6))
            #expect(long.iso < base.iso)
            #expect(abs(long.time * long.iso / (base.time * base.iso) - 1) < 0.01)

            try Self.setMax(device, CMTime(seconds: limit / 4, preferredTimescale: 1_000_000_000))
            let short = Self.exposure(device)
            #expect(abs(short.time / (limit / 4) - 1) < 1e-3)
            #expect(abs(short.iso / base.iso - 4) < 0.04)
            #expect(device.exposureDuration <= device.activeFormat.maxExposureDuration)
        }
    }

    // Photos meter with the same limit: the Exif exposure time and ISO of a photo taken with a longer
    // limit are longer and lower, with the same product.
    @Test func photoExposureFollowsTheLimit() throws {
        try onDevice {
            try Emulator.shared.use(scene: Self.dimScene())
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            func exif(_ photo: AVCapturePhoto) throws -> (time: Double, iso: Double) {
                let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
                let time = try #require(exif["ExposureTime"] as? Double)
                let iso = try #require((exif["ISOSpeedRatings"] as? [Int])?.first)
                return (time, Double(iso))
            }
            let limit = rig.device.activeMaxExposureDuration.seconds
            let base = try exif(try #require(capture(rig, AVCapturePhotoSettings()).photos.first))
            try #require(abs(base.time / limit - 1) < 1e-3, "time \(base.time) s at a limit of \(limit) s")
            let longer = min(4 * limit, rig.device.activeFormat.maxExposureDuration.seconds)
            try Self.setMax(rig.device, CMTime(seconds: longer, preferredTimescale: 1_000_000_000))
            let long = try exif(try #require(capture(rig, AVCapturePhotoSettings()).photos.first))
            #expect(long.time > base.time * 1.5 && long.time <= longer * (1 + 1e-6))
            #expect(long.iso < base.iso)
            // ISO is written as a whole number: the product agrees to its rounding.
            #expect(abs(long.time * long.iso / (base.time * base.iso) - 1) < 0.05)
            try Self.setMax(rig.device, CMTime(seconds: limit / 2, preferredTimescale: 1_000_000_000))
            let short = try exif(try #require(capture(rig, AVCapturePhotoSettings()).photos.first))
            #expect(abs(short.time / (limit / 2) - 1) < 1e-3)
            #expect(short.iso > base.iso)
        }
    }

    // Our choice (`ConstantColorCapturePlan.meter`): a Constant Color capture keeps to the limit as a photo does.
    // Both its photos carry the pair's exposure (the fallback is developed from the pair's ambient frame): with the
    // limit at half the time the pair took without it, both are exposed for at most that half.
    @Test func constantColorExposureFollowsTheLimit() throws {
        try onDevice {
            try Emulator.shared.use(scene: Self.dimScene())
            let rig = try AVCapturePhotoOutputConstantColorTests.rig()
            defer { rig.session.stopRunning() }
            func times() throws -> [Double] {
                let settings = AVCapturePhotoOutputConstantColorTests.settings(flash: .on, fallback: true)
                let photos = capture(rig, settings).photos
                try #require(photos.count == 2)
                return try photos.map { photo in
                    let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
                    return try #require(exif["ExposureTime"] as? Double)
                }
            }
            let free = try times()
            let half = free[0] / 2
            try #require(half >= rig.device.activeFormat.minExposureDuration.seconds)
            try Self.setMax(rig.device, CMTime(seconds: half, preferredTimescale: 1_000_000_000))
            let limited = try times()
            #expect(free.allSatisfy { $0 > 1.5 * half }, "\(free) s without a limit")
            #expect(limited.allSatisfy { $0 <= half * (1 + 1e-3) }, "\(limited) s at a limit of \(half) s")
        }
    }

    // spec §2.4: the exposure target bias moves auto-exposure's target for photos as for the stream: +1 EV
    // doubles time × ISO, −1 EV halves it (the light did not change).
    @Test func photoExposureFollowsTheTargetBias() throws {
        try onDevice {
            try Emulator.shared.use(scene: Self.dimScene())
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            func product() throws -> Double {
                let photo = try #require(capture(rig, AVCapturePhotoSettings()).photos.first)
                let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
                let time = try #require(exif["ExposureTime"] as? Double)
                let iso = try #require((exif["ISOSpeedRatings"] as? [Int])?.first)
                return time * Double(iso)
            }
            func bias(_ value: Float) throws {
                try rig.device.lockForConfiguration()
                rig.device.setExposureTargetBias(value, completionHandler: nil)
                rig.device.unlockForConfiguration()
            }
            let base = try product()
            try bias(1)
            let brighter = try product()
            try bias(-1)
            let darker = try product()
            // ISO is written as a whole number: the ratios agree to its rounding.
            #expect(abs(brighter / base - 2) < 0.1, "+1 EV gave \(brighter / base)×")
            #expect(abs(darker / base - 0.5) < 0.03, "−1 EV gave \(darker / base)×")
        }
    }

    // spec §4: each element of a bracket is its own exposure. An auto-exposure bracket of −1, 0 and +1 EV gives
    // photos whose time × ISO goes ½, 1, 2 (the light did not change); a manual bracket gives each photo the
    // element's duration and ISO.
    @Test func bracketElementsAreExposedEachAsAsked() throws {
        try onDevice {
            try Emulator.shared.use(scene: Self.dimScene())
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            func exposures(_ elements: [AVCaptureBracketedStillImageSettings]) throws -> [(time: Double, iso: Double)] {
                let settings = AVCapturePhotoBracketSettings(
                    rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                    bracketedSettings: elements)
                let photos = capture(rig, settings).photos
                try #require(photos.count == elements.count)
                return try photos.map { photo in
                    let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
                    let time = try #require(exif["ExposureTime"] as? Double)
                    let iso = try #require((exif["ISOSpeedRatings"] as? [Int])?.first)
                    return (time, Double(iso))
                }
            }
            let auto = try exposures([-1, 0, 1].map {
                AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0)
            })
            let products = auto.map { $0.time * $0.iso }
            // ISO is written as a whole number: the ratios agree to its rounding.
            #expect(abs(products[0] / products[1] - 0.5) < 0.03, "−1 EV gave \(products[0] / products[1])×")
            #expect(abs(products[2] / products[1] - 2) < 0.1, "+1 EV gave \(products[2] / products[1])×")

            let manual = try exposures([
                AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                    exposureDuration: CMTime(value: 1, timescale: 100), iso: 200),
                AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                    exposureDuration: CMTime(value: 1, timescale: 50), iso: 400),
            ])
            #expect(abs(manual[0].time - 0.01) < 1e-6 && manual[0].iso == 200)
            #expect(abs(manual[1].time - 0.02) < 1e-6 && manual[1].iso == 400)
        }
    }
}
