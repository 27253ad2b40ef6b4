// See include/cheif.h. The declarations below mirror libheif 1.15's heif.h: only the types and
// functions used here, with the same layouts and enum values.
#include "cheif.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct heif_context;
struct heif_encoder;
struct heif_image;
struct heif_image_handle;
typedef uint32_t heif_item_id;

struct heif_error {
    int code;  // enum heif_error_code; heif_error_Ok = 0
    int subcode;
    const char *message;
};

struct heif_writer {
    int writer_api_version;  // 1
    struct heif_error (*write)(struct heif_context *ctx, const void *data, size_t size, void *userdata);
};

enum { heif_compression_HEVC = 1 };
enum { heif_colorspace_RGB = 1, heif_colorspace_monochrome = 2 };
enum { heif_chroma_monochrome = 0, heif_chroma_interleaved_RGB = 10 };
enum { heif_channel_Y = 0, heif_channel_interleaved = 10 };

static struct {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    int (*have_encoder_for_format)(int);
    struct heif_error (*get_encoder_for_format)(struct heif_context *, int, struct heif_encoder **);
    struct heif_error (*encoder_set_lossy_quality)(struct heif_encoder *, int);
    struct heif_error (*encoder_set_lossless)(struct heif_encoder *, int);
    void (*encoder_release)(struct heif_encoder *);
    struct heif_error (*encoder_set_parameter_string)(struct heif_encoder *, const char *, const char *);
    struct heif_error (*image_create)(int, int, int, int, struct heif_image **);
    struct heif_error (*image_add_plane)(struct heif_image *, int, int, int, int);
    uint8_t *(*image_get_plane)(struct heif_image *, int, int *);
    const uint8_t *(*image_get_plane_readonly)(const struct heif_image *, int, int *);
    int (*image_get_width)(const struct heif_image *, int);
    int (*image_get_height)(const struct heif_image *, int);
    void (*image_release)(const struct heif_image *);
    struct heif_error (*image_set_raw_color_profile)(struct heif_image *, const char *, const void *, size_t);
    struct heif_error (*context_encode_image)(struct heif_context *, const struct heif_image *,
                                              struct heif_encoder *, const void *, struct heif_image_handle **);
    struct heif_error (*context_add_exif_metadata)(struct heif_context *, const struct heif_image_handle *,
                                                   const void *, int);
    struct heif_error (*context_add_XMP_metadata)(struct heif_context *, const struct heif_image_handle *,
                                                  const void *, int);
    struct heif_error (*context_write)(struct heif_context *, struct heif_writer *, void *);
    void (*image_handle_release)(const struct heif_image_handle *);
    struct heif_error (*context_read_from_memory_without_copy)(struct heif_context *, const void *, size_t,
                                                               const void *);
    struct heif_error (*context_get_primary_image_handle)(struct heif_context *, struct heif_image_handle **);
    int (*image_handle_get_list_of_depth_image_IDs)(const struct heif_image_handle *, heif_item_id *, int);
    struct heif_error (*image_handle_get_depth_image_handle)(const struct heif_image_handle *, heif_item_id,
                                                             struct heif_image_handle **);
    struct heif_error (*decode_image)(const struct heif_image_handle *, struct heif_image **, int, int,
                                      const void *);
    int (*image_handle_get_list_of_metadata_block_IDs)(const struct heif_image_handle *, const char *,
                                                       heif_item_id *, int);
    const char *(*image_handle_get_metadata_content_type)(const struct heif_image_handle *, heif_item_id);
    size_t (*image_handle_get_metadata_size)(const struct heif_image_handle *, heif_item_id);
    struct heif_error (*image_handle_get_metadata)(const struct heif_image_handle *, heif_item_id, void *);
    int (*have_decoder_for_format)(int);
    int (*image_handle_get_width)(const struct heif_image_handle *);
    int (*image_handle_get_height)(const struct heif_image_handle *);
    size_t (*image_handle_get_raw_color_profile_size)(const struct heif_image_handle *);
    struct heif_error (*image_handle_get_raw_color_profile)(const struct heif_image_handle *, void *);
    // Optional (resolved when present): reading auxiliary images other than depth and alpha.
    int (*image_handle_get_list_of_auxiliary_image_IDs)(const struct heif_image_handle *, int, heif_item_id *, int);
    struct heif_error (*image_handle_get_auxiliary_image_handle)(const struct heif_image_handle *, heif_item_id,
                                                                 struct heif_image_handle **);
    struct heif_error (*image_handle_get_auxiliary_type)(const struct heif_image_handle *, const char **);
    void (*image_handle_free_auxiliary_types)(const struct heif_image_handle *, const char **);
    int (*image_handle_get_list_of_thumbnail_IDs)(const struct heif_image_handle *, heif_item_id *, int);
    struct heif_error (*image_handle_get_thumbnail)(const struct heif_image_handle *, heif_item_id,
                                                    struct heif_image_handle **);
    struct heif_error (*context_assign_thumbnail)(struct heif_context *, const struct heif_image_handle *,
                                                  const struct heif_image_handle *);
    // Optional (resolved when present): options for writing the orientation and reading stored pixels.
    struct encoding_options *(*encoding_options_alloc)(void);
    void (*encoding_options_free)(struct encoding_options *);
    struct decoding_options *(*decoding_options_alloc)(void);
    void (*decoding_options_free)(struct decoding_options *);
} api;

