import Foundation

extension DNGFile {
    /// A GainMap opcode (DNG 1.3's opcode 9), the form in which a DNG carries lens shading: a grid of gains over
    /// the picture, bilinearly interpolated, by which the linear values of an area are multiplied before
    /// demosaicing (OpcodeList2). The area is given in pixels with a row and column pitch and a range of planes, so
    /// that a file can give each site of a colour filter pattern its own map; the grid is placed in relative
    /// coordinates, 0 at the picture's top or left edge and 1 at its bottom or right, with pixel centres at
    /// (row + ½) / height and (column + ½) / width. Outside the grid the nearest edge holds, and a product above
    /// the white level stays at it.
    public struct GainMap: Sendable, Equatable {
        /// The pixels the gains apply to: rows `top..<bottom` and columns `left..<right`, every `rowPitch`-th row
        /// and `columnPitch`-th column from the first.
        public var top: Int, left: Int, bottom: Int, right: Int
        public var rowPitch: Int, columnPitch: Int
        /// The first plane the gains apply to and how many (a colour filter array has one plane).
        public var plane: Int, planes: Int
        /// The grid: points down and across, their spacing and the first point's place, in relative coordinates.
        public var pointsV: Int, pointsH: Int
        public var spacingV: Double, spacingH: Double
        public var originV: Double, originH: Double
        /// Planes of the map (1 when one map serves every plane).
        public var mapPlanes: Int
        /// The gains, row by row of the grid, each point's planes together.
        public var gains: [Float]

        public init(
            top: Int, left: Int, bottom: Int, right: Int, rowPitch: Int = 1, columnPitch: Int = 1, plane: Int = 0,
            planes: Int = 1, pointsV: Int, pointsH: Int, spacingV: Double, spacingH: Double, originV: Double = 0,
            originH: Double = 0, mapPlanes: Int = 1, gains: [Float]
        ) {
            precondition(gains.count == pointsV * pointsH * mapPlanes, "one gain per point and map plane")
            (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
            (self.rowPitch, self.columnPitch, self.plane, self.planes) = (rowPitch, columnPitch, plane, planes)
            (self.pointsV, self.pointsH, self.spacingV, self.spacingH) = (pointsV, pointsH, spacingV, spacingH)
            (self.originV, self.originH, self.mapPlanes, self.gains) = (originV, originH, mapPlanes, gains)
        }

        /// Whether pixel (column, row) of plane 0 is one the map applies to.
        public func covers(column x: Int, row y: Int) -> Bool {
            plane == 0 && y >= top && y < bottom && x >= left && x < right && rowPitch > 0 && columnPitch > 0
                && (y - top) % rowPitch == 0 && (x - left) % columnPitch == 0
        }

        /// The gain at pixel (column, row) of a `width` × `height` picture: the grid interpolated bilinearly at the
        /// pixel's centre, held at the nearest edge outside it.
        public func gain(column x: Int, row y: Int, width: Int, height: Int) -> Float {
            func place(_ pixel: Int, _ size: Int, origin: Double, spacing: Double, points: Int) -> (Int, Int, Double) {
                let index = ((Double(pixel) + 0.5) / Double(size) - origin) / spacing
                guard index > 0, points > 1 else { return (0, 0, 0) }
                guard index < Double(points - 1) else { return (points - 1, points - 1, 0) }
                let i = Int(index)
                return (i, i + 1, index - Double(i))
            }
            let (v0, v1, fv) = place(y, height, origin: originV, spacing: spacingV, points: pointsV)
            let (h0, h1, fh) = place(x, width, origin: originH, spacing: spacingH, points: pointsH)
            func entry(_ v: Int, _ h: Int) -> Double { Double(gains[(v * pointsH + h) * mapPlanes]) }
            let upper = entry(v0, h0) * (1 - fh) + entry(v0, h1) * fh
            let lower = entry(v1, h0) * (1 - fh) + entry(v1, h1) * fh
            return Float(upper * (1 - fv) + lower * fv)
        }
    }

