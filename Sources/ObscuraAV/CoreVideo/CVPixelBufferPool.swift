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

/// `kCVPixelBufferPoolAllocationThresholdKey`: in `CVPixelBufferPoolCreatePixelBufferWithAuxAttributes`'s
/// attributes, how many of the pool's buffers may be in use at once before it refuses to make another.
nonisolated(unsafe) public let kCVPixelBufferPoolAllocationThresholdKey: CFString =
    "kCVPixelBufferPoolAllocationThresholdKey"
/// `kCVBufferPropagatedAttachmentsKey`: in pixel buffer attributes, attachments every buffer made with them carries.
nonisolated(unsafe) public let kCVBufferPropagatedAttachmentsKey: CFString = "PropagatedAttachments"
/// `kCVReturnWouldExceedAllocationThreshold`: the pool already has as many buffers in use as the threshold allows.
public let kCVReturnWouldExceedAllocationThreshold: CVReturn = -6689

/// A pool of pixel buffers of one size and format (`CVPixelBufferPool`).
///
/// Buffers are made fresh for each request, so two buffers handed out at once never share memory, which
/// is all a client of a real pool may rely on. The pool counts its buffers still in use (held by anyone), which an
/// allocation threshold (`CVPixelBufferPoolCreatePixelBufferWithAuxAttributes`) is measured against.
public final class CVPixelBufferPool: @unchecked Sendable {
    let width: Int
    let height: Int
    let pixelFormat: OSType
    let pixelBufferAttributes: NSDictionary
    let poolAttributes: NSDictionary?
    private let lock = NSLock()
    private var handedOut: [Weak] = []

    private struct Weak { weak var buffer: CVPixelBuffer? }

    /// A new buffer with the attributes' propagated attachments; `.some(nil)` when `threshold` of the pool's
    /// buffers are in use, nil when no buffer can be made.
    func makeBuffer(threshold: Int?) -> CVPixelBuffer?? {
        lock.withLock {
            handedOut.removeAll { $0.buffer == nil }
            if let threshold, handedOut.count >= threshold { return .some(nil) }
            guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormat: pixelFormat) else {
                return nil
            }
            buffer.propagate(pixelBufferAttributes)
            handedOut.append(Weak(buffer: buffer))
            return .some(buffer)
        }
    }

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
@discardableResult
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
@discardableResult
public func CVPixelBufferPoolCreatePixelBuffer(
    _ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard let made = pixelBufferPool.makeBuffer(threshold: nil), let buffer = made else { return kCVReturnError }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// `CVPixelBufferPoolCreatePixelBufferWithAuxAttributes`: as `CVPixelBufferPoolCreatePixelBuffer`, except that with
/// `kCVPixelBufferPoolAllocationThresholdKey` in `auxAttributes` it makes no buffer while that many of the pool's
/// buffers are in use, and answers `kCVReturnWouldExceedAllocationThreshold` (how Apple's AVCamFilter sizes its
/// pool: it makes buffers until that answer comes).
@discardableResult
public func CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
    _ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool, _ auxAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    let threshold = auxAttributes.flatMap { integer($0, kCVPixelBufferPoolAllocationThresholdKey as String) }
    guard let made = pixelBufferPool.makeBuffer(threshold: threshold) else { return kCVReturnError }
    guard let buffer = made else {
        pixelBufferOut.pointee = nil
        return kCVReturnWouldExceedAllocationThreshold
    }
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
