import Obscura
import Foundation
import ObscuraAV
import Testing

/// Barcodes are printed on scene planes as their symbols and read with zxing-cpp from the frames the
/// camera captures (spec §16).
@Suite(.needs(.zxing)) struct AVMetadataMachineReadableCodeTests {
    /// A back-camera session at 640 × 480 with a metadata output on `scene`, run for a few frames.
    private func scan(
        scene: String = "qr-on-desk", types: [AVMetadataObject.ObjectType], rectOfInterest: CGRect? = nil,
        frames: Int = 4, configure: (AVCaptureDevice) throws -> Void = { _ in }
    ) throws -> (codes: [AVMetadataMachineReadableCodeObject], device: AVCaptureDevice) {
        try Emulator.shared.use(scene: scene)
        let session = AVCaptureSession()
        let metadata = AVCaptureMetadataOutput()
        let recorder = StreamRecorder()
        let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(metadata)
        session.commitConfiguration()
        try configure(device)
        metadata.setMetadataObjectsDelegate(recorder, queue: DispatchQueue(label: "codes"))
        metadata.metadataObjectTypes = types
        if let rectOfInterest { metadata.rectOfInterest = rectOfInterest }
        session.startRunning()
        defer { session.stopRunning() }
        Emulator.shared.runFrames(frames)
        let codes = recorder.metadata.flatMap { $0 }.compactMap { $0 as? AVMetadataMachineReadableCodeObject }
        return (codes, device)
    }

    /// The focal length in pixels of the device's active format, from its horizontal field of view.
    private func focalPixels(_ device: AVCaptureDevice) -> Double {
        let width = Double(CMVideoFormatDescriptionGetDimensions(device.activeFormat.formatDescription).width)
        return width / 2 / tan(Double(device.activeFormat.videoFieldOfView) / 2 * .pi / 180)
    }

    // spec §16 [D]: a camera's metadata output offers the barcode types.
    @Test func barcodeTypesAreAvailableWithACamera() throws {
        try onDevice {
            let session = AVCaptureSession()
            let metadata = AVCaptureMetadataOutput()
            #expect(metadata.availableMetadataObjectTypes.isEmpty)
            let device = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(metadata)
            for type in [
                AVMetadataObject.ObjectType.qr, .ean13, .ean8, .code128, .code39, .code93, .pdf417, .aztec,
                .dataMatrix, .upce, .interleaved2of5, .itf14, .code39Mod43, .codabar, .gs1DataBar,
                .gs1DataBarExpanded, .microQR, .humanBody,
            ] {
                #expect(metadata.availableMetadataObjectTypes.contains(type))
            }
            // Types nothing here detects are not offered.
            for type in [AVMetadataObject.ObjectType.microPDF417, .gs1DataBarLimited, .catBody, .dogHead] {
                #expect(!metadata.availableMetadataObjectTypes.contains(type))
            }
        }
    }

    // spec §16 [D][I]: the QR card 0.3 m in front of the camera is read, with its text, type and the
    // corners of its symbol where the camera images them.
    @Test func qrCodeAtThirtyCentimetresIsRead() throws {
        try onDevice {
            let (codes, device) = try scan(types: [.qr])
            let qr = try #require(codes.first)
            #expect(qr.type == .qr)
            #expect(qr.stringValue == "https://example.com")
            #expect(codes.allSatisfy { $0.type == .qr && $0.stringValue == "https://example.com" })
            #expect(qr.corners.count == 4)
            // Independent geometry: "https://example.com" (19 bytes) needs a version 2 symbol, 25 modules,
            // printed with a 4-module quiet zone over the 0.08 m card, so the symbol spans 0.08 · 25 / 33 m,
            // centred on the optical axis 0.3 m away. In normalised coordinates its half-width is
            // f · s / (2 · 0.3) / W and its half-height the same pixels over H.
            let d = CMVideoFormatDescriptionGetDimensions(device.activeFormat.formatDescription)
            let (w, h) = (Double(d.width), Double(d.height))
            let half = focalPixels(device) * (0.08 * 25 / 33) / 0.3 / 2
            let module = 2 * half / 25
            let expected = [
                CGPoint(x: 0.5 - half / w, y: 0.5 - half / h), CGPoint(x: 0.5 + half / w, y: 0.5 - half / h),
                CGPoint(x: 0.5 + half / w, y: 0.5 + half / h), CGPoint(x: 0.5 - half / w, y: 0.5 + half / h),
            ]
            // zxing-cpp places a corner within about a module of the symbol's edge.
            for (read, truth) in zip(qr.corners, expected) {
                #expect(abs(read.x - truth.x) * w < 1.5 * module, "\(read) against \(truth)")
                #expect(abs(read.y - truth.y) * h < 1.5 * module, "\(read) against \(truth)")
            }
            // Clockwise from the printed top-left: right along the top edge, then down.
            let c = qr.corners
            #expect(c[1].x > c[0].x && c[2].y > c[1].y && c[3].x < c[2].x)
            #expect(qr.bounds.minX <= c.map(\.x).min()! && qr.bounds.maxX >= c.map(\.x).max()!)
            #expect(abs(qr.bounds.midX - 0.5) < 0.05 && abs(qr.bounds.midY - 0.5) < 0.05)
        }
    }

    /// A scene file with the QR card alone, square to a camera `distance` metres away unless `yaw`
    /// turns it, in office light; `cardGloss` adds keys to the card's material, `lights` YAML for lights.
    private func cardScene(
        distance: Double = 0.3, yaw: Double = 0, cardGloss: String = "", lights: String = ""
    ) throws -> String {
        let folder = try TestScratch.folder("codes-\(UUID().uuidString)")
        let yaml = """
            description: The QR card of qr-on-desk alone, \(distance) m from the camera.
            device:
              position_m: [0.0, 0.10, \(distance)]
              look_at_m: [0.0, 0.10, 0.0]
            ambient:
              spectrum: {cct_k: 4000}
              lux: 500
              direction: [0.2, 1.0, 0.4]
              diffuse_fraction: 0.7
            materials:
              - {name: wall, reflectance: 0.6}
              - {name: white card, reflectance: 0.85\(cardGloss)}
            objects:
              - {name: wall, shape: plane, size_m: [8.0, 6.0], position_m: [0.0, 0.10, -2.0], material: wall}
              - {name: qr-card, shape: plane, size_m: [0.08, 0.08], position_m: [0.0, 0.10, 0.0],
                 rotation: {yaw_deg: \(yaw)}, material: white card, code: {type: qr, value: "https://example.com"}}
            \(lights)
            """
        let url = folder.appendingPathComponent("card.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    // spec §16 [I]: moved back until its modules image well under two pixels, the code is no longer read,
    // while where they image at two pixels it still is. The distances come from the field of view and the
    // module's size alone: a module of 0.08 / 33 m images over f · m / d pixels. The emulated pixels sample
    // the scene at their centres, so the limit lies between 1.5 and 1 pixel (see the Capture rules).
    @Test func qrCodeIsLostWhereItsModulesFallUnderTwoPixels() throws {
        try onDevice {
            // The distance at which a module images over two pixels of the 640 × 480 format.
            let (_, device) = try scan(scene: cardScene(), types: [.qr], frames: 1)
            let twoPixels = focalPixels(device) * (0.08 / 33) / 2
            #expect(twoPixels > 0.3)
            let near = try scan(scene: cardScene(distance: twoPixels), types: [.qr])
            #expect(near.codes.contains { $0.stringValue == "https://example.com" })
            // Modules of 0.9 pixel.
            let far = try scan(scene: cardScene(distance: twoPixels * 2 / 0.9), types: [.qr])
            #expect(far.codes.isEmpty)
        }
    }

    // spec §16 [I]: turned 80° away, the card's modules image a sixth as wide (cos 80°): under a pixel
    // across, and the code is not read.
    @Test func qrCodeIsLostAtAGrazingAngle() throws {
        try onDevice {
            let square = try scan(scene: cardScene(yaw: 0), types: [.qr])
            #expect(!square.codes.isEmpty)
            let grazing = try scan(scene: cardScene(yaw: 80), types: [.qr])
            #expect(grazing.codes.isEmpty)
        }
    }

    // spec §16 [I]: a glossy print (gloss 0.1, roughness 0.5, like photo paper) reflecting a bright
    // lamp just above the camera into the lens: the highlight clips ink and paper alike over the symbol,
    // and the code is not read; the same lamp on the matte card leaves it readable.
    @Test func qrCodeIsLostUnderGlare() throws {
        try onDevice {
            let lamp = """
                lights:
                  - {name: lamp, type: point, spectrum: {cct_k: 3000}, intensity_cd: 800, position_m: [0.0, 0.12, 0.3]}
                """
            let matte = try scan(scene: cardScene(lights: lamp), types: [.qr])
            #expect(!matte.codes.isEmpty)
            let glossy = try scan(
                scene: cardScene(cardGloss: ", specular: 0.1, roughness: 0.5", lights: lamp), types: [.qr])
            #expect(glossy.codes.isEmpty)
        }
    }

    // spec §16 [I], spec §2.4: out of focus, the code is not read. The card is 10 cm away, nearer than the wide
    // camera focuses (`minimumFocusDistance`, 20 cm on this profile): autofocus takes the lens to its near end, where
    // a point of the card spreads over a circle of A · (0.2 − 0.1) / 0.2 = 1.9 mm on the card for the wide lens's
    // aperture A = 6.8 mm / 1.78 = 3.8 mm, under one module of 80 / 33 = 2.42 mm, and the code is still read, as
    // phones read codes a little nearer than they focus. With the lens locked at its far end (infinity), the circle
    // on the card is the aperture itself, A · d / (d − f) = 4.1 mm, 1.7 modules, and the symbol is a grey smear.
    @Test func qrCodeIsLostOutOfFocus() throws {
        try onDevice {
            let focused = try scan(scene: cardScene(distance: 0.1), types: [.qr])
            #expect(focused.codes.contains { $0.stringValue == "https://example.com" })
            #expect(focused.device.lensAperture == 1.78 && focused.device.minimumFocusDistance == 200)
            #expect(focused.device.lensPosition == 0)
            let far = try scan(scene: cardScene(distance: 0.1), types: [.qr]) { device in
                try device.lockForConfiguration()
                device.setFocusModeLocked(lensPosition: 1, completionHandler: nil)
                device.unlockForConfiguration()
            }
            #expect(far.device.lensPosition == 1)
            #expect(far.codes.isEmpty)
        }
    }

    // spec §16 [I]: exposure decides too: held four stops above the metered exposure, paper and ink both
    // clip to white and the code is not read.
    @Test func qrCodeIsLostWhenOverexposed() throws {
        try onDevice {
            let (codes, _) = try scan(types: [.qr]) { device in
                try device.lockForConfiguration()
                device.setExposureModeCustom(
                    duration: device.activeFormat.maxExposureDuration, iso: device.activeFormat.maxISO)
                device.unlockForConfiguration()
            }
            #expect(codes.isEmpty)
        }
    }

    /// Each symbology, its scene type, a value and the text a reader gives back (numeric codes read with
    /// their check digit).
    static let symbologies: [(type: AVMetadataObject.ObjectType, name: String, value: String, read: String)] = [
        (.qr, "qr", "https://example.com", "https://example.com"),
        (.ean13, "ean13", "400638133393", "4006381333931"),
        (.ean8, "ean8", "9638507", "96385074"),
        (.code128, "code128", "OBSCURA-128", "OBSCURA-128"),
        (.code39, "code39", "OBSCURA39", "OBSCURA39"),
        (.code93, "code93", "OBSCURA93", "OBSCURA93"),
        (.pdf417, "pdf417", "Obscura PDF417", "Obscura PDF417"),
        (.aztec, "aztec", "Obscura Aztec", "Obscura Aztec"),
        (.dataMatrix, "dataMatrix", "Obscura Data Matrix", "Obscura Data Matrix"),
        (.upce, "upce", "0123456", "01234565"),
        (.interleaved2of5, "interleaved2of5", "12345670", "12345670"),
        (.itf14, "itf14", "1234567890123", "12345678901231"),
        // The check character of OBSCURA39, by hand: O 24 + B 11 + S 28 + C 12 + U 30 + R 27 + A 10 + 3 + 9 = 154,
        // and 154 mod 43 = 25, the letter P.
        (.code39Mod43, "code39Mod43", "OBSCURA39", "OBSCURA39P"),
        (.codabar, "codabar", "1234-5678", "1234-5678"),
    ]

    // spec §16 [D][I]: every symbology the output offers is printed as its symbol and read back, from a
    // card 0.3 m away (linear codes 0.3 m × 0.1 m, matrix codes 0.2 m square).
    @Test(arguments: 0..<14) func everySymbologyIsPrintedAndRead(_ index: Int) throws {
        let (type, name, value, read) = Self.symbologies[index]
        let linear: Set<AVMetadataObject.ObjectType> = [
            .ean13, .ean8, .code128, .code39, .code93, .upce,
            .interleaved2of5, .itf14, .code39Mod43, .codabar,
        ]
        let size = linear.contains(type) ? "[0.30, 0.10]" : type == .pdf417 ? "[0.30, 0.12]" : "[0.20, 0.20]"
        try onDevice {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codes-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("label.yaml")
            try """
            description: One \(name) label 0.3 m in front of the camera.
            device: {position_m: [0.0, 0.0, 0.3], look_at_m: [0.0, 0.0, 0.0]}
            ambient: {spectrum: {cct_k: 5000}, lux: 500, direction: [0.2, 1.0, 0.4], diffuse_fraction: 0.7}
            materials:
              - {name: paper, reflectance: 0.85}
              - {name: wall, reflectance: 0.5}
            objects:
              - {name: wall, shape: plane, size_m: [4.0, 3.0], position_m: [0.0, 0.0, -1.0], material: wall}
              - {name: label, shape: plane, size_m: \(size), material: paper, code: {type: \(name), value: "\(value)"}}
            """.write(to: url, atomically: true, encoding: .utf8)
            let (codes, _) = try scan(scene: url.path, types: [type])
            let code = try #require(codes.first, "\(name) was not read")
            #expect(code.type == type)
            #expect(code.stringValue == read)
            #expect(code.obscuraObjectName == "label")
        }
    }

    // spec §16: a Code 39 symbol with its check character reads as plain Code 39 where Code 39 mod 43 is not
    // asked for.
    @Test func aCheckedCode39ReadsAsCode39WhenOnlyThatIsAsked() throws {
        try onDevice {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("c39-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("label.yaml")
            try """
            description: One Code 39 mod 43 label 0.3 m in front of the camera.
            device: {position_m: [0.0, 0.0, 0.3], look_at_m: [0.0, 0.0, 0.0]}
            ambient: {spectrum: {cct_k: 5000}, lux: 500, direction: [0.2, 1.0, 0.4], diffuse_fraction: 0.7}
            materials:
              - {name: paper, reflectance: 0.85}
            objects:
              - name: label
                shape: plane
                size_m: [0.30, 0.10]
                material: paper
                code: {type: code39Mod43, value: "AB1"}
            """.write(to: url, atomically: true, encoding: .utf8)
            let (codes, _) = try scan(scene: url.path, types: [.code39])
            let code = try #require(codes.first)
            // A 10 + B 11 + 1 = 22: the check character is M.
            #expect(code.type == .code39 && code.stringValue == "AB1M")
        }
    }

    // spec §16: the parts the scene marks as its person's are one human body: head, hair and torso together. The
    // person of near-and-far has its head in the frame's upper half and its torso running off the bottom edge.
    @Test func thePersonIsOneHumanBody() throws {
        try onDevice {
            try Emulator.shared.use(scene: "near-and-far")
            let session = AVCaptureSession()
            let metadata = AVCaptureMetadataOutput()
            let recorder = StreamRecorder()
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(metadata)
            metadata.setMetadataObjectsDelegate(recorder, queue: DispatchQueue(label: "bodies"))
            metadata.metadataObjectTypes = [.humanBody]
            session.startRunning()
            defer { session.stopRunning() }
            Emulator.shared.runFrames(4)
            let last = try #require(recorder.metadata.last)
            let bodies = last.compactMap { $0 as? AVMetadataHumanBodyObject }
            #expect(bodies.count == 1)
            let body = try #require(bodies.first)
            #expect(body.type == .humanBody && body.bodyID == 1)
            #expect(body.bounds.minY < 0.25 && body.bounds.maxY > 0.99, "\(body.bounds)")
        }
    }

    // spec §8 [D]: only the asked types are delivered: asking for EAN-13 alone, the readable QR code in
    // view is not reported (and the EAN-13 label beside it, modules under a pixel at 0.3 m, is not read).
    @Test func onlyRequestedCodeTypesAreDelivered() throws {
        try onDevice {
            let (codes, _) = try scan(types: [.ean13])
            #expect(codes.isEmpty)
            let (asked, _) = try scan(types: [.qr, .ean13])
            #expect(!asked.isEmpty && asked.allSatisfy { $0.type == .qr })
        }
    }

    // spec §16 [I]: a code outside rectOfInterest is not read; one inside it is.
    @Test func codeOutsideRectOfInterestIsNotReported() throws {
        try onDevice {
            let (outside, _) = try scan(types: [.qr], rectOfInterest: CGRect(x: 0, y: 0, width: 0.3, height: 0.3))
            #expect(outside.isEmpty)
            let (inside, _) = try scan(types: [.qr], rectOfInterest: CGRect(x: 0.25, y: 0.2, width: 0.5, height: 0.6))
            #expect(inside.contains { $0.stringValue == "https://example.com" })
            for code in inside {
                #expect(code.corners.allSatisfy { CGRect(x: 0.25, y: 0.2, width: 0.5, height: 0.6).contains($0) })
            }
        }
    }

    /// A scanned QR code and a video data output's connection in a session of its own.
    func codeAndVideoConnection() throws -> (
        AVMetadataMachineReadableCodeObject, AVCaptureSession, AVCaptureVideoDataOutput, AVCaptureConnection
    ) {
        let (codes, _) = try scan(types: [.qr])
        let qr = try #require(codes.first)
        let session = AVCaptureSession()
        let video = AVCaptureVideoDataOutput()
        let device = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(video)
        return (qr, session, video, try #require(video.connection(with: .video)))
    }

    // spec §16 [D]: with the connection's default orientation the transform keeps the geometry.
    @Test func transformedCodeKeepsItsGeometryAtTheDefaultOrientation() throws {
        try onDevice {
            let (qr, session, video, connection) = try codeAndVideoConnection()
            _ = session  // holds the connection
            let transformed = video.transformedMetadataObject(for: qr, connection: connection)
            let moved = try #require(transformed as? AVMetadataMachineReadableCodeObject)
            #expect(moved.bounds == qr.bounds)
            #expect(moved.corners == qr.corners)
            #expect(moved.stringValue == qr.stringValue)
        }
    }

    // spec §19.2: a preview layer puts a code where it shows it. With `.resize` on a portrait 300 × 400 layer a
    // device point (x, y) is shown at (300 (1 − y), 400 x), so Apple's code-reading sample draws its box there.
    @Test func previewLayerTransformsACodeToWhereItShowsIt() throws {
        try onDevice {
            let (qr, session, _, _) = try codeAndVideoConnection()
            let layer = AVCaptureVideoPreviewLayer(session: session)
            layer.videoGravity = .resize
            layer.frame = CGRect(x: 0, y: 0, width: 300, height: 400)
            let shown = try #require(layer.transformedMetadataObject(for: qr) as? AVMetadataMachineReadableCodeObject)
            #expect(shown.stringValue == qr.stringValue && shown.type == .qr)
            for (before, after) in zip(qr.corners, shown.corners) {
                #expect(abs(after.x - 300 * (1 - before.y)) < 1e-9 && abs(after.y - 400 * before.x) < 1e-9)
            }
            let b = qr.bounds
            #expect(abs(shown.bounds.minX - 300 * (1 - b.maxY)) < 1e-9 && abs(shown.bounds.minY - 400 * b.minX) < 1e-9)
            #expect(abs(shown.bounds.width - 300 * b.height) < 1e-9 && abs(shown.bounds.height - 400 * b.width) < 1e-9)
        }
    }

    // spec §1.5, §16: on a portrait connection (90°) a device point (x, y) lands at (1 − y, x), the
    // same quarter turn the connection gives its video buffers; a mirror then maps x to 1 − x.
    @Test func transformedCodeTurnsWithThePortraitConnection() throws {
        try onDevice {
            let (qr, session, video, connection) = try codeAndVideoConnection()
            _ = session  // holds the connection
            connection.videoRotationAngle = 90
            let turned = try #require(
                video.transformedMetadataObject(for: qr, connection: connection) as? AVMetadataMachineReadableCodeObject
            )
            for (before, after) in zip(qr.corners, turned.corners) {
                #expect(abs(after.x - (1 - before.y)) < 1e-12 && abs(after.y - before.x) < 1e-12)
            }
            #expect(abs(turned.bounds.width - qr.bounds.height) < 1e-12)
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = true
            let mirrored = try #require(
                video.transformedMetadataObject(for: qr, connection: connection) as? AVMetadataMachineReadableCodeObject
            )
            for (before, after) in zip(qr.corners, mirrored.corners) {
                #expect(abs(after.x - before.y) < 1e-12 && abs(after.y - before.x) < 1e-12)
            }
        }
    }
}
