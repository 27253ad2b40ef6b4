import Obscura
import Foundation
import ObscuraAV
import Testing

@Suite struct AVCaptureDeviceTests {
    // spec §2.1: default(for: .video) is the back wide-angle camera.
    @Test func defaultVideoDeviceIsTheBackWideCamera() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            #expect(device.deviceType == .builtInWideAngleCamera && device.position == .back)
            // Every iPhone has a microphone; it is never the default video device.
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            #expect(microphone.hasMediaType(.audio) && !microphone.hasMediaType(.video))
            #expect(AVCaptureDevice.default(for: .depthData) == nil)
        }
    }

    // spec §2.1: devices follow the deviceTypes order, then position raw value.
    @Test func discoveryOrdersByTypeThenPosition() throws {
        try onDevice {
            let session = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.builtInTrueDepthCamera, .builtInWideAngleCamera, .builtInTripleCamera],
                mediaType: .video, position: .unspecified)
            let found = session.devices.map {
                "\($0.deviceType.rawValue.replacingOccurrences(of: "AVCaptureDeviceTypeBuiltIn", with: "")):\($0.position.rawValue)"
            }
            #expect(found == ["TrueDepthCamera:2", "WideAngleCamera:1", "WideAngleCamera:2", "TripleCamera:1"])
            let front = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front)
            #expect(front.devices.map(\.position) == [.front])
        }
    }

    // spec §2.2: virtual devices and their constituents, shortest focal length first.
    @Test func tripleCameraConstituents() throws {
        try onDevice {
            let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
            #expect(triple.isVirtualDevice)
            #expect(
                triple.constituentDevices.map(\.deviceType) == [
                    .builtInUltraWideCamera, .builtInWideAngleCamera, .builtInTelephotoCamera,
                ])
            let wide = try #require(AVCaptureDevice.default(for: .video))
            #expect(!wide.isVirtualDevice && wide.constituentDevices.isEmpty)
            #expect(triple.constituentDevices[1] === wide)
        }
    }

    // spec §2.4, §13 N9
    @Test func lockProtectedPropertiesRaiseWithoutTheLock() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let gist =
                "May not be called without first successfully gaining exclusive ownership of the device using -lockForConfiguration:"
            let format = device.formats[0]
            expectException(.genericException, "-[AVCaptureDevice setActiveFormat:] " + gist) {
                device.activeFormat = format
            }
            expectException(.genericException, gist) {
                device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
            }
            expectException(.genericException, gist) {
                device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
            }
            expectException(.genericException, gist) { device.activeColorSpace = .sRGB }
        }
    }

    // spec §2.3, §2.4, §13 N10
    @Test func outOfRangeValuesRaiseInvalidArgument() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let foreign = try #require(
                AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)?.formats[0])
            try device.lockForConfiguration()
            expectException(.invalidArgumentException, "setActiveFormat:") { device.activeFormat = foreign }
            expectException(
                .invalidArgumentException, "the passed activeFrameDuration 1:240 is not supported by the device"
            ) {
                device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 240)
            }
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 15)
            #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 15))
            device.activeVideoMinFrameDuration = .invalid
            #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
            device.unlockForConfiguration()
        }
    }

    // spec §2.3: formats describe themselves through CoreMedia.
    @Test func formatsCarryDimensionsPixelFormatsAndColorSpaces() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let first = device.formats[0]
            #expect(
                CMFormatDescriptionGetMediaSubType(first.formatDescription)
                    == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            #expect(first.supportedColorSpaces.first == .sRGB)
            #expect(first.videoSupportedFrameRateRanges[0].minFrameDuration == CMTime(value: 1, timescale: 30))
            #expect(first.supportedMaxPhotoDimensions.map(\.width) == [4032, 8064])
            #expect(device.formats.allSatisfy { $0.supportedColorSpaces.contains(.sRGB) })
        }
    }

    // spec §2.7
    @Test func flashIsOnTheBackOnly() throws {
        try onDevice {
            let back = try #require(AVCaptureDevice.default(for: .video))
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            #expect(back.hasFlash && back.isFlashAvailable)
            #expect(!front.hasFlash && !front.isFlashAvailable)
        }
    }

    // KVO on isFlashAvailable and activeFormat.
    @Test func flashAvailabilityAndActiveFormatAreObservable() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let flash = LockedArray<Bool>()
            let formats = LockedArray<Int32>()
            let t1 = device.observe(\.isFlashAvailable, options: [.initial, .new]) { _, c in
                c.newValue.map(flash.append)
            }
            let t2 = device.observe(\.activeFormat, options: [.new]) { _, c in
                c.newValue.map { formats.append(CMVideoFormatDescriptionGetDimensions($0.formatDescription).width) }
            }
            Emulator.shared.setFlashThermallyUnavailable(true, for: device)
            try device.lockForConfiguration()
            device.activeFormat = device.formats[2]
            device.unlockForConfiguration()
            #expect(flash.values == [true, false])
            #expect(
                formats.values == [CMVideoFormatDescriptionGetDimensions(device.formats[2].formatDescription).width])
            _ = (t1, t2)
        }
    }

    // Apple documents no exception for an unlock without the lock (a `try?` lock that failed, then the
    // unlock), nor for a commit without a begin: neither raises, and the next lock and block work as usual.
    @Test func unbalancedUnlockAndCommitRaiseNothing() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            expectNoException { device.unlockForConfiguration() }
            expectException(.genericException, "May not be called without first successfully gaining") {
                device.focusMode = .autoFocus
            }
            try device.lockForConfiguration()
            device.focusMode = .autoFocus
            device.unlockForConfiguration()
            expectNoException { device.unlockForConfiguration() }
            #expect(device.focusMode == .autoFocus)
            let session = AVCaptureSession()
            expectNoException { session.commitConfiguration() }
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            expectException(.genericException, "startRunning may not be called between") { session.startRunning() }
            session.commitConfiguration()
            #expect(session.sessionPreset == .vga640x480)
        }
    }
}

