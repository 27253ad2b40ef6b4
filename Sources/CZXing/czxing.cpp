// See include/czxing.h. zxing-cpp is a C++ library without a C interface, and the package must build and
// run where it is missing, so the library is never linked: its headers supply the types (classes whose
// members are all inline), and the three functions defined in the library are found with dlsym in the
// library that dlopen loads. Those three are called through plain function pointers with `this` as the
// first argument, which is how the Itanium C++ ABI (every Linux target) passes it to a member function.
#include "czxing.h"

// Result::text() returns UTF-8 with this defined (zxing-cpp 1.4 warns without it).
#define ZX_USE_UTF8 1

#include <stdlib.h>
#include <string.h>

#if __has_include(<ZXing/ReadBarcode.h>) && __has_include(<ZXing/MultiFormatWriter.h>)
#define CZXING_HEADERS 1
#endif

#ifdef CZXING_HEADERS

#include <ZXing/BitMatrix.h>
#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <dlfcn.h>
#include <pthread.h>

#include <exception>
#include <string>
#include <vector>

namespace {

// The library's file name: Debian's libzxing2 (zxing-cpp 1.4) installs it as libZXing.so.2.
const char *const libraryNames[] = {"libZXing.so.2", "libZXing.so.1", "libZXing.so.3"};

using EncodeFunction = ZXing::BitMatrix (*)(const ZXing::MultiFormatWriter *, const std::string &, int, int);
using ReadFunction = ZXing::Results (*)(const ZXing::ImageView &, const ZXing::DecodeHints &);
using TextFunction = std::string (*)(const ZXing::Result *);
using BytesFunction = const ZXing::ByteArray &(*)(const ZXing::Result *);

struct Library {
    EncodeFunction encode = nullptr;
    ReadFunction read = nullptr;
    TextFunction text = nullptr;
    /// Optional: without it results carry no bytes.
    BytesFunction bytes = nullptr;
};

Library library;
pthread_once_t once = PTHREAD_ONCE_INIT;

void load() {
    void *handle = nullptr;
    for (const char *name : libraryNames) {
        if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!handle) return;
    // The mangled names of MultiFormatWriter::encode(const std::string&, int, int) const,
    // ReadBarcodes(const ImageView&, const DecodeHints&), Result::utf8() const and Result::bytes() const.
    void *encode = dlsym(handle,
                         "_ZNK5ZXing17MultiFormatWriter6encodeE"
                         "RKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEii");
    void *read = dlsym(handle, "_ZN5ZXing12ReadBarcodesERKNS_9ImageViewERKNS_11DecodeHintsE");
    void *text = dlsym(handle, "_ZNK5ZXing6Result4utf8B5cxx11Ev");
    if (!encode || !read || !text) {
        dlclose(handle);
        return;
    }
    library.encode = reinterpret_cast<EncodeFunction>(encode);
    library.read = reinterpret_cast<ReadFunction>(read);
    library.text = reinterpret_cast<TextFunction>(text);
    library.bytes = reinterpret_cast<BytesFunction>(dlsym(handle, "_ZNK5ZXing6Result5bytesEv"));
}

bool loaded() {
    pthread_once(&once, load);
    return library.encode != nullptr;
}

struct Pair {
    int ours;
    ZXing::BarcodeFormat theirs;
};

const Pair pairs[] = {
    {CZXING_QR, ZXing::BarcodeFormat::QRCode},       {CZXING_EAN13, ZXing::BarcodeFormat::EAN13},
    {CZXING_EAN8, ZXing::BarcodeFormat::EAN8},       {CZXING_CODE128, ZXing::BarcodeFormat::Code128},
    {CZXING_CODE39, ZXing::BarcodeFormat::Code39},   {CZXING_CODE93, ZXing::BarcodeFormat::Code93},
    {CZXING_PDF417, ZXing::BarcodeFormat::PDF417},   {CZXING_AZTEC, ZXing::BarcodeFormat::Aztec},
    {CZXING_DATAMATRIX, ZXing::BarcodeFormat::DataMatrix}, {CZXING_UPCE, ZXing::BarcodeFormat::UPCE},
    {CZXING_ITF, ZXing::BarcodeFormat::ITF},         {CZXING_UPCA, ZXing::BarcodeFormat::UPCA},
    {CZXING_CODABAR, ZXing::BarcodeFormat::Codabar}, {CZXING_DATABAR, ZXing::BarcodeFormat::DataBar},
    {CZXING_DATABAR_EXPANDED, ZXing::BarcodeFormat::DataBarExpanded},
    {CZXING_MICRO_QR, ZXing::BarcodeFormat::MicroQRCode},
};

void write_error(char *error, size_t size, const char *message) {
    if (error && size > 0) {
        strncpy(error, message, size - 1);
        error[size - 1] = 0;
    }
}

}  // namespace

