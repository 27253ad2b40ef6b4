/// A C library's message written into a fixed `char` buffer: the text up to the first NUL.
enum CStringBuffer {
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