// The leading fields of libheif 1.15's heif_encoding_options, up to its version 5, which adds the orientation
// written as 'irot' and 'imir' properties of the image (values as Exif's Orientation, 1 to 8).
struct encoding_options {
    uint8_t version;
    uint8_t save_alpha_channel;
    uint8_t macOS_compatibility_workaround;
    uint8_t save_two_colr_boxes_when_ICC_and_nclx_available;
    void *output_nclx_profile;
    uint8_t macOS_compatibility_workaround_no_nclx_profile;
    int image_orientation;
};

// The leading fields of libheif's heif_decoding_options, version 1: whether to leave the image's rotation,
// mirroring and cropping properties unapplied.
struct decoding_options {
    uint8_t version;
    uint8_t ignore_transformations;
};

// libheif's filter flags for the auxiliary image list: leave out alpha and depth images.
enum { LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA = 1 << 1, LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH = 2 << 1 };

static int loaded = 0;  // 1 usable, -1 unusable
static int decodes = 0;  // 1 when the library loaded and has an HEVC decoder
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                   \
    do {                                                       \
        *(void **)(&api.field) = dlsym(library, "heif_" name); \
        if (!api.field) return;                                \
    } while (0)

static void resolve_all(void *library) {
    RESOLVE(context_alloc, "context_alloc");
    RESOLVE(context_free, "context_free");
    RESOLVE(have_encoder_for_format, "have_encoder_for_format");
    RESOLVE(get_encoder_for_format, "context_get_encoder_for_format");
    RESOLVE(encoder_set_lossy_quality, "encoder_set_lossy_quality");
    RESOLVE(encoder_set_lossless, "encoder_set_lossless");
    RESOLVE(encoder_release, "encoder_release");
    RESOLVE(encoder_set_parameter_string, "encoder_set_parameter_string");
    RESOLVE(image_create, "image_create");
    RESOLVE(image_add_plane, "image_add_plane");
    RESOLVE(image_get_plane, "image_get_plane");
    RESOLVE(image_get_plane_readonly, "image_get_plane_readonly");
    RESOLVE(image_get_width, "image_get_width");
    RESOLVE(image_get_height, "image_get_height");
    RESOLVE(image_release, "image_release");
    RESOLVE(image_set_raw_color_profile, "image_set_raw_color_profile");
    RESOLVE(context_encode_image, "context_encode_image");
    RESOLVE(context_add_exif_metadata, "context_add_exif_metadata");
    RESOLVE(context_add_XMP_metadata, "context_add_XMP_metadata");
    RESOLVE(context_write, "context_write");
    RESOLVE(image_handle_release, "image_handle_release");
    RESOLVE(context_read_from_memory_without_copy, "context_read_from_memory_without_copy");
    RESOLVE(context_get_primary_image_handle, "context_get_primary_image_handle");
    RESOLVE(image_handle_get_list_of_depth_image_IDs, "image_handle_get_list_of_depth_image_IDs");
    RESOLVE(image_handle_get_depth_image_handle, "image_handle_get_depth_image_handle");
    RESOLVE(decode_image, "decode_image");
    RESOLVE(image_handle_get_list_of_metadata_block_IDs, "image_handle_get_list_of_metadata_block_IDs");
    RESOLVE(image_handle_get_metadata_content_type, "image_handle_get_metadata_content_type");
    RESOLVE(image_handle_get_metadata_size, "image_handle_get_metadata_size");
    RESOLVE(image_handle_get_metadata, "image_handle_get_metadata");
    RESOLVE(have_decoder_for_format, "have_decoder_for_format");
    RESOLVE(image_handle_get_width, "image_handle_get_width");
    RESOLVE(image_handle_get_height, "image_handle_get_height");
    RESOLVE(image_handle_get_raw_color_profile_size, "image_handle_get_raw_color_profile_size");
    RESOLVE(image_handle_get_raw_color_profile, "image_handle_get_raw_color_profile");
    RESOLVE(context_assign_thumbnail, "context_assign_thumbnail");
    RESOLVE(image_handle_get_list_of_thumbnail_IDs, "image_handle_get_list_of_thumbnail_IDs");
    RESOLVE(image_handle_get_thumbnail, "image_handle_get_thumbnail");
    *(void **)(&api.image_handle_get_list_of_auxiliary_image_IDs) =
        dlsym(library, "heif_image_handle_get_list_of_auxiliary_image_IDs");
    *(void **)(&api.image_handle_get_auxiliary_image_handle) =
        dlsym(library, "heif_image_handle_get_auxiliary_image_handle");
    *(void **)(&api.image_handle_get_auxiliary_type) = dlsym(library, "heif_image_handle_get_auxiliary_type");
    *(void **)(&api.image_handle_free_auxiliary_types) = dlsym(library, "heif_image_handle_free_auxiliary_types");
    *(void **)(&api.encoding_options_alloc) = dlsym(library, "heif_encoding_options_alloc");
    *(void **)(&api.encoding_options_free) = dlsym(library, "heif_encoding_options_free");
    *(void **)(&api.decoding_options_alloc) = dlsym(library, "heif_decoding_options_alloc");
    *(void **)(&api.decoding_options_free) = dlsym(library, "heif_decoding_options_free");
    loaded = 1;
}

