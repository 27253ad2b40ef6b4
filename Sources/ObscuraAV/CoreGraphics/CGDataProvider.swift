import Foundation

/// A source of image bytes (`CGDataProvider`), here always a block of memory.
public final class CGDataProvider: @unchecked Sendable {
    let bytes: NSData

    /// A provider of a copy of `data`'s bytes, which later changes to a mutable original do not
    /// reach, as Core Graphics retains an immutable copy.
    public init?(data: CFData) { bytes = data.copy() as? NSData ?? NSData(data: Data(referencing: data)) }

    /// The provider's bytes.
    public var data: CFData? { bytes }
}
