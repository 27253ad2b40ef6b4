import Foundation

extension AVCapturePhotoOutput {
    /// The settings whose `flashMode` scene monitoring assumes (default nil). A copy is kept, as
    /// Apple's property copies. KVO.
    public var photoSettingsForSceneMonitoring: AVCapturePhotoSettings? {
        get { sceneMonitoring.withLock { $0.map { $0.frozenCopy() } } }
        set {
            let copy = newValue?.frozenCopy()
            sceneMonitoring.withLock { $0 = copy }
            observers.didChange(\AVCapturePhotoOutput.photoSettingsForSceneMonitoring)
            observers.didChange(\AVCapturePhotoOutput.isFlashScene)
        }
    }

    /// Whether the scene the camera sees now is dark enough for the flash: the `.auto` flash rule
    /// that `capturePhoto` applies (the metered exposure without flash would need more than the
    /// auto-flash ISO at the hand-held limit), asked of the preview's scene. False while
    /// `supportedFlashModes` offers only `.off`, as Apple documents, and while scene monitoring's
    /// settings are nil or ask `.off` (Apple documents `.off`; nil reading as no monitoring is
    /// our choice). KVO on the monitoring settings; the scene's own changes are read on demand.
    public var isFlashScene: Bool {
        guard supportedFlashModes.contains(where: { $0 != .off }),
            let mode = sceneMonitoring.withLock({ $0?.flashMode }), mode != .off,
            let device = lock.withLock({ inner.caps.device }), device.hasFlash
        else { return false }
        return device.sceneNeedsLight
    }
}