// Options that write `orientation` (Exif's 1 to 8) as the image's transform properties, or NULL for libheif's
// defaults: for an upright image, or a library older than the option.
static struct encoding_options *orientation_options(int orientation) {
    if (orientation <= 1 || orientation > 8 || !api.encoding_options_alloc || !api.encoding_options_free) return NULL;
    struct encoding_options *options = api.encoding_options_alloc();
    if (options && options->version < 5) {
        api.encoding_options_free(options);
        return NULL;
    }
    if (options) options->image_orientation = orientation;
    return options;
}

// Decodes an image's stored pixels, leaving its rotation and mirroring properties to the reader, which finds the
// same turn in the Exif Orientation (as ImageIO reports a HEIC's orientation instead of applying it). libheif 1.15's
// coder crops a padded picture itself, so the stored pixels are the picture's own size (HEIFSizeTests checks odd
// and small sizes, turned and not).
static struct heif_error decode_stored(const struct heif_image_handle *handle, struct heif_image **image,
                                       int colorspace, int chroma) {
    struct decoding_options *options =
        api.decoding_options_alloc && api.decoding_options_free ? api.decoding_options_alloc() : NULL;
    if (options && options->version >= 1) options->ignore_transformations = 1;
    struct heif_error e = api.decode_image(handle, image, colorspace, chroma, options);
    if (options) api.decoding_options_free(options);
    return e;
}

static void load(void) {
    loaded = -1;
    // The library stays loaded for the life of the process: its encoder plugins register globally.
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    resolve_all(library);
    if (loaded != 1) return;
    decodes = api.have_decoder_for_format(heif_compression_HEVC) ? 1 : 0;
    if (!api.have_encoder_for_format(heif_compression_HEVC)) loaded = -1;
}

static int ready(void) {
    pthread_once(&once, load);
    return loaded == 1;
}

int cheif_hevc_available(void) { return ready(); }

int cheif_hevc_decodable(void) {
    pthread_once(&once, load);
    return decodes == 1;
}

static int fail(struct heif_error e, char *message, size_t capacity) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", e.message ? e.message : "libheif error");
    return CHEIF_ERR_LIBHEIF;
}

// Runs a libheif call in a function that has `e`, `code`, `message`, `message_capacity` and a `done:`
// label that frees what it holds: a failure records libheif's message and jumps there.
#define CHECK(call)                                      \
    do {                                                 \
        e = (call);                                      \
        if (e.code != 0) {                               \
            code = fail(e, message, message_capacity);   \
            goto done;                                   \
        }                                                \
    } while (0)

static void set_message(char *message, size_t capacity, const char *text) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", text);
}

typedef struct {
    uint8_t *data;
    size_t length;
    int failed;
} growing_buffer;

static struct heif_error write_to_buffer(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    (void)ctx;
    growing_buffer *b = userdata;
    struct heif_error ok = {0, 0, "Success"};
    uint8_t *grown = realloc(b->data, b->length + size);
    if (!grown) {
        b->failed = 1;
        struct heif_error e = {1, 0, "out of memory"};
        return e;
    }
    memcpy(grown + b->length, data, size);
    b->data = grown;
    b->length += size;
    return ok;
}

