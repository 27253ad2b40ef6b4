// Memory-to-memory PNG decode and encode over libpng 1.6.
//
// All libpng state lives in heap structs reached through a pointer that is never modified after setjmp, so the
// longjmp back into the entry point sees consistent values (C11 §7.13.2.1 on automatic variables and longjmp).
#include "cpng.h"

#include <png.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "huffman_block.h"

// Shared by decode and encode: where libpng's errors are written.
typedef struct cpng_error_sink {
    char *message;
    size_t capacity;
    int code;  // 0 until the first error; the first error wins.
    char warning[160];  // libpng's first warning, which often explains a terse error ("Invalid IHDR data").
} cpng_error_sink;

struct cpng_decoded {
    cpng_error_sink sink;
    png_structp png;
    png_infop info;
    const uint8_t *source;
    size_t source_length;
    size_t position;
    uint8_t *pixels;
    png_bytep *rows;
    cpng_info summary;
    png_textp texts;
    int text_count;
};

typedef struct cpng_encoder {
    cpng_error_sink sink;
    png_structp png;
    png_infop info;
    uint8_t *output;
    size_t length;
    size_t capacity;
    png_bytep *rows;
    png_textp texts;
} cpng_encoder;

static int output_reserve(cpng_encoder *encoder, size_t extra);

static void sink_set(cpng_error_sink *sink, int code, const char *format, ...) {
    if (sink->code != 0) return;
    sink->code = code;
    if (sink->message != NULL && sink->capacity > 0) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(sink->message, sink->capacity, format, arguments);
        va_end(arguments);
    }
}

