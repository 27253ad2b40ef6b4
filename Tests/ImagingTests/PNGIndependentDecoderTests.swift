import ExternalTools
import Foundation
import Imaging
import Testing

/// The encoder's files read by a decoder that shares no code with libpng or Obscura: a short Python
/// program over Python's own `zlib` module, written from the PNG specification. It checks every chunk's
/// CRC-32 (§5.3), inflates the joined IDAT data as one zlib stream (which checks the Adler-32 and that
/// the bands join into a single stream with nothing after its end, RFC 1950 and 1951), undoes the five
/// filter types (§9.2) and writes the samples as stored: the test compares them with the image.
@Suite(.needs(.python3)) struct PNGIndependentDecoderTests {
    static let decoder = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
        at, idat, header, seen = 8, b'', None, []
        while at < len(data):
            length, kind = struct.unpack('>I4s', data[at:at + 8])
            body = data[at + 8:at + 8 + length]
            crc, = struct.unpack('>I', data[at + 8 + length:at + 12 + length])
            assert zlib.crc32(kind + body) == crc, 'CRC of %r at %d' % (kind, at)
            seen.append(kind)
            if kind == b'IHDR': header = struct.unpack('>IIBBBBB', body)
            if kind == b'IDAT': idat += body
            at += 12 + length
        assert seen[0] == b'IHDR' and seen[-1] == b'IEND', seen
        width, height, depth, colour, _, _, interlace = header
        assert interlace == 0
        stream = zlib.decompressobj()
        raw = stream.decompress(idat)
        assert stream.eof and stream.unused_data == b'', 'one complete zlib stream'
        channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        bpp = channels * depth // 8
        n = width * bpp
        assert len(raw) == height * (n + 1), 'filtered size'
        prior, out = bytearray(n), bytearray()
        for y in range(height):
            kind, row = raw[y * (n + 1)], bytearray(raw[y * (n + 1) + 1:(y + 1) * (n + 1)])
            for i in range(n):
                a = row[i - bpp] if i >= bpp else 0
                b = prior[i]
                c = prior[i - bpp] if i >= bpp else 0
                if kind == 0: p = 0
                elif kind == 1: p = a
                elif kind == 2: p = b
                elif kind == 3: p = (a + b) // 2
                elif kind == 4:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                else: raise AssertionError('filter type %d' % kind)
                row[i] = (row[i] + p) & 255
            out += row
            prior = row
        sys.stdout.buffer.write(out)
        """

    /// Decodes `png` with the Python program; the samples as the file stores them (16-bit big-endian).
    static func decodeIndependently(_ png: [UInt8]) throws -> [UInt8] {
        let python = try ExternalTool.python3.require()
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let file = directory.path + "/image.png"
        try Data(png).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", decoder, file]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes before waiting: a program blocked on a full pipe would never exit.
        let samples = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: message, as: UTF8.self))")
        return Array(samples)
    }

    /// The samples of a plane in file order: rows top to bottom, 16-bit samples most significant byte first.
    static func stored(_ pixels: PNGImage.Pixels) -> [UInt8] {
        switch pixels {
        case .eightBit(let plane):
            return (0..<plane.height).flatMap { Array(plane.row($0)) }
        case .sixteenBit(let plane):
            return (0..<plane.height).flatMap { plane.row($0).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        }
    }

    /// Photo-like bands (literal Huffman blocks) followed by flat ones (zlib's LZ77), at the fast level and at
    /// levels that filter adaptively, in 8 and 16 bits: several bands each, so the joins are read too.
    @Test(arguments: [nil, 1, 6])
    func pythonsZlibReadsTheEncoderOutput(level: Int?) throws {
        let plane = PNGBandTests.photoLike(width: 61, height: 150, channels: 3, seed: 21, flatFrom: 100)
        let grey = UInt16Image(width: 45, height: 140, channels: 1) { x, y, _ in
            UInt16(truncatingIfNeeded: x * 1_000 + y * 37 + (y > 90 ? 0 : (x * y * 7919) % 613))
        }
        let rgba = PNGBandTests.photoLike(width: 33, height: 70, channels: 4, seed: 8)
        let images = [
            PNGImage(pixels: plane, colorSpace: .sRGB), PNGImage(pixels: grey),
            PNGImage(pixels: rgba, colorSpace: .displayP3),
        ]
        for image in images {
            let png = try PNG.encode(image, compressionLevel: level)
            #expect(try Self.decodeIndependently(png) == Self.stored(image.pixels),
                    "\(image.width)x\(image.height)x\(image.channels), level \(String(describing: level))")
        }
    }
}
