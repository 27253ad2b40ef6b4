/// Turns the second image of a HEIF file into an auxiliary image of the primary one, by editing
/// the `meta` box (ISO/IEC 14496-12 §8.11, ISO/IEC 23008-12 §6.6, §7.5.2.1).
///
/// libheif 1.15 has no call that writes an auxiliary image, so the file is written with two
/// top-level images and then edited: the second item becomes hidden (`infe` flag 1), gains an
/// `auxC` property naming the auxiliary type, and an `auxl` reference to the primary item. The
/// `meta` box grows, so every `iloc` extent behind it moves by the same amount.
enum HEIFAuxiliaryLink {
    struct Box {
        let type: String
        let start: Int
        let headerSize: Int
        let end: Int
        var payloadStart: Int { start + headerSize }
    }

    static func linkSecondImage(in file: [UInt8], auxiliaryType: String) throws -> [UInt8] {
        try linkImages(in: file, auxiliaryTypes: [auxiliaryType])
    }

    /// Makes every image item after the primary one, in the order written, an auxiliary image of the
    /// primary with the auxiliary type at the same place in `auxiliaryTypes`, except the last `trailing`
    /// ones (a thumbnail, already linked by libheif).
    static func linkImages(in file: [UInt8], auxiliaryTypes: [String], trailing: Int = 0) throws -> [UInt8] {
        let items = try secondaryImageItems(in: file).dropLast(trailing)
        guard items.count == auxiliaryTypes.count else {
            throw HEIFError(message: "\(items.count) secondary images for \(auxiliaryTypes.count) auxiliary types")
        }
        var out = file
        for (item, type) in zip(items, auxiliaryTypes) { out = try link(in: out, item: item, auxiliaryType: type) }
        return out
    }

    /// The `meta` box and its children.
    private static func metaBoxes(_ file: [UInt8]) throws -> (meta: Box, children: [Box]) {
        guard let meta = boxes(file, 0..<file.count).first(where: { $0.type == "meta" }) else {
            throw HEIFError(message: "no meta box")
        }
        return (meta, boxes(file, (meta.payloadStart + 4)..<meta.end))
    }

    /// The primary item's ID (`pitm`).
    private static func primaryItem(_ file: [UInt8], _ children: [Box]) throws -> UInt32 {
        guard let pitm = children.first(where: { $0.type == "pitm" }) else {
            throw HEIFError(message: "meta has no pitm box")
        }
        return file[pitm.payloadStart] == 0
            ? UInt32(read(file, pitm.payloadStart + 4, 2)) : UInt32(read(file, pitm.payloadStart + 4, 4))
    }

    /// The `infe` entries of the HEVC image items (ID and box), in the order `iinf` lists them.
    private static func imageItems(_ file: [UInt8], _ children: [Box]) throws -> [(id: UInt32, infe: Box)] {
        guard let iinf = children.first(where: { $0.type == "iinf" }) else {
            throw HEIFError(message: "meta has no iinf box")
        }
        let entriesAt = iinf.payloadStart + (file[iinf.payloadStart] == 0 ? 6 : 8)
        var items: [(id: UInt32, infe: Box)] = []
        for infe in boxes(file, entriesAt..<iinf.end) where infe.type == "infe" {
            let version = file[infe.payloadStart]
            guard version >= 2 else { continue }
            let idSize = version == 2 ? 2 : 4
            let id = UInt32(read(file, infe.payloadStart + 4, idSize))
            let typeAt = infe.payloadStart + 4 + idSize + 2
            let type = String(decoding: file[typeAt..<typeAt + 4], as: UTF8.self)
            // A picture under 64 pixels in a side is a `grid` item over one hidden coded tile.
            if type == "hvc1" || type == "grid" { items.append((id, infe)) }
        }
        return items
    }

    /// The image items other than the primary, in the order written, that libheif wrote visible: a hidden one
    /// is the coded tile of a `grid` item, part of that picture.
    private static func secondaryImageItems(in file: [UInt8]) throws -> [UInt32] {
        let (_, children) = try metaBoxes(file)
        let primary = try primaryItem(file, children)
        return try imageItems(file, children).filter { $0.id != primary && file[$0.infe.payloadStart + 3] & 1 == 0 }
            .map(\.id)
    }

