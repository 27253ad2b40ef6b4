/// What a phone's image sensor reports of one exposure: the digital numbers and the exposure that made them,
/// and nothing of the render behind them (no depth, object or material ids, no noise-free components).
///
/// An image-signal processor that takes readouts rather than `RawFrame`s cannot read the ground truth a
/// render keeps for evaluation: the type has no place for it.
public struct SensorReadout: Sendable {
    /// Width and height, pixels.
    public let width: Int, height: Int
    /// The exposure that made it.
    public let exposure: Exposure
    /// ADC output, DN, including the black level (RGB interleaved, row-major).
    public let dn: [UInt16]

    /// A readout from its values.
    public init(width: Int, height: Int, exposure: Exposure, dn: [UInt16]) {
        precondition(width > 0 && height > 0, "a readout needs a positive size, not \(width)x\(height)")
        precondition(dn.count == 3 * width * height, "a \(width)x\(height) readout needs \(3 * width * height) values")
        self.width = width
        self.height = height
        self.exposure = exposure
        self.dn = dn
    }

    /// The readout of a rendered frame: its DN and exposure only.
    public init(_ frame: RawFrame) {
        self.init(width: frame.width, height: frame.height, exposure: frame.exposure, dn: frame.dn)
    }
}

extension RawFrame {
    /// A frame holding only a readout, for the developers that take a `RawFrame` and read only its DN: the
    /// electrons, depth and id planes are empty (nothing known) and there are no components.
    public init(readout: SensorReadout) {
        self.init(
            width: readout.width, height: readout.height, exposure: readout.exposure, electrons: [], dn: readout.dn,
            depth: [], objectIDs: [], materialIDs: [], flashElectrons: nil, ambientElectrons: nil,
            meanFlashElectrons: nil, meanAmbientElectrons: nil)
    }
}
