import AVFoundation
import ExternalTools

/// What the drop-in tests need beyond the package (see `ExternalTool`).
extension ExternalTool {
    /// FFmpeg 5.1's libraries, loaded at run time: present when the movie output offers a codec, as an app
    /// would see it. `MovieCodecAbsenceTests` covers the other case.
    static let ffmpeg = ExternalTool(
        "FFmpeg's libraries", packages: "libavformat59 libavcodec59 libswscale6",
        present: !AVCaptureMovieFileOutput().availableVideoCodecTypes.isEmpty)

    /// ffprobe, the independent reader of the movies.
    static let ffprobe = program("ffprobe", packages: "ffmpeg", versionArgument: "-version")

    /// exiftool, an independent reader of the photo files' metadata.
    static let exiftool = program("exiftool", packages: "libimage-exiftool-perl", versionArgument: "-ver")

    /// libheif with its HEVC encoder, loaded at run time: present when a photo output with a camera offers
    /// HEVC, as an app would see it.
    static let libheif = ExternalTool(
        "libheif with its HEVC encoder", packages: "libheif1",
        present: (try? PhotoSessionRig())?.photoOutput.availablePhotoCodecTypes.contains(.hevc) ?? false)

    /// zxing-cpp's library, loaded at run time, which draws and reads the codes. `CodeReaderAbsenceTests`
    /// covers the other case.
    static let zxing = libraries("zxing-cpp", packages: "libzxing2 (libzxing-dev to build)", ["libZXing.so.2"])
}
