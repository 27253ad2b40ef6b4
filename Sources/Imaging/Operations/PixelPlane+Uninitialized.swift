extension PixelPlane {
    /// A packed plane whose elements start uninitialised, for a parallel pass that writes every element.
    ///
    /// A 12 MP RGB plane is 36 MB: zero-filling it first costs a serial pass of page faults and stores about as long
    /// as a whole warp on one core, and the workers then touch the pages a second time. Left uninitialised, the pages
    /// are first touched by the workers that fill them. Components that are not plain values (none of Imaging's)
    /// get the ordinary zero fill.
    init(uninitializedWidth width: Int, height: Int, channels: Int) {
        guard _isPOD(Component.self) else {
            self.init(width: width, height: height, channels: channels)
            return
        }
        precondition(width >= 0 && height >= 0 && channels >= 1, "invalid PixelPlane shape")
        let (packed, packedOverflow) = width.multipliedReportingOverflow(by: channels)
        let (count, countOverflow) = packed.multipliedReportingOverflow(by: height)
        precondition(!packedOverflow && !countOverflow, "PixelPlane of \(width)x\(height)x\(channels) overflows")
        let elements = ContiguousArray<Component>(unsafeUninitializedCapacity: count) { _, initialized in
            initialized = count
        }
        self.init(width: width, height: height, channels: channels, elements: elements)
    }
}