// Copies rows into a new image's plane; returns 0 on failure.
static int fill_plane(struct heif_image *image, int channel, const uint8_t *src, size_t src_stride, size_t row_bytes,
                      int height) {
    int stride = 0;
    uint8_t *plane = api.image_get_plane(image, channel, &stride);
    if (!plane || stride < (int)row_bytes) return 0;
    for (int y = 0; y < height; y++) {
        memcpy(plane + (size_t)y * (size_t)stride, src + (size_t)y * src_stride, row_bytes);
    }
    return 1;
}

// Encodes one grey image losslessly (mattes and depth codes are data, not pictures) as a new
// top-level item, with its XMP.
static int encode_grey(struct heif_context *ctx, struct heif_encoder *encoder, const cheif_auxiliary_image *a,
                       char *message, size_t message_capacity) {
    int code = CHEIF_OK;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_error e;
    CHECK(api.image_create(a->width, a->height, heif_colorspace_monochrome, heif_chroma_monochrome, &image));
    CHECK(api.image_add_plane(image, heif_channel_Y, a->width, a->height, 8));
    if (!fill_plane(image, heif_channel_Y, a->pixels, (size_t)a->width, (size_t)a->width, a->height)) {
        set_message(message, message_capacity, "libheif gave no writable grey plane");
        code = CHEIF_ERR_LIBHEIF;
        goto done;
    }
    CHECK(api.encoder_set_lossless(encoder, 1));
    CHECK(api.context_encode_image(ctx, image, encoder, NULL, &handle));
    if (a->xmp && a->xmp_length > 0) CHECK(api.context_add_XMP_metadata(ctx, handle, a->xmp, (int)a->xmp_length));
done:
    if (handle) api.image_handle_release(handle);
    if (image) api.image_release(image);
    return code;
}