    /// Makes `item` an auxiliary image of the primary item of type `auxiliaryType`.
    private static func link(in file: [UInt8], item: UInt32, auxiliaryType: String) throws -> [UInt8] {
        let (meta, metaChildren) = try metaBoxes(file)
        let primary = try primaryItem(file, metaChildren)
        guard let auxInfe = try imageItems(file, metaChildren).first(where: { $0.id == item })?.infe else {
            throw HEIFError(message: "no image item \(item)")
        }
        let auxID = item

        var edited: [[UInt8]] = []
        var hasIref = false
        for box in metaChildren {
            var bytes = Array(file[box.start..<box.end])
            switch box.type {
            case "iinf":
                bytes[auxInfe.payloadStart + 3 - box.start] |= 1  // flags bit 0: hidden item
            case "iprp":
                bytes = try editedProperties(file, box, item: auxID, auxiliaryType: auxiliaryType)
            case "iref":
                hasIref = true
                bytes += referenceBox(from: auxID, to: primary, wide: file[box.payloadStart] != 0)
                bytes = resized(bytes)
            default: break
            }
            edited.append(bytes)
        }
        if !hasIref {
            edited.append(resized([0, 0, 0, 0] + Array("iref".utf8) + [0, 0, 0, 0]
                + referenceBox(from: auxID, to: primary, wide: false)))
        }
        var newMeta = resized([0, 0, 0, 0] + Array("meta".utf8) + Array(file[meta.payloadStart..<meta.payloadStart + 4])
            + edited.flatMap { $0 })
        let delta = newMeta.count - (meta.end - meta.start)
        guard let iloc = boxes(newMeta, 12..<newMeta.count).first(where: { $0.type == "iloc" }) else {
            throw HEIFError(message: "meta has no iloc box")
        }
        try shiftLocations(&newMeta, iloc, by: delta, after: meta.end)
        return Array(file[..<meta.start]) + newMeta + Array(file[meta.end...])
    }

    /// `iprp` with an `auxC` property appended to `ipco` and associated with `item` in `ipma`.
    private static func editedProperties(_ file: [UInt8], _ iprp: Box, item: UInt32, auxiliaryType: String) throws
        -> [UInt8]
    {
        let parts = boxes(file, iprp.payloadStart..<iprp.end)
        guard let ipco = parts.first(where: { $0.type == "ipco" }) else { throw HEIFError(message: "no ipco box") }
        let index = boxes(file, ipco.payloadStart..<ipco.end).count + 1
        let auxC = resized([0, 0, 0, 0] + Array("auxC".utf8) + [0, 0, 0, 0] + Array(auxiliaryType.utf8) + [0])
        var out: [UInt8] = [0, 0, 0, 0] + Array("iprp".utf8)
        for part in parts {
            switch part.type {
            case "ipco":
                out += resized(Array(file[part.start..<part.end]) + auxC)
            case "ipma":
                out += try editedAssociations(file, part, item: item, property: index)
            default:
                out += file[part.start..<part.end]
            }
        }
        return resized(out)
    }

    /// `ipma` (ISO/IEC 23008-12 §9.3) with `property` added, marked essential, to `item`'s entry.
    private static func editedAssociations(_ file: [UInt8], _ ipma: Box, item: UInt32, property: Int) throws
        -> [UInt8]
    {
        let version = file[ipma.payloadStart]
        let wideIndex = file[ipma.payloadStart + 3] & 1 != 0
        guard wideIndex || property < 128 else { throw HEIFError(message: "too many properties for ipma") }
        let idSize = version < 1 ? 2 : 4
        var at = ipma.payloadStart + 4
        let count = read(file, at, 4)
        at += 4
        var out: [UInt8] = [0, 0, 0, 0] + Array("ipma".utf8) + Array(file[ipma.payloadStart..<ipma.payloadStart + 8])
        var found = false
        for _ in 0..<count {
            guard at + idSize + 1 <= ipma.end else { throw HEIFError(message: "truncated ipma") }
            let id = UInt32(read(file, at, idSize))
            let n = Int(file[at + idSize])
            let size = idSize + 1 + n * (wideIndex ? 2 : 1)
            guard at + size <= ipma.end else { throw HEIFError(message: "truncated ipma") }
            var entry = Array(file[at..<at + size])
            if id == item {
                found = true
                entry[idSize] = UInt8(n + 1)
                entry += wideIndex ? [UInt8(0x80 | property >> 8), UInt8(property & 0xFF)] : [UInt8(0x80 | property)]
            }
            out += entry
            at += size
        }
        guard found else { throw HEIFError(message: "ipma has no entry for item \(item)") }
        return resized(out)
    }