extern "C" int czxing_available(void) { return loaded() ? 1 : 0; }

namespace {

/// Draws `text` (UTF-8) with a configured writer into a module array, as czxing_encode describes.
int draw(const ZXing::MultiFormatWriter &writer, const std::string &text, uint8_t **modules, int *width,
         int *height, char *error, size_t error_size) {
    try {
        // A size of zero asks for the smallest drawing: one element per module.
        ZXing::BitMatrix matrix = library.encode(&writer, text, 0, 0);
        int w = matrix.width(), h = matrix.height();
        if (w <= 0 || h <= 0) {
            write_error(error, error_size, "zxing-cpp drew an empty symbol");
            return -1;
        }
        uint8_t *out = static_cast<uint8_t *>(malloc(static_cast<size_t>(w) * h));
        if (!out) {
            write_error(error, error_size, "out of memory");
            return -1;
        }
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) out[y * w + x] = matrix.get(x, y) ? 1 : 0;
        }
        *modules = out;
        *width = w;
        *height = h;
        return 0;
    } catch (const std::exception &e) {
        write_error(error, error_size, e.what());
    } catch (...) {
        write_error(error, error_size, "zxing-cpp could not draw the symbol");
    }
    return -1;
}

}  // namespace

extern "C" int czxing_encode(const char *text, int symbology, int margin, uint8_t **modules, int *width,
                             int *height, char *error, size_t error_size) {
    if (!loaded()) {
        write_error(error, error_size, "zxing-cpp is not available");
        return -1;
    }
    const Pair *pair = nullptr;
    for (const Pair &p : pairs) {
        if (p.ours == symbology && symbology != CZXING_UPCA) pair = &p;
    }
    if (!pair) {
        write_error(error, error_size, "unknown symbology");
        return -1;
    }
    ZXing::MultiFormatWriter writer(pair->theirs);
    writer.setMargin(margin);
    writer.setEncoding(ZXing::CharacterSet::UTF8);
    return draw(writer, std::string(text), modules, width, height, error, error_size);
}

extern "C" int czxing_encode_bytes(const uint8_t *bytes, size_t count, int symbology, int ecc_level, int margin,
                                  uint8_t **modules, int *width, int *height, char *error, size_t error_size) {
    if (!loaded()) {
        write_error(error, error_size, "zxing-cpp is not available");
        return -1;
    }
    const Pair *pair = nullptr;
    for (const Pair &p : pairs) {
        bool byteCapable = symbology == CZXING_QR || symbology == CZXING_AZTEC || symbology == CZXING_PDF417 ||
                           symbology == CZXING_CODE128;
        if (p.ours == symbology && byteCapable) pair = &p;
    }
    if (!pair) {
        write_error(error, error_size, "symbology not drawn from bytes");
        return -1;
    }
    if (ecc_level < -1 || ecc_level > 8) {
        write_error(error, error_size, "error correction level outside 0-8");
        return -1;
    }
    // The writer takes text: each byte becomes the character of that code in ISO 8859-1, written as UTF-8, and
    // the ISO 8859-1 encoding turns each character back into its one byte.
    std::string text;
    text.reserve(2 * count);
    for (size_t i = 0; i < count; i++) {
        uint8_t b = bytes[i];
        if (b < 0x80) {
            text.push_back(static_cast<char>(b));
        } else {
            text.push_back(static_cast<char>(0xC0 | (b >> 6)));
            text.push_back(static_cast<char>(0x80 | (b & 0x3F)));
        }
    }
    ZXing::MultiFormatWriter writer(pair->theirs);
    writer.setMargin(margin);
    writer.setEncoding(ZXing::CharacterSet::ISO8859_1);
    if (ecc_level >= 0) writer.setEccLevel(ecc_level);
    return draw(writer, text, modules, width, height, error, error_size);
}