int cheif_encode(const cheif_encode_request *r, uint8_t **out, size_t *out_length, char *message,
                 size_t message_capacity) {
    if (!ready()) {
        set_message(message, message_capacity, "libheif.so.1 with an HEVC encoder is not available");
        return CHEIF_ERR_UNAVAILABLE;
    }
    if (!r || !r->rgb || r->width <= 0 || r->height <= 0 || r->row_bytes < (size_t)r->width * 3 || !out ||
        !out_length || (r->depth && (r->depth_width <= 0 || r->depth_height <= 0)) || r->auxiliary_count < 0 ||
        (r->auxiliary_count > 0 && !r->auxiliaries) ||
        (r->thumbnail && (r->thumbnail_width <= 0 || r->thumbnail_height <= 0))) {
        set_message(message, message_capacity, "inconsistent encode request");
        return CHEIF_ERR_ARGUMENT;
    }
    for (int i = 0; i < r->auxiliary_count; i++) {
        const cheif_auxiliary_image *a = &r->auxiliaries[i];
        if (!a->pixels || a->width <= 0 || a->height <= 0) {
            set_message(message, message_capacity, "inconsistent auxiliary image");
            return CHEIF_ERR_ARGUMENT;
        }
    }
    int code = CHEIF_OK;
    struct heif_context *ctx = api.context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL, *depth = NULL, *thumbnail = NULL;
    struct heif_image_handle *handle = NULL, *depth_handle = NULL, *thumbnail_handle = NULL;
    growing_buffer buffer = {NULL, 0, 0};
    struct encoding_options *options = NULL;
    struct heif_error e;
    if (!ctx) {
        set_message(message, message_capacity, "out of memory");
        return CHEIF_ERR_MEMORY;
    }
    CHECK(api.get_encoder_for_format(ctx, heif_compression_HEVC, &encoder));
    // libheif's x265 default preset is "slow": a 12 MP photo took 83 s on a loaded 2-core
    // machine, "fast" 37 s, "ultrafast" 11 s at a slightly smaller file for the same quality
    // setting. A phone encodes in hardware in well under a second; the fastest preset comes
    // closest. An encoder without the parameter keeps its own default.
    (void)api.encoder_set_parameter_string(encoder, "preset", "ultrafast");
    CHECK(api.image_create(r->width, r->height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image));
    CHECK(api.image_add_plane(image, heif_channel_interleaved, r->width, r->height, 8));
    if (!fill_plane(image, heif_channel_interleaved, r->rgb, r->row_bytes, (size_t)r->width * 3, r->height)) {
        set_message(message, message_capacity, "libheif gave no writable plane");
        code = CHEIF_ERR_LIBHEIF;
        goto done;
    }
    if (r->icc && r->icc_length > 0) CHECK(api.image_set_raw_color_profile(image, "prof", r->icc, r->icc_length));
    CHECK(api.encoder_set_lossy_quality(encoder, r->quality < 0 ? 0 : r->quality > 100 ? 100 : r->quality));
    // A libheif older than 1.14 cannot write the orientation; the Exif still carries it.
    options = orientation_options(r->orientation);
    CHECK(api.context_encode_image(ctx, image, encoder, options, &handle));
    if (r->exif && r->exif_length > 0) CHECK(api.context_add_exif_metadata(ctx, handle, r->exif, (int)r->exif_length));
    if (r->depth) {
        CHECK(api.image_create(r->depth_width, r->depth_height, heif_colorspace_monochrome, heif_chroma_monochrome,
                               &depth));
        CHECK(api.image_add_plane(depth, heif_channel_Y, r->depth_width, r->depth_height, 8));
        if (!fill_plane(depth, heif_channel_Y, r->depth, (size_t)r->depth_width, (size_t)r->depth_width,
                        r->depth_height)) {
            set_message(message, message_capacity, "libheif gave no writable depth plane");
            code = CHEIF_ERR_LIBHEIF;
            goto done;
        }
        // Depth codes are measurements, not a picture: store them exactly.
        CHECK(api.encoder_set_lossless(encoder, 1));
        CHECK(api.context_encode_image(ctx, depth, encoder, NULL, &depth_handle));
        if (r->depth_xmp && r->depth_xmp_length > 0) {
            CHECK(api.context_add_XMP_metadata(ctx, depth_handle, r->depth_xmp, (int)r->depth_xmp_length));
        }
    }
    for (int i = 0; i < r->auxiliary_count; i++) {
        code = encode_grey(ctx, encoder, &r->auxiliaries[i], message, message_capacity);
        if (code != CHEIF_OK) goto done;
    }
    if (r->thumbnail) {
        CHECK(api.encoder_set_lossless(encoder, 0));
        CHECK(api.encoder_set_lossy_quality(encoder, r->quality < 0 ? 0 : r->quality > 100 ? 100 : r->quality));
        CHECK(api.image_create(r->thumbnail_width, r->thumbnail_height, heif_colorspace_RGB,
                               heif_chroma_interleaved_RGB, &thumbnail));
        CHECK(api.image_add_plane(thumbnail, heif_channel_interleaved, r->thumbnail_width, r->thumbnail_height, 8));
        size_t row = (size_t)r->thumbnail_width * 3;
        if (!fill_plane(thumbnail, heif_channel_interleaved, r->thumbnail, row, row, r->thumbnail_height)) {
            set_message(message, message_capacity, "libheif gave no writable thumbnail plane");
            code = CHEIF_ERR_LIBHEIF;
            goto done;
        }
        if (r->icc && r->icc_length > 0) {
            CHECK(api.image_set_raw_color_profile(thumbnail, "prof", r->icc, r->icc_length));
        }
        // The thumbnail is turned as the colour image is, so a reader shows both the same way up.
        CHECK(api.context_encode_image(ctx, thumbnail, encoder, options, &thumbnail_handle));
        // libheif's heif_context_assign_thumbnail hands its two images to the internal call in the other order
        // (1.15, and still in later releases), so the thumbnail goes first here; heif-info reading the file back
        // in the tests shows which image is which.
        CHECK(api.context_assign_thumbnail(ctx, thumbnail_handle, handle));
    }
    struct heif_writer writer = {1, write_to_buffer};
    CHECK(api.context_write(ctx, &writer, &buffer));
    if (buffer.failed) {
        set_message(message, message_capacity, "out of memory");
        code = CHEIF_ERR_MEMORY;
        goto done;
    }
    *out = buffer.data;
    *out_length = buffer.length;
    buffer.data = NULL;
done:
    free(buffer.data);
    if (thumbnail_handle) api.image_handle_release(thumbnail_handle);
    if (thumbnail) api.image_release(thumbnail);
    if (depth_handle) api.image_handle_release(depth_handle);
    if (handle) api.image_handle_release(handle);
    if (depth) api.image_release(depth);
    if (image) api.image_release(image);
    if (encoder) api.encoder_release(encoder);
    if (options) api.encoding_options_free(options);
    api.context_free(ctx);
    return code;
}

