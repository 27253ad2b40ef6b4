/// An image as a PNG file holds it: 8- or 16-bit samples, 1 to 4 channels, a colour-space tag and text.
public struct PNGImage: Sendable, Equatable {
    /// The samples, at the file's bit depth.
    public enum Pixels: Sendable, Equatable {
        /// 8 bits per sample.
        case eightBit(UInt8Image)
        /// 16 bits per sample.
        case sixteenBit(UInt16Image)
    }

    /// The samples. Channels are grey (1), grey + alpha (2), RGB (3) or RGBA (4); alpha is straight, not
    /// premultiplied (PNG spec §12.8).
    public var pixels: Pixels
    /// The colour-space tag, which decides the colour chunks written.
    public var colorSpace: PNGColorSpace
    /// Text entries (tEXt, zTXt, iTXt), in file order. Keys may repeat.
    public var text: [PNGText]
    /// The colour chunks exactly as a decoded file held them; nil for an image made in memory. Encoding ignores
    /// this: `colorSpace` decides what is written.
    public internal(set) var decodedColorChunks: PNGColorChunks?

    /// Makes an 8-bit image.
    public init(pixels: UInt8Image, colorSpace: PNGColorSpace = .untagged, text: [PNGText] = []) {
        self.pixels = .eightBit(pixels)
        self.colorSpace = colorSpace
        self.text = text
    }

    /// Makes a 16-bit image.
    public init(pixels: UInt16Image, colorSpace: PNGColorSpace = .untagged, text: [PNGText] = []) {
        self.pixels = .sixteenBit(pixels)
        self.colorSpace = colorSpace
        self.text = text
    }

    /// Width in pixels.
    public var width: Int {
        switch pixels {
        case .eightBit(let plane): plane.width
        case .sixteenBit(let plane): plane.width
        }
    }

    /// Height in pixels.
    public var height: Int {
        switch pixels {
        case .eightBit(let plane): plane.height
        case .sixteenBit(let plane): plane.height
        }
    }

    /// Channels per pixel.
    public var channels: Int {
        switch pixels {
        case .eightBit(let plane): plane.channels
        case .sixteenBit(let plane): plane.channels
        }
    }

    /// 8 or 16.
    public var bitDepth: Int {
        switch pixels {
        case .eightBit: 8
        case .sixteenBit: 16
        }
    }

    /// The first value stored under `key`, if any.
    public func textValue(forKey key: String) -> String? {
        text.first { $0.key == key }?.value
    }
}

/// One PNG text entry.
///
/// Keys are 1–79 Latin-1 characters without leading, trailing or doubled spaces (PNG spec §11.3.4.2). Values that
/// fit Latin-1 are written as tEXt; others as uncompressed iTXt in UTF-8.
public struct PNGText: Sendable, Hashable {
    /// The keyword, such as "Software" or "Description".
    public var key: String
    /// The text.
    public var value: String

    /// Makes a text entry.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