static void on_error(png_structp png, png_const_charp text) {
    cpng_error_sink *sink = (cpng_error_sink *)png_get_error_ptr(png);
    if (sink != NULL) {
        const char *what = text != NULL ? text : "libpng error";
        if (sink->warning[0] != '\0') {
            sink_set(sink, CPNG_ERR_FORMAT, "%s (after: %s)", what, sink->warning);
        } else {
            sink_set(sink, CPNG_ERR_FORMAT, "%s", what);
        }
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    // Warnings (for example an ancillary chunk with a bad CRC, which libpng skips) are not failures; the first
    // one is kept to explain a later error.
    cpng_error_sink *sink = (cpng_error_sink *)png_get_error_ptr(png);
    if (sink != NULL && sink->warning[0] == '\0' && text != NULL) {
        snprintf(sink->warning, sizeof sink->warning, "%s", text);
    }
}

static uint32_t read_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

// Checks the declared size in IHDR, which the PNG spec (§5.6) requires to be the first chunk, before libpng
// sees it: a clear message, and no chance of any allocation sized by a hostile header.
static int check_declared_size(const uint8_t *data, size_t length, cpng_error_sink *sink) {
    if (length < 8 + 8 + 8 || memcmp(data + 12, "IHDR", 4) != 0) return CPNG_OK;  // libpng reports the layout
    uint32_t width = read_be32(data + 16);
    uint32_t height = read_be32(data + 20);
    if (width == 0 || height == 0) {
        sink_set(sink, CPNG_ERR_FORMAT, "IHDR declares an empty %ux%u image", width, height);
        return CPNG_ERR_FORMAT;
    }
    if (width > CPNG_MAX_DIMENSION || height > CPNG_MAX_DIMENSION) {
        sink_set(sink, CPNG_ERR_LIMIT, "IHDR declares %ux%u; the limit is %u pixels a side", width, height,
                 CPNG_MAX_DIMENSION);
        return CPNG_ERR_LIMIT;
    }
    if ((uint64_t)width * (uint64_t)height > CPNG_MAX_PIXELS) {
        sink_set(sink, CPNG_ERR_LIMIT, "IHDR declares %ux%u, more than the limit of %llu pixels", width, height,
                 (unsigned long long)CPNG_MAX_PIXELS);
        return CPNG_ERR_LIMIT;
    }
    return CPNG_OK;
}

// Walks the chunk headers before libpng sees them. libpng 1.6.39 allocates (and clears) a text chunk's declared
// length before reading its data and before applying the chunk allocation limit, so a 200-byte file declaring a
// 2 GB iTXt chunk would cost 2 GB. A chunk longer than the bytes left is truncated data; an ancillary chunk over
// CPNG_MAX_CHUNK_BYTES is over the limit. Image data (IDAT) may be any length the file holds.
static int check_chunk_lengths(const uint8_t *data, size_t length, cpng_error_sink *sink) {
    size_t position = 8;
    while (length - position >= 8) {
        uint32_t declared = read_be32(data + position);
        const uint8_t *type = data + position + 4;
        size_t left = length - position - 8;
        if (declared > left || left - declared < 4) {
            sink_set(sink, CPNG_ERR_FORMAT,
                     "truncated data: chunk '%.4s' at offset %zu declares %u bytes, but only %zu follow its header",
                     (const char *)type, position, declared, left);
            return CPNG_ERR_FORMAT;
        }
        if ((type[0] & 0x20) != 0 && declared > CPNG_MAX_CHUNK_BYTES) {
            sink_set(sink, CPNG_ERR_LIMIT, "chunk '%.4s' at offset %zu declares %u bytes; the limit is %u",
                     (const char *)type, position, declared, CPNG_MAX_CHUNK_BYTES);
            return CPNG_ERR_LIMIT;
        }
        if (memcmp(type, "IEND", 4) == 0) break;
        position += 12 + (size_t)declared;
    }
    return CPNG_OK;
}

// Records our own error, then unwinds through libpng's jump buffer.
static void fail(png_structp png, cpng_error_sink *sink, int code, const char *format, ...) {
    if (sink->code == 0) {
        sink->code = code;
        if (sink->message != NULL && sink->capacity > 0) {
            va_list arguments;
            va_start(arguments, format);
            vsnprintf(sink->message, sink->capacity, format, arguments);
            va_end(arguments);
        }
    }
    png_longjmp(png, 1);
}

// MARK: - Decode

static void read_from_memory(png_structp png, png_bytep destination, size_t count) {
    cpng_decoded *decoded = (cpng_decoded *)png_get_io_ptr(png);
    if (count > decoded->source_length - decoded->position) {
        fail(png, &decoded->sink, CPNG_ERR_FORMAT, "truncated data: needed %zu more bytes at offset %zu of %zu",
             count, decoded->position, decoded->source_length);
    }
    memcpy(destination, decoded->source + decoded->position, count);
    decoded->position += count;
}

void cpng_decoded_free(cpng_decoded *decoded) {
    if (decoded == NULL) return;
    if (decoded->png != NULL) png_destroy_read_struct(&decoded->png, &decoded->info, NULL);
    free(decoded->rows);
    free(decoded->pixels);
    free(decoded);
}

static void collect_metadata(cpng_decoded *decoded) {
    png_structp png = decoded->png;
    png_infop info = decoded->info;
    cpng_info *summary = &decoded->summary;

    int intent = 0;
    if (png_get_valid(png, info, PNG_INFO_sRGB) && png_get_sRGB(png, info, &intent)) {
        summary->has_srgb = 1;
        summary->srgb_intent = intent;
    }
    png_fixed_point gamma = 0;
    if (png_get_valid(png, info, PNG_INFO_gAMA) && png_get_gAMA_fixed(png, info, &gamma) && gamma > 0) {
        summary->has_gamma = 1;
        summary->gamma_fixed = (uint32_t)gamma;
    }
    png_fixed_point c[8] = {0};
    if (png_get_valid(png, info, PNG_INFO_cHRM) &&
        png_get_cHRM_fixed(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7])) {
        summary->has_chromaticities = 1;
        for (int i = 0; i < 8; i++) summary->chromaticities_fixed[i] = (int32_t)c[i];
    }
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_length = 0;
    if (png_get_valid(png, info, PNG_INFO_iCCP) &&
        png_get_iCCP(png, info, &name, &compression, &profile, &profile_length)) {
        summary->icc_profile = profile;
        summary->icc_length = profile_length;
        summary->icc_name = name;
    }
    png_textp texts = NULL;
    int count = 0;
    png_get_text(png, info, &texts, &count);
    decoded->texts = texts;
    decoded->text_count = count;
    summary->text_count = count;
}

