import Devices
import Foundation
import Testing

/// The shipped catalogue: it loads, lints clean, and matches what Apple documents (spec §2, §7, §11).
@Suite struct CatalogueTests {
    let catalog: DeviceCatalog

    init() throws { catalog = try DeviceCatalog(directory: TestPaths.profiles) }

    func profile(_ id: String) throws -> DeviceProfile { try catalog.profile(id) }

    @Test func catalogueHoldsTheRequiredDevices() {
        let ids = Set(catalog.ids)
        for id in ["iphone-7-plus", "iphone-x", "iphone-14", "iphone-15-pro", "ipad-pro-m4", "ipad-10th-gen"] {
            #expect(ids.contains(id), "missing \(id)")
        }
        #expect(ids.contains(DeviceCatalog.defaultDeviceID))
    }

    /// Multi-camera capture needs an A12 or later: iPhone XS and newer, iPad Pro from 2018 (WWDC19-249).
    @Test func multiCamHardwareFollowsTheChip() throws {
        for id in ["iphone-14", "iphone-15-pro", "ipad-pro-m4"] { #expect(try profile(id).supportsMultiCam, "\(id)") }
        for id in ["iphone-7-plus", "iphone-x"] { #expect(try !profile(id).supportsMultiCam, "\(id)") }
    }

    @Test(arguments: ["iphone-7-plus", "iphone-x", "iphone-14", "iphone-15-pro", "ipad-pro-m4", "ipad-10th-gen"])
    func everyProfileLoadsAndLintsClean(id: String) throws {
        let path = TestPaths.profiles + "/\(id).yaml"
        let problems = DeviceProfileLint.problems(inFile: path)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
        #expect(try profile(id).id == id)
    }

    /// Every format says how the sensor is read for it, with where that comes from; a binned format's
    /// binned read holds four photosites' wells, and the formats stating `binned` agree with it. Every
    /// shading curve says how much of it the ISP corrects, and why.
    @Test(arguments: ["iphone-7-plus", "iphone-x", "iphone-14", "iphone-15-pro", "ipad-pro-m4", "ipad-10th-gen"])
    func everyFormatStatesItsReadout(id: String) throws {
        let device = try profile(id)
        for camera in device.cameras {
            // The camera whose sensor reads the format: itself, the one it shares, or its wide constituent.
            let members = camera.constituents.compactMap { device.camera($0) }
            let physical =
                camera.noise != nil ? camera
                : camera.sharesSensorWith.flatMap { device.camera($0) }
                    ?? members.first { $0.deviceType == .builtInWideAngleCamera } ?? members.first ?? camera
            for format in camera.formats {
                let readout = try #require(format.capabilities.readout, "\(id) \(camera.id) \(format.id)")
                #expect(!format.provenance.of("readout").note.isEmpty)
                if let binned = format.capabilities.binned { #expect(binned == (readout.mode == .binned)) }
                if readout.mode == .binned, let noise = physical.noise {
                    #expect(readout.binnedFullWellE == 4 * noise.fullWellE)
                    #expect(readout.binnedReadNoiseE == noise.readNoiseE)
                }
            }
            if let shading = camera.shading {
                #expect(shading.correction > 0 && shading.correction <= 1)
                #expect(shading.provenance.of("correction").note.contains("our choice"))
            }
        }
    }

    /// WWDC17-507 (spec §7): the dual camera's 1440×1080 photo-preset video gives 320×240 or 160×120
    /// depth, 1920×1080 gives 320×180 or 160×90, at up to 24 fps.
    @Test(arguments: ["iphone-7-plus", "iphone-x"])
    func dualCameraDepthFormatsMatchWWDC17(id: String) throws {
        let dual = try #require(try profile(id).cameras(ofType: .builtInDualCamera).first)
        let photo = try #require(dual.format(for: .photo))
        #expect(photo.video == Dimensions(width: 1440, height: 1080))
        #expect(
            photo.depthFormats.map(\.dimensions) == [
                Dimensions(width: 320, height: 240), Dimensions(width: 160, height: 120),
            ])
        #expect(photo.depthFormats.allSatisfy { $0.maxFPS == 24 })
        let hd = try #require(dual.formats.first { $0.video == Dimensions(width: 1920, height: 1080) })
        #expect(
            hd.depthFormats.map(\.dimensions) == [
                Dimensions(width: 320, height: 180), Dimensions(width: 160, height: 90),
            ])
        #expect(hd.depthFormats.allSatisfy { $0.maxFPS == 24 })
        #expect(hd.maxFPS <= 30)
        #expect(dual.depth?.accuracy == .relative)
        for format in dual.formats.flatMap(\.depthFormats) {
            #expect(
                Set(format.pixelFormats.map(\.fourCharCode)) == [0x6864_6973, 0x6664_6973, 0x6864_6570, 0x6664_6570])
        }
    }

