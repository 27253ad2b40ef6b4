import Imaging
import Sensor
import Spectra

/// The basic develop step: raw DN → black level → lens-shading correction → white balance → colour
/// correction → output colour space → global tone curve → transfer-function encoding.
///
/// Everything colorimetric is folded into one 3×3 matrix when the pipeline is built (once per
/// camera and illuminant); a pixel costs a subtraction, a matrix product, the tone curve and the
/// encoding.
public struct BasicDevelop: Sendable {
    /// Where the output lives.
    public enum OutputSpace: String, Sendable, Hashable, CaseIterable {
        case sRGB
        case displayP3

        /// Spectra's description of the space (primaries, D65 white, sRGB transfer curve).
        public var colorSpace: RGBColorSpace { self == .sRGB ? .sRGB : .displayP3 }
        /// Its name in file metadata.
        public var name: String { self == .sRGB ? "sRGB" : "Display P3" }
        /// The PNG tag for it.
        public var pngColorSpace: PNGColorSpace { self == .sRGB ? .sRGB : .displayP3 }
    }

    /// Rendering choices.
    public struct Settings: Sendable, Hashable {
        /// The output colour space.
        public var outputSpace: OutputSpace
        /// How much of the illuminant's cast to keep, 0 (fully neutral) … 1 (no white balance):
        /// the white is adapted to the chromaticity D65 + r·(illuminant − D65) in xy instead of D65.
        /// Phones keep part of a warm room's cast (How the physics works, “From raw to photo”).
        public var warmthRetention: Double
        /// The global tone curve; nil picks a highlight shoulder at 0.6 reaching 1 at the clip level.
        public var toneCurve: ToneCurve?
        /// Linear gain applied before the tone curve; the default maps the auto-exposure mid-grey
        /// (10/78 of the clipping level) to 0.18.
        public var exposureScale: Double

        /// Settings.
        public init(
            outputSpace: OutputSpace = .sRGB, warmthRetention: Double = 0, toneCurve: ToneCurve? = nil,
            exposureScale: Double = 0.18 / AutoExposure.midGreyFraction
        ) {
            self.outputSpace = outputSpace
            self.warmthRetention = min(max(warmthRetention, 0), 1)
            self.toneCurve = toneCurve
            self.exposureScale = exposureScale
        }
    }

    /// The white balance used.
    public let whiteBalance: WhiteBalance
    /// The fitted colour-correction matrix.
    public let colorCorrection: ColorCorrectionMatrix
    /// The settings.
    public let settings: Settings
    /// Normalised, black-subtracted camera RGB → linear output RGB (white balance, CCM,
    /// adaptation, output primaries and exposure scale together).
    public let matrix: Matrix3
    /// The tone curve in use.
    public let toneCurve: ToneCurve
    let blackLevel: Double
    let whiteLevel: Double
    /// Lens-shading correction, applied to camera RGB before white balance.
    let shadingCorrection: LensShadingCorrection

    /// Builds the pipeline for a camera balanced for `whiteBalance`.
    public init(camera: CameraModel, whiteBalance: WhiteBalance, settings: Settings = Settings()) {
        self.whiteBalance = whiteBalance
        self.settings = settings
        let ccm = ColorCorrectionMatrix(camera: camera, illuminant: whiteBalance.illuminant)
        colorCorrection = ccm
        let d65 = ColorCorrectionMatrix.d65White
        let source = Colorimetry.whitePoint(of: whiteBalance.illuminant).chromaticity
        let r = settings.warmthRetention
        let kept = Chromaticity(x: 0.3127 + r * (source.x - 0.3127), y: 0.3290 + r * (source.y - 0.3290))
        let retain = ChromaticAdaptation.matrix(from: d65, to: kept.xyz(luminance: 1), method: .bradford)
        let space = settings.outputSpace.colorSpace
        let toOutput = space.fromXYZ * retain * ccm.matrix * Matrix3.diagonal(whiteBalance.gains)
        matrix = Matrix3.diagonal(SIMD3(repeating: settings.exposureScale)) * toOutput
        toneCurve = settings.toneCurve ?? .shoulder(knee: 0.6, whiteInput: settings.exposureScale)
        blackLevel = camera.noise.blackLevel
        whiteLevel = camera.noise.whiteLevel
        shadingCorrection = LensShadingCorrection(camera: camera)
    }