int cpng_decode(const uint8_t *data, size_t length, cpng_decoded **out, char *message, size_t message_capacity) {
    if (message != NULL && message_capacity > 0) message[0] = '\0';
    if (out == NULL) return CPNG_ERR_ARGUMENT;
    *out = NULL;
    if (data == NULL || length < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        cpng_error_sink sink = {message, message_capacity, 0, {0}};
        sink_set(&sink, CPNG_ERR_SIGNATURE, length < 8 ? "not a PNG: only %zu bytes, shorter than the signature"
                                                       : "not a PNG: the 8-byte signature does not match",
                 length);
        return CPNG_ERR_SIGNATURE;
    }
    {
        cpng_error_sink sink = {message, message_capacity, 0, {0}};
        int declared = check_declared_size(data, length, &sink);
        if (declared != CPNG_OK) return declared;
        int chunks = check_chunk_lengths(data, length, &sink);
        if (chunks != CPNG_OK) return chunks;
    }
    cpng_decoded *const decoded = calloc(1, sizeof *decoded);
    if (decoded == NULL) return CPNG_ERR_MEMORY;
    decoded->sink.message = message;
    decoded->sink.capacity = message_capacity;
    decoded->source = data;
    decoded->source_length = length;

    decoded->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoded->sink, on_error, on_warning);
    if (decoded->png != NULL) decoded->info = png_create_info_struct(decoded->png);
    if (decoded->png == NULL || decoded->info == NULL) {
        cpng_decoded_free(decoded);
        cpng_error_sink sink = {message, message_capacity, 0, {0}};
        sink_set(&sink, CPNG_ERR_MEMORY, "out of memory creating the PNG reader");
        return CPNG_ERR_MEMORY;
    }
    if (setjmp(png_jmpbuf(decoded->png))) {
        int code = decoded->sink.code != 0 ? decoded->sink.code : CPNG_ERR_FORMAT;
        cpng_decoded_free(decoded);
        return code;
    }
    png_structp png = decoded->png;
    png_infop info = decoded->info;
    png_set_read_fn(png, decoded, read_from_memory);
    png_set_user_limits(png, CPNG_MAX_DIMENSION, CPNG_MAX_DIMENSION);
    png_set_chunk_cache_max(png, CPNG_MAX_CACHED_CHUNKS);
    png_set_chunk_malloc_max(png, CPNG_MAX_CHUNK_BYTES);

    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if (width == 0 || height == 0) fail(png, &decoded->sink, CPNG_ERR_FORMAT, "image is %ux%u", width, height);
    // The cap is checked before any pixel memory exists.
    if ((uint64_t)width * (uint64_t)height > CPNG_MAX_PIXELS) {
        fail(png, &decoded->sink, CPNG_ERR_LIMIT, "image is %ux%u, more than the limit of %llu pixels", width,
             height, (unsigned long long)CPNG_MAX_PIXELS);
    }

    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes == 0 || (size_t)height > SIZE_MAX / row_bytes) {
        fail(png, &decoded->sink, CPNG_ERR_LIMIT, "image rows of %zu bytes do not fit in memory", row_bytes);
    }
    decoded->pixels = malloc(row_bytes * (size_t)height);
    decoded->rows = malloc(sizeof(png_bytep) * (size_t)height);
    if (decoded->pixels == NULL || decoded->rows == NULL) {
        fail(png, &decoded->sink, CPNG_ERR_MEMORY, "out of memory for a %ux%u image", width, height);
    }
    for (png_uint_32 y = 0; y < height; y++) decoded->rows[y] = decoded->pixels + (size_t)y * row_bytes;
    png_read_image(png, decoded->rows);
    png_read_end(png, info);

    cpng_info *summary = &decoded->summary;
    summary->width = width;
    summary->height = height;
    summary->bit_depth = png_get_bit_depth(png, info);
    summary->channels = png_get_channels(png, info);
    summary->row_bytes = row_bytes;
    summary->pixels = decoded->pixels;
    if (summary->bit_depth != 8 && summary->bit_depth != 16) {
        fail(png, &decoded->sink, CPNG_ERR_FORMAT, "unsupported bit depth %d after expansion", summary->bit_depth);
    }
    collect_metadata(decoded);
    *out = decoded;
    return CPNG_OK;
}

void cpng_decoded_info(const cpng_decoded *decoded, cpng_info *info) {
    if (decoded == NULL || info == NULL) return;
    *info = decoded->summary;
}

int cpng_decoded_text(const cpng_decoded *decoded, int index, cpng_text *text) {
    if (decoded == NULL || text == NULL || index < 0 || index >= decoded->text_count) return CPNG_ERR_ARGUMENT;
    png_const_textp entry = &decoded->texts[index];
    text->key = entry->key;
    text->value = entry->text != NULL ? entry->text : "";
    int utf8 = entry->compression == PNG_ITXT_COMPRESSION_NONE || entry->compression == PNG_ITXT_COMPRESSION_zTXt;
    text->is_utf8 = utf8;
    text->value_length = entry->text == NULL ? 0 : (utf8 ? entry->itxt_length : entry->text_length);
    return CPNG_OK;
}

// MARK: - Encode

static void write_to_memory(png_structp png, png_bytep source, size_t count) {
    cpng_encoder *encoder = (cpng_encoder *)png_get_io_ptr(png);
    if (output_reserve(encoder, count) != 0) {
        fail(png, &encoder->sink, CPNG_ERR_MEMORY, "out of memory growing the output");
    }
    memcpy(encoder->output + encoder->length, source, count);
    encoder->length += count;
}

static void flush_memory(png_structp png) { (void)png; }

static void encoder_release(cpng_encoder *encoder, int keep_output) {
    if (encoder->png != NULL) png_destroy_write_struct(&encoder->png, &encoder->info);
    free(encoder->rows);
    free(encoder->texts);
    if (!keep_output) free(encoder->output);
    free(encoder);
}

