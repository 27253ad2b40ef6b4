import ExternalTools
import Imaging
import Foundation
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

extension ExternalTool {
    /// python3 with the `jsonschema` module, which checks the `--json` outputs against their published
    /// schemas (`JSONOutputSchemaTests`).
    static let pythonJSONSchema: ExternalTool = {
        let python = program("python3", packages: "python3 python3-jsonschema", versionArgument: "--version")
        guard let path = python.location else { return python }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", "import jsonschema"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let loads = (try? process.run()).map { process.waitUntilExit(); return process.terminationStatus == 0 } ?? false
        return loads ? python : ExternalTool("python3's jsonschema", packages: "python3-jsonschema", present: false)
    }()
}

extension ExternalTool {
    /// exiftool, an independent reader of the pictures `obscura render` writes as JPEG or HEIC.
    static let exiftool = program("exiftool", packages: "libimage-exiftool-perl", versionArgument: "-ver")
}

extension ExternalTool {
    /// libheif with HEVC encoding and decoding (x265 and libde265), which `obscura render` needs to write HEIC and
    /// `obscura image scan` to read it.
    static let libheif = ExternalTool(
        "libheif with an HEVC encoder and decoder", packages: "libheif1 libde265-0",
        present: HEIF.isAvailable && HEIF.canDecode)
}
