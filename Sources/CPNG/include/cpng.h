// CPNG: a small memory-to-memory PNG codec over libpng 1.6.
//
// libpng reports errors with longjmp. Every setjmp lives inside cpng.c, so no longjmp ever crosses a Swift frame:
// each entry point returns a CPNG_* code and fills a caller-supplied message buffer instead.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes. CPNG_OK is success; anything else comes with a message.
enum {
    CPNG_OK = 0,
    CPNG_ERR_FORMAT = 1,     ///< libpng rejected the data (CRC, zlib, chunk layout, truncation, ...).
    CPNG_ERR_SIGNATURE = 2,  ///< The data does not start with the 8-byte PNG signature.
    CPNG_ERR_LIMIT = 3,      ///< A declared size exceeds CPNG_MAX_DIMENSION or CPNG_MAX_PIXELS.
    CPNG_ERR_MEMORY = 4,     ///< An allocation failed.
    CPNG_ERR_ARGUMENT = 5    ///< The encode request is inconsistent.
};

/// Largest width or height accepted when decoding, in pixels.
#define CPNG_MAX_DIMENSION 65535u
/// Largest width × height accepted when decoding: 2^27 pixels (1 GiB as 16-bit RGBA).
#define CPNG_MAX_PIXELS (((uint64_t)1) << 27)
/// Largest ancillary chunk (iCCP, zTXt, iTXt, ...) libpng may allocate when decoding, in bytes.
#define CPNG_MAX_CHUNK_BYTES (16u * 1024u * 1024u)
/// Largest number of ancillary chunks kept when decoding.
#define CPNG_MAX_CACHED_CHUNKS 1000u

/// One text chunk. `value` is Latin-1 for tEXt/zTXt and UTF-8 for iTXt; `key` is always Latin-1.
typedef struct cpng_text {
    const char *key;
    const char *value;
    size_t value_length;
    int is_utf8;
} cpng_text;

/// What a decoded image holds. Pointers stay valid until cpng_decoded_free.
typedef struct cpng_info {
    uint32_t width;
    uint32_t height;
    int bit_depth;   ///< 8 or 16 (lower depths and palettes are expanded to 8).
    int channels;    ///< 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    size_t row_bytes;
    const uint8_t *pixels;  ///< Rows top to bottom; 16-bit samples are big-endian, as in the file.

    int has_srgb;
    int srgb_intent;
    int has_gamma;
    uint32_t gamma_fixed;  ///< gAMA × 100000.
    int has_chromaticities;
    int32_t chromaticities_fixed[8];  ///< white x, y, red x, y, green x, y, blue x, y, each × 100000.
    const uint8_t *icc_profile;
    size_t icc_length;
    const char *icc_name;
    int text_count;
} cpng_info;

/// The colour chunks and text to write with an image.
typedef struct cpng_encode_request {
    uint32_t width;
    uint32_t height;
    int bit_depth;  ///< 8 or 16.
    int channels;   ///< 1...4.
    const uint8_t *pixels;  ///< 16-bit samples big-endian.
    size_t row_bytes;

    int write_srgb;  ///< sRGB chunk plus the gAMA and cHRM fallbacks (PNG spec §11.3.3.5).
    int write_gamma;
    uint32_t gamma_fixed;
    int write_chromaticities;
    int32_t chromaticities_fixed[8];
    const uint8_t *icc_profile;  ///< NULL for no iCCP chunk.
    size_t icc_length;
    const char *icc_name;
    const cpng_text *texts;
    int text_count;
    /// zlib level 0...9, or -1 for libpng's default. Level 1 is the fast photo path: fixed Sub/Average filters and
    /// literal-only Huffman blocks in parallel bands (zlib's level 1 only where a band is very redundant).
    int compression_level;
    /// Threads for the banded image data (see cpng.c), 0 for one per online core. The bytes do not depend on it.
    int threads;
} cpng_encode_request;

typedef struct cpng_decoded cpng_decoded;

/// Decodes a PNG held in memory. On success *out must be released with cpng_decoded_free.
int cpng_decode(const uint8_t *data, size_t length, cpng_decoded **out, char *message, size_t message_capacity);
/// Fills `info` from a decoded image.
void cpng_decoded_info(const cpng_decoded *decoded, cpng_info *info);
/// Reads text entry `index` (0 ..< info.text_count). Returns CPNG_OK or CPNG_ERR_ARGUMENT.
int cpng_decoded_text(const cpng_decoded *decoded, int index, cpng_text *text);
/// Releases a decoded image and everything its info pointed at.
void cpng_decoded_free(cpng_decoded *decoded);

/// Encodes an image into a malloc'd buffer, released with cpng_free.
int cpng_encode(const cpng_encode_request *request, uint8_t **out, size_t *out_length, char *message,
                size_t message_capacity);
/// Releases a buffer returned by cpng_encode.
void cpng_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
