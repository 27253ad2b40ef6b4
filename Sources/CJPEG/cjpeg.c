// See include/cjpeg.h. The error manager longjmps back to the entry point that set it up.
#include "cjpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t capacity;
} error_manager;

static void on_error(j_common_ptr cinfo) {
    error_manager *e = (error_manager *)cinfo->err;
    if (e->message && e->capacity > 0) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        snprintf(e->message, e->capacity, "%s", text);
    }
    longjmp(e->jump, 1);
}

// Warnings (corrupt data that libjpeg can work around) are not errors for a reader; stay silent.
static void on_message(j_common_ptr cinfo) { (void)cinfo; }

static void set_message(char *message, size_t capacity, const char *text) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", text);
}

// libjpeg's standard error manager, with an error's text going to the caller's buffer and control back
// to the caller's setjmp, and warnings dropped instead of printed to standard error.
static struct jpeg_error_mgr *error_manager_init(error_manager *err, char *message, size_t capacity) {
    struct jpeg_error_mgr *base = jpeg_std_error(&err->base);
    base->error_exit = on_error;
    base->output_message = on_message;
    err->message = message;
    err->capacity = capacity;
    return base;
}

int cjpeg_encode(const uint8_t *pixels, int width, int height, int components, size_t row_bytes, int quality,
                 const cjpeg_segment *segments, int segment_count, const uint8_t *icc, size_t icc_length,
                 uint8_t **out, size_t *out_length, char *message, size_t message_capacity) {
    if (!pixels || !out || !out_length || width <= 0 || height <= 0 || (components != 1 && components != 3) ||
        row_bytes < (size_t)width * (size_t)components || quality < 1 || quality > 100) {
        set_message(message, message_capacity, "inconsistent encode request");
        return CJPEG_ERR_ARGUMENT;
    }
    for (int i = 0; i < segment_count; i++) {
        if (segments[i].marker < 0xE0 || segments[i].marker > 0xEF || segments[i].length > 65533) {
            set_message(message, message_capacity, "an application segment is invalid or longer than 65533 bytes");
            return CJPEG_ERR_ARGUMENT;
        }
    }
    struct jpeg_compress_struct cinfo;
    error_manager err;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = error_manager_init(&err, message, message_capacity);
    // Volatile: these change between setjmp and a possible longjmp.
    unsigned char *volatile buffer = NULL;
    unsigned long volatile size = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return CJPEG_ERR_LIBJPEG;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, (unsigned long *)&size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    // An Exif file carries APP1 first instead of a JFIF APP0 (Exif 2.32 §4.5.4).
    if (segment_count > 0 && segments[0].marker == 0xE1) cinfo.write_JFIF_header = FALSE;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_compress(&cinfo, TRUE);
    for (int i = 0; i < segment_count; i++) {
        jpeg_write_marker(&cinfo, segments[i].marker, segments[i].data, (unsigned int)segments[i].length);
    }
    if (icc && icc_length > 0) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_length);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_length = size;
    return CJPEG_OK;
}

static int decode(const uint8_t *data, size_t length, int components, uint8_t **out, int *width, int *height,
                  char *message, size_t message_capacity) {
    if (!data || length == 0 || !out || !width || !height) {
        set_message(message, message_capacity, "inconsistent decode request");
        return CJPEG_ERR_ARGUMENT;
    }
    struct jpeg_decompress_struct cinfo;
    error_manager err;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = error_manager_init(&err, message, message_capacity);
    uint8_t *volatile pixels = NULL;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return CJPEG_ERR_LIBJPEG;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = components == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);
    size_t w = cinfo.output_width, h = cinfo.output_height;
    if (w == 0 || h == 0 || w > 65535 || h > 65535) {
        set_message(message, message_capacity, "JPEG dimensions out of range");
        jpeg_destroy_decompress(&cinfo);
        return CJPEG_ERR_ARGUMENT;
    }
    pixels = malloc(w * h * (size_t)components);
    if (!pixels) {
        set_message(message, message_capacity, "out of memory");
        jpeg_destroy_decompress(&cinfo);
        return CJPEG_ERR_MEMORY;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.output_scanline * w * (size_t)components);
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    *out = pixels;
    *width = (int)w;
    *height = (int)h;
    return CJPEG_OK;
}

int cjpeg_decode_grey(const uint8_t *data, size_t length, uint8_t **out, int *width, int *height,
                      char *message, size_t message_capacity) {
    return decode(data, length, 1, out, width, height, message, message_capacity);
}

int cjpeg_decode_rgb(const uint8_t *data, size_t length, uint8_t **out, int *width, int *height,
                     char *message, size_t message_capacity) {
    return decode(data, length, 3, out, width, height, message, message_capacity);
}

void cjpeg_free(void *pointer) { free(pointer); }
