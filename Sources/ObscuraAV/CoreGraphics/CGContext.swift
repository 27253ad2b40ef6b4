import Foundation

/// How an image is resampled when drawn scaled (`CGInterpolationQuality`).
public enum CGInterpolationQuality: Int32, Sendable, Hashable {
    case `default` = 0
    case none = 1
    case low = 2
    case high = 3
    case medium = 4
}

/// A bitmap graphics context (Core Graphics' `CGContext` made by `CGBitmapContextCreate`): a width × height raster in
/// the caller's memory or its own, which apps use to turn a camera frame into a `CGImage`, to scale or crop a photo,
/// or to paint a mask.
///
/// The layouts are the 8-bit ones Apple's bitmap contexts accept (Quartz 2D Programming Guide, "Supported Pixel
/// Formats"): RGB in 32 bits with premultiplied alpha or a skipped byte, first or last, in either 32-bit byte order;
/// grey in 8 bits without alpha; an 8-bit alpha-only mask. Other combinations (straight alpha, 16-bit or float
/// components) give nil, as Core Graphics answers for those it does not support.
///
/// User space has its origin at the bottom left, y up, one unit a pixel until the current transformation matrix
/// (`ctm`) changes it; the bitmap's first row is the top one. Drawing fills the pixels whose centres the shape covers
/// (no partial coverage at edges: our choice, edges on whole pixels are exact either way), composited source-over in
/// premultiplied alpha. Images are resampled bilinearly (nearest neighbour at `.none`) and their colours are taken
/// as they are stored: no conversion between the image's colour space and the context's.
public final class CGContext: @unchecked Sendable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Bits per colour component (8).
    public let bitsPerComponent: Int
    /// Bits per pixel, padding included.
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The colour space pixels are stored in; nil for an alpha-only mask.
    public let colorSpace: CGColorSpace?
    /// The layout of the components.
    public let bitmapInfo: CGBitmapInfo
    /// Where alpha sits.
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.intersection(.alphaInfoMask).rawValue) ?? .none
    }
    /// The bitmap's memory: the caller's, or the context's own when it was made with none.
    public let data: UnsafeMutableRawPointer?

    private let owned: UnsafeMutableRawPointer?
    private let layout: PixelLayout
    private var state = GraphicsState()
    private var saved: [GraphicsState] = []

    /// What `saveGState()` keeps and `restoreGState()` brings back.
    private struct GraphicsState {
        var ctm = CGAffineTransform.identity
        /// Premultiplied red, green, blue and alpha, 0…1.
        var fill = SIMD4<Double>(0, 0, 0, 1)
        var alpha: Double = 1
        var interpolation = CGInterpolationQuality.default
    }

    /// A bitmap context over `data` (or over memory of its own, zeroed, when nil), `bytesPerRow` apart (packed rows
    /// when 0); nil for a layout bitmap contexts do not support or rows too short for a pixel row.
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: UInt32
    ) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard width > 0, height > 0, bitsPerComponent == 8,
            let layout = PixelLayout(space: space, info: info)
        else { return nil }
        let rowBytes = bytesPerRow == 0 ? width * layout.bytesPerPixel : bytesPerRow
        guard rowBytes >= width * layout.bytesPerPixel else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = 8
        bitsPerPixel = 8 * layout.bytesPerPixel
        self.bytesPerRow = rowBytes
        colorSpace = layout.kind == .alphaOnly ? nil : space
        self.bitmapInfo = info
        self.layout = layout
        if let data {
            owned = nil
            self.data = data
        } else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            owned = memory
            self.data = memory
        }
    }

    /// The same, with Apple's release callback: called with `releaseInfo` and the data when the context goes.
    public convenience init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: UInt32,
        releaseCallback: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void)?,
        releaseInfo: UnsafeMutableRawPointer?
    ) {
        self.init(
            data: data, width: width, height: height, bitsPerComponent: bitsPerComponent, bytesPerRow: bytesPerRow,
            space: space, bitmapInfo: bitmapInfo)
        release = releaseCallback.map { callback in { [data] in callback(releaseInfo, data) } }
    }

    private var release: (() -> Void)?

    deinit {
        release?()
        owned?.deallocate()
    }

    // MARK: Graphics state

    /// The current transformation matrix: user space to the bitmap's pixels (origin bottom left).
    public var ctm: CGAffineTransform { state.ctm }

    public func saveGState() { saved.append(state) }

    public func restoreGState() {
        if let last = saved.popLast() { state = last }
    }

    public func translateBy(x: CGFloat, y: CGFloat) { state.ctm = state.ctm.translatedBy(x: x, y: y) }
    public func scaleBy(x: CGFloat, y: CGFloat) { state.ctm = state.ctm.scaledBy(x: x, y: y) }
    public func rotate(by angle: CGFloat) { state.ctm = state.ctm.rotated(by: angle) }
    /// Applies `transform` before the current matrix, as `CGContextConcatCTM` does.
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }

    /// How drawn images are resampled.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolation }
        set { state.interpolation = newValue }
    }

    /// The opacity every later drawing is multiplied by, 0…1.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = min(max(Double(alpha), 0), 1) }

    public func setFillColor(_ color: CGColor) {
        let c = (color.components ?? [0, 0, 0, 1]).map { Double($0) }
        let rgb = c.count == 2 ? SIMD3(c[0], c[0], c[0]) : SIMD3(c[0], c[1], c[2])
        let a = min(max(c.last ?? 1, 0), 1)
        state.fill = SIMD4(rgb.x * a, rgb.y * a, rgb.z * a, a)
    }

    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }

    // MARK: Drawing

    /// Paints `rect` with the fill colour.
    public func fill(_ rect: CGRect) {
        let colour = state.fill * state.alpha
        paint(rect) { _, _ in colour }
    }

    public func fill(_ rects: [CGRect]) { rects.forEach(fill) }

    /// Sets the pixels `rect` covers to transparent black (black for a layout without alpha).
    public func clear(_ rect: CGRect) {
        forEachCoveredPixel(rect) { x, y, _ in layout.store(.zero, at: pixel(x, y)) }
    }

    /// Draws `image` scaled into `rect`, its first row at the rect's top (largest y).
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard rect.width != 0, rect.height != 0, let pixels = image.rgba8(premultiplied: true) else { return }
        let source = ImageSampler(pixels: pixels, width: image.width, height: image.height)
        let nearest = state.interpolation == .none
        let alpha = state.alpha
        let r = rect.standardized
        paint(r) { ux, uy in
            // The image's pixel coordinates of the user-space point: x across from the left, y down from the top.
            let u = (ux - Double(r.minX)) / Double(r.width) * Double(image.width)
            let v = (Double(r.maxY) - uy) / Double(r.height) * Double(image.height)
            return (nearest ? source.nearest(u, v) : source.bilinear(u, v)) * alpha
        }
    }

    /// A copy of the bitmap as an image, with the context's layout and colour space.
    public func makeImage() -> CGImage? {
        guard let data, let provider = CGDataProvider(data: NSData(bytes: data, length: bytesPerRow * height)) else {
            return nil
        }
        return CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow,
            space: colorSpace ?? CGColorSpaceCreateDeviceGray(), bitmapInfo: bitmapInfo, provider: provider,
            decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }

    // MARK: Rasterising

    private func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
        (data! + y * bytesPerRow + x * layout.bytesPerPixel).assumingMemoryBound(to: UInt8.self)
    }

    /// Composites `colour(ux, uy)` (premultiplied, 0…1) source-over at each pixel `rect` covers.
    private func paint(_ rect: CGRect, colour: (Double, Double) -> SIMD4<Double>) {
        forEachCoveredPixel(rect) { x, y, user in
            let s = colour(user.x, user.y)
            guard s.w > 0 else { return }
            let p = pixel(x, y)
            layout.store(s + layout.load(p) * (1 - s.w), at: p)
        }
    }

    /// Calls `body` with each pixel whose centre lies in `rect` after the current transformation, and that centre
    /// in user space.
    private func forEachCoveredPixel(_ rect: CGRect, _ body: (Int, Int, SIMD2<Double>) -> Void) {
        let r = rect.standardized
        guard !r.isNull, r.width > 0, r.height > 0 else { return }
        let m = state.ctm
        let inverse = m.inverted()
        // The device-space bounds of the transformed rectangle, clipped to the bitmap.
        let corners = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.minX, y: r.maxY),
            CGPoint(x: r.maxX, y: r.maxY),
        ].map { $0.applying(m) }
        let xs = corners.map { Double($0.x) }, ys = corners.map { Double($0.y) }
        let x0 = max(0, Int((xs.min()! - 0.5).rounded(.up)))
        let x1 = min(width - 1, Int((xs.max()! - 0.5).rounded(.down)))
        let y0 = max(0, Int((ys.min()! - 0.5).rounded(.up)))
        let y1 = min(height - 1, Int((ys.max()! - 0.5).rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return }
        let (a, b, c, d) = (Double(inverse.a), Double(inverse.b), Double(inverse.c), Double(inverse.d))
        let (tx, ty) = (Double(inverse.tx), Double(inverse.ty))
        let (minX, maxX, minY, maxY) = (Double(r.minX), Double(r.maxX), Double(r.minY), Double(r.maxY))
        for dy in y0...y1 {
            let py = Double(dy) + 0.5
            for dx in x0...x1 {
                let px = Double(dx) + 0.5
                let ux = a * px + c * py + tx, uy = b * px + d * py + ty
                // Half-open on the high sides, so that rectangles sharing an edge never paint a pixel twice.
                guard ux >= minX, ux < maxX, uy >= minY, uy < maxY else { continue }
                // Device y counts up from the bottom; the bitmap's rows count down from the top.
                body(dx, height - 1 - dy, SIMD2(ux, uy))
            }
        }
    }
}

