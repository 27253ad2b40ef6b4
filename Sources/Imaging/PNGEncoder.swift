import CPNG

/// Turns a `PNGImage` into PNG bytes through the CPNG shim.
enum PNGEncoder {
    static func encode(_ image: PNGImage, compressionLevel: Int?, threads: Int?) throws(PNGError) -> [UInt8] {
        guard (1...4).contains(image.channels) else {
            throw PNGError(code: .invalidImage, message: "\(image.channels) channels; PNG holds 1 to 4")
        }
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw PNGError(code: .invalidImage, message: "cannot store a \(image.width)x\(image.height) image")
        }
        if let compressionLevel, !(0...9).contains(compressionLevel) {
            throw PNGError(code: .invalidImage, message: "compression level \(compressionLevel) is not 0...9")
        }
        if let threads, !(1...64).contains(threads) {
            throw PNGError(code: .invalidImage, message: "\(threads) threads; give 1...64 or nil for one per core")
        }

        // 8-bit planes are handed over as they are (rows `rowStride` apart, padding skipped by the encoder), not
        // copied: a 12 MP photo is 36 MB.
        let pixels: UInt8Image
        let rowBytes: Int
        switch image.pixels {
        case .eightBit(let plane):
            pixels = plane
            rowBytes = plane.rowStride
        case .sixteenBit(let plane):
            // Most significant byte first (PNG spec §7.1), whatever the host's byte order.
            var writer = BigEndianWriter()
            writer.bytes.reserveCapacity(plane.width * plane.height * plane.channels * 2)
            for y in 0..<plane.height {
                for sample in plane.row(y) { writer.uint16(sample) }
            }
            rowBytes = plane.width * plane.channels * 2
            pixels = UInt8Image(width: rowBytes, height: plane.height, elements: writer.bytes)
        }

        // Every C string the request points at lives in one arena, kept alive across the call.
        var arena: [CChar] = []
        func store(_ bytes: [UInt8]) -> (offset: Int, length: Int) {
            let offset = arena.count
            arena += bytes.map { CChar(bitPattern: $0) }
            arena.append(0)
            return (offset, bytes.count)
        }

        var request = cpng_encode_request()
        request.width = UInt32(image.width)
        request.height = UInt32(image.height)
        request.bit_depth = Int32(image.bitDepth)
        request.channels = Int32(image.channels)
        request.row_bytes = rowBytes
        request.compression_level = Int32(compressionLevel ?? PNG.defaultCompressionLevel)
        request.threads = Int32(threads ?? WorkerThreads.cores)

        var iccProfile: [UInt8]?
        var iccName: (offset: Int, length: Int)?
        func setChromaticities(_ c: PrimaryChromaticities) {
            let values = [c.white, c.red, c.green, c.blue].flatMap { [$0.x, $0.y] }
            let fixed = values.map { Int32(($0 * 100_000).rounded()) }
            request.chromaticities_fixed = (fixed[0], fixed[1], fixed[2], fixed[3], fixed[4], fixed[5], fixed[6],
                                            fixed[7])
            request.write_chromaticities = 1
        }
        func setGamma(_ gamma: Double) throws(PNGError) {
            guard gamma > 0, gamma * 100_000 < Double(UInt32(Int32.max)) else {
                throw PNGError(code: .invalidImage, message: "gAMA \(gamma) is not a positive gamma")
            }
            request.gamma_fixed = UInt32((gamma * 100_000).rounded())
            request.write_gamma = 1
        }
        switch image.colorSpace {
        case .untagged:
            break
        case .sRGB:
            request.write_srgb = 1
        case .displayP3:
            try setGamma(sRGBFallbackGamma)
            setChromaticities(.displayP3)
            // An RGB profile may only tag colour images (PNG spec §11.3.3.3); grey images keep cHRM and gAMA.
            if image.channels >= 3 {
                iccProfile = ICCProfile.displayP3
                iccName = store(Array("Display P3".utf8))
            }
        case .other(let chunks):
            if let gamma = chunks.gamma { try setGamma(gamma) }
            if let chromaticities = chunks.chromaticities { setChromaticities(chromaticities) }
            if let profile = chunks.iccProfile {
                iccProfile = profile
                iccName = store(try keywordBytes(chunks.iccProfileName ?? "ICC profile", role: "iCCP profile name"))
            }
        }

        var textSlots: [(key: (offset: Int, length: Int), value: (offset: Int, length: Int), utf8: Bool)] = []
        for entry in image.text {
            let key = store(try keywordBytes(entry.key, role: "text key"))
            guard !entry.value.unicodeScalars.contains("\0") else {
                throw PNGError(code: .invalidImage, message: "text \"\(entry.key)\" contains a NUL character")
            }
            // tEXt holds Latin-1 only (PNG spec §11.3.4.3); anything else goes to iTXt as UTF-8 (§11.3.4.5).
            if let latin1 = latin1Bytes(entry.value) {
                textSlots.append((key, store(latin1), false))
            } else {
                textSlots.append((key, store(Array(entry.value.utf8)), true))
            }
        }

        var message = [CChar](repeating: 0, count: 512)
        var output: UnsafeMutablePointer<UInt8>?
        var outputLength = 0
        let status = arena.withUnsafeBufferPointer { strings -> Int32 in
            func pointer(_ slot: (offset: Int, length: Int)) -> UnsafePointer<CChar>? {
                strings.baseAddress.map { $0 + slot.offset }
            }
            let texts = textSlots.map { slot in
                cpng_text(key: pointer(slot.key), value: pointer(slot.value), value_length: slot.value.length,
                          is_utf8: slot.utf8 ? 1 : 0)
            }
            request.icc_name = iccName.flatMap(pointer)
            return texts.withUnsafeBufferPointer { textBuffer in
                request.texts = textBuffer.baseAddress
                request.text_count = Int32(textBuffer.count)
                return pixels.withUnsafeBufferPointer { pixelBuffer in
                    request.pixels = pixelBuffer.baseAddress
                    return (iccProfile ?? []).withUnsafeBufferPointer { profileBuffer in
                        request.icc_profile = iccProfile == nil ? nil : profileBuffer.baseAddress
                        request.icc_length = profileBuffer.count
                        return message.withUnsafeMutableBufferPointer { text in
                            cpng_encode(&request, &output, &outputLength, text.baseAddress, text.count)
                        }
                    }
                }
            }
        }
        guard status == Int32(CPNG_OK), let output else {
            throw PNGError(code: PNGError.Code(cpngStatus: status), message: String(cStringBuffer: message))
        }
        defer { cpng_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: outputLength))
    }

    /// A PNG keyword as Latin-1 bytes: 1–79 printable Latin-1 characters, no leading, trailing or consecutive
    /// spaces (PNG spec §11.3.4.2).
    static func keywordBytes(_ keyword: String, role: String) throws(PNGError) -> [UInt8] {
        guard let bytes = latin1Bytes(keyword), (1...79).contains(bytes.count),
            bytes.allSatisfy({ (32...126).contains($0) || $0 >= 161 }),
            bytes.first != 32, bytes.last != 32,
            !zip(bytes, bytes.dropFirst()).contains(where: { $0 == 32 && $1 == 32 })
        else {
            throw PNGError(code: .invalidImage, message: "\(role) \"\(keyword)\" is not 1-79 printable Latin-1 "
                + "characters without leading, trailing or double spaces")
        }
        return bytes
    }

    /// The string's Latin-1 bytes, or nil when a character is outside Latin-1.
    static func latin1Bytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }
}
