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
}
