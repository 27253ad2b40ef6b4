/// Appends big-endian integers, four-character signatures and fixed-point numbers to a byte array, as ICC profiles
/// and PNG samples store them.
struct BigEndianWriter {
    var bytes: [UInt8] = []

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    /// A four-character ASCII signature such as `"desc"`.
    mutating func signature(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4, "ICC signatures have four characters")
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// ICC s15Fixed16Number: a signed 32-bit value in units of 1/65536 (ICC.1:2010 §4.6), rounded to nearest.
    mutating func s15Fixed16(_ value: Double) {
        let scaled = (value * 65536).rounded()
        precondition(scaled >= Double(Int32.min) && scaled <= Double(Int32.max), "\(value) overflows s15Fixed16")
        uint32(UInt32(bitPattern: Int32(scaled)))
    }

    /// Pads with zeros to a multiple of four bytes (ICC.1:2010 §7.3.1: tag data starts on 4-byte boundaries).
    mutating func alignToFour() {
        while bytes.count % 4 != 0 { bytes.append(0) }
    }
}