static int check_request(const cpng_encode_request *request, cpng_error_sink *sink) {
    if (request->width == 0 || request->height == 0 || request->width > PNG_UINT_31_MAX ||
        request->height > PNG_UINT_31_MAX) {
        sink_set(sink, CPNG_ERR_ARGUMENT, "cannot encode a %ux%u image", request->width, request->height);
        return CPNG_ERR_ARGUMENT;
    }
    if (request->bit_depth != 8 && request->bit_depth != 16) {
        sink_set(sink, CPNG_ERR_ARGUMENT, "bit depth %d is not 8 or 16", request->bit_depth);
        return CPNG_ERR_ARGUMENT;
    }
    if (request->channels < 1 || request->channels > 4) {
        sink_set(sink, CPNG_ERR_ARGUMENT, "%d channels; PNG holds 1 to 4", request->channels);
        return CPNG_ERR_ARGUMENT;
    }
    size_t minimum = (size_t)request->width * (size_t)request->channels * (size_t)(request->bit_depth / 8);
    if (request->pixels == NULL || request->row_bytes < minimum) {
        sink_set(sink, CPNG_ERR_ARGUMENT, "rows of %zu bytes are shorter than the %zu an image row needs",
                 request->row_bytes, minimum);
        return CPNG_ERR_ARGUMENT;
    }
    if (request->text_count < 0 || (request->text_count > 0 && request->texts == NULL)) {
        sink_set(sink, CPNG_ERR_ARGUMENT, "text list is inconsistent");
        return CPNG_ERR_ARGUMENT;
    }
    return CPNG_OK;
}

// MARK: - Image data in bands

// Large images, and every image at level 1, skip libpng's single-threaded row writer: rows are cut into bands of a
// fixed height, each band is filtered and compressed on its own into a raw deflate stream that ends on a byte
// boundary, and the streams are concatenated behind one zlib header, with the Adler-32 of the whole filtered data
// combined from the bands' (RFC 1950 §2.2; adler32_combine). Each band's stream becomes one IDAT chunk whose CRC-32
// is computed in the band's thread too (crc32_combine joins it to the chunk type and the zlib header or trailer).
// A band's back-references stay inside the band, which costs a little compression. The bands are fixed by the
// image alone and the threads only choose which band to do next, so the bytes never depend on the number of cores.
//
// Level 1 is tuned for photos. Every row but the image's first takes the Average filter, the first Sub (PNG spec
// §9.2): on a 12 MP camera photo coded as literals, Average gave the smallest output of the four fixed filters
// (18.75 MB, against Sub 19.67, Up 19.81, Paeth 19.94) and costs one vectorised pass. Each band is then coded as
// literals with its own Huffman code (huffman_block.h). Where that code shows the band to be very redundant
// (under CPNG_LZ77_BITS_PER_BYTE bits a byte, as in flat synthetic pictures), or is small, zlib's level 1 is run
// as well and the smaller stream kept, so flat and small pictures stay small. Other levels filter each row with
// libpng's adaptive heuristic and deflate with zlib at that level.
#define CPNG_BAND_ROWS 64u
#ifndef CPNG_PARALLEL_MIN_BYTES
#define CPNG_PARALLEL_MIN_BYTES ((size_t)4 << 20)
#endif
#define CPNG_FAST_LEVEL 1
#define CPNG_LZ77_BITS_PER_BYTE 3
#define CPNG_LZ77_SMALL_BAND ((size_t)1 << 16)
// Largest IDAT chunk written; a longer band stream is split (any split is valid, PNG spec §11.2.4).
#define CPNG_MAX_IDAT ((size_t)1 << 30)

typedef struct cpng_band {
    uint32_t first_row, row_count;
    uint8_t *stream;
    size_t stream_length;
    uLong adler;  // of the band's filtered bytes
    uLong crc;    // of the stream
    size_t raw_length;
    int failed;
} cpng_band;

typedef struct cpng_band_work {
    const cpng_encode_request *request;
    size_t row_length;  // bytes of one unfiltered row
    size_t bpp;         // bytes per complete pixel, at least 1 (PNG spec §9.2)
    int level;
    int fast;           // level 1: fixed filters and literal Huffman blocks
    cpng_band *bands;
    uint32_t band_count;
    uint32_t next;  // next band to take, under the lock
    pthread_mutex_t lock;
} cpng_band_work;

static inline unsigned magnitude(uint8_t v) { return (unsigned)abs((int)(int8_t)v); }

