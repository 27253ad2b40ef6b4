/// A read-only rectangle of a `PixelPlane` that shares the plane's buffer instead of copying it.
///
/// Mutation rule: views never write. A view is a snapshot: if the plane it came from is mutated afterwards, the
/// plane copies its buffer first (copy-on-write), so the view keeps showing the pixels of the moment it was taken.
/// To write a region, use `PixelPlane.paste(_:x:y:)` or the plane's mutable row and buffer accessors.
public struct PlaneView<Component: PixelComponent>: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Interleaved channels per pixel.
    public let channels: Int
    /// The parent's row stride, in elements.
    public let rowStride: Int

    let storage: PixelStorage<Component>
    /// Element index of the view's top-left component in the shared buffer.
    let origin: Int

    init(storage: PixelStorage<Component>, origin: Int, width: Int, height: Int, channels: Int, rowStride: Int) {
        self.storage = storage
        self.origin = origin
        self.width = width
        self.height = height
        self.channels = channels
        self.rowStride = rowStride
    }

    /// `width * channels`.
    public var rowLength: Int { width * channels }

    /// The component of `channel` at pixel `(x, y)` of the view.
    public subscript(x: Int, y: Int, channel: Int = 0) -> Component {
        precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < channels,
                     "pixel (\(x), \(y), channel \(channel)) is outside a \(width)x\(height)x\(channels) view")
        return storage.elements[origin + y * rowStride + x * channels + channel]
    }

    /// Row `y` of the view, sharing the buffer.
    public func row(_ y: Int) -> ArraySlice<Component> {
        precondition(y >= 0 && y < height, "row \(y) is outside a view of height \(height)")
        let start = origin + y * rowStride
        return storage.elements[start..<(start + rowLength)]
    }

    /// Calls `body` with the view's span of the shared buffer: it starts at the top-left component and holds
    /// `rowStride * (height - 1) + rowLength` elements (empty for an empty view). Element `(x, y, c)` is at
    /// `y * rowStride + x * channels + c`.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Component>) throws -> R) rethrows -> R {
        let count = height == 0 || width == 0 ? 0 : rowStride * (height - 1) + rowLength
        return try storage.elements.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[origin..<(origin + count)]))
        }
    }

    /// A rectangle of this view, still sharing the buffer.
    public func view(x: Int, y: Int, width: Int, height: Int) -> PlaneView {
        precondition(x >= 0 && y >= 0 && width >= 0 && height >= 0 && x + width <= self.width
                         && y + height <= self.height,
                     "region (\(x), \(y), \(width)x\(height)) is outside a \(self.width)x\(self.height) view")
        return PlaneView(storage: storage, origin: origin + y * rowStride + x * channels, width: width,
                         height: height, channels: channels, rowStride: rowStride)
    }

    /// Copies the view into a new packed plane.
    public func makePlane() -> PixelPlane<Component> {
        var elements = ContiguousArray<Component>()
        elements.reserveCapacity(width * height * channels)
        for y in 0..<height { elements.append(contentsOf: row(y)) }
        return PixelPlane(width: width, height: height, channels: channels, elements: elements)
    }
}

extension PixelPlane {
    /// A view of a rectangle of the plane, sharing its buffer (no pixels are copied).
    public func view(x: Int, y: Int, width: Int, height: Int) -> PlaneView<Component> {
        precondition(x >= 0 && y >= 0 && width >= 0 && height >= 0 && x + width <= self.width
                         && y + height <= self.height,
                     "region (\(x), \(y), \(width)x\(height)) is outside a \(self.width)x\(self.height) plane")
        return PlaneView(storage: storage, origin: y * rowStride + x * channels, width: width, height: height,
                         channels: channels, rowStride: rowStride)
    }

    /// A view of the whole plane.
    public var fullView: PlaneView<Component> { view(x: 0, y: 0, width: width, height: height) }

    /// Copies `source` into this plane with its top-left pixel at `(x, y)`; the source must fit inside.
    public mutating func paste(_ source: PlaneView<Component>, x: Int, y: Int) {
        precondition(source.channels == channels, "pasting \(source.channels) channels into \(channels)")
        precondition(x >= 0 && y >= 0 && x + source.width <= width && y + source.height <= height,
                     "a \(source.width)x\(source.height) region at (\(x), \(y)) does not fit \(width)x\(height)")
        // Copy the source rows out first: `source` may share this plane's buffer.
        let rows = (0..<source.height).map { Array(source.row($0)) }
        makeUnique()
        for (offset, row) in rows.enumerated() {
            let start = (y + offset) * rowStride + x * channels
            storage.elements.replaceSubrange(start..<(start + row.count), with: row)
        }
    }
}
