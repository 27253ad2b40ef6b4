import Imaging

/// One exposed frame: linear camera RGB before any processing, plus ground truth.
///
/// Planes are row-major with interleaved R, G, B per pixel (no mosaic).
public struct RawFrame: Sendable {
    /// Width and height, pixels.
    public let width: Int, height: Int
    /// The exposure that made it.
    public let exposure: Exposure
    /// Collected electrons after the whole noise chain and full-well clipping (RGB interleaved).
    /// Values may dip below zero by the read noise: the pedestal in `dn` keeps them. Empty when the
    /// renderer's options leave the plane out (`RenderOptions.keepsElectrons` false).
    public let electrons: [Float]
    /// ADC output, DN, including the black level (RGB interleaved).
    public let dn: [UInt16]
    /// Z along the optical axis to the visible surface, metres, distorted like the image;
    /// NaN where the ray hits nothing.
    public let depth: [Float]
    /// Index into `Scene.objects` of the visible surface; `RawFrame.none` for background.
    public let objectIDs: [UInt16]
    /// Index into `Renderer.materials` of the visible surface; `RawFrame.none` for background.
    public let materialIDs: [UInt16]
    /// Noise-free mean electrons from the flash alone (RGB interleaved), if kept.
    public let flashElectrons: [Float]?
    /// Noise-free mean electrons from every other light, without dark current, if kept.
    public let ambientElectrons: [Float]?
    /// Mean over the frame's pixels of `flashElectrons`, per channel: present whenever the frame keeps
    /// the components, and also without them when the renderer keeps only their means
    /// (`RenderOptions.keepsComponentMeans`). Summed in Double band by band in row order, so the
    /// value does not depend on the thread count.
    public let meanFlashElectrons: SIMD3<Double>?
    /// Mean over the frame's pixels of `ambientElectrons`, per channel, present with `meanFlashElectrons`.
    public let meanAmbientElectrons: SIMD3<Double>?

    /// The id of "no object" / "no material".
    public static let none: UInt16 = .max

    /// Noisy electrons at a pixel and channel (0 red, 1 green, 2 blue); the frame must keep them.
    public func electrons(x: Int, y: Int, channel: Int) -> Float { electrons[(y * width + x) * 3 + channel] }
    /// DN at a pixel and channel.
    public func dn(x: Int, y: Int, channel: Int) -> UInt16 { dn[(y * width + x) * 3 + channel] }
    /// Depth at a pixel, metres.
    public func depth(x: Int, y: Int) -> Float { depth[y * width + x] }
}
