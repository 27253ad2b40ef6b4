import Foundation

/// The device catalogue and the seed scenes, shipped with the package as resources so that a
/// dependent package finds them from any working directory and any executable location.
public enum BundledData {
    /// The bundled folder called `name` (`DeviceProfiles` or `Scenes`), if it is there.
    public static func folder(named name: String) -> String? {
        let base = Bundle.module.resourceURL ?? Bundle.module.bundleURL
        let url = base.appendingPathComponent(name, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return url.path
    }
}