    /// Linear output RGB per pixel (interleaved), before the tone curve. A pixel with any channel
    /// at the white level is clipped: its true colour is unknown, so it is rendered as the white the
    /// balance makes of the camera's neutral, at its brightest balanced channel, instead of the false
    /// hue the gains would give it; pixels whose brightest raw channel is within the top tenth of the
    /// range are blended towards that white (see `PixelKernel.linear`).
    public func linearRGB(_ frame: RawFrame) -> [Float] {
        let kernel = PixelKernel(self)
        var out = [Float](repeating: 0, count: frame.width * frame.height * 3)
        let shading = shadingCorrection.camera.width == frame.width ? shadingCorrection : nil
        frame.dn.withUnsafeBufferPointer { dn in
            LensShadingCorrection.withRow(width: frame.width) { gains in
                for y in 0..<frame.height {
                    if let shading { shading.gains(row: y, into: gains) }
                    for x in 0..<frame.width {
                        let p = y * frame.width + x
                        let gain = shading == nil ? 1 : Double(gains[x])
                        let rgb = kernel.linear(dn[3 * p], dn[3 * p + 1], dn[3 * p + 2], gain: gain)
                        out[3 * p] = Float(rgb.x)
                        out[3 * p + 1] = Float(rgb.y)
                        out[3 * p + 2] = Float(rgb.z)
                    }
                }
            }
        }
        return out
    }

    /// The developed picture: tone-mapped and encoded, 3 channels, at the component's bit depth.
    ///
    /// 8-bit pictures take the fast path (`developBytes`); other depths the reference path.
    public func develop<Component: PixelComponent>(
        _ frame: RawFrame, as _: Component.Type, threads: Int? = nil
    ) -> PixelPlane<Component> {
        if Component.self == UInt8.self, let bytes = developBytes(frame, threads: threads) as? PixelPlane<Component> {
            return bytes
        }
        return developReference(frame, as: Component.self)
    }

    /// The plain statement of the develop step, one component at a time through the tone curve
    /// and the transfer function: what `developBytes` is tested against.
    public func developReference<Component: PixelComponent>(
        _ frame: RawFrame, as _: Component.Type
    ) -> PixelPlane<Component> {
        let linear = linearRGB(frame)
        let transfer = settings.outputSpace.colorSpace.transfer
        let tone = toneCurve
        return PixelPlane(
            width: frame.width, height: frame.height, channels: 3,
            elements: linear.lazy.map { Component(normalized: Float(transfer.encode(tone.apply(Double($0))))) })
    }