/// Where a bitmap context's components sit in a pixel.
private struct PixelLayout {
    enum Kind { case rgb, grey, alphaOnly }
    let kind: Kind
    let bytesPerPixel: Int
    /// Byte offsets of red, green, blue and alpha (alpha nil when skipped or absent).
    let red: Int, green: Int, blue: Int, alpha: Int?

    init?(space: CGColorSpace, info: CGBitmapInfo) {
        let alphaInfo = CGImageAlphaInfo(rawValue: info.intersection(.alphaInfoMask).rawValue) ?? .none
        let order = info.intersection(.byteOrderMask)
        guard !info.contains(.floatComponents),
            [.byteOrderDefault, .byteOrder32Big, .byteOrder32Little].contains(order)
        else { return nil }
        switch (space.numberOfComponents, alphaInfo) {
        case (_, .alphaOnly):
            (kind, bytesPerPixel, red, green, blue, alpha) = (.alphaOnly, 1, 0, 0, 0, 0)
        case (1, .none):
            (kind, bytesPerPixel, red, green, blue, alpha) = (.grey, 1, 0, 0, 0, nil)
        case (3, .premultipliedFirst), (3, .noneSkipFirst), (3, .premultipliedLast), (3, .noneSkipLast):
            let first = alphaInfo == .premultipliedFirst || alphaInfo == .noneSkipFirst
            let premultiplied = alphaInfo == .premultipliedFirst || alphaInfo == .premultipliedLast
            // Positions in the 32-bit word, most significant first; a little-endian word stores them reversed.
            var slots = first ? [1, 2, 3, 0] : [0, 1, 2, 3]
            if order == .byteOrder32Little { slots = slots.map { 3 - $0 } }
            (kind, bytesPerPixel) = (.rgb, 4)
            (red, green, blue) = (slots[0], slots[1], slots[2])
            alpha = premultiplied ? slots[3] : nil
            skipped = premultiplied ? nil : slots[3]
        default:
            return nil
        }
    }

