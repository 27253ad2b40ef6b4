import Obscura
import Foundation
import Imaging
import ObscuraAV
import Testing

/// Portrait effects and semantic segmentation mattes (spec §3.1, §3.2 rules 19–20, §5), captured as
/// an app captures them: begin/commit, depth and mattes opted in on the output, `startRunning()`,
/// and a delegate that signals when the capture is over. The scene is chosen through `Obscura`, as
/// the other photo-depth tests choose theirs; the camera is the iPhone 15 Pro's LiDAR camera.
///
/// Expected coverage is computed from the scene's own geometry: cards square to the optical axis
/// at one distance project to rectangles of `f · size / distance` pixels about the principal point,
/// with f and the principal point from the photo's depth calibration (lens distortion is a
/// fraction of a pixel this near the centre).
struct AVCapturePhotoMatteTests {
    /// Card sizes and placement, metres: the camera 1 m in front of the cards, 2 m from the wall.
    /// The figure stays within ±0.4 m of the axis, inside the frame's shorter half-height at 1 m.
    static let face = 0.30
    static let hairHeight = 0.10
    static let torso = (width: 0.40, height: 0.20)

    /// A person of three cards 1 m from the camera: a square face (skin) with hair above it and a
    /// torso below (body), before a grey wall; `labelled: false` leaves the same cards unlabelled, and
    /// `painted: true` paints the face and hair on one card (`painted.png`: one texel of hair above three
    /// of skin, so the hair is a quarter of the card's height) whose palette names each material's part.
    static func portraitScene(labelled: Bool = true, painted: Bool = false) throws -> String {
        func role(_ part: String) -> String { labelled ? ", person: \(part)" : "" }
        let dir = try TestScratch.folder("matte")
        let head: String
        if painted {
            let texture = PNGImage(pixels: UInt8Image(width: 1, height: 4, elements: [1, 0, 0, 0]))
            try PNG.write(texture, to: dir.appendingPathComponent("painted.png").path)
            head = """
                  - name: head
                    shape: plane
                    size_m: [\(face), \(face + hairHeight)]
                    position_m: [0.0, \(hairHeight / 2), 1.0]
                    card: {type: image, png: painted.png, palette: [skin, hair]}
                    person: {skin: [skin], hair: [hair]}
                """
        } else {
            head = """
                  - {name: face, shape: plane, size_m: [\(face), \(face)], position_m: [0.0, 0.0, 1.0], material: skin\(role("skin"))}
                  - {name: hair, shape: plane, size_m: [\(face), \(hairHeight)], position_m: [0.0, \(face / 2 + hairHeight / 2), 1.0], material: hair\(role("hair"))}
                """
        }
        let text = """
            description: A figure of cards 1 m from the camera before a wall 2 m away.
            device:
              position_m: [0.0, 0.0, 2.0]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {illuminant: LED-B3}
              lux: 500
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 0.5
            materials:
              - {name: grey, reflectance: 0.5}
              - {name: skin, reflectance: "skin:030"}
              - {name: hair, reflectance: 0.05}
              - {name: jumper, srgb: [0.2, 0.3, 0.7]}
            objects:
              - {name: wall, shape: plane, size_m: [20.0, 20.0], material: grey}
            \(head)
              - {name: torso, shape: plane, size_m: [\(torso.width), \(torso.height)], position_m: [0.0, \(-face / 2 - 0.02 - torso.height / 2), 1.0], material: jumper\(role("body"))}
            """
        let file = dir.appendingPathComponent("portrait-\(labelled)-\(painted).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// A LiDAR photo session with depth and every matte the output offers enabled before it starts.
    static func matteRig() throws -> PhotoRig {
        let rig = try PhotoRig(.builtInLiDARDepthCamera, preset: .photo, start: false)
        rig.session.beginConfiguration()
        rig.output.isDepthDataDeliveryEnabled = true
        rig.output.isPortraitEffectsMatteDeliveryEnabled = rig.output.isPortraitEffectsMatteDeliverySupported
        rig.output.enabledSemanticSegmentationMatteTypes = rig.output.availableSemanticSegmentationMatteTypes
        rig.session.commitConfiguration()
        rig.session.startRunning()
        return rig
    }

    static func matteSettings(_ output: AVCapturePhotoOutput) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        settings.isDepthDataDeliveryEnabled = true
        settings.isPortraitEffectsMatteDeliveryEnabled = true
        settings.enabledSemanticSegmentationMatteTypes = output.enabledSemanticSegmentationMatteTypes
        return settings
    }

    /// A matte's bytes, row-major.
    static func bytes(_ buffer: CVPixelBuffer) throws -> (width: Int, height: Int, values: [UInt8]) {
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_OneComponent8)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let w = CVPixelBufferGetWidth(buffer), h = CVPixelBufferGetHeight(buffer)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
        var out: [UInt8] = []
        for y in 0..<h { for x in 0..<w { out.append(base[y * stride + x]) } }
        return (w, h, out)
    }

