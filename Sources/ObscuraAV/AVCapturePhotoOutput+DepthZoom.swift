import Foundation

extension AVCapturePhotoOutput {
    /// Holds the dual camera's zoom at 2× while this output delivers depth, and lets it go when
    /// depth is turned off, the device changes or the output leaves the session (spec §2.2
    /// [T W17; D "Capturing Photos with Depth"]: depth capture on a dual camera locks the zoom).
    func updateDepthZoomLock() {
        let (device, enabled) = lock.withLock { (inner.caps.device, inner.depthEnabled) }
        let holder = enabled ? device : nil
        if let old = depthZoomDevice, old !== holder { old.setDepthZoomLock(false, by: self) }
        holder?.setDepthZoomLock(true, by: self)
        depthZoomDevice = holder
    }
}
