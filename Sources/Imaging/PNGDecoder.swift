import CPNG

/// Turns PNG bytes into a `PNGImage` through the CPNG shim.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8]) throws(PNGError) -> PNGImage {
        var message = [CChar](repeating: 0, count: 512)
        var handle: OpaquePointer?
        let status = bytes.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { text in
                cpng_decode(data.baseAddress, data.count, &handle, text.baseAddress, text.count)
            }
        }
        guard status == Int32(CPNG_OK), let handle else {
            throw PNGError(code: PNGError.Code(cpngStatus: status), message: String(cStringBuffer: message))
        }
        defer { cpng_decoded_free(handle) }
        var info = cpng_info()
        cpng_decoded_info(handle, &info)
        guard let pixels = info.pixels else {
            throw PNGError(code: .corrupt, message: "decoder returned no pixels")
        }

        let width = Int(info.width)
        let height = Int(info.height)
        let channels = Int(info.channels)
        let rowBytes = info.row_bytes
        let samplesPerRow = width * channels
        var image: PNGImage
        if info.bit_depth == 16 {
            // PNG stores 16-bit samples most significant byte first (PNG spec §7.1).
            let plane = UInt16Image(width: width, height: height, channels: channels) { x, y, c in
                let at = y * rowBytes + (x * channels + c) * 2
                return UInt16(pixels[at]) << 8 | UInt16(pixels[at + 1])
            }
            image = PNGImage(pixels: plane)
        } else {
            var elements = ContiguousArray<UInt8>()
            elements.reserveCapacity(samplesPerRow * height)
            for y in 0..<height {
                elements.append(contentsOf: UnsafeBufferPointer(start: pixels + y * rowBytes, count: samplesPerRow))
            }
            image = PNGImage(pixels: UInt8Image(width: width, height: height, channels: channels, elements: elements))
        }

        let chunks = colorChunks(info)
        image.decodedColorChunks = chunks
        image.colorSpace = chunks.colorSpace
        image.text = (0..<info.text_count).compactMap { index in
            var entry = cpng_text()
            guard cpng_decoded_text(handle, index, &entry) == Int32(CPNG_OK), let key = entry.key else { return nil }
            let keyText = latin1String(UnsafeBufferPointer(start: key, count: strlenBounded(key)))
            guard let value = entry.value else { return PNGText(key: keyText, value: "") }
            let valueBytes = UnsafeBufferPointer(start: value, count: entry.value_length)
            let valueText = entry.is_utf8 != 0
                ? String(decoding: valueBytes.lazy.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                : latin1String(valueBytes)
            return PNGText(key: keyText, value: valueText)
        }
        return image
    }

    static func colorChunks(_ info: cpng_info) -> PNGColorChunks {
        var chunks = PNGColorChunks()
        if info.has_srgb != 0 { chunks.sRGBIntent = Int(info.srgb_intent) }
        if info.has_gamma != 0 { chunks.gamma = Double(info.gamma_fixed) / 100_000 }
        if info.has_chromaticities != 0 {
            let c = withUnsafeBytes(of: info.chromaticities_fixed) { Array($0.bindMemory(to: Int32.self)) }
            let xy = { (i: Int) in PrimaryChromaticities.XY(x: Double(c[i]) / 100_000, y: Double(c[i + 1]) / 100_000) }
            chunks.chromaticities = PrimaryChromaticities(white: xy(0), red: xy(2), green: xy(4), blue: xy(6))
        }
        if let profile = info.icc_profile, info.icc_length > 0 {
            chunks.iccProfile = Array(UnsafeBufferPointer(start: profile, count: info.icc_length))
            if let name = info.icc_name {
                chunks.iccProfileName = latin1String(UnsafeBufferPointer(start: name, count: strlenBounded(name)))
            }
        }
        return chunks
    }

    /// Length of a NUL-terminated PNG keyword, which the spec caps at 79 bytes.
    static func strlenBounded(_ text: UnsafePointer<CChar>) -> Int {
        var count = 0
        while count < 80 && text[count] != 0 { count += 1 }
        return count
    }

    /// Latin-1 bytes map one-to-one onto the first 256 Unicode scalars.
    static func latin1String(_ bytes: UnsafeBufferPointer<CChar>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar(UInt8(bitPattern: $0)) }))
    }
}

extension PNGError.Code {
    init(cpngStatus status: Int32) {
        switch status {
        case Int32(CPNG_ERR_SIGNATURE): self = .notPNG
        case Int32(CPNG_ERR_LIMIT): self = .tooLarge
        case Int32(CPNG_ERR_MEMORY): self = .outOfMemory
        case Int32(CPNG_ERR_ARGUMENT): self = .invalidImage
        default: self = .corrupt
        }
    }
}

extension String {
    /// The text before the first NUL of a C buffer.
    init(cStringBuffer buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
    }
}
