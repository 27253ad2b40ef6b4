import ExternalTools
import Imaging
/// What the Imaging tests need beyond the package (see `ExternalTool`).
extension ExternalTool {
    /// Python, whose own zlib decodes the PNG encoder's output independently of libpng.
    static let python3 = program("python3", packages: "python3", versionArgument: "--version")

    /// libheif with its HEVC encoder, loaded at run time.
    static let libheif = ExternalTool("libheif with its HEVC encoder", packages: "libheif1", present: HEIF.isAvailable)
}