    /// The byte a skipped alpha occupies, kept at 255.
    private(set) var skipped: Int? = nil

    /// The pixel at `p` as premultiplied red, green, blue and alpha, 0…1.
    func load(_ p: UnsafeMutablePointer<UInt8>) -> SIMD4<Double> {
        let a = alpha.map { Double(p[$0]) / 255 } ?? 1
        switch kind {
        case .alphaOnly: return SIMD4(0, 0, 0, a)
        case .grey:
            let g = Double(p[0]) / 255
            return SIMD4(g, g, g, 1)
        case .rgb: return SIMD4(Double(p[red]), Double(p[green]), Double(p[blue]), 255 * a) / 255
        }
    }

    /// Stores premultiplied `v` (0…1) at `p`; grey takes the Rec. 709 luma of the encoded values (our choice).
    func store(_ v: SIMD4<Double>, at p: UnsafeMutablePointer<UInt8>) {
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x * 255, 0), 255).rounded()) }
        switch kind {
        case .alphaOnly: p[0] = byte(v.w)
        case .grey: p[0] = byte(0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z)
        case .rgb:
            (p[red], p[green], p[blue]) = (byte(v.x), byte(v.y), byte(v.z))
            if let alpha { p[alpha] = byte(v.w) }
            if let skipped { p[skipped] = 255 }
        }
    }
}

/// An image's premultiplied RGBA bytes read at fractional pixel positions (x right, y down, pixel centres at + 0.5).
private struct ImageSampler {
    let pixels: [UInt8]
    let width: Int, height: Int

    func texel(_ x: Int, _ y: Int) -> SIMD4<Double> {
        let o = 4 * (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1))
        return SIMD4(Double(pixels[o]), Double(pixels[o + 1]), Double(pixels[o + 2]), Double(pixels[o + 3])) / 255
    }

    func nearest(_ u: Double, _ v: Double) -> SIMD4<Double> { texel(Int(u.rounded(.down)), Int(v.rounded(.down))) }

    /// Bilinear between the four pixel centres around (u, v), the edges clamped.
    func bilinear(_ u: Double, _ v: Double) -> SIMD4<Double> {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let top = texel(x0, y0) * (1 - ax) + texel(x0 + 1, y0) * ax
        let bottom = texel(x0, y0 + 1) * (1 - ax) + texel(x0 + 1, y0 + 1) * ax
        return top * (1 - ay) + bottom * ay
    }
}
