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
    /// Gives caller-owned memory back (`CVPixelBufferCreateWithBytes`); nil when the buffer owns its planes.
    private let releaseBytes: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var lockCount = 0
    private var attachmentStorage: [String: Attachment] = [:]

    /// An attachment: the object, held so that `CVBufferGetAttachment` can hand it out unretained, and its mode.
    struct Attachment {
        let value: AnyObject
        let mode: CVAttachmentMode
    }

    /// Attachments (`CVBufferSetAttachment`), such as the colour primaries; set here, they propagate.
    package var attachments: [String: Any] {
        get { lock.withLock { attachmentStorage.mapValues { $0.value } } }
        set {
            let stored = newValue.mapValues { Attachment(value: $0 as AnyObject, mode: .shouldPropagate) }
            lock.withLock { attachmentStorage = stored }
        }
    }

    /// Attaches the `kCVBufferPropagatedAttachmentsKey` dictionary of a buffer's attributes, each to propagate.
    func propagate(_ attributes: NSDictionary) {
        guard let propagated = attributes[kCVBufferPropagatedAttachmentsKey as String] as? NSDictionary else { return }
        var entries = attachmentEntries
        for case let (key as String, value) in propagated {
            entries[key] = Attachment(value: value as AnyObject, mode: .shouldPropagate)
        }
        attachmentEntries = entries
    }

    /// The attachments with their modes.
    var attachmentEntries: [String: Attachment] {
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
        releaseBytes = nil
        planes = layout.planes.map { p in
            let w = (width + p.widthDivisor - 1) / p.widthDivisor
            let h = (height + p.heightDivisor - 1) / p.heightDivisor
            let a = CVPixelBuffer.rowAlignment
            let row = (w * p.bytesPerPixel + a - 1) / a * a
            let base = UnsafeMutableRawPointer.allocate(byteCount: row * h, alignment: a)
            // memset rather than the generic initialiser, which a dependent's debug build runs byte by byte.
            memset(base, 0, row * h)
            return Plane(width: w, height: h, bytesPerRow: row, base: base)
        }
    }

    /// A single-plane buffer over memory the caller owns; `release` runs when the buffer goes away.
    init(
        width: Int, height: Int, pixelFormat: OSType, base: UnsafeMutableRawPointer, bytesPerRow: Int,
        release: @escaping @Sendable () -> Void
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        isPlanar = false
        releaseBytes = release
        planes = [Plane(width: width, height: height, bytesPerRow: bytesPerRow, base: base)]
    }

    deinit {
        if let releaseBytes {
            releaseBytes()
        } else {
            for plane in planes { plane.base.deallocate() }
        }
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

    /// The plane a per-plane query reads: a planar buffer's own planes; for a non-planar buffer, index 0
    /// is the whole buffer, as IOSurface treats plane 0 of a non-planar surface (spec §18.2 [D]).
    func plane(at index: Int) -> Plane? {
        if isPlanar { return planes.indices.contains(index) ? planes[index] : nil }
        return index == 0 ? planes[0] : nil
    }
}

/// `CVImageBuffer`: the pixel buffer in Obscura.
public typealias CVImageBuffer = CVPixelBuffer

/// `CVBuffer`: the pixel buffer in Obscura, whose only buffers are pixel buffers.
public typealias CVBuffer = CVPixelBuffer

/// `CVPixelBufferCreate`: a buffer of a supported pixel format; `kCVReturnInvalidPixelFormat` otherwise.
///
/// The width, height and format arguments decide the buffer; compatibility keys in the attributes
/// (Metal, CGImage, IOSurface) describe how the memory may be shared, which changes nothing here.
@discardableResult
public func CVPixelBufferCreate(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidArgument }
    guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormat: pixelFormatType) else {
        return kCVReturnInvalidPixelFormat
    }
    if let pixelBufferAttributes { buffer.propagate(pixelBufferAttributes) }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// `CVPixelBufferReleaseBytesCallback`: called when a buffer made over caller memory goes away.
public typealias CVPixelBufferReleaseBytesCallback =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void