// Decodes an image item to packed 8-bit grey and copies the XMP attached to it (if any).
static int decode_grey(const struct heif_image_handle *handle, uint8_t **pixels, int *width, int *height,
                       uint8_t **xmp, size_t *xmp_length, char *message, size_t message_capacity) {
    int code = CHEIF_OK;
    struct heif_image *image = NULL;
    struct heif_error e;
    CHECK(decode_stored(handle, &image, heif_colorspace_monochrome, heif_chroma_monochrome));
    int w = api.image_get_width(image, heif_channel_Y), h = api.image_get_height(image, heif_channel_Y);
    int stride = 0;
    const uint8_t *plane = api.image_get_plane_readonly(image, heif_channel_Y, &stride);
    if (!plane || w <= 0 || h <= 0 || stride < w) {
        set_message(message, message_capacity, "the auxiliary image has no 8-bit grey plane");
        code = CHEIF_ERR_LIBHEIF;
        goto done;
    }
    uint8_t *copy = malloc((size_t)w * (size_t)h);
    if (!copy) {
        set_message(message, message_capacity, "out of memory");
        code = CHEIF_ERR_MEMORY;
        goto done;
    }
    for (int y = 0; y < h; y++) memcpy(copy + (size_t)y * (size_t)w, plane + (size_t)y * (size_t)stride, (size_t)w);
    heif_item_id ids[8];
    int n = api.image_handle_get_list_of_metadata_block_IDs(handle, "mime", ids, 8);
    for (int i = 0; i < n; i++) {
        const char *type = api.image_handle_get_metadata_content_type(handle, ids[i]);
        if (!type || strcmp(type, "application/rdf+xml") != 0) continue;
        size_t size = api.image_handle_get_metadata_size(handle, ids[i]);
        uint8_t *packet = malloc(size > 0 ? size : 1);
        if (!packet) break;
        e = api.image_handle_get_metadata(handle, ids[i], packet);
        if (e.code != 0) {
            free(packet);
            continue;
        }
        *xmp = packet;
        *xmp_length = size;
        break;
    }
    *pixels = copy;
    *width = w;
    *height = h;
done:
    if (image) api.image_release(image);
    return code;
}

// Finds, among the primary image's auxiliary images, the one a reader wants: CHEIF_OK with `*found` set (the caller
// releases it), or an error code with the message filled.
typedef int (*grey_finder)(struct heif_image_handle *primary, const char *type, struct heif_image_handle **found,
                           char *message, size_t message_capacity);

// The reading both grey-image readers share: the file opened, its primary image's handle, the image `find` picks,
// decoded to 8-bit grey with its XMP (decode_grey).
static int decode_found_grey(const uint8_t *data, size_t length, grey_finder find, const char *type, uint8_t **pixels,
                             int *width, int *height, uint8_t **xmp, size_t *xmp_length, char *message,
                             size_t message_capacity) {
    if (!data || !pixels || !width || !height || !xmp || !xmp_length) {
        set_message(message, message_capacity, "inconsistent decode request");
        return CHEIF_ERR_ARGUMENT;
    }
    *xmp = NULL;
    *xmp_length = 0;
    int code = CHEIF_OK;
    struct heif_context *ctx = api.context_alloc();
    struct heif_image_handle *primary = NULL, *found = NULL;
    struct heif_error e;
    if (!ctx) {
        set_message(message, message_capacity, "out of memory");
        return CHEIF_ERR_MEMORY;
    }
    CHECK(api.context_read_from_memory_without_copy(ctx, data, length, NULL));
    CHECK(api.context_get_primary_image_handle(ctx, &primary));
    code = find(primary, type, &found, message, message_capacity);
    if (code == CHEIF_OK) code = decode_grey(found, pixels, width, height, xmp, xmp_length, message, message_capacity);
done:
    if (found) api.image_handle_release(found);
    if (primary) api.image_handle_release(primary);
    api.context_free(ctx);
    return code;
}

// The depth image (libheif lists it apart from the other auxiliary images).
static int find_depth(struct heif_image_handle *primary, const char *type, struct heif_image_handle **found,
                      char *message, size_t message_capacity) {
    (void)type;
    heif_item_id id = 0;
    if (api.image_handle_get_list_of_depth_image_IDs(primary, &id, 1) < 1) {
        set_message(message, message_capacity, "the primary image has no depth image");
        return CHEIF_ERR_NO_DEPTH;
    }
    struct heif_error e = api.image_handle_get_depth_image_handle(primary, id, found);
    return e.code == 0 ? CHEIF_OK : fail(e, message, message_capacity);
}

