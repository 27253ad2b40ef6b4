extension ICCProfile {
    /// The profile description (`desc` tag) of an ICC profile, v2 `desc` or v4 `mluc`; nil when absent or
    /// malformed. Every read is bounds-checked: the bytes come from files.
    package static func description(of profile: [UInt8]) -> String? {
        func uint32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return profile[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard profile.count >= 132, let count = uint32(128), count <= (profile.count - 132) / 12 else { return nil }
        for index in 0..<count {
            let entry = 132 + 12 * index
            guard let signature = uint32(entry), signature == 0x6465_7363,  // "desc"
                let offset = uint32(entry + 4), let length = uint32(entry + 8),
                offset + length <= profile.count, length >= 12, let type = uint32(offset)
            else { continue }
            let tag = Array(profile[offset..<(offset + length)])
            switch type {
            case 0x6D6C_7563:  // "mluc": first record, UTF-16BE
                guard let size = uint32(offset + 20), let start = uint32(offset + 24),
                    start + size <= length, size % 2 == 0
                else { return nil }
                let units = stride(from: start, to: start + size, by: 2).map {
                    UInt16(tag[$0]) << 8 | UInt16(tag[$0 + 1])
                }
                return String(decoding: units, as: UTF16.self)
            case 0x6465_7363:  // "desc": ASCII count then ASCII, NUL-terminated
                guard let size = uint32(offset + 8), size >= 1, 12 + size <= length else { return nil }
                return String(decoding: tag[12..<(12 + size - 1)], as: UTF8.self)
            default:
                return nil
            }
        }
        return nil
    }
}
