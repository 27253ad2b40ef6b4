import ObscuraAV

extension AVMetadataObject {
    /// The name of the scene object the metadata object was found on, as the scene file gives it.
    public var obscuraObjectName: String { sceneObjectName }
}