/// The automatic wide-colour rules (spec §1.4, W16 decision table).
@Suite struct AVCaptureSessionWideColorTests {
    enum Extra: String, CaseIterable { case none, movieFile, videoData }

    static let table: [(photo: Bool, extra: Extra, preset: AVCaptureSession.Preset, wide: Bool)] = [
        (false, .none, .photo, false),
        (true, .none, .photo, true),
        (true, .none, .high, true),
        (true, .movieFile, .photo, false),
        (true, .videoData, .photo, true),
        (true, .videoData, .high, false),
    ]

    @Test(arguments: 0..<table.count)
    func decisionTable(_ row: Int) throws {
        let (photo, extra, preset, wide) = Self.table[row]
        try onDevice {
            let session = AVCaptureSession()
            let device = try #require(AVCaptureDevice.default(for: .video))
            session.beginConfiguration()
            session.sessionPreset = preset
            session.addInput(try AVCaptureDeviceInput(device: device))
            if photo { session.addOutput(AVCapturePhotoOutput()) }
            switch extra {
            case .none: break
            case .movieFile: session.addOutput(AVCaptureMovieFileOutput())
            case .videoData: session.addOutput(AVCaptureVideoDataOutput())
            }
            session.commitConfiguration()
            #expect(device.activeColorSpace == (wide ? .P3_D65 : .sRGB), "row \(row)")
        }
    }

    // spec §1.4 rule 5: with the flag false, a hand-set colour space is kept.
    @Test func flagFalseKeepsTheClientsColorSpace() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .photo, start: false)
            #expect(rig.device.activeColorSpace == .P3_D65)
            rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
            try rig.device.lockForConfiguration()
            rig.device.activeColorSpace = .sRGB
            rig.device.unlockForConfiguration()
            rig.session.startRunning()
            #expect(rig.device.activeColorSpace == .sRGB)
        }
    }

    // spec §1.4 rule 3: an sRGB-only format stays sRGB even with a photo output.
    @Test func sRGBOnlyFormatStaysSRGB() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            #expect(rig.device.activeColorSpace == .sRGB)
        }
    }
}