/// `CVPixelBufferCreateWithBytes`: a buffer over the caller's memory, which is never copied.
///
/// Planar formats need `CVPixelBufferCreateWithPlanarBytes` and are refused with
/// `kCVReturnInvalidPixelFormat`; rows shorter than a row of pixels are `kCVReturnInvalidArgument`.
/// The release callback runs with `releaseRefCon` and the base address once the buffer is freed.
@discardableResult
public func CVPixelBufferCreateWithBytes(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ baseAddress: UnsafeMutableRawPointer, _ bytesPerRow: Int, _ releaseCallback: CVPixelBufferReleaseBytesCallback?,
    _ releaseRefCon: UnsafeMutableRawPointer?, _ pixelBufferAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidArgument }
    guard let layout = PixelFormatLayout.of(pixelFormatType), !layout.isPlanar else {
        return kCVReturnInvalidPixelFormat
    }
    guard bytesPerRow >= width * layout.planes[0].bytesPerPixel else { return kCVReturnInvalidArgument }
    // The pointers travel as integers so that the closure is Sendable; they are the caller's to interpret.
    let refCon = UInt(bitPattern: releaseRefCon), base = UInt(bitPattern: baseAddress)
    pixelBufferOut.pointee = CVPixelBuffer(
        width: width, height: height, pixelFormat: pixelFormatType, base: baseAddress, bytesPerRow: bytesPerRow
    ) {
        releaseCallback?(UnsafeMutableRawPointer(bitPattern: refCon), UnsafeRawPointer(bitPattern: base))
    }
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

/// `CVPixelBufferGetBaseAddressOfPlane`: nil for an index out of range; plane 0 of a non-planar buffer is
/// the buffer (spec §18.2 [D]).
public func CVPixelBufferGetBaseAddressOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    buffer.plane(at: planeIndex)?.base
}

/// `CVPixelBufferGetBytesPerRow` (0 for planar buffers, whose rows are per plane).
public func CVPixelBufferGetBytesPerRow(_ buffer: CVPixelBuffer) -> Int {
    buffer.isPlanar ? 0 : buffer.planes[0].bytesPerRow
}

/// `CVPixelBufferGetBytesPerRowOfPlane`: 0 for an index out of range; plane 0 of a non-planar buffer is the
/// buffer (spec §18.2 [D]).
public func CVPixelBufferGetBytesPerRowOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    buffer.plane(at: planeIndex)?.bytesPerRow ?? 0
}

/// `CVPixelBufferGetWidth`.
public func CVPixelBufferGetWidth(_ buffer: CVPixelBuffer) -> Int { buffer.width }
/// `CVPixelBufferGetHeight`.
public func CVPixelBufferGetHeight(_ buffer: CVPixelBuffer) -> Int { buffer.height }

/// `CVPixelBufferGetWidthOfPlane`: 0 for an index out of range; plane 0 of a non-planar buffer is the buffer
/// (spec §18.2 [D]).
public func CVPixelBufferGetWidthOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    buffer.plane(at: planeIndex)?.width ?? 0
}

/// `CVPixelBufferGetHeightOfPlane`: as `CVPixelBufferGetWidthOfPlane`.
public func CVPixelBufferGetHeightOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    buffer.plane(at: planeIndex)?.height ?? 0
}

/// `CVPixelBufferGetPlaneCount`: 0 for non-planar buffers.
public func CVPixelBufferGetPlaneCount(_ buffer: CVPixelBuffer) -> Int { buffer.isPlanar ? buffer.planes.count : 0 }

/// `CVPixelBufferIsPlanar`.
public func CVPixelBufferIsPlanar(_ buffer: CVPixelBuffer) -> Bool { buffer.isPlanar }

/// `CVPixelBufferGetPixelFormatType`.
public func CVPixelBufferGetPixelFormatType(_ buffer: CVPixelBuffer) -> OSType { buffer.pixelFormat }

/// `CVPixelBufferGetDataSize`.
public func CVPixelBufferGetDataSize(_ buffer: CVPixelBuffer) -> Int { buffer.dataSize }

/// `CVImageBufferGetEncodedSize`: the full size of the image in pixels.
public func CVImageBufferGetEncodedSize(_ imageBuffer: CVImageBuffer) -> CGSize {
    CGSize(width: imageBuffer.width, height: imageBuffer.height)
}

/// `CVImageBufferGetDisplaySize`: the size to display at; square pixels, so the encoded size.
public func CVImageBufferGetDisplaySize(_ imageBuffer: CVImageBuffer) -> CGSize {
    CVImageBufferGetEncodedSize(imageBuffer)
}

/// `CVImageBufferGetCleanRect`: the picture area; no buffer here has a border, so the whole image.
public func CVImageBufferGetCleanRect(_ imageBuffer: CVImageBuffer) -> CGRect {
    CGRect(origin: .zero, size: CVImageBufferGetEncodedSize(imageBuffer))
}
