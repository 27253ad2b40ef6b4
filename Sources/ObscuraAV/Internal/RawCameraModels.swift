import Devices

/// The names a RAW photo's DNG files its camera under (UniqueCameraModel, which a raw developer keys its colour
/// tuning by), and the list of them a RAW developer reports as the cameras it supports.
package enum RawCameraModels {
    /// The name of `camera` of the device `profile`: the device's name, the camera's position and its id
    /// ("iPhone 15 Pro back camera wide"), which no two cameras of the catalogue share.
    package static func name(profile: DeviceProfile, camera: CameraProfile) -> String {
        "\(profile.name) \(camera.position.rawValue) camera \(camera.id)"
    }

    /// Every camera of the device catalogue that takes Bayer RAW photos (the back cameras, physical and virtual,
    /// `AVCapturePhotoOutput.availableRawPhotoPixelFormatTypes`), by name, sorted; read once (a static constant is
    /// made on first use). Empty where no catalogue can be read.
    package static let all: [String] = {
        guard let profiles = try? DeviceCatalog().loadAll() else { return [] }
        return profiles.flatMap { profile in
            profile.cameras.filter { $0.position == .back }.map { name(profile: profile, camera: $0) }
        }.sorted()
    }()
}
