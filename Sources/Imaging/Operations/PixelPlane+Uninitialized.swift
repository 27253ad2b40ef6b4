#if canImport(Glibc)
import Glibc
#endif

extension PixelPlane {
    /// A packed plane whose elements start uninitialised, for a parallel pass that writes every element.
    ///
    /// A 12 MP RGB plane is 36 MB: zero-filling it first costs a serial pass of page faults and stores about as long
    /// as a whole warp on one core, and the workers then touch the pages a second time. Left uninitialised, the pages
    /// are first touched by the workers that fill them. Components that are not plain values (none of Imaging's)
    /// get the ordinary zero fill.
    ///
    /// On Linux, planes of 4 MB and more are also advised to use transparent huge pages (`MADV_HUGEPAGE`, as numpy
    /// does for its large arrays): first touches of fresh 4 KB pages cost about 2 µs each on the development machine,
    /// 17 ms of CPU for a 36 MB plane, against about 1 ms with 2 MB pages. The advice is a hint; where huge pages are
    /// off or unavailable the plane gets ordinary pages.
    init(uninitializedWidth width: Int, height: Int, channels: Int) {
        guard _isPOD(Component.self) else {
            self.init(width: width, height: height, channels: channels)
            return
        }
        precondition(width >= 0 && height >= 0 && channels >= 1, "invalid PixelPlane shape")
        let (packed, packedOverflow) = width.multipliedReportingOverflow(by: channels)
        let (count, countOverflow) = packed.multipliedReportingOverflow(by: height)
        precondition(!packedOverflow && !countOverflow, "PixelPlane of \(width)x\(height)x\(channels) overflows")
        let elements = ContiguousArray<Component>(unsafeUninitializedCapacity: count) { buffer, initialized in
            PixelPlane.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
        self.init(width: width, height: height, channels: channels, elements: elements)
    }

    /// Asks the kernel for transparent huge pages over the whole 4 KB pages of a fresh buffer of 4 MB or more.
    private static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard let base = buffer.baseAddress, buffer.count >= 4 << 20 else { return }
        let page = 4096
        let start = (UInt(bitPattern: base) + UInt(page - 1)) & ~UInt(page - 1)
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~UInt(page - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        // A refusal (huge pages compiled out or switched off) leaves ordinary pages: nothing to handle.
        _ = madvise(aligned, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