// One row filtered with the type of least sum of |signed byte| (libpng's adaptive heuristic, PNG spec §12.8).
// Each filter has its own branch-free loop, which the compiler vectorises; `prior` is a row of zeros for the
// first row, which makes Up, Average and Paeth reduce to their first-row forms.
static void filter_row(const uint8_t *row, const uint8_t *prior, size_t n, size_t bpp, uint8_t *out,
                       uint8_t *scratch) {
    unsigned long sums[5] = {0, 0, 0, 0, 0};
    uint8_t *f1 = scratch, *f2 = scratch + n, *f3 = scratch + 2 * n, *f4 = scratch + 3 * n;
    for (size_t i = 0; i < n; i++) sums[0] += magnitude(row[i]);
    for (size_t i = 0; i < bpp && i < n; i++) {
        f1[i] = row[i];
        f2[i] = (uint8_t)(row[i] - prior[i]);
        f3[i] = (uint8_t)(row[i] - (prior[i] >> 1));
        f4[i] = (uint8_t)(row[i] - prior[i]);  // Paeth with a = c = 0 predicts b
    }
    for (size_t i = bpp; i < n; i++) f1[i] = (uint8_t)(row[i] - row[i - bpp]);
    for (size_t i = bpp; i < n; i++) f2[i] = (uint8_t)(row[i] - prior[i]);
    for (size_t i = bpp; i < n; i++) f3[i] = (uint8_t)(row[i] - (uint8_t)(((unsigned)row[i - bpp] + prior[i]) >> 1));
    for (size_t i = bpp; i < n; i++) {
        int a = row[i - bpp], b = prior[i], c = prior[i - bpp];
        int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
        int predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
        f4[i] = (uint8_t)(row[i] - predicted);
    }
    for (size_t i = 0; i < n; i++) {
        sums[1] += magnitude(f1[i]);
        sums[2] += magnitude(f2[i]);
        sums[3] += magnitude(f3[i]);
        sums[4] += magnitude(f4[i]);
    }
    int best = 0;
    for (int type = 1; type < 5; type++) {
        if (sums[type] < sums[best]) best = type;
    }
    out[0] = (uint8_t)best;
    memcpy(out + 1, best == 0 ? row : scratch + (size_t)(best - 1) * n, n);
}

// The Sub filter (type 1): each byte less the byte one pixel to its left, 0 left of the row.
static void filter_sub(const uint8_t *restrict row, size_t n, size_t bpp, uint8_t *restrict out) {
    out[0] = 1;
    out++;
    size_t head = bpp < n ? bpp : n;
    for (size_t i = 0; i < head; i++) out[i] = row[i];
    for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
}

// The Average filter (type 3): each byte less the floor of the mean of its left and upper neighbours. The encoder
// reads unfiltered bytes only, so the iterations are independent; the mean is taken as (a & b) + ((a ^ b) >> 1),
// which stays within 8 bits and so vectorises in byte lanes.
static void filter_average(const uint8_t *restrict row, const uint8_t *restrict prior, size_t n, size_t bpp,
                           uint8_t *restrict out) {
    out[0] = 3;
    out++;
    size_t head = bpp < n ? bpp : n;
    for (size_t i = 0; i < head; i++) out[i] = (uint8_t)(row[i] - (prior[i] >> 1));
    for (size_t i = bpp; i < n; i++) {
        uint8_t a = row[i - bpp], b = prior[i];
        out[i] = (uint8_t)(row[i] - (uint8_t)((a & b) + ((a ^ b) >> 1)));
    }
}

// Deflates `raw` with zlib as a raw stream ending on a byte boundary (Z_SYNC_FLUSH, or Z_FINISH for the last
// band). 0 on success.
static int deflate_band(const uint8_t *raw, size_t length, int level, int strategy, int last, uint8_t **stream,
                        size_t *stream_length) {
    *stream = NULL;
    *stream_length = 0;
    if (length > UINT32_MAX / 2) return -1;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) return -1;
    size_t capacity = deflateBound(&z, (uLong)length) + 16;
    uint8_t *out = malloc(capacity);
    if (out == NULL) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)raw;
    z.avail_in = (uInt)length;
    z.next_out = out;
    z.avail_out = (uInt)capacity;
    int status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    // A sync flush that filled the output may be incomplete; the bound makes that impossible, so treat it as failure.
    int ok = (last ? status == Z_STREAM_END : (status == Z_OK && z.avail_out != 0)) && z.avail_in == 0;
    size_t written = capacity - z.avail_out;
    deflateEnd(&z);
    if (!ok) {
        free(out);
        return -1;
    }
    *stream = out;
    *stream_length = written;
    return 0;
}