    /// A `SingleItemTypeReferenceBox` of type `auxl`: the auxiliary image refers to its master.
    private static func referenceBox(from: UInt32, to: UInt32, wide: Bool) -> [UInt8] {
        var w = BigEndianWriter()
        w.uint32(0)
        w.bytes += Array("auxl".utf8)
        if wide { w.uint32(from) } else { w.uint16(UInt16(from)) }
        w.uint16(1)
        if wide { w.uint32(to) } else { w.uint16(UInt16(to)) }
        return resized(w.bytes)
    }

    /// Adds `delta` to every file offset in `iloc` (ISO/IEC 14496-12 §8.11.3) that points at or past `after`.
    private static func shiftLocations(_ m: inout [UInt8], _ iloc: Box, by delta: Int, after: Int) throws {
        let version = m[iloc.payloadStart]
        var at = iloc.payloadStart + 4
        let offsetSize = Int(m[at] >> 4)
        let lengthSize = Int(m[at] & 0xF)
        let baseSize = Int(m[at + 1] >> 4)
        let indexSize = version >= 1 ? Int(m[at + 1] & 0xF) : 0
        at += 2
        let count = version < 2 ? read(m, at, 2) : read(m, at, 4)
        at += version < 2 ? 2 : 4
        func shift(_ position: Int, _ size: Int) throws {
            guard size > 0 else { return }
            guard position + size <= iloc.end else { throw HEIFError(message: "truncated iloc") }
            let value = read(m, position, size)
            guard value >= after else { return }
            let moved = value + delta
            for k in 0..<size { m[position + k] = UInt8(truncatingIfNeeded: moved >> (8 * (size - 1 - k))) }
        }
        for _ in 0..<count {
            at += version < 2 ? 2 : 4  // item_ID
            var method = 0
            if version >= 1 {
                method = Int(read(m, at, 2) & 0xF)
                at += 2
            }
            at += 2  // data_reference_index
            let baseAt = at
            let base = baseSize > 0 ? read(m, at, baseSize) : 0
            at += baseSize
            let extents = read(m, at, 2)
            at += 2
            // Only file offsets (construction method 0) move; a base offset carries them when present.
            if method == 0, baseSize > 0, base > 0 { try shift(baseAt, baseSize) }
            for _ in 0..<extents {
                at += indexSize
                if method == 0, base == 0 { try shift(at, offsetSize) }
                at += offsetSize + lengthSize
            }
        }
    }

    /// The boxes in `range` of `bytes`, with 64-bit and to-the-end sizes.
    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [Box] {
        var out: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = read(bytes, at, 4)
            var header = 8
            if size == 1, at + 16 <= range.upperBound {
                size = read(bytes, at + 8, 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { break }
            out.append(Box(type: String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), start: at,
                headerSize: header, end: at + size))
            at += size
        }
        return out
    }

    /// The bytes with their first four replaced by their count (a box's 32-bit size).
    private static func resized(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        let n = UInt32(b.count)
        b[0] = UInt8(n >> 24)
        b[1] = UInt8(n >> 16 & 0xFF)
        b[2] = UInt8(n >> 8 & 0xFF)
        b[3] = UInt8(n & 0xFF)
        return b
    }

    private static func read(_ b: [UInt8], _ at: Int, _ size: Int) -> Int {
        guard size > 0, at >= 0, at + size <= b.count else { return 0 }
        return b[at..<at + size].reduce(0) { $0 << 8 | Int($1) }
    }
}