    /// The camera's focal length and principal point in matte pixels, from the depth calibration.
    static func projection(_ photo: AVCapturePhoto, matteWidth: Int) throws -> (f: Double, cx: Double, cy: Double) {
        let calibration = try #require(photo.depthData?.cameraCalibrationData)
        let k = calibration.intrinsicMatrix
        let s = Double(matteWidth) / Double(calibration.intrinsicMatrixReferenceDimensions.width)
        return (Double(k.columns.0.x) * s, Double(k.columns.2.x) * s, Double(k.columns.2.y) * s)
    }

    /// Mean coverage, 0…1, over the pixels whose centres lie within `half` of (cx, cy) on both axes.
    static func mean(_ m: (width: Int, height: Int, values: [UInt8]), cx: Double, cy: Double, half: Double) -> Double {
        var sum = 0.0, n = 0.0
        for y in 0..<m.height where abs(Double(y) + 0.5 - cy) < half {
            for x in 0..<m.width where abs(Double(x) + 0.5 - cx) < half {
                sum += Double(m.values[y * m.width + x]) / 255
                n += 1
            }
        }
        return n > 0 ? sum / n : .nan
    }

    /// The matte's total coverage in pixels.
    static func area(_ m: (width: Int, height: Int, values: [UInt8])) -> Double {
        m.values.reduce(0.0) { $0 + Double($1) / 255 }
    }

    // spec §3.1: the LiDAR camera offers the mattes its profile lists, and only once depth is on.
    @Test func matteSupportFollowsDepthDelivery() throws {
        try onDevice("iphone-15-pro") {
            let rig = try PhotoRig(.builtInLiDARDepthCamera, preset: .photo, start: false)
            #expect(!rig.output.isPortraitEffectsMatteDeliverySupported)
            #expect(rig.output.availableSemanticSegmentationMatteTypes.isEmpty)
            rig.output.isDepthDataDeliveryEnabled = true
            #expect(rig.output.isPortraitEffectsMatteDeliverySupported)
            #expect(rig.output.availableSemanticSegmentationMatteTypes == [.hair, .skin, .teeth, .glasses])
            rig.output.isPortraitEffectsMatteDeliveryEnabled = true
            rig.output.enabledSemanticSegmentationMatteTypes = [.skin]
            rig.output.isDepthDataDeliveryEnabled = false
            #expect(!rig.output.isPortraitEffectsMatteDeliveryEnabled)
            #expect(rig.output.enabledSemanticSegmentationMatteTypes.isEmpty)
            expectException(.invalidArgumentException, "Portrait effects matte delivery is not supported") {
                rig.output.isPortraitEffectsMatteDeliveryEnabled = true
            }
            expectException(.invalidArgumentException, "availableSemanticSegmentationMatteTypes") {
                rig.output.enabledSemanticSegmentationMatteTypes = [.hair]
            }
        }
    }

