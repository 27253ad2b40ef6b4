// zxing-cpp behind a C interface, loaded at run time (dlopen): barcodes are drawn and read only where
// the library and its headers were found. Without them every call reports "unavailable" and the
// package builds and runs as before.
#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The symbologies drawn and read, as bits of one mask.
enum {
    CZXING_QR = 1 << 0,
    CZXING_EAN13 = 1 << 1,
    CZXING_EAN8 = 1 << 2,
    CZXING_CODE128 = 1 << 3,
    CZXING_CODE39 = 1 << 4,
    CZXING_CODE93 = 1 << 5,
    CZXING_PDF417 = 1 << 6,
    CZXING_AZTEC = 1 << 7,
    CZXING_DATAMATRIX = 1 << 8,
    CZXING_UPCE = 1 << 9,
    CZXING_ITF = 1 << 10,
    /// Read only: UPC-A, which readers report as EAN-13 with a leading zero.
    CZXING_UPCA = 1 << 11,
    CZXING_CODABAR = 1 << 12,
    /// Read only (zxing-cpp draws none of these three): GS1 DataBar, DataBar Expanded and Micro QR.
    CZXING_DATABAR = 1 << 13,
    CZXING_DATABAR_EXPANDED = 1 << 14,
    CZXING_MICRO_QR = 1 << 15,
};

/// 1 when zxing-cpp was found at build time and its library loads now; 0 otherwise.
int czxing_available(void);

/// Draws `text` (UTF-8) as one symbology, one element per module, with a quiet zone of `margin`
/// modules on each side. On success returns 0 and sets `*modules` (row-major, 1 = dark; free with
/// czxing_free), `*width` and `*height` (1 for linear codes). On failure returns -1 and writes the
/// reason into `error`.
int czxing_encode(const char *text, int symbology, int margin, uint8_t **modules, int *width, int *height,
                  char *error, size_t error_size);

/// Draws `count` bytes as a QR code, the bytes written as they are (byte mode in ISO 8859-1, QR's default, so
/// no ECI header), at error correction level `level` (0 L, 1 M, 2 Q, 3 H), with a quiet zone of `margin` modules.
/// Returns and sets as czxing_encode does.
int czxing_encode_qr_bytes(const uint8_t *bytes, size_t count, int level, int margin, uint8_t **modules,
                           int *width, int *height, char *error, size_t error_size);

/// Draws `count` bytes as a QR code, Aztec code, PDF417 or Code 128 symbol, the bytes written as they are (each
/// byte the ISO 8859-1 character of that code), with error correction `ecc_level` on zxing-cpp's 0–8 scale (-1 for
/// the writer's default; Code 128 has none) and a quiet zone of `margin` modules (a linear code's only at its ends).
/// Returns and sets as czxing_encode does.
int czxing_encode_bytes(const uint8_t *bytes, size_t count, int symbology, int ecc_level, int margin,
                        uint8_t **modules, int *width, int *height, char *error, size_t error_size);

/// One code found in an image.
typedef struct {
    int symbology;
    /// UTF-8, NUL-terminated; owned by the result list.
    char *text;
    /// x, y of the top-left, top-right, bottom-right and bottom-left corners as printed, in pixels.
    double corners[8];
    /// The payload's bytes as the symbol encodes them, before any character set conversion (owned by the
    /// result list), or NULL with `byte_count` 0 where the library does not export them.
    uint8_t *bytes;
    int byte_count;
} czxing_result;

/// Reads every code of the symbologies in `symbologies` from an 8-bit luma image. Returns the number
/// found (0 or more) and sets `*results` (free with czxing_free_results), or -1 when unavailable.
int czxing_read(const uint8_t *luma, int width, int height, int row_stride, int symbologies,
                czxing_result **results);

void czxing_free(void *pointer);
void czxing_free_results(czxing_result *results, int count);

#ifdef __cplusplus
}
#endif

#endif
