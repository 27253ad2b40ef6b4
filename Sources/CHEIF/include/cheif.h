// CHEIF: HEIC writing, and reading of pictures and depth, through libheif, loaded at run time.
//
// libheif is optional: a machine without it (or without its HEVC encoder) simply has no HEIC.
// cheif.c opens "libheif.so.1" with dlopen and resolves the few functions it uses with dlsym;
// their declarations follow libheif 1.15's public ABI, so no libheif headers are needed to build.
#ifndef CHEIF_H
#define CHEIF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CHEIF_OK = 0,
    CHEIF_ERR_UNAVAILABLE = 1,  ///< libheif or its HEVC encoder is missing.
    CHEIF_ERR_LIBHEIF = 2,      ///< libheif reported an error; the message says which.
    CHEIF_ERR_ARGUMENT = 3,     ///< The request is inconsistent.
    CHEIF_ERR_MEMORY = 4,       ///< An allocation failed.
    CHEIF_ERR_NO_DEPTH = 5,     ///< The file has no depth image.
    CHEIF_ERR_TOO_LARGE = 6     ///< The primary image declares more pixels than allowed.
};

/// 1 when libheif loads and can encode HEVC; the answer is computed once.
int cheif_hevc_available(void);

/// One more grey image written after the colour image (a depth image or a matte), encoded losslessly.
typedef struct cheif_auxiliary_image {
    const uint8_t *pixels;    ///< 8-bit grey, rows packed.
    int width, height;
    const uint8_t *xmp;       ///< XMP packet attached to the image (may be NULL).
    size_t xmp_length;
} cheif_auxiliary_image;
/// What one HEIC file holds.
typedef struct cheif_encode_request {
    const uint8_t *rgb;       ///< 8-bit interleaved RGB.
    int width, height;
    size_t row_bytes;
    int quality;              ///< 0…100, libheif's lossy quality.
    const uint8_t *icc;       ///< ICC profile for the colour image (may be NULL).
    size_t icc_length;
    const uint8_t *exif;      ///< Exif as a TIFF structure ("MM\0*…"), may be NULL.
    size_t exif_length;
    const uint8_t *depth;     ///< 8-bit grey depth image, may be NULL; encoded losslessly.
    int depth_width, depth_height;
    const uint8_t *depth_xmp; ///< XMP packet attached to the depth image (may be NULL).
    size_t depth_xmp_length;
    const cheif_auxiliary_image *auxiliaries; ///< Further grey images after the depth image (may be NULL).
    int auxiliary_count;
    int orientation;          ///< Exif Orientation (1…8) of the colour image, written as its irot/imir properties.
    const uint8_t *thumbnail; ///< 8-bit interleaved RGB, rows packed (may be NULL): the colour image's thumbnail.
    int thumbnail_width, thumbnail_height;
} cheif_encode_request;

/// Encodes the request as HEIF with HEVC images: the colour image first (the primary item), then
/// the depth image and the further grey images as top-level items, in that order, then the
/// thumbnail, linked to the colour image by a `thmb` reference. On success `*out`
/// is malloc'd (free with cheif_free).
int cheif_encode(const cheif_encode_request *request, uint8_t **out, size_t *out_length, char *message,
                 size_t message_capacity);

/// Decodes the primary image's depth image to 8-bit grey and returns the XMP attached to it
/// (if any). Buffers are malloc'd; free them with cheif_free.
int cheif_decode_depth(const uint8_t *data, size_t length, uint8_t **pixels, int *width, int *height,
                       uint8_t **xmp, size_t *xmp_length, char *message, size_t message_capacity);

/// 1 when libheif loads and can decode HEVC; the answer is computed once.
int cheif_hevc_decodable(void);

/// A decoded primary image and the metadata a photo carries with it. Buffers are malloc'd.
typedef struct cheif_decoded_image {
    uint8_t *rgb;          ///< 8-bit interleaved RGB, width * 3 bytes a row.
    int width, height;     ///< Also set, to the declared size, when the answer is CHEIF_ERR_TOO_LARGE.
    uint8_t *exif;         ///< The 'Exif' item as stored: a 4-byte big-endian offset, then the TIFF structure.
    size_t exif_length;
    uint8_t *icc;          ///< The colour image's ICC profile, if it has one.
    size_t icc_length;
} cheif_decoded_image;

/// Decodes the primary image to 8-bit RGB as stored (its rotation and mirroring properties left to the
/// reader, which finds the same turn in the Exif) with its Exif and ICC profile. An image declaring more than `maximum_pixels` is not decoded (CHEIF_ERR_TOO_LARGE).
int cheif_decode_primary(const uint8_t *data, size_t length, size_t maximum_pixels, cheif_decoded_image *out,
                         char *message, size_t message_capacity);

/// Decodes the primary image's first thumbnail to 8-bit RGB as stored, `*rgb` malloc'd (free with cheif_free);
/// CHEIF_ERR_NO_DEPTH when the image has no thumbnail.
int cheif_decode_thumbnail(const uint8_t *data, size_t length, uint8_t **rgb, int *width, int *height, char *message,
                           size_t message_capacity);

/// Decodes the primary image's auxiliary image whose auxiliary type (its `auxC` URN) is `type` to 8-bit
/// grey, with the XMP attached to it (if any); CHEIF_ERR_NO_DEPTH when there is no such image.
/// Buffers are malloc'd; free them with cheif_free.
int cheif_decode_auxiliary(const uint8_t *data, size_t length, const char *type, uint8_t **pixels, int *width,
                           int *height, uint8_t **xmp, size_t *xmp_length, char *message, size_t message_capacity);
void cheif_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