int cheif_decode_depth(const uint8_t *data, size_t length, uint8_t **pixels, int *width, int *height,
                       uint8_t **xmp, size_t *xmp_length, char *message, size_t message_capacity) {
    if (!ready()) {
        set_message(message, message_capacity, "libheif.so.1 is not available");
        return CHEIF_ERR_UNAVAILABLE;
    }
    return decode_found_grey(data, length, find_depth, NULL, pixels, width, height, xmp, xmp_length, message,
                             message_capacity);
}

// Copies metadata block `id` of `handle` into a new buffer; NULL when it cannot be read.
static uint8_t *copy_metadata(const struct heif_image_handle *handle, heif_item_id id, size_t *length) {
    size_t size = api.image_handle_get_metadata_size(handle, id);
    if (size == 0) return NULL;
    uint8_t *block = malloc(size);
    if (!block) return NULL;
    struct heif_error e = api.image_handle_get_metadata(handle, id, block);
    if (e.code != 0) {
        free(block);
        return NULL;
    }
    *length = size;
    return block;
}

// Copies a decoded image's interleaved 8-bit RGB plane into a malloc'd buffer of packed rows; `what` names the
// image in messages. Refuses a plane of more than `maximum_pixels`.
static int packed_rgb(const struct heif_image *image, size_t maximum_pixels, uint8_t **rgb, int *width, int *height,
                      const char *what, char *message, size_t message_capacity) {
    int w = api.image_get_width(image, heif_channel_interleaved);
    int h = api.image_get_height(image, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *plane = api.image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (!plane || w <= 0 || h <= 0 || stride < 3 * w || (size_t)w * (size_t)h > maximum_pixels) {
        if (message && message_capacity > 0) snprintf(message, message_capacity, "%s has no 8-bit RGB plane", what);
        return CHEIF_ERR_LIBHEIF;
    }
    uint8_t *copy = malloc((size_t)w * (size_t)h * 3);
    if (!copy) {
        set_message(message, message_capacity, "out of memory");
        return CHEIF_ERR_MEMORY;
    }
    for (int y = 0; y < h; y++) memcpy(copy + (size_t)y * (size_t)w * 3, plane + (size_t)y * (size_t)stride, (size_t)w * 3);
    *rgb = copy;
    *width = w;
    *height = h;
    return CHEIF_OK;
}

int cheif_decode_primary(const uint8_t *data, size_t length, size_t maximum_pixels, cheif_decoded_image *out,
                         char *message, size_t message_capacity) {
    if (!data || !out) {
        set_message(message, message_capacity, "inconsistent decode request");
        return CHEIF_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    if (!cheif_hevc_decodable()) {
        set_message(message, message_capacity, "libheif.so.1 with an HEVC decoder is not available");
        return CHEIF_ERR_UNAVAILABLE;
    }
    int code = CHEIF_OK;
    struct heif_context *ctx = api.context_alloc();
    struct heif_image_handle *primary = NULL;
    struct heif_image *image = NULL;
    struct heif_error e;
    if (!ctx) {
        set_message(message, message_capacity, "out of memory");
        return CHEIF_ERR_MEMORY;
    }
    CHECK(api.context_read_from_memory_without_copy(ctx, data, length, NULL));
    CHECK(api.context_get_primary_image_handle(ctx, &primary));
    out->width = api.image_handle_get_width(primary);
    out->height = api.image_handle_get_height(primary);
    // The declared size is checked before anything is decoded.
    if (out->width <= 0 || out->height <= 0 ||
        (size_t)out->width * (size_t)out->height > maximum_pixels) {
        set_message(message, message_capacity, "the primary image's size is over the limit");
        code = CHEIF_ERR_TOO_LARGE;
        goto done;
    }
    CHECK(decode_stored(primary, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB));
    code = packed_rgb(image, maximum_pixels, &out->rgb, &out->width, &out->height, "the primary image", message,
                      message_capacity);
    if (code != CHEIF_OK) goto done;
    heif_item_id id = 0;
    if (api.image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &id, 1) >= 1) {
        out->exif = copy_metadata(primary, id, &out->exif_length);
    }
    size_t icc_size = api.image_handle_get_raw_color_profile_size(primary);
    if (icc_size > 0 && (out->icc = malloc(icc_size)) != NULL) {
        e = api.image_handle_get_raw_color_profile(primary, out->icc);
        if (e.code == 0) {
            out->icc_length = icc_size;
        } else {
            free(out->icc);
            out->icc = NULL;
        }
    }
done:
    if (code != CHEIF_OK && code != CHEIF_ERR_TOO_LARGE) {
        free(out->rgb);
        out->rgb = NULL;
    }
    if (image) api.image_release(image);
    if (primary) api.image_handle_release(primary);
    api.context_free(ctx);
    return code;
}

// The auxiliary image whose type (its `auxC` URN) is `type`, alpha and depth left out.
static int find_auxiliary(struct heif_image_handle *primary, const char *type, struct heif_image_handle **found,
                          char *message, size_t message_capacity) {
    heif_item_id ids[16];
    int n = api.image_handle_get_list_of_auxiliary_image_IDs(
        primary, LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH, ids, 16);
    for (int i = 0; i < n; i++) {
        struct heif_image_handle *aux = NULL;
        struct heif_error e = api.image_handle_get_auxiliary_image_handle(primary, ids[i], &aux);
        if (e.code != 0) return fail(e, message, message_capacity);
        const char *aux_type = NULL;
        e = api.image_handle_get_auxiliary_type(aux, &aux_type);
        int matches = e.code == 0 && aux_type && strcmp(aux_type, type) == 0;
        if (aux_type) api.image_handle_free_auxiliary_types(aux, &aux_type);
        if (matches) {
            *found = aux;
            return CHEIF_OK;
        }
        api.image_handle_release(aux);
    }
    set_message(message, message_capacity, "the primary image has no auxiliary image of that type");
    return CHEIF_ERR_NO_DEPTH;
}

int cheif_decode_auxiliary(const uint8_t *data, size_t length, const char *type, uint8_t **pixels, int *width,
                           int *height, uint8_t **xmp, size_t *xmp_length, char *message, size_t message_capacity) {
    if (!ready()) {
        set_message(message, message_capacity, "libheif.so.1 is not available");
        return CHEIF_ERR_UNAVAILABLE;
    }
    if (!api.image_handle_get_list_of_auxiliary_image_IDs || !api.image_handle_get_auxiliary_image_handle ||
        !api.image_handle_get_auxiliary_type || !api.image_handle_free_auxiliary_types) {
        set_message(message, message_capacity, "this libheif cannot list auxiliary images");
        return CHEIF_ERR_UNAVAILABLE;
    }
    if (!type) {
        set_message(message, message_capacity, "inconsistent decode request");
        return CHEIF_ERR_ARGUMENT;
    }
    return decode_found_grey(data, length, find_auxiliary, type, pixels, width, height, xmp, xmp_length, message,
                             message_capacity);
}

void cheif_free(void *pointer) { free(pointer); }

int cheif_decode_thumbnail(const uint8_t *data, size_t length, uint8_t **rgb, int *width, int *height, char *message,
                           size_t message_capacity) {
    if (!data || !rgb || !width || !height) {
        set_message(message, message_capacity, "inconsistent decode request");
        return CHEIF_ERR_ARGUMENT;
    }
    *rgb = NULL;
    if (!cheif_hevc_decodable()) {
        set_message(message, message_capacity, "libheif.so.1 with an HEVC decoder is not available");
        return CHEIF_ERR_UNAVAILABLE;
    }
    int code = CHEIF_OK;
    struct heif_context *ctx = api.context_alloc();
    struct heif_image_handle *primary = NULL, *thumbnail = NULL;
    struct heif_image *image = NULL;
    struct heif_error e;
    if (!ctx) {
        set_message(message, message_capacity, "out of memory");
        return CHEIF_ERR_MEMORY;
    }
    CHECK(api.context_read_from_memory_without_copy(ctx, data, length, NULL));
    CHECK(api.context_get_primary_image_handle(ctx, &primary));
    heif_item_id id = 0;
    if (api.image_handle_get_list_of_thumbnail_IDs(primary, &id, 1) < 1) {
        set_message(message, message_capacity, "the primary image has no thumbnail");
        code = CHEIF_ERR_NO_DEPTH;
        goto done;
    }
    CHECK(api.image_handle_get_thumbnail(primary, id, &thumbnail));
    // A thumbnail is small; one declaring more than a 16-megapixel picture is refused before decoding.
    if ((size_t)api.image_handle_get_width(thumbnail) * (size_t)api.image_handle_get_height(thumbnail) > (1u << 24)) {
        set_message(message, message_capacity, "the thumbnail's size is over the limit");
        code = CHEIF_ERR_TOO_LARGE;
        goto done;
    }
    CHECK(decode_stored(thumbnail, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB));
    code = packed_rgb(image, (size_t)1 << 24, rgb, width, height, "the thumbnail", message, message_capacity);
done:
    if (image) api.image_release(image);
    if (thumbnail) api.image_handle_release(thumbnail);
    if (primary) api.image_handle_release(primary);
    api.context_free(ctx);
    return code;
}
