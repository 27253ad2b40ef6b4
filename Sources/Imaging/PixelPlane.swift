/// A width × height grid of pixels with one or more interleaved channels, stored copy-on-write.
///
/// Layout: the component of channel `c` at pixel `(x, y)` sits at element `y * rowStride + x * channels + c` of
/// the buffer, with `(0, 0)` at the top left. `rowStride` is at least `width * channels`; elements past a row's end
/// are padding and never observable through the subscript, rows or equality.
///
/// Copying a plane is cheap: copies share one buffer until one of them is mutated, which then copies it.
public struct PixelPlane<Component: PixelComponent>: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Interleaved channels per pixel.
    public let channels: Int
    /// Distance between the starts of consecutive rows, in elements.
    public let rowStride: Int

    var storage: PixelStorage<Component>

    /// Makes a plane filled with one value.
    ///
    /// - Parameter rowStride: elements per row; `nil` packs rows (`width * channels`). Larger strides pad rows.
    public init(width: Int, height: Int, channels: Int = 1, rowStride: Int? = nil, repeating value: Component = .zero) {
        precondition(width >= 0 && height >= 0, "PixelPlane size must not be negative (\(width)x\(height))")
        precondition(channels >= 1, "PixelPlane needs at least one channel")
        let (packed, packedOverflow) = width.multipliedReportingOverflow(by: channels)
        precondition(!packedOverflow, "PixelPlane row of \(width)x\(channels) overflows")
        let stride = rowStride ?? packed
        precondition(stride >= packed, "rowStride \(stride) is shorter than a row of \(packed) elements")
        let (count, countOverflow) = stride.multipliedReportingOverflow(by: height)
        precondition(!countOverflow, "PixelPlane of \(stride)x\(height) elements overflows")
        self.width = width
        self.height = height
        self.channels = channels
        self.rowStride = stride
        self.storage = PixelStorage(elements: ContiguousArray(repeating: value, count: count))
        _checkInvariants()
    }

    /// Makes a packed plane from elements in row-major, channel-interleaved order.
    ///
    /// The element count must be exactly `width * height * channels`.
    public init(width: Int, height: Int, channels: Int = 1, elements: some Sequence<Component>) {
        let array = ContiguousArray(elements)
        precondition(width >= 0 && height >= 0 && channels >= 1, "invalid PixelPlane shape")
        precondition(array.count == width * height * channels,
                     "PixelPlane \(width)x\(height)x\(channels) needs \(width * height * channels) elements, "
                         + "got \(array.count)")
        self.width = width
        self.height = height
        self.channels = channels
        self.rowStride = width * channels
        self.storage = PixelStorage(elements: array)
        _checkInvariants()
    }

    /// Makes a packed plane whose component at `(x, y, channel)` is `generator(x, y, channel)`.
    public init(width: Int, height: Int, channels: Int = 1, generator: (Int, Int, Int) throws -> Component) rethrows {
        precondition(width >= 0 && height >= 0 && channels >= 1, "invalid PixelPlane shape")
        var array = ContiguousArray<Component>()
        array.reserveCapacity(width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { array.append(try generator(x, y, c)) }
            }
        }
        self.init(width: width, height: height, channels: channels, elements: array)
    }

    /// `width * channels`: the elements of one row that hold pixels.
    @inlinable public var rowLength: Int { width * channels }

    /// Whether the plane holds no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    @inline(__always)
    func elementIndex(x: Int, y: Int, channel: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < channels,
                     "pixel (\(x), \(y), channel \(channel)) is outside a \(width)x\(height)x\(channels) plane")
        return y * rowStride + x * channels + channel
    }

    /// The component of `channel` at pixel `(x, y)`.
    public subscript(x: Int, y: Int, channel: Int = 0) -> Component {
        get { storage.elements[elementIndex(x: x, y: y, channel: channel)] }
        set {
            let index = elementIndex(x: x, y: y, channel: channel)
            makeUnique()
            storage.elements[index] = newValue
        }
    }

    /// Row `y` (`rowLength` elements), sharing the plane's buffer.
    public func row(_ y: Int) -> ArraySlice<Component> {
        precondition(y >= 0 && y < height, "row \(y) is outside a plane of height \(height)")
        let start = y * rowStride
        return storage.elements[start..<(start + rowLength)]
    }

    /// Calls `body` with row `y` (`rowLength` elements) for writing.
    public mutating func withMutableRow<R>(_ y: Int, _ body: (inout UnsafeMutableBufferPointer<Component>) throws -> R)
        rethrows -> R
    {
        precondition(y >= 0 && y < height, "row \(y) is outside a plane of height \(height)")
        let start = y * rowStride
        let length = rowLength
        return try withUnsafeMutableBufferPointer { buffer in
            var row = UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + length)])
            return try body(&row)
        }
    }

    /// Calls `body` with the whole buffer (`rowStride * height` elements, padding included).
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Component>) throws -> R) rethrows -> R {
        try storage.elements.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the whole buffer for writing, copying it first if it is shared.
    ///
    /// The buffer pointer must not escape `body` (the same rule as `Array`).
    public mutating func withUnsafeMutableBufferPointer<R>(
        _ body: (inout UnsafeMutableBufferPointer<Component>) throws -> R
    ) rethrows -> R {
        makeUnique()
        return try storage.elements.withUnsafeMutableBufferPointer(body)
    }

    /// A packed plane of the same shape whose components are `transform` of this plane's.
    public func map<T: PixelComponent>(_ transform: (Component) throws -> T) rethrows -> PixelPlane<T> {
        var result = ContiguousArray<T>()
        result.reserveCapacity(width * height * channels)
        try withUnsafeBufferPointer { buffer in
            for y in 0..<height {
                let start = y * rowStride
                for index in start..<(start + rowLength) { result.append(try transform(buffer[index])) }
            }
        }
        return PixelPlane<T>(width: width, height: height, channels: channels, elements: result)
    }

    /// The components in row-major, channel-interleaved order, without padding.
    public var packedElements: [Component] {
        var result: [Component] = []
        result.reserveCapacity(width * height * channels)
        for y in 0..<height { result.append(contentsOf: row(y)) }
        return result
    }

    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = PixelStorage(elements: storage.elements)
        }
    }

    /// Checks the layout rules in debug builds; does nothing in release builds.
    public func _checkInvariants() {
        #if DEBUG
        precondition(width >= 0 && height >= 0, "negative size \(width)x\(height)")
        precondition(channels >= 1, "no channels")
        precondition(rowStride >= width * channels, "rowStride \(rowStride) < \(width * channels)")
        precondition(storage.elements.count == rowStride * height,
                     "buffer holds \(storage.elements.count) elements, layout needs \(rowStride * height)")
        #endif
    }
}

extension PixelPlane: Equatable {
    /// Planes are equal when their shapes and pixels are; row stride and padding do not matter.
    public static func == (lhs: PixelPlane, rhs: PixelPlane) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.channels == rhs.channels else { return false }
        if lhs.storage === rhs.storage && lhs.rowStride == rhs.rowStride { return true }
        for y in 0..<lhs.height where lhs.row(y) != rhs.row(y) { return false }
        return true
    }
}

/// A plane of 32-bit floating-point samples, normally linear or encoded values in 0...1.
public typealias FloatPlane = PixelPlane<Float>
#if !(os(macOS) && arch(x86_64))
/// A plane of 16-bit floating-point samples (for half-float pixel formats).
public typealias HalfPlane = PixelPlane<Float16>
#endif
/// An interleaved 8-bit image.
public typealias UInt8Image = PixelPlane<UInt8>
/// An interleaved 16-bit image.
public typealias UInt16Image = PixelPlane<UInt16>
