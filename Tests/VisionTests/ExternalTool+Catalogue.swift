import Foundation
import ExternalTools

/// What the Vision tests need beyond the package (see `ExternalTool`).
extension ExternalTool {
    /// zxing-cpp's library, loaded at run time, which draws the scenes' codes and reads them.
    /// `VNDetectBarcodesRequestAbsenceTests` covers the other case.
    static let zxing = libraries("zxing-cpp", packages: "libzxing2 (libzxing-dev to build)", ["libZXing.so.2"])
    /// libtesseract 5 and English's trained data, which Vision's text request reads with.
    /// `VNRecognizeTextRequestAbsenceTests` covers the other case.
    static let tesseract = libraries(
        "Tesseract", packages: "libtesseract5 tesseract-ocr-eng", ["libtesseract.so.5"])
    /// OpenCV's frontal-face cascade, which Vision's face request detects with. A file bound over with `/dev/null`
    /// is empty, so it counts as missing. `VNDetectFaceRectanglesRequestAbsenceTests` covers the other case.
    static let faceCascade = ExternalTool(
        "OpenCV's face cascade", packages: "opencv-data",
        present: ((try? FileManager.default.attributesOfItem(atPath: faceCascadePath)[.size] as? Int) ?? 0) > 0)
    static let faceCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
}