    // spec §3.1: the iPhone 7 Plus profile lists no mattes, so its dual camera offers none.
    @Test func aCameraWithoutMattesOffersNone() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo, start: false)
            rig.output.isDepthDataDeliveryEnabled = true
            #expect(!rig.output.isPortraitEffectsMatteDeliverySupported)
            #expect(rig.output.availableSemanticSegmentationMatteTypes.isEmpty)
        }
    }

    // spec §3.2 rules 19 and 20.
    @Test func settingsAskingForMoreThanTheOutputEnabledRaise() throws {
        try onDevice("iphone-15-pro") {
            let rig = try PhotoRig(.builtInLiDARDepthCamera, preset: .photo, start: false)
            rig.output.isDepthDataDeliveryEnabled = true
            rig.output.enabledSemanticSegmentationMatteTypes = [.skin]
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let portrait = AVCapturePhotoSettings()
            portrait.isDepthDataDeliveryEnabled = true
            portrait.isPortraitEffectsMatteDeliveryEnabled = true
            expectException(.invalidArgumentException, "self.portraitEffectsMatteDeliveryEnabled is NO") {
                rig.output.capturePhoto(with: portrait, delegate: RecordingPhotoDelegate())
            }
            let hair = AVCapturePhotoSettings()
            hair.enabledSemanticSegmentationMatteTypes = [.hair]
            expectException(.invalidArgumentException, "self.enabledSemanticSegmentationMatteTypes") {
                rig.output.capturePhoto(with: hair, delegate: RecordingPhotoDelegate())
            }
        }
    }

    // spec §5: a person in view gives a matte covering them, half the photo's size, and soft edges;
    // each card's projected area is found again in the mattes' total coverage.
    @Test func portraitMatteCoversThePersonAndNotTheWall() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene())
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let delegate = capture(rig, Self.matteSettings(rig.output))
            let photo = try #require(delegate.photos.first)
            let resolved = photo.resolvedSettings
            let matte = try #require(photo.portraitEffectsMatte)
            #expect(matte.pixelFormatType == kCVPixelFormatType_OneComponent8)
            let person = try Self.bytes(matte.mattingImage)
            #expect(person.width == Int(resolved.photoDimensions.width) / 2)
            #expect(person.height == Int(resolved.photoDimensions.height) / 2)
            #expect(Int(resolved.portraitEffectsMatteDimensions.width) == person.width)
            #expect(Int(resolved.dimensionsForSemanticSegmentationMatte(ofType: .skin).height) == person.height)

            let (f, cx, cy) = try Self.projection(photo, matteWidth: person.width)
            let faceHalf = f * Self.face / 2
            // Inside the face: covered; far outside the figure: the wall, uncovered.
            #expect(Self.mean(person, cx: cx, cy: cy, half: 0.8 * faceHalf) > 0.99)
            #expect(person.values[0] == 0 && person.values[person.values.count - 1] == 0)
            // Face, hair and torso at 1 m: their areas in pixels are f² times their areas in m².
            let expected = f * f
                * (Self.face * Self.face + Self.face * Self.hairHeight + Self.torso.width * Self.torso.height)
            #expect(abs(Self.area(person) / expected - 1) < 0.03, "area \(Self.area(person)) vs \(expected)")
            // Antialiased edges: partly covered pixels exist, and are few (about the perimeter).
            let soft = person.values.filter { $0 > 0 && $0 < 255 }.count
            #expect(soft > 0 && Double(soft) < 0.05 * expected)

            // The skin matte is the face alone; hair and skin do not overlap.
            let skin = try Self.bytes(try #require(photo.semanticSegmentationMatte(for: .skin)).mattingImage)
            #expect(Self.mean(skin, cx: cx, cy: cy, half: 0.8 * faceHalf) > 0.99)
            #expect(abs(Self.area(skin) / (f * Self.face * f * Self.face) - 1) < 0.03)
            #expect(Self.mean(skin, cx: cx, cy: cy, half: 2 * faceHalf) < 0.3)
            let hair = try Self.bytes(try #require(photo.semanticSegmentationMatte(for: .hair)).mattingImage)
            #expect(abs(Self.area(hair) / (f * Self.face * f * Self.hairHeight) - 1) < 0.05)
            #expect(Self.mean(hair, cx: cx, cy: cy, half: 0.8 * faceHalf) == 0)
            // Asked for, but no teeth or glasses in the scene: present and empty.
            let teeth = try Self.bytes(try #require(photo.semanticSegmentationMatte(for: .teeth)).mattingImage)
            #expect(teeth.values.allSatisfy { $0 == 0 })
        }
    }

    // spec §5: a card that shows two parts of a person gives each its matte where its texels show it: the face
    // and hair painted on one card have the areas the separate cards of `portraitMatteCoversThePersonAndNotTheWall`
    // have, and together make the person's.
    @Test func aCardShowingTwoPartsGivesEachItsMatte() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene(painted: true))
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let photo = try #require(capture(rig, Self.matteSettings(rig.output)).photos.first)
            let person = try Self.bytes(try #require(photo.portraitEffectsMatte).mattingImage)
            let (f, cx, cy) = try Self.projection(photo, matteWidth: person.width)
            let faceHalf = f * Self.face / 2
            let skin = try Self.bytes(try #require(photo.semanticSegmentationMatte(for: .skin)).mattingImage)
            #expect(Self.mean(skin, cx: cx, cy: cy, half: 0.8 * faceHalf) > 0.99)
            #expect(abs(Self.area(skin) / (f * Self.face * f * Self.face) - 1) < 0.03)
            let hair = try Self.bytes(try #require(photo.semanticSegmentationMatte(for: .hair)).mattingImage)
            #expect(abs(Self.area(hair) / (f * Self.face * f * Self.hairHeight) - 1) < 0.05)
            #expect(Self.mean(hair, cx: cx, cy: cy, half: 0.8 * faceHalf) == 0)
            let expected = f * f
                * (Self.face * Self.face + Self.face * Self.hairHeight + Self.torso.width * Self.torso.height)
            #expect(abs(Self.area(person) / expected - 1) < 0.03, "area \(Self.area(person)) vs \(expected)")
        }
    }

    // spec §5: like depth, a matte stays as the sensor saw the scene, hair above the face here; a
    // photo connection turned 90° gives Exif orientation 6 (shown turned clockwise), and the matte
    // turned by it has the hair to the right of the face.
    @Test func orientationTurnsTheMatteAsThePhotoIsShown() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene())
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let connection = try #require(rig.output.connection(with: .video))
            #expect(connection.isVideoRotationAngleSupported(90))
            connection.videoRotationAngle = 90
            let photo = try #require(capture(rig, Self.matteSettings(rig.output)).photos.first)
            let orientationValue = try #require(photo.metadata["Orientation"] as? Int)
            #expect(orientationValue == 6)
            let orientation = try #require(CGImagePropertyOrientation(rawValue: UInt32(orientationValue)))
            let hair = try #require(photo.semanticSegmentationMatte(for: .hair))
            let skin = try #require(photo.semanticSegmentationMatte(for: .skin))
            let (rawHair, rawSkin) = (try Self.bytes(hair.mattingImage), try Self.bytes(skin.mattingImage))
            #expect(Self.centroid(rawHair).row < Self.centroid(rawSkin).row)
            let turnedHair = try Self.bytes(hair.applyingExifOrientation(orientation).mattingImage)
            let turnedSkin = try Self.bytes(skin.applyingExifOrientation(orientation).mattingImage)
            #expect(turnedHair.width == rawHair.height && turnedHair.height == rawHair.width)
            #expect(Self.centroid(turnedHair).column > Self.centroid(turnedSkin).column)
            #expect(abs(Self.centroid(turnedHair).row - Self.centroid(turnedSkin).row) < 2)
            // Turning moves pixels without changing them.
            #expect(turnedHair.values.sorted() == rawHair.values.sorted())
        }
    }

    /// The coverage-weighted mean row and column of a matte.
    static func centroid(_ m: (width: Int, height: Int, values: [UInt8])) -> (row: Double, column: Double) {
        var row = 0.0, column = 0.0, weight = 0.0
        for (i, v) in m.values.enumerated() where v > 0 {
            row += Double(i / m.width) * Double(v)
            column += Double(i % m.width) * Double(v)
            weight += Double(v)
        }
        return (row / weight, column / weight)
    }

    // spec §5 [D]: no person in the scene, no matte, even when asked for.
    @Test func noPersonNoMatte() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene(labelled: false))
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let photo = try #require(capture(rig, Self.matteSettings(rig.output)).photos.first)
            #expect(photo.depthData != nil)
            #expect(photo.portraitEffectsMatte == nil)
            #expect(photo.semanticSegmentationMatte(for: .skin) == nil)
        }
    }

    // AVPortraitEffectsMatte and AVSemanticSegmentationMatte round-trip through their dictionaries.
    @Test func mattesRoundTripThroughDictionaries() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene())
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let photo = try #require(capture(rig, Self.matteSettings(rig.output)).photos.first)
            let matte = try #require(photo.portraitEffectsMatte)
            var type: NSString?
            let dictionary = try #require(matte.dictionaryRepresentation(forAuxiliaryDataType: &type))
            #expect(type as String? == kCGImageAuxiliaryDataTypePortraitEffectsMatte as String)
            let back = try AVPortraitEffectsMatte(fromDictionaryRepresentation: dictionary)
            #expect(try Self.bytes(back.mattingImage).values == Self.bytes(matte.mattingImage).values)
            let hair = try #require(photo.semanticSegmentationMatte(for: .hair))
            let hairDictionary = try #require(hair.dictionaryRepresentation(forAuxiliaryDataType: &type))
            let hairBack = try AVSemanticSegmentationMatte(
                fromImageSourceAuxiliaryDataType: try #require(type),
                dictionaryRepresentation: hairDictionary)
            #expect(hairBack.matteType == .hair)
            #expect(try Self.bytes(hairBack.mattingImage).values == Self.bytes(hair.mattingImage).values)
            let replaced = try matte.replacingPortraitEffectsMatte(with: hair.mattingImage)
            #expect(try Self.bytes(replaced.mattingImage).values == Self.bytes(hair.mattingImage).values)
        }
    }

    /// The matte settings asking for a file of `codec`.
    static func fileSettings(_ output: AVCapturePhotoOutput, _ codec: AVVideoCodecType) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: codec])
        settings.isDepthDataDeliveryEnabled = true
        settings.isPortraitEffectsMatteDeliveryEnabled = true
        settings.enabledSemanticSegmentationMatteTypes = output.enabledSemanticSegmentationMatteTypes
        return settings
    }

    // spec §5 [D]: embedding defaults to true, and an HEIC photo carries the portrait effects matte and
    // each semantic segmentation matte as auxiliary images of Apple's types beside the depth; HEIC
    // stores them losslessly, so each reads back byte for byte as the photo delivered it.
    @Test(.needs(.libheif, .heifInfo)) func heicEmbedsEveryMatteExactly() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene())
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            try #require(rig.output.availablePhotoCodecTypes.contains(.hevc))
            let settings = Self.fileSettings(rig.output, .hevc)
            #expect(settings.embedsPortraitEffectsMatteInPhoto && settings.embedsSemanticSegmentationMattesInPhoto)
            let photo = try #require(capture(rig, settings).photos.first)
            let data = try #require(photo.fileDataRepresentation())
            let matte = try #require(photo.portraitEffectsMatte)
            let read = try AVPortraitEffectsMatte(fromFileData: data)
            #expect(try Self.bytes(read.mattingImage).values == Self.bytes(matte.mattingImage).values)
            for type in rig.output.enabledSemanticSegmentationMatteTypes {
                let delivered = try #require(photo.semanticSegmentationMatte(for: type))
                let stored = try AVSemanticSegmentationMatte(fromFileData: data, matteType: type)
                #expect(stored.matteType == type)
                #expect(try Self.bytes(stored.mattingImage).values == Self.bytes(delivered.mattingImage).values)
            }
            // The depth is still the primary image's depth image.
            #expect(CVPixelBufferGetWidth(try AVDepthData(fromFileData: data).depthDataMap) > 0)
            // libheif's own reader sees the primary image's auxiliary images.
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-matte-\(getpid()).heic")
            try data.write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let info = String(decoding: try PhotoFileFormatTests.run(.heifInfo, [url.path]).output, as: UTF8.self)
            #expect(info.contains("depth channel: yes"), "\(info)")
        }
    }

    // spec §5 [D]: a JPEG photo carries the mattes as further MPF images after the depth image; JPEG is
    // lossy even at quality 100, so values come back within a few steps, nearly all exactly.
    @Test func jpegEmbedsEveryMatteClosely() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene())
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let photo = try #require(capture(rig, Self.fileSettings(rig.output, .jpeg)).photos.first)
            let data = try #require(photo.fileDataRepresentation())
            func expectClose(_ a: [UInt8], _ b: [UInt8], _ what: String) {
                #expect(a.count == b.count, "\(what)")
                let errors = zip(a, b).map { abs(Int($0) - Int($1)) }
                let meanError = Double(errors.reduce(0, +)) / Double(max(errors.count, 1))
                #expect(meanError < 1, "\(what): mean error \(meanError)")
                #expect((errors.max() ?? 0) <= 32, "\(what): largest error \(errors.max() ?? 0)")
            }
            let matte = try #require(photo.portraitEffectsMatte)
            let read = try AVPortraitEffectsMatte(fromFileData: data)
            expectClose(try Self.bytes(read.mattingImage).values, try Self.bytes(matte.mattingImage).values, "portrait")
            for type in rig.output.enabledSemanticSegmentationMatteTypes {
                let delivered = try #require(photo.semanticSegmentationMatte(for: type))
                let stored = try AVSemanticSegmentationMatte(fromFileData: data, matteType: type)
                expectClose(
                    try Self.bytes(stored.mattingImage).values, try Self.bytes(delivered.mattingImage).values,
                    type.rawValue)
            }
            // The depth image stays readable beside them.
            #expect(CVPixelBufferGetWidth(try AVDepthData(fromFileData: data).depthDataMap) > 0)
        }
    }

    // spec §5 [D]: with embedding turned off the mattes are still delivered, but the file holds none.
    @Test func mattesNotEmbeddedWhenTurnedOff() throws {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: Self.portraitScene())
            let rig = try Self.matteRig()
            defer { rig.session.stopRunning() }
            let settings = Self.fileSettings(rig.output, .jpeg)
            settings.embedsSemanticSegmentationMattesInPhoto = false
            let photo = try #require(capture(rig, settings).photos.first)
            #expect(photo.semanticSegmentationMatte(for: .skin) != nil)
            let data = try #require(photo.fileDataRepresentation())
            #expect(throws: (any Error).self) { try AVSemanticSegmentationMatte(fromFileData: data, matteType: .skin) }
            // The portrait effects matte, still asked to be embedded, is there.
            #expect(try AVPortraitEffectsMatte(fromFileData: data).pixelFormatType == kCVPixelFormatType_OneComponent8)
        }
    }
}