    /// WWDC18-503 (spec §7): TrueDepth gives 640×480 with 4:3 video and 640×360 with 16:9, absolute.
    @Test(arguments: ["iphone-x", "iphone-14", "iphone-15-pro", "ipad-pro-m4"])
    func trueDepthFormats(id: String) throws {
        let truedepth = try #require(try profile(id).cameras(ofType: .builtInTrueDepthCamera).first)
        #expect(truedepth.position == .front)
        #expect(truedepth.depth?.accuracy == .absolute)
        #expect(truedepth.depth?.technology == .structuredLight)
        let sizes43 = truedepth.formats.filter { $0.video.aspectRatio == 4.0 / 3 }.flatMap(\.depthFormats).map(
            \.dimensions)
        let sizes169 = truedepth.formats.filter { $0.video.aspectRatio == 16.0 / 9 }.flatMap(\.depthFormats).map(
            \.dimensions)
        #expect(sizes43.contains(Dimensions(width: 640, height: 480)))
        #expect(sizes169.contains(Dimensions(width: 640, height: 360)))
    }

    /// Device types per model (spec §2.1, §2.2) and the documented camera sets.
    @Test func deviceTypesPerModel() throws {
        func types(_ id: String) throws -> Set<DeviceType> { Set(try profile(id).cameras.map(\.deviceType)) }
        #expect(try types("iphone-7-plus") == [.builtInWideAngleCamera, .builtInTelephotoCamera, .builtInDualCamera])
        #expect(
            try types("iphone-x") == [
                .builtInWideAngleCamera, .builtInTelephotoCamera, .builtInDualCamera,
                .builtInTrueDepthCamera,
            ])
        #expect(
            try types("iphone-14") == [
                .builtInWideAngleCamera, .builtInUltraWideCamera, .builtInDualWideCamera,
                .builtInTrueDepthCamera,
            ])
        #expect(
            try types("iphone-15-pro") == [
                .builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera,
                .builtInDualWideCamera, .builtInTripleCamera, .builtInLiDARDepthCamera,
                .builtInTrueDepthCamera,
            ])
        #expect(try types("ipad-pro-m4").contains(.builtInLiDARDepthCamera))
        #expect(try !types("ipad-10th-gen").contains(where: { $0.canDeliverDepth }))
        // The 7 Plus has no TrueDepth camera: its front camera is a plain wide camera.
        #expect(try profile("iphone-7-plus").cameras(ofType: .builtInTrueDepthCamera).isEmpty)
    }

    /// Apple's LiDAR sample takes the last 1920-wide, full-range, unbinned format with depth and its
    /// last DepthFloat16 depth format, and stops without them: every LiDAR camera states such a
    /// format, with a binned 1920 × 1440 twin as the iPhone 15 Pro's format list shows (spec §2.3).
    @Test func everyLiDARCameraHasTheSampleFormats() throws {
        var cameras = 0
        for profile in try catalog.loadAll() {
            for camera in profile.cameras(ofType: .builtInLiDARDepthCamera) {
                cameras += 1
                let unbinned = camera.formats.last {
                    $0.video.width == 1920 && $0.pixelFormat == .yuv420FullRange && $0.capabilities.binned == false
                        && !$0.depthFormats.isEmpty
                }
                let format = try #require(unbinned, "\(profile.id): no unbinned 1920-wide 420f depth format")
                #expect(format.video == Dimensions(width: 1920, height: 1440))
                let depth = try #require(format.depthFormats.last { $0.pixelFormats.contains(.depthFloat16) })
                #expect(depth.dimensions == Dimensions(width: 320, height: 240))
                #expect(depth.pixelFormats.contains(.depthFloat32))
                #expect(format.provenance.of("binned").note.contains("react-native-vision-camera/issues/2642"))
                let binned = camera.formats.filter { $0.video == format.video && $0.capabilities.binned == true }
                #expect(binned.count == 1, "\(profile.id)")
            }
        }
        #expect(cameras == 2)
    }

    /// Constituents in Apple's order, shortest focal length first (spec §2.2).
    @Test func constituentOrder() throws {
        let p15 = try profile("iphone-15-pro")
        func constituentTypes(_ type: DeviceType) throws -> [DeviceType] {
            let camera = try #require(p15.cameras(ofType: type).first)
            return camera.constituents.compactMap { p15.camera($0)?.deviceType }
        }
        #expect(try constituentTypes(.builtInDualWideCamera) == [.builtInUltraWideCamera, .builtInWideAngleCamera])
        #expect(
            try constituentTypes(.builtInTripleCamera) == [
                .builtInUltraWideCamera, .builtInWideAngleCamera,
                .builtInTelephotoCamera,
            ])
        let p7 = try profile("iphone-7-plus")
        let dual = try #require(p7.cameras(ofType: .builtInDualCamera).first)
        #expect(
            dual.constituents.compactMap { p7.camera($0)?.deviceType } == [
                .builtInWideAngleCamera, .builtInTelephotoCamera,
            ])
        // Shortest focal length first, checked on the optics.
        let focal = dual.constituents.compactMap { p7.camera($0)?.optics?.focalLengthMM }
        #expect(focal == focal.sorted())
    }

    /// Flash presence, flash modes, and Constant Color where Apple documents it (spec §2.7, §11, §13 N3).
    @Test func flashAndConstantColor() throws {
        for id in ["iphone-7-plus", "iphone-x", "iphone-14", "iphone-15-pro", "ipad-pro-m4"] {
            let p = try profile(id)
            #expect(p.flash != nil, "\(id) has a flash")
            for camera in p.cameras where camera.position == .front { #expect(camera.flashModes == [.off]) }
        }
        #expect(try profile("iphone-7-plus").flash?.kind == .quadTrueTone)
        #expect(try profile("iphone-7-plus").flash?.modules.count == 4)
        #expect(try profile("iphone-15-pro").flash?.kind == .adaptiveTrueTone)
        let flashless = try profile("ipad-10th-gen")
        #expect(flashless.flash == nil)
        for camera in flashless.cameras {
            #expect(camera.flashModes == [.off])
            #expect(!camera.features.constantColor)
            #expect(!camera.hasDepthFormats)
        }
        func ccTypes(_ id: String) throws -> Set<DeviceType> {
            let p = try profile(id)
            return Set(
                p.cameras.filter { c in c.formats.contains { c.supportsConstantColor(with: $0) } }.map(\.deviceType))
        }
        #expect(try ccTypes("iphone-14") == [.builtInWideAngleCamera, .builtInDualWideCamera])
        #expect(try ccTypes("iphone-15-pro") == [.builtInWideAngleCamera, .builtInDualWideCamera])
        #expect(try ccTypes("ipad-pro-m4") == [.builtInWideAngleCamera])
        #expect(try ccTypes("iphone-7-plus").isEmpty)
        #expect(try ccTypes("iphone-x").isEmpty)
    }

    /// The factory calibration differs slightly from the truth, as a real unit's does.
    @Test func flashCalibrationDiffersSlightly() throws {
        let flash = try #require(try profile("iphone-15-pro").flash)
        for entry in flash.calibration {
            let module = try #require(flash.modules.first { $0.id == entry.module })
            let ratio = entry.intensityCD / module.intensityCD
            #expect(abs(ratio - 1) <= 0.03)
            #expect(entry.spectrum != module.spectrum)
            #expect(abs(entry.spectrum.peakShiftNM) <= 2)
        }
    }

    /// Baselines: iPhone 7 Plus wide–tele ≈ 10 mm; the geometry follows fx = f / pixel pitch.
    @Test func geometry() throws {
        let p = try profile("iphone-7-plus")
        let wide = try #require(p.camera("back-wide")?.extrinsics?.translationMM)
        let tele = try #require(p.camera("back-tele")?.extrinsics?.translationMM)
        let baseline = zip(wide, tele).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        #expect(abs(baseline - 10) < 0.5)
        let camera = try #require(p.camera("back-wide"))
        let optics = try #require(camera.optics)
        // Apple: 3.99 mm, 28 mm equivalent; 1.22 µm pixels → ≈ 3270 px.
        #expect(abs(optics.focalLengthMM - 3.99) < 0.05)
        let fx = try #require(camera.intrinsics?.fx)
        #expect(abs(fx - 3.99e3 / 1.22) / fx < 0.01)
    }
}