    /// The 8-bit picture, developed in parallel row bands straight into its bytes.
    ///
    /// Tone curve, transfer function and quantisation together map one linear `Float` to one code,
    /// monotonically, so they are replaced by the 255 thresholds where the code steps up
    /// (`EncodingThresholds`): a pixel costs the matrix product and three table lookups instead
    /// of three `pow` calls. The result equals `developReference` wherever that composite is
    /// monotonic in `Float`, which it is for the curves used here; the test allows one code.
    /// No intermediate plane is made. Bands write only their rows, so any thread count gives the
    /// same bytes.
    public func developBytes(_ frame: RawFrame, threads: Int? = nil) -> PixelPlane<UInt8> {
        let kernel = PixelKernel(self)
        let table = EncodingThresholds(tone: toneCurve, transfer: settings.outputSpace.colorSpace.transfer)
        let (width, height) = (frame.width, frame.height)
        let count = width * height * 3
        let bytes = ContiguousArray<UInt8>(unsafeUninitializedCapacity: count) { buffer, initialised in
            guard let outBase = buffer.baseAddress else {
                initialised = 0
                return
            }
            let out = SharedPointer(base: outBase)
            frame.dn.withUnsafeBufferPointer { dnBuffer in
                guard let dnBase = dnBuffer.baseAddress else { return }
                let dn = SharedReadPointer(base: dnBase)
                let shading = shadingCorrection.camera.width == width ? shadingCorrection : nil
                let buckets = table.buckets
                BandParallel.forEachBand(height: height, threads: threads) { rows in
                    table.thresholds.withUnsafeBufferPointer { t in
                        buckets.codes.withUnsafeBufferPointer { codes in
                            LensShadingCorrection.withRow(width: width) { gains in
                                for y in rows {
                                    if let shading { shading.gains(row: y, into: gains) }
                                    for i in (y * width)..<(y * width + width) {
                                        let gain = shading == nil ? 1 : Double(gains[i - y * width])
                                        let rgb = kernel.linear(
                                            dn.base[3 * i], dn.base[3 * i + 1], dn.base[3 * i + 2], gain: gain)
                                        out.base[3 * i] = buckets.code(Float(rgb.x), t, codes)
                                        out.base[3 * i + 1] = buckets.code(Float(rgb.y), t, codes)
                                        out.base[3 * i + 2] = buckets.code(Float(rgb.z), t, codes)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            initialised = count
        }
        return PixelPlane(width: width, height: height, channels: 3, elements: bytes)
    }

    /// Raw DN → linear output RGB for one pixel, shared by the reference and fast paths so both do
    /// the same arithmetic in the same order.
    struct PixelKernel: Sendable {
        /// The matrix's rows, held as vectors: the pixel loop reads them without the array behind `Matrix3`
        /// (which an unoptimised build retains and releases on every entry read).
        let rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
        let gains: SIMD3<Double>
        /// The output of the camera's neutral (1/gains, which the balance maps to equal channels): the
        /// white a clipped pixel becomes, with whatever cast the settings keep.
        let white: SIMD3<Double>
        let blackLevel: Double
        let range: Double
        let clip: UInt16
        /// The raw value from which a pixel is blended towards `white`: 90 % of the range above black.
        let featherStart: UInt16

        /// Where the highlight blend starts, as a share of the range above black (our choice: a tenth of
        /// the range, about 0.15 EV, so the colour fades out before the sensor loses it).
        static let featherFraction = 0.9

        init(_ develop: BasicDevelop) {
            let m = develop.matrix
            rows = (SIMD3(m[0, 0], m[0, 1], m[0, 2]), SIMD3(m[1, 0], m[1, 1], m[1, 2]), SIMD3(m[2, 0], m[2, 1], m[2, 2]))
            gains = develop.whiteBalance.gains
            white = develop.matrix * (1 / develop.whiteBalance.gains)
            blackLevel = develop.blackLevel
            range = develop.whiteLevel - develop.blackLevel
            clip = UInt16(max(0, min(develop.whiteLevel, Double(UInt16.max)) - 0.5))
            let start = develop.blackLevel + Self.featherFraction * (develop.whiteLevel - develop.blackLevel)
            featherStart = UInt16(max(0, min(start, Double(clip))))
        }

        /// `gain` is the lens-shading correction at the pixel; the clip test reads the raw values.
        ///
        /// A channel at the white level has lost its true value, so the pixel's hue is unknown; the
        /// balance's gains would turn it into a false colour (a clipped grey under tungsten light has
        /// red and green held at the clip while blue is multiplied up: lavender). Such a pixel becomes
        /// the balanced white at its brightest balanced channel, and pixels on the way there are mixed
        /// towards it with a smoothstep of their brightest raw channel, so no edge appears where
        /// clipping starts.
        @inline(__always)
        func linear(_ r: UInt16, _ g: UInt16, _ b: UInt16, gain: Double = 1) -> SIMD3<Double> {
            // Through Int: the concrete conversions, where an unoptimised build calls the generic one.
            let offset = SIMD3<Double>(Double(Int(r)), Double(Int(g)), Double(Int(b))) - blackLevel
            let v = offset / range * gain
            // `Matrix3 * v`, row by row with the same additions in the same order.
            let colour = SIMD3(rows.0.dot(v), rows.1.dot(v), rows.2.dot(v))
            let brightest = r >= g ? (r >= b ? r : b) : (g >= b ? g : b)
            if brightest < featherStart { return colour }
            // The largest balanced channel, as `max()` takes it: left to right, each step `Swift.max`'s
            // `b >= a ? b : a`.
            let balanced = v * gains
            let xy = balanced.y >= balanced.x ? balanced.y : balanced.x
            let neutral = white * (balanced.z >= xy ? balanced.z : xy)
            if brightest >= clip { return neutral }
            let t = (Double(Int(brightest)) - Double(Int(featherStart))) / (Double(Int(clip)) - Double(Int(featherStart)))
            let w = t * t * (3 - 2 * t)
            return colour + (neutral - colour) * w
        }
    }
}

/// The linear values at which an 8-bit code steps up, for a tone curve followed by a transfer
/// function and rounding to 0…255.
///
/// `thresholds[k]` (k = 1…255) is the smallest non-negative `Float` whose code is at least k,
/// found by bisecting the ordered bit patterns of non-negative floats; `thresholds[0]` is −∞, and
/// `thresholds[256]` is NaN, which no value reaches, so a step up past a threshold needs no bound. The
/// code of x is then the largest k with `thresholds[k] ≤ x`: exact for a monotonic composite,
/// with no approximation of the curves.
///
/// `code(_:_:)` finds it by a branch-free bisection of the thresholds, the plain statement. The
/// fast lookup (`Buckets`) starts from the code of the bucket x falls in and steps up past the
/// thresholds inside the bucket, so it gives the same code for every `Float`.
package struct EncodingThresholds: Sendable {
    let thresholds: [Float]
    let buckets: Buckets

    package init(tone: ToneCurve, transfer: TransferFunction) {
        func code(_ x: Float) -> Int { Int(UInt8(normalized: Float(transfer.encode(tone.apply(Double(x)))))) }
        var t = [Float](repeating: 0, count: 256)
        t[0] = -.infinity
        for k in 1...255 {
            // Bit patterns of non-negative floats are ordered like their values, +∞ included.
            var lo = UInt32(0)
            var hi = Float.infinity.bitPattern
            if code(Float(bitPattern: hi)) < k {
                t[k] = .infinity
                continue
            }
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if code(Float(bitPattern: mid)) >= k { hi = mid } else { lo = mid + 1 }
            }
            t[k] = Float(bitPattern: lo)
        }
        buckets = Buckets(thresholds: t)
        thresholds = t + [.nan]
    }

    /// The code of `x` by the bisection (the plain statement).
    package func referenceCode(_ x: Float) -> UInt8 {
        thresholds.withUnsafeBufferPointer { Self.code(x, $0) }
    }

    /// The code of `x` by the bucket table (what the develop uses).
    package func code(_ x: Float) -> UInt8 {
        thresholds.withUnsafeBufferPointer { t in buckets.codes.withUnsafeBufferPointer { buckets.code(x, t, $0) } }
    }

    /// The smallest value whose code is at least `k` (1…255; +∞ where no value reaches it).
    package func threshold(_ k: Int) -> Float { thresholds[k] }

    /// The entries of the bucket table.
    package var bucketCount: Int { buckets.codes.count }

    /// The code of `x`: a branch-free search of the 256 thresholds. NaN gives 0.
    @inline(__always)
    static func code(_ x: Float, _ t: UnsafeBufferPointer<Float>) -> UInt8 {
        // Through the base pointer and wrapping arithmetic: i + step stays within 1…255, and an unoptimised build
        // would otherwise check every step.
        guard let p = t.baseAddress else { return 0 }
        var i = 0
        var step = 128
        while step > 0 {
            i &+= p[i &+ step] <= x ? step : 0
            step &>>= 1
        }
        return UInt8(truncatingIfNeeded: i)
    }

    /// The codes at the lower ends of narrow buckets of `Float`s, which turn the bisection's eight dependent
    /// steps into one load and, seldom, a step or two up.
    ///
    /// A bucket is the set of non-negative floats that share their bit pattern above the lowest `dropped` bits:
    /// the exponent and the top 10 bits of the significand, so a bucket is about a thousandth of its value wide,
    /// narrower than the step between two codes anywhere on the curves used: a bucket seldom holds a threshold,
    /// and the step up past one costs a comparison. The table covers the buckets from the first threshold's to the
    /// last finite one's, about 13 binary orders of magnitude for an 8-bit encoding: some 13 k bytes.
    struct Buckets: Sendable {
        /// Bits of the significand below the bucket's key.
        static let dropped: UInt32 = 13
        /// The key of the first bucket in the table.
        let first: UInt32
        /// The code at the lower end of each bucket, from `first`.
        let codes: [UInt8]
        /// The largest code with a finite threshold, which every float beyond the table takes.
        let top: UInt8

        init(thresholds t: [Float]) {
            var top = 0
            for k in 1...255 where t[k].isFinite { top = k }
            self.top = UInt8(top)
            guard top > 0 else {
                (first, codes) = (0, [])
                return
            }
            let first = t[1].bitPattern >> Self.dropped, last = t[top].bitPattern >> Self.dropped
            self.first = first
            codes = t.withUnsafeBufferPointer { p in
                (first...last).map { key in EncodingThresholds.code(Float(bitPattern: key << Self.dropped), p) }
            }
        }

        /// The code of `x`, equal to `EncodingThresholds.code(x, thresholds)` for every `Float`, NaN included;
        /// `t` holds the thresholds with their NaN sentinel, and `table` the `codes`.
        @inline(__always)
        func code(_ x: Float, _ t: UnsafeBufferPointer<Float>, _ table: UnsafeBufferPointer<UInt8>) -> UInt8 {
            // Below the first threshold (negatives and NaN too) the code is 0.
            guard let p = t.baseAddress, let c = table.baseAddress, x >= p[1] else { return 0 }
            let index = Int(truncatingIfNeeded: (x.bitPattern >> Self.dropped) &- first)
            // Beyond the table the code is at least the last finite threshold's; +∞ passes the infinite ones too.
            var k = index < table.count ? Int(c[index]) : Int(top)
            // Whether x passed the bucket's threshold is a coin toss from pixel to pixel: one step without a
            // branch, then any further ones, which are rare enough to be predicted.
            k &+= p[k &+ 1] <= x ? 1 : 0
            while p[k &+ 1] <= x { k &+= 1 }
            return UInt8(truncatingIfNeeded: k)
        }
    }
}
