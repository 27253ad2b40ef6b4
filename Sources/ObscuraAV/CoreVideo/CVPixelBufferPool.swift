import Foundation

/// `kCVPixelBufferWidthKey`: the width of the buffers a pool makes (a number).
nonisolated(unsafe) public let kCVPixelBufferWidthKey: CFString = "Width"
/// `kCVPixelBufferHeightKey`: the height of the buffers a pool makes (a number).
nonisolated(unsafe) public let kCVPixelBufferHeightKey: CFString = "Height"
/// `kCVPixelBufferBytesPerRowAlignmentKey`: the row alignment asked for; rows here are always 64-byte aligned.
nonisolated(unsafe) public let kCVPixelBufferBytesPerRowAlignmentKey: CFString = "BytesPerRowAlignment"
/// `kCVPixelBufferIOSurfacePropertiesKey`: asks for IOSurface backing, which changes nothing on Linux.
nonisolated(unsafe) public let kCVPixelBufferIOSurfacePropertiesKey: CFString = "IOSurfaceProperties"
/// `kCVPixelBufferMetalCompatibilityKey`: asks for memory Metal can use; every buffer here qualifies.
nonisolated(unsafe) public let kCVPixelBufferMetalCompatibilityKey: CFString = "MetalCompatibility"
/// `kCVPixelBufferOpenGLESCompatibilityKey`: as the Metal key, for OpenGL ES.
nonisolated(unsafe) public let kCVPixelBufferOpenGLESCompatibilityKey: CFString = "OpenGLESCompatibility"
/// `kCVPixelBufferCGImageCompatibilityKey`: asks for memory a `CGImage` can wrap.
nonisolated(unsafe) public let kCVPixelBufferCGImageCompatibilityKey: CFString = "CGImageCompatibility"
/// `kCVPixelBufferCGBitmapContextCompatibilityKey`: asks for memory a bitmap context can draw into.
nonisolated(unsafe) public let kCVPixelBufferCGBitmapContextCompatibilityKey: CFString = "CGBitmapContextCompatibility"
/// `kCVPixelBufferPoolMinimumBufferCountKey`: how many buffers the pool keeps ready.
nonisolated(unsafe) public let kCVPixelBufferPoolMinimumBufferCountKey: CFString = "MinimumBufferCount"

/// A pool of pixel buffers of one size and format (`CVPixelBufferPool`).
///
/// Buffers are made fresh for each request, so two buffers handed out at once never share memory, which
/// is all a client of a real pool may rely on.
public final class CVPixelBufferPool: @unchecked Sendable {
    let width: Int
    let height: Int
    let pixelFormat: OSType
    let pixelBufferAttributes: NSDictionary
    let poolAttributes: NSDictionary?

    init(
        width: Int, height: Int, pixelFormat: OSType, pixelBufferAttributes: NSDictionary,
        poolAttributes: NSDictionary?
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixelBufferAttributes = pixelBufferAttributes
        self.poolAttributes = poolAttributes
    }
}

/// An integer attribute, whether it was given as a Swift integer or an `NSNumber`.
private func integer(_ attributes: NSDictionary, _ key: String) -> Int? {
    switch attributes[key] {
    case let n as NSNumber: return n.intValue
    case let i as Int: return i
    case let u as UInt32: return Int(u)
    default: return nil
    }
}

/// `CVPixelBufferPoolCreate`: a pool for the width, height and pixel format in the buffer attributes.
///
/// Without all three the pool cannot make a buffer, so creation fails with `kCVReturnInvalidArgument`;
/// an unknown format fails with `kCVReturnInvalidPixelFormat` (spec §18.2 [I]).
public func CVPixelBufferPoolCreate(
    _ allocator: CFAllocator?, _ poolAttributes: CFDictionary?, _ pixelBufferAttributes: CFDictionary?,
    _ poolOut: UnsafeMutablePointer<CVPixelBufferPool?>
) -> CVReturn {
    guard let attributes = pixelBufferAttributes,
        let width = integer(attributes, kCVPixelBufferWidthKey as String),
        let height = integer(attributes, kCVPixelBufferHeightKey as String),
        let format = integer(attributes, kCVPixelBufferPixelFormatTypeKey as String), width > 0, height > 0
    else { return kCVReturnInvalidArgument }
    guard let code = OSType(exactly: format), PixelFormatLayout.of(code) != nil else {
        return kCVReturnInvalidPixelFormat
    }
    poolOut.pointee = CVPixelBufferPool(
        width: width, height: height, pixelFormat: code, pixelBufferAttributes: attributes,
        poolAttributes: poolAttributes)
    return kCVReturnSuccess
}

/// `CVPixelBufferPoolCreatePixelBuffer`: a new buffer of the pool's size and format.
public func CVPixelBufferPoolCreatePixelBuffer(
    _ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard
        let buffer = CVPixelBuffer(
            width: pixelBufferPool.width, height: pixelBufferPool.height, pixelFormat: pixelBufferPool.pixelFormat)
    else { return kCVReturnError }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// `CVPixelBufferPoolGetPixelBufferAttributes`: the attributes the pool was made with.
public func CVPixelBufferPoolGetPixelBufferAttributes(_ pool: CVPixelBufferPool) -> CFDictionary? {
    pool.pixelBufferAttributes
}

/// `CVPixelBufferPoolGetAttributes`: the pool's own attributes.
public func CVPixelBufferPoolGetAttributes(_ pool: CVPixelBufferPool) -> CFDictionary? { pool.poolAttributes }

/// `CVPixelBufferPoolFlush`: frees unused buffers; this pool keeps none.
public func CVPixelBufferPoolFlush(_ pool: CVPixelBufferPool, _ options: CVPixelBufferPoolFlushFlags) {}

/// `CVPixelBufferPoolFlushFlags`.
public struct CVPixelBufferPoolFlushFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Free every unused buffer, however recently used.
    public static let excessBuffers = CVPixelBufferPoolFlushFlags(rawValue: 1)
}
