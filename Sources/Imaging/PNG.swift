#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The PNG codec (ISO/IEC 15948), over libpng.
///
/// Decoding accepts every PNG colour type: palettes and grey below 8 bits are expanded to 8 bits, and tRNS becomes
/// an alpha channel. Declared sizes over 65535 pixels a side or 2^27 pixels are rejected before any pixel memory
/// is allocated; ancillary chunks are capped at 16 MiB each. Damaged data always throws `PNGError`, never crashes.
public enum PNG {
    /// Decodes PNG bytes.
    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> PNGImage {
        try PNGDecoder.decode(bytes)
    }

    /// The level used when none is given: 1, the banded photo path. On camera pictures it is both the
    /// fastest and the smallest (literal coding beats LZ77 matching on sensor noise); on flat synthetic
    /// pictures zlib's level 1 takes over band by band.
    public static let defaultCompressionLevel = 1

    /// Encodes an image as PNG bytes.
    ///
    /// Images of 4 MB and more, and every image at level 1, are filtered and compressed in bands of 64 rows on
    /// several threads; the bands are fixed by the image, so the bytes never depend on the thread count.
    /// Level 1 is the fast path for photos: the Average filter (Sub on the first row) and one literal-only
    /// Huffman block per band, with zlib's level 1 only where a band is redundant enough for it to pay.
    ///
    /// - Parameters:
    ///   - compressionLevel: zlib level 0...9, or nil for `defaultCompressionLevel`.
    ///   - threads: threads for the banded path, 1...64, or nil for one per core.
    public static func encode(_ image: PNGImage, compressionLevel: Int? = nil, threads: Int? = nil)
        throws(PNGError) -> [UInt8]
    {
        try PNGEncoder.encode(image, compressionLevel: compressionLevel, threads: threads)
    }

    /// Reads and decodes a PNG file; errors carry the path. With `maximumPixels`, a picture that
    /// declares more pixels is refused before any pixel memory is allocated: a small file can declare a
    /// picture whose decoding and processing take gigabytes.
    public static func read(contentsOf path: String, maximumPixels: Int? = nil) throws(PNGError) -> PNGImage {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            throw error.at(path: path)
        }
        if let maximumPixels, let size = declaredSize(bytes), size.width > maximumPixels / max(1, size.height) {
            throw PNGError(
                code: .tooLarge,
                message: "declares \(size.width)x\(size.height) pixels, over this command's limit of "
                    + "\(maximumPixels) pixels", path: path)
        }
        do {
            return try decode(bytes)
        } catch {
            throw error.at(path: path)
        }
    }

    /// The width and height the header chunk (IHDR, the first chunk) declares; nil when the bytes do
    /// not start that way (decoding then says why).
    public static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// Encodes an image and writes it atomically (see `AtomicFile`): on failure nothing is left at `path`
    /// except the file that was there before.
    public static func write(_ image: PNGImage, to path: String, compressionLevel: Int? = nil) throws(PNGError) {
        let bytes: [UInt8]
        do {
            bytes = try encode(image, compressionLevel: compressionLevel)
        } catch {
            throw error.at(path: path)
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw PNGError(code: .io, message: "cannot \(error.operation): \(error.reason)", path: path)
        }
    }

    /// Largest file `read(contentsOf:)` loads: 1 GiB.
    static let maximumFileBytes = 1 << 30

    /// The bytes of a picture file, read as every picture input is: only from a regular file (a FIFO
    /// or device is refused at once, never waited on), at most `maximumFileBytes`.
    public static func readFile(_ path: String) throws(PNGError) -> [UInt8] {
        func failure(_ what: String) -> PNGError {
            PNGError(code: .io, message: "cannot \(what): \(String(cString: strerror(errno)))", path: path)
        }
        // Non-blocking, so that a FIFO with no writer is refused below instead of waiting for ever; a
        // regular file reads the same either way.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open") }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("stat") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw PNGError(code: .io, message: "not a regular file (a picture is read only from a file)", path: path)
        }
        guard status.st_size <= maximumFileBytes else {
            throw PNGError(code: .tooLarge, message: "file of \(status.st_size) bytes is over 1 GiB", path: path)
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { readSome(descriptor, $0, from: offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read")
            }
            if count == 0 { break }  // the file shrank while reading
            offset += count
        }
        return Array(bytes[0..<offset])
    }
}

/// `read(2)` into `buffer[offset...]`; named apart from `PNG.read`.
private func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, from offset: Int) -> Int {
    guard let base = buffer.baseAddress, offset < buffer.count else { return 0 }
    return read(descriptor, base + offset, buffer.count - offset)
}
