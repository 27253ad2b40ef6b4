import ExternalTools
/// What the Imaging tests need beyond the package (see `ExternalTool`).
extension ExternalTool {
    /// Python, whose own zlib decodes the PNG encoder's output independently of libpng.
    static let python3 = program("python3", packages: "python3", versionArgument: "--version")
}
