// CJPEG: a small memory-to-memory JPEG codec over libjpeg-turbo.
//
// libjpeg reports errors through an error manager that must not return; cjpeg.c longjmps back to
// its own entry point, so no longjmp crosses a Swift frame. Each function returns a CJPEG_* code
// and fills a caller-supplied message buffer.
#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CJPEG_OK = 0,
    CJPEG_ERR_LIBJPEG = 1,   ///< libjpeg rejected the data or the request.
    CJPEG_ERR_ARGUMENT = 2,  ///< The request is inconsistent.
    CJPEG_ERR_MEMORY = 3     ///< An allocation failed.
};

/// One application segment written after SOI, in the order given: marker is 0xE0 + n for APPn.
typedef struct cjpeg_segment {
    int marker;
    const uint8_t *data;
    size_t length;
} cjpeg_segment;

/// Encodes 8-bit interleaved samples (components 1 = grey, 3 = RGB) as a baseline JPEG with 4:2:0
/// chroma for colour. `icc` (may be NULL) is written as ICC_PROFILE APP2 segments after `segments`.
/// On success `*out` is a malloc'd buffer the caller frees with cjpeg_free.
int cjpeg_encode(const uint8_t *pixels, int width, int height, int components, size_t row_bytes, int quality,
                 const cjpeg_segment *segments, int segment_count, const uint8_t *icc, size_t icc_length,
                 uint8_t **out, size_t *out_length, char *message, size_t message_capacity);

/// Decodes a JPEG to 8-bit grey samples (colour images are converted to luma). On success
/// `*out` holds width × height bytes, malloc'd; free it with cjpeg_free.
int cjpeg_decode_grey(const uint8_t *data, size_t length, uint8_t **out, int *width, int *height,
                      char *message, size_t message_capacity);

/// Decodes a JPEG to 8-bit interleaved RGB (grey images are expanded). On success `*out` holds
/// width × height × 3 bytes, malloc'd; free it with cjpeg_free.
int cjpeg_decode_rgb(const uint8_t *data, size_t length, uint8_t **out, int *width, int *height,
                     char *message, size_t message_capacity);

void cjpeg_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