extern "C" int czxing_encode_qr_bytes(const uint8_t *bytes, size_t count, int level, int margin, uint8_t **modules,
                                      int *width, int *height, char *error, size_t error_size) {
    if (level < 0 || level > 3) {
        write_error(error, error_size, "unknown error correction level");
        return -1;
    }
    // zxing-cpp 1.4 reads its 0–8 scale for QR codes as (level − 1) / 2: 1 is L, 3 M, 5 Q and 7 H.
    return czxing_encode_bytes(bytes, count, CZXING_QR, 2 * level + 1, margin, modules, width, height, error,
                               error_size);
}

extern "C" int czxing_read(const uint8_t *luma, int width, int height, int row_stride, int symbologies,
                           czxing_result **results) {
    *results = nullptr;
    if (!loaded()) return -1;
    int theirs = 0;
    for (const Pair &p : pairs) {
        if (symbologies & p.ours) theirs |= static_cast<int>(p.theirs);
    }
    if (theirs == 0) return 0;
    try {
        ZXing::ImageView image(luma, width, height, ZXing::ImageFormat::Lum, row_stride);
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(theirs)));
        hints.setTryHarder(true);
        ZXing::Results found = library.read(image, hints);
        std::vector<czxing_result> out;
        for (const ZXing::Result &r : found) {
            if (!r.isValid()) continue;
            int ours = 0;
            for (const Pair &p : pairs) {
                if (p.theirs == r.format()) ours = p.ours;
            }
            if (ours == 0) continue;
            std::string text = library.text(&r);
            czxing_result item;
            item.symbology = ours;
            item.text = strdup(text.c_str());
            item.bytes = nullptr;
            item.byte_count = 0;
            if (library.bytes) {
                const ZXing::ByteArray &bytes = library.bytes(&r);
                if (!bytes.empty() && (item.bytes = static_cast<uint8_t *>(malloc(bytes.size())))) {
                    memcpy(item.bytes, bytes.data(), bytes.size());
                    item.byte_count = static_cast<int>(bytes.size());
                }
            }
            const ZXing::Position &q = r.position();
            ZXing::PointI corners[4] = {q.topLeft(), q.topRight(), q.bottomRight(), q.bottomLeft()};
            for (int i = 0; i < 4; i++) {
                item.corners[2 * i] = corners[i].x;
                item.corners[2 * i + 1] = corners[i].y;
            }
            out.push_back(item);
        }
        if (out.empty()) return 0;
        czxing_result *list = static_cast<czxing_result *>(malloc(sizeof(czxing_result) * out.size()));
        if (!list) {
            for (czxing_result &item : out) {
                free(item.text);
                free(item.bytes);
            }
            return 0;
        }
        memcpy(list, out.data(), sizeof(czxing_result) * out.size());
        *results = list;
        return static_cast<int>(out.size());
    } catch (...) {
        return 0;
    }
}

#else  // no zxing-cpp headers at build time: nothing is drawn or read

extern "C" int czxing_available(void) { return 0; }

extern "C" int czxing_encode(const char *text, int symbology, int margin, uint8_t **modules, int *width,
                             int *height, char *error, size_t error_size) {
    (void)text, (void)symbology, (void)margin, (void)modules, (void)width, (void)height;
    if (error && error_size > 0) {
        strncpy(error, "zxing-cpp was not found when this program was built", error_size - 1);
        error[error_size - 1] = 0;
    }
    return -1;
}

extern "C" int czxing_encode_qr_bytes(const uint8_t *bytes, size_t count, int level, int margin, uint8_t **modules,
                                      int *width, int *height, char *error, size_t error_size) {
    (void)bytes, (void)count, (void)level;
    return czxing_encode("", CZXING_QR, margin, modules, width, height, error, error_size);
}

extern "C" int czxing_encode_bytes(const uint8_t *bytes, size_t count, int symbology, int ecc_level, int margin,
                                  uint8_t **modules, int *width, int *height, char *error, size_t error_size) {
    (void)bytes, (void)count, (void)ecc_level;
    return czxing_encode("", symbology, margin, modules, width, height, error, error_size);
}

extern "C" int czxing_read(const uint8_t *luma, int width, int height, int row_stride, int symbologies,
                           czxing_result **results) {
    (void)luma, (void)width, (void)height, (void)row_stride, (void)symbologies;
    *results = nullptr;
    return -1;
}

#endif

extern "C" void czxing_free(void *pointer) { free(pointer); }

extern "C" void czxing_free_results(czxing_result *results, int count) {
    if (!results) return;
    for (int i = 0; i < count; i++) {
        free(results[i].text);
        free(results[i].bytes);
    }
    free(results);
}