    /// OpcodeList2's bytes for `maps`: big-endian whatever the file's byte order, as DNG stores opcode lists.
    static func opcodeList(_ maps: [GainMap]) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ v: Int) { out += withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, Array.init) }
        func f64(_ v: Double) { out += withUnsafeBytes(of: v.bitPattern.bigEndian, Array.init) }
        u32(maps.count)
        for map in maps {
            u32(9)  // GainMap
            out += [1, 3, 0, 0]  // the DNG version that defines it
            u32(0)  // flags: not optional
            u32(32 + 44 + 4 * map.gains.count)
            for v in [map.top, map.left, map.bottom, map.right, map.plane, map.planes, map.rowPitch, map.columnPitch] {
                u32(v)
            }
            u32(map.pointsV)
            u32(map.pointsH)
            for v in [map.spacingV, map.spacingH, map.originV, map.originH] { f64(v) }
            u32(map.mapPlanes)
            for g in map.gains { out += withUnsafeBytes(of: g.bitPattern.bigEndian, Array.init) }
        }
        return out
    }

    /// A big-endian reader over an opcode list's bytes, as DNG stores opcode lists whatever the file's byte order.
    struct OpcodeStream {
        let bytes: [UInt8]
        var at = 0

        mutating func u32() throws(ReadError) -> Int {
            guard at + 4 <= bytes.count else { throw .damaged("an opcode list cut short") }
            defer { at += 4 }
            return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }

        mutating func f64() throws(ReadError) -> Double {
            let high = UInt64(try u32()), low = UInt64(try u32())
            return Double(bitPattern: high << 32 | low)
        }

        /// An opcode's header: its id, whether a reader may skip it, and where its parameters end.
        mutating func header() throws(ReadError) -> (id: Int, optional: Bool, end: Int) {
            let (id, _, flags, length) = (try u32(), try u32(), try u32(), try u32())
            guard at + length <= bytes.count else { throw .damaged("an opcode list cut short") }
            return (id, flags & 1 == 1, at + length)
        }
    }

    /// Throws unless every opcode of a list (OpcodeList1 or OpcodeList3, which this reader does not apply) is one a
    /// reader may skip.
    static func requireOnlyOptionalOpcodes(_ bytes: [UInt8], list: Int) throws(ReadError) {
        var stream = OpcodeStream(bytes: bytes)
        for _ in 0..<(try stream.u32()) {
            let opcode = try stream.header()
            guard opcode.optional else { throw .unsupported("opcode \(opcode.id) in OpcodeList\(list)") }
            stream.at = opcode.end
        }
    }

    /// The GainMaps of an OpcodeList2; opcodes marked optional that are not gain maps are skipped.
    static func gainMaps(inOpcodeList bytes: [UInt8]) throws(ReadError) -> [GainMap] {
        var stream = OpcodeStream(bytes: bytes)
        var maps: [GainMap] = []
        for _ in 0..<(try stream.u32()) {
            let opcode = try stream.header()
            guard opcode.id == 9 else {
                guard opcode.optional else { throw .unsupported("opcode \(opcode.id) in OpcodeList2") }
                stream.at = opcode.end
                continue
            }
            maps.append(try gainMap(&stream, end: opcode.end))
        }
        return maps
    }

    /// One GainMap opcode's parameters, which end at `end`.
    private static func gainMap(_ stream: inout OpcodeStream, end: Int) throws(ReadError) -> GainMap {
        let area = try (0..<8).map { _ throws(ReadError) in try stream.u32() }
        let (pointsV, pointsH) = (try stream.u32(), try stream.u32())
        let (spacingV, spacingH) = (try stream.f64(), try stream.f64())
        let (originV, originH) = (try stream.f64(), try stream.f64())
        let mapPlanes = try stream.u32()
        // Each factor bounded by the room left before they are multiplied, so no product overflows.
        let room = max(end - stream.at, 0) / 4
        guard pointsV >= 1, pointsH >= 1, mapPlanes >= 1, pointsV <= room, pointsH <= room / pointsV,
            mapPlanes <= room / (pointsV * pointsH), end - stream.at == 4 * pointsV * pointsH * mapPlanes,
            spacingV > 0 || pointsV == 1, spacingH > 0 || pointsH == 1
        else { throw .damaged("a gain map whose grid does not match its size") }
        // An area is top, left, bottom, right, then plane, planes, row pitch, column pitch.
        guard area[0] <= area[2], area[1] <= area[3], area[5] >= 1, area[6] >= 1, area[7] >= 1 else {
            throw .damaged("a gain map whose area is empty or inside out")
        }
        let gains = try (0..<(pointsV * pointsH * mapPlanes)).map { _ throws(ReadError) in
            Float(bitPattern: UInt32(try stream.u32()))
        }
        guard gains.allSatisfy({ $0.isFinite && $0 >= 0 }) else { throw .damaged("a gain map with a gain below 0") }
        return GainMap(
            top: area[0], left: area[1], bottom: area[2], right: area[3], rowPitch: area[6], columnPitch: area[7],
            plane: area[4], planes: area[5], pointsV: pointsV, pointsH: pointsH,
            spacingV: pointsV == 1 ? 1 : spacingV, spacingH: pointsH == 1 ? 1 : spacingH,
            originV: pointsV == 1 ? 0 : originV, originH: pointsH == 1 ? 0 : originH, mapPlanes: mapPlanes,
            gains: gains)
    }
}
