import ExternalTools
/// What the command-line tests need beyond the package (see `ExternalTool`).
extension ExternalTool {
    /// libxml2's xmllint, which checks the JUnit reports against their schema.
    static let xmllint = program("xmllint", packages: "libxml2-utils", versionArgument: "--version")

    /// Headless Chromium, which opens the scenario reports as a reader would (`BrowserCheck`).
    static let chromium = program(
        "chromium", alternatives: ["chromium-browser", "google-chrome"], packages: "chromium",
        versionArgument: "--version")

    /// FFmpeg 5.1's libraries, which `obscura run` loads to write movies.
    static let ffmpeg = libraries(
        "FFmpeg's libraries", packages: "libavformat59 libavcodec59 libswscale6",
        ["libavformat.so.59", "libavcodec.so.59", "libswscale.so.6"])
}
