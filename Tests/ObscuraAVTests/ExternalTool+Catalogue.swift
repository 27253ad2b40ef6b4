import ExternalTools
import Imaging
import ObscuraAV
import Scenes

/// What the ObscuraAV tests need beyond the package (see `ExternalTool`).
extension ExternalTool {
    /// exiftool, an independent reader of the photo files' Exif, ICC and MPF.
    static let exiftool = program("exiftool", packages: "libimage-exiftool-perl", versionArgument: "-ver")

    /// LibRaw's unprocessed_raw, an independent reader of a DNG's sensor values (it writes them as a 16-bit PGM).
    static let unprocessedRaw = program("unprocessed_raw", packages: "libraw-bin", versionArgument: "-version")

    /// LibRaw's dcraw_emu, an independent raw developer: white balance as shot, the DNG's colour matrix, sRGB.
    static let dcrawEmu = program("dcraw_emu", packages: "libraw-bin", versionArgument: "-version")

    /// libheif's heif-info, an independent reader of the HEIC files' images and depth.
    static let heifInfo = program("heif-info", packages: "libheif-examples", versionArgument: "--version")

    /// libheif's heif-convert, an independent decoder that applies a HEIC image's transform properties.
    static let heifConvert = program("heif-convert", packages: "libheif-examples", versionArgument: "--version")

    /// libheif with its HEVC encoder, loaded at run time.
    static let libheif = ExternalTool("libheif with its HEVC encoder", packages: "libheif1", present: HEIF.isAvailable)

    /// FFmpeg 5.1's libraries, loaded at run time: present when the movie output offers a codec.
    static let ffmpeg = ExternalTool(
        "FFmpeg's libraries", packages: "libavformat59 libavcodec59 libswscale6",
        present: !AVCaptureMovieFileOutput().availableVideoCodecTypes.isEmpty)

    /// ffprobe, the independent reader of the movies.
    static let ffprobe = program("ffprobe", packages: "ffmpeg", versionArgument: "-version")

    /// zxing-cpp, loaded at run time: it draws the scenes' codes and reads them from frames.
    static let zxing = ExternalTool(
        "zxing-cpp", packages: "libzxing2 (libzxing-dev to build)", present: CodeSymbol.isAvailable)
}