// Level 1: the band as one literal Huffman block, or zlib's level 1 when the band is redundant enough for LZ77
// to be worth trying and it comes out smaller.
static int compress_fast(const uint8_t *raw, size_t length, int last, uint8_t **stream, size_t *stream_length) {
    cpng_huffman_plan plan;
    cpng_huffman_plan_make(raw, length, &plan);
    // Small bands are tried too: there the code's own header (about 150 bytes) hides how redundant the data is.
    if (plan.bits < (uint64_t)length * CPNG_LZ77_BITS_PER_BYTE || length < CPNG_LZ77_SMALL_BAND) {
        uint8_t *lz77 = NULL;
        size_t lz77_length = 0;
        if (deflate_band(raw, length, 1, Z_DEFAULT_STRATEGY, last, &lz77, &lz77_length) != 0) return -1;
        if ((uint64_t)lz77_length * 8 < plan.bits) {
            *stream = lz77;
            *stream_length = lz77_length;
            return 0;
        }
        free(lz77);
    }
    uint8_t *out = malloc(cpng_huffman_block_capacity(&plan));
    if (out == NULL) return -1;
    *stream = out;
    *stream_length = cpng_huffman_block_write(&plan, raw, length, last, out);
    return 0;
}

static void encode_band(cpng_band_work *work, cpng_band *band, int last) {
    const cpng_encode_request *request = work->request;
    size_t n = work->row_length;
    size_t raw_length = (size_t)band->row_count * (n + 1);
    // The byte counts of a band are 32-bit; no band of a decodable image (65535 pixels a side) comes near.
    if (raw_length > UINT32_MAX / 2) {
        band->failed = 1;
        return;
    }
    uint8_t *raw = malloc(raw_length);
    uint8_t *scratch = work->fast ? NULL : malloc(4 * n);
    uint8_t *zeros = !work->fast && band->first_row == 0 ? calloc(n, 1) : NULL;
    if (raw == NULL || (!work->fast && scratch == NULL) || (!work->fast && band->first_row == 0 && zeros == NULL)) {
        band->failed = 1;
        free(raw);
        free(scratch);
        free(zeros);
        return;
    }
    for (uint32_t r = 0; r < band->row_count; r++) {
        uint32_t y = band->first_row + r;
        const uint8_t *row = request->pixels + (size_t)y * request->row_bytes;
        uint8_t *out = raw + (size_t)r * (n + 1);
        if (work->fast) {
            if (y == 0) {
                filter_sub(row, n, work->bpp, out);
            } else {
                filter_average(row, row - request->row_bytes, n, work->bpp, out);
            }
        } else {
            filter_row(row, y > 0 ? row - request->row_bytes : zeros, n, work->bpp, out, scratch);
        }
    }
    free(scratch);
    free(zeros);
    band->adler = adler32_z(1L, raw, raw_length);
    band->raw_length = raw_length;
    int status = work->fast ? compress_fast(raw, raw_length, last, &band->stream, &band->stream_length)
                            : deflate_band(raw, raw_length, work->level, Z_FILTERED, last, &band->stream,
                                           &band->stream_length);
    free(raw);
    if (status != 0) {
        band->failed = 1;
        return;
    }
    band->crc = crc32_z(0L, band->stream, band->stream_length);
}

static void *band_worker(void *argument) {
    cpng_band_work *work = argument;
    for (;;) {
        pthread_mutex_lock(&work->lock);
        uint32_t b = work->next++;
        pthread_mutex_unlock(&work->lock);
        if (b >= work->band_count) return NULL;
        encode_band(work, &work->bands[b], b + 1 == work->band_count);
    }
}

// Makes room for `extra` more output bytes; 0 on success.
static int output_reserve(cpng_encoder *encoder, size_t extra) {
    if (extra > SIZE_MAX - encoder->length) return -1;
    size_t needed = encoder->length + extra;
    if (needed <= encoder->capacity) return 0;
    size_t capacity = encoder->capacity < 4096 ? 4096 : encoder->capacity;
    while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
    uint8_t *grown = realloc(encoder->output, capacity);
    if (grown == NULL) return -1;
    encoder->output = grown;
    encoder->capacity = capacity;
    return 0;
}

