import Foundation

/// `CVReturn`: a CoreVideo status code.
public typealias CVReturn = Int32
/// Success.
public let kCVReturnSuccess: CVReturn = 0
/// An argument was invalid.
public let kCVReturnInvalidArgument: CVReturn = -6661
/// The pixel format is not supported.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// A generic failure, e.g. unlocking a buffer that is not locked.
public let kCVReturnError: CVReturn = -6660

/// `CVPixelBufferLockFlags`.
public struct CVPixelBufferLockFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The caller will only read.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// An image in memory with a CoreVideo pixel format (`CVPixelBuffer`, a `CVImageBuffer`).
///
/// Planes are allocated separately; each row starts on a 64-byte boundary, as CoreVideo aligns
/// rows, so `bytesPerRow` may exceed width × bytes per pixel.
public final class CVPixelBuffer: @unchecked Sendable {
    package struct Plane {
        package let width: Int
        package let height: Int
        package let bytesPerRow: Int
        package let base: UnsafeMutableRawPointer
    }

    package let width: Int
    package let height: Int
    package let pixelFormat: OSType
    package let planes: [Plane]
    let isPlanar: Bool
    private let lock = NSLock()
    private var lockCount = 0
    private var attachmentStorage: [String: Any] = [:]

    /// Attachments (`CVBufferSetAttachment`), such as the colour primaries.
    package var attachments: [String: Any] {
        get { lock.withLock { attachmentStorage } }
        set { lock.withLock { attachmentStorage = newValue } }
    }

    static let rowAlignment = 64

    package init?(width: Int, height: Int, pixelFormat: OSType) {
        guard width > 0, height > 0, let layout = PixelFormatLayout.of(pixelFormat) else { return nil }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.isPlanar = layout.isPlanar
        planes = layout.planes.map { p in
            let w = (width + p.widthDivisor - 1) / p.widthDivisor
            let h = (height + p.heightDivisor - 1) / p.heightDivisor
            let a = CVPixelBuffer.rowAlignment
            let row = (w * p.bytesPerPixel + a - 1) / a * a
            let base = UnsafeMutableRawPointer.allocate(byteCount: row * h, alignment: a)
            base.initializeMemory(as: UInt8.self, repeating: 0, count: row * h)
            return Plane(width: w, height: h, bytesPerRow: row, base: base)
        }
    }

    deinit {
        for plane in planes { plane.base.deallocate() }
    }

    func lockBase() {
        lock.withLock { lockCount += 1 }
    }

    func unlockBase() -> Bool {
        lock.withLock {
            guard lockCount > 0 else { return false }
            lockCount -= 1
            return true
        }
    }

    /// The total bytes of all planes.
    var dataSize: Int { planes.reduce(0) { $0 + $1.bytesPerRow * $1.height } }
}

/// `CVImageBuffer`: the pixel buffer in Obscura.
public typealias CVImageBuffer = CVPixelBuffer

/// `CVPixelBufferCreate`: a buffer of a supported pixel format; `kCVReturnInvalidPixelFormat` otherwise.
public func CVPixelBufferCreate(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: [String: Any]?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidArgument }
    guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormat: pixelFormatType) else {
        return kCVReturnInvalidPixelFormat
    }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// `CVPixelBufferLockBaseAddress`: must precede CPU access to the pixels.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ buffer: CVPixelBuffer, _ flags: CVPixelBufferLockFlags) -> CVReturn {
    buffer.lockBase()
    return kCVReturnSuccess
}

/// `CVPixelBufferUnlockBaseAddress`.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ buffer: CVPixelBuffer, _ flags: CVPixelBufferLockFlags) -> CVReturn {
    buffer.unlockBase() ? kCVReturnSuccess : kCVReturnError
}

/// `CVPixelBufferGetBaseAddress`: the first plane of a planar buffer is not returned (nil), as in
/// CoreVideo, where planar buffers' base address points at a plane descriptor instead.
public func CVPixelBufferGetBaseAddress(_ buffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    buffer.isPlanar ? nil : buffer.planes.first?.base
}

/// `CVPixelBufferGetBaseAddressOfPlane`: nil for an index out of range or a non-planar buffer.
public func CVPixelBufferGetBaseAddressOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    guard buffer.isPlanar, buffer.planes.indices.contains(planeIndex) else { return nil }
    return buffer.planes[planeIndex].base
}

/// `CVPixelBufferGetBytesPerRow` (0 for planar buffers, whose rows are per plane).
public func CVPixelBufferGetBytesPerRow(_ buffer: CVPixelBuffer) -> Int {
    buffer.isPlanar ? 0 : buffer.planes[0].bytesPerRow
}

/// `CVPixelBufferGetBytesPerRowOfPlane`.
public func CVPixelBufferGetBytesPerRowOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    guard buffer.isPlanar, buffer.planes.indices.contains(planeIndex) else { return 0 }
    return buffer.planes[planeIndex].bytesPerRow
}

/// `CVPixelBufferGetWidth`.
public func CVPixelBufferGetWidth(_ buffer: CVPixelBuffer) -> Int { buffer.width }
/// `CVPixelBufferGetHeight`.
public func CVPixelBufferGetHeight(_ buffer: CVPixelBuffer) -> Int { buffer.height }

/// `CVPixelBufferGetWidthOfPlane`.
public func CVPixelBufferGetWidthOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    guard buffer.isPlanar, buffer.planes.indices.contains(planeIndex) else { return 0 }
    return buffer.planes[planeIndex].width
}

/// `CVPixelBufferGetHeightOfPlane`.
public func CVPixelBufferGetHeightOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    guard buffer.isPlanar, buffer.planes.indices.contains(planeIndex) else { return 0 }
    return buffer.planes[planeIndex].height
}

/// `CVPixelBufferGetPlaneCount`: 0 for non-planar buffers.
public func CVPixelBufferGetPlaneCount(_ buffer: CVPixelBuffer) -> Int { buffer.isPlanar ? buffer.planes.count : 0 }

/// `CVPixelBufferIsPlanar`.
public func CVPixelBufferIsPlanar(_ buffer: CVPixelBuffer) -> Bool { buffer.isPlanar }

/// `CVPixelBufferGetPixelFormatType`.
public func CVPixelBufferGetPixelFormatType(_ buffer: CVPixelBuffer) -> OSType { buffer.pixelFormat }

/// `CVPixelBufferGetDataSize`.
public func CVPixelBufferGetDataSize(_ buffer: CVPixelBuffer) -> Int { buffer.dataSize }