// Appends bytes for which room was reserved.
static void output_put(cpng_encoder *encoder, const void *bytes, size_t count) {
    if (count == 0) return;
    memcpy(encoder->output + encoder->length, bytes, count);
    encoder->length += count;
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

// One chunk holding prefix + data + suffix (PNG spec §5.3), given the CRC-32 of `data` alone; room reserved.
static void output_chunk(cpng_encoder *encoder, const char type[4], const uint8_t *prefix, size_t prefix_length,
                         const uint8_t *data, size_t length, uLong data_crc, const uint8_t *suffix,
                         size_t suffix_length) {
    uint8_t head[8];
    put_be32(head, (uint32_t)(prefix_length + length + suffix_length));
    memcpy(head + 4, type, 4);
    uLong crc = crc32_z(0L, head + 4, 4);
    if (prefix_length > 0) crc = crc32_z(crc, prefix, prefix_length);
    crc = crc32_combine(crc, data_crc, (z_off_t)length);
    if (suffix_length > 0) crc = crc32_z(crc, suffix, suffix_length);
    uint8_t tail[4];
    put_be32(tail, (uint32_t)crc);
    output_put(encoder, head, 8);
    output_put(encoder, prefix, prefix_length);
    output_put(encoder, data, length);
    output_put(encoder, suffix, suffix_length);
    output_put(encoder, tail, 4);
}

// Compresses the image data in bands and appends it as IDAT chunks, then IEND; CPNG_OK or an error code.
// Calls no libpng function, so nothing here can be skipped by libpng's longjmp.
static int write_banded_image(cpng_encoder *encoder, const cpng_encode_request *request) {
    cpng_band_work work;
    memset(&work, 0, sizeof work);
    work.request = request;
    size_t sample_bytes = (size_t)(request->bit_depth / 8);
    work.row_length = (size_t)request->width * (size_t)request->channels * sample_bytes;
    work.bpp = (size_t)request->channels * sample_bytes;
    work.level = request->compression_level >= 0 && request->compression_level <= 9 ? request->compression_level
                                                                                      : Z_DEFAULT_COMPRESSION;
    work.fast = work.level == CPNG_FAST_LEVEL;
    work.band_count = (request->height + CPNG_BAND_ROWS - 1) / CPNG_BAND_ROWS;
    work.bands = calloc(work.band_count, sizeof(cpng_band));
    if (work.bands == NULL) return CPNG_ERR_MEMORY;
    for (uint32_t b = 0; b < work.band_count; b++) {
        work.bands[b].first_row = b * CPNG_BAND_ROWS;
        uint32_t left = request->height - b * CPNG_BAND_ROWS;
        work.bands[b].row_count = left < CPNG_BAND_ROWS ? left : CPNG_BAND_ROWS;
    }
    pthread_mutex_init(&work.lock, NULL);
    long cores = request->threads > 0 ? request->threads : sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t helpers = cores > 1 ? (uint32_t)(cores - 1) : 0;
    if (helpers > work.band_count - 1) helpers = work.band_count - 1;
    if (helpers > 63) helpers = 63;
    pthread_t threads[63];
    uint32_t started = 0;
    for (; started < helpers; started++) {
        if (pthread_create(&threads[started], NULL, band_worker, &work) != 0) break;
    }
    band_worker(&work);
    for (uint32_t t = 0; t < started; t++) pthread_join(threads[t], NULL);
    pthread_mutex_destroy(&work.lock);

    int result = CPNG_OK;
    for (uint32_t b = 0; b < work.band_count; b++) {
        if (work.bands[b].failed) result = CPNG_ERR_MEMORY;
    }
    if (result == CPNG_OK) {
        // zlib header: deflate, 32 KiB window, FLEVEL as a hint of the level; FCHECK makes it a multiple of 31.
        int level = work.level < 0 ? 6 : work.level;
        uint8_t header[2] = {0x78, level <= 1 ? 0x01 : level <= 5 ? 0x5E : level == 6 ? 0x9C : 0xDA};
        uLong adler = work.bands[0].adler;
        for (uint32_t b = 1; b < work.band_count; b++) {
            adler = adler32_combine(adler, work.bands[b].adler, (z_off_t)work.bands[b].raw_length);
        }
        uint8_t trailer[4];
        put_be32(trailer, (uint32_t)adler);
        size_t total = 12 + 12;  // IEND, and room for the header and trailer
        for (uint32_t b = 0; b < work.band_count; b++) {
            size_t length = work.bands[b].stream_length;
            total += length + 12 * (length / CPNG_MAX_IDAT + 1);
        }
        if (output_reserve(encoder, total) != 0) result = CPNG_ERR_MEMORY;
        for (uint32_t b = 0; b < work.band_count && result == CPNG_OK; b++) {
            const cpng_band *band = &work.bands[b];
            int first = b == 0, final = b + 1 == work.band_count;
            if (band->stream_length <= CPNG_MAX_IDAT) {
                output_chunk(encoder, "IDAT", header, first ? 2 : 0, band->stream, band->stream_length, band->crc,
                             trailer, final ? 4 : 0);
                continue;
            }
            // A band this long (only in images over 2^24 bytes a row) is cut into chunks, checksummed here.
            for (size_t offset = 0; offset < band->stream_length; offset += CPNG_MAX_IDAT) {
                size_t left = band->stream_length - offset;
                size_t length = left < CPNG_MAX_IDAT ? left : CPNG_MAX_IDAT;
                int opens = first && offset == 0, closes = final && offset + length == band->stream_length;
                output_chunk(encoder, "IDAT", header, opens ? 2 : 0, band->stream + offset, length,
                             crc32_z(0L, band->stream + offset, length), trailer, closes ? 4 : 0);
            }
        }
        if (result == CPNG_OK) output_chunk(encoder, "IEND", NULL, 0, NULL, 0, 0L, NULL, 0);
    }
    for (uint32_t b = 0; b < work.band_count; b++) free(work.bands[b].stream);
    free(work.bands);
    return result;
}

int cpng_encode(const cpng_encode_request *request, uint8_t **out, size_t *out_length, char *message,
                size_t message_capacity) {
    if (message != NULL && message_capacity > 0) message[0] = '\0';
    if (request == NULL || out == NULL || out_length == NULL) return CPNG_ERR_ARGUMENT;
    *out = NULL;
    *out_length = 0;
    cpng_error_sink check = {message, message_capacity, 0, {0}};
    int checked = check_request(request, &check);
    if (checked != CPNG_OK) return checked;

    cpng_encoder *const encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) return CPNG_ERR_MEMORY;
    encoder->sink.message = message;
    encoder->sink.capacity = message_capacity;
    encoder->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &encoder->sink, on_error, on_warning);
    if (encoder->png != NULL) encoder->info = png_create_info_struct(encoder->png);
    encoder->rows = malloc(sizeof(png_bytep) * (size_t)request->height);
    if (request->text_count > 0) encoder->texts = calloc((size_t)request->text_count, sizeof(png_text));
    if (encoder->png == NULL || encoder->info == NULL || encoder->rows == NULL ||
        (request->text_count > 0 && encoder->texts == NULL)) {
        encoder_release(encoder, 0);
        cpng_error_sink sink = {message, message_capacity, 0, {0}};
        sink_set(&sink, CPNG_ERR_MEMORY, "out of memory creating the PNG writer");
        return CPNG_ERR_MEMORY;
    }
    if (setjmp(png_jmpbuf(encoder->png))) {
        int code = encoder->sink.code != 0 ? encoder->sink.code : CPNG_ERR_FORMAT;
        encoder_release(encoder, 0);
        return code;
    }
    png_structp png = encoder->png;
    png_infop info = encoder->info;
    png_set_write_fn(png, encoder, write_to_memory, flush_memory);
    if (request->compression_level >= 0 && request->compression_level <= 9) {
        png_set_compression_level(png, request->compression_level);
    }
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                       PNG_COLOR_TYPE_RGB_ALPHA};
    png_set_IHDR(png, info, request->width, request->height, request->bit_depth, color_types[request->channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);

    if (request->write_srgb) {
        png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    } else {
        if (request->write_gamma) png_set_gAMA_fixed(png, info, (png_fixed_point)request->gamma_fixed);
        if (request->write_chromaticities) {
            const int32_t *c = request->chromaticities_fixed;
            png_set_cHRM_fixed(png, info, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        }
    }
    if (request->icc_profile != NULL) {
        if (request->icc_length > PNG_UINT_31_MAX || request->icc_length < 132) {
            fail(png, &encoder->sink, CPNG_ERR_ARGUMENT, "ICC profile of %zu bytes", request->icc_length);
        }
        png_set_iCCP(png, info, request->icc_name != NULL ? request->icc_name : "ICC profile",
                     PNG_COMPRESSION_TYPE_BASE, request->icc_profile, (png_uint_32)request->icc_length);
    }
    for (int i = 0; i < request->text_count; i++) {
        png_textp entry = &encoder->texts[i];
        entry->key = (png_charp)request->texts[i].key;
        entry->text = (png_charp)request->texts[i].value;
        if (request->texts[i].is_utf8) {
            entry->compression = PNG_ITXT_COMPRESSION_NONE;
            entry->itxt_length = request->texts[i].value_length;
            entry->lang = NULL;
            entry->lang_key = NULL;
        } else {
            entry->compression = PNG_TEXT_COMPRESSION_NONE;
            entry->text_length = request->texts[i].value_length;
        }
    }
    if (request->text_count > 0) png_set_text(png, info, encoder->texts, request->text_count);

    for (png_uint_32 y = 0; y < request->height; y++) {
        encoder->rows[y] = (png_bytep)(request->pixels + (size_t)y * request->row_bytes);
    }
    png_write_info(png, info);
    size_t image_bytes = (size_t)request->height * (size_t)request->width * (size_t)request->channels *
                         (size_t)(request->bit_depth / 8);
    if (request->compression_level == CPNG_FAST_LEVEL ||
        (image_bytes >= CPNG_PARALLEL_MIN_BYTES && request->height > CPNG_BAND_ROWS)) {
        int written = write_banded_image(encoder, request);
        if (written != CPNG_OK) fail(png, &encoder->sink, written, "cannot compress the image data");
    } else {
        png_write_image(png, encoder->rows);
        png_write_end(png, NULL);
    }

    *out = encoder->output;
    *out_length = encoder->length;
    encoder_release(encoder, 1);
    return CPNG_OK;
}

void cpng_free(void *buffer) { free(buffer); }
