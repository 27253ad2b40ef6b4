// See include/cffmpeg.h. The declarations below mirror FFmpeg 5.1's public ABI (libavutil 57,
// libavcodec 59, libavformat 59, libswscale 6): opaque pointers where the struct is not touched,
// and, where a field must be written, the struct laid out up to that field. The layouts hold for
// these major versions only; load() refuses any other.
#include "cffmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int num, den; } rational;

// AVDictionaryEntry (libavutil): a key and its value.
typedef struct {
    char *key;
    char *value;
} dictionary_entry;

// AVChannelLayout (libavutil 57).
typedef struct {
    int order;
    int nb_channels;
    uint64_t mask;
    void *opaque;
} channel_layout;

// AVFrame (libavutil 57) up to ch_layout: planes, sizes, format and pts for video; sample count and
// channel layout for audio, which av_frame_get_buffer needs.
typedef struct {
    uint8_t *data[8];
    int linesize[8];
    uint8_t **extended_data;
    int width, height;
    int nb_samples;
    int format;
    int key_frame;
    int pict_type;
    rational sample_aspect_ratio;
    int64_t pts;
    int64_t pkt_dts;
    rational time_base;
    int coded_picture_number;
    int display_picture_number;
    int quality;
    void *opaque;
    int repeat_pict;
    int interlaced_frame;
    int top_field_first;
    int palette_has_changed;
    int64_t reordered_opaque;
    int sample_rate;
    uint64_t channel_layout_mask;
    void *buf[8];
    void **extended_buf;
    int nb_extended_buf;
    void **side_data;
    int nb_side_data;
    int flags;
    int color_range, color_primaries, color_trc, colorspace, chroma_location;
    int64_t best_effort_timestamp;
    int64_t pkt_pos;
    int64_t pkt_duration;
    void *metadata;
    int decode_error_flags;
    int channels;
    int pkt_size;
    void *hw_frames_ctx;
    void *opaque_ref;
    size_t crop_top, crop_bottom, crop_left, crop_right;
    void *private_ref;
    channel_layout ch_layout;
} frame;

// AVPacket (libavcodec 59), whole: AVStream embeds one before the field needed there.
typedef struct {
    void *buf;
    int64_t pts;
    int64_t dts;
    uint8_t *data;
    int size;
    int stream_index;
    int flags;
    void *side_data;
    int side_data_elems;
    int64_t duration;
    int64_t pos;
    void *opaque;
    void *opaque_ref;
    rational time_base;
} packet;

// AVStream (libavformat 59, which has no AVClass member) up to codecpar.
typedef struct {
    int index;
    int id;
    void *priv_data;
    rational time_base;
    int64_t start_time;
    int64_t duration;
    int64_t nb_frames;
    int disposition;
    int discard;
    rational sample_aspect_ratio;
    void *metadata;
    rational avg_frame_rate;
    packet attached_pic;
    void *side_data;
    int nb_side_data;
    int event_flags;
    rational r_frame_rate;
    void *codecpar;
} stream;

// AVCodecParameters (libavcodec 59) up to format: the audio encoder's sample format has no AVOption,
// so it travels in parameters copied into the encoder's context.
typedef struct {
    int codec_type;
    int codec_id;
    uint32_t codec_tag;
    uint8_t *extradata;
    int extradata_size;
    int format;
} codec_parameters;

// AVFormatContext (libavformat 59) up to metadata: reading needs the streams, writing pb and the movie's
// metadata dictionary.
typedef struct {
    const void *av_class;
    const void *iformat;
    const void *oformat;
    void *priv_data;
    void *pb;
    int ctx_flags;
    unsigned nb_streams;
    stream **streams;
    char *url;
    int64_t start_time;
    int64_t duration;
    int64_t bit_rate;
    unsigned packet_size;
    int max_delay;
    int flags;
    int64_t probesize;
    int64_t max_analyze_duration;
    const uint8_t *key;
    int keylen;
    unsigned nb_programs;
    void **programs;
    int video_codec_id;
    int audio_codec_id;
    int subtitle_codec_id;
    unsigned max_index_size;
    unsigned max_picture_buffer;
    unsigned nb_chapters;
    void **chapters;
    void *metadata;
} format_context;

// AVCodecParameters (libavcodec 59) up to height, as reading a stream's size needs.
typedef struct {
    int codec_type;
    int codec_id;
    uint32_t codec_tag;
    uint8_t *extradata;
    int extradata_size;
    int format;
    int64_t bit_rate;
    int bits_per_coded_sample;
    int bits_per_raw_sample;
    int profile;
    int level;
    int width;
    int height;
} video_parameters;

// Layout checks against FFmpeg 5.1's headers (offsets measured with the real structs).
_Static_assert(offsetof(frame, pts) == 136, "AVFrame.pts");
_Static_assert(offsetof(frame, ch_layout) == 448, "AVFrame.ch_layout");
_Static_assert(sizeof(packet) == 104, "sizeof(AVPacket)");
_Static_assert(offsetof(packet, duration) == 64, "AVPacket.duration");
_Static_assert(offsetof(stream, avg_frame_rate) == 72, "AVStream.avg_frame_rate");
_Static_assert(offsetof(stream, codecpar) == 208, "AVStream.codecpar");
_Static_assert(offsetof(format_context, pb) == 32, "AVFormatContext.pb");
_Static_assert(offsetof(codec_parameters, format) == 28, "AVCodecParameters.format");
_Static_assert(offsetof(format_context, nb_streams) == 44, "AVFormatContext.nb_streams");
_Static_assert(offsetof(format_context, streams) == 48, "AVFormatContext.streams");
_Static_assert(offsetof(format_context, metadata) == 176, "AVFormatContext.metadata");
_Static_assert(offsetof(video_parameters, width) == 56, "AVCodecParameters.width");

enum { codec_id_h264 = 27, codec_id_hevc = 173, codec_id_aac = 86018, media_type_audio = 1 };
enum { pix_fmt_yuv420p = 0, pix_fmt_nv12 = 23 };
enum { sample_fmt_fltp = 8 };
enum { packet_side_data_display_matrix = 5 };  // AV_PKT_DATA_DISPLAYMATRIX
enum { picture_type_none = 0, picture_type_i = 1 };  // AV_PICTURE_TYPE_NONE, AV_PICTURE_TYPE_I
enum { opt_search_children = 1, avio_flag_write = 2, log_level_error = 16, sws_bilinear = 2, sws_cs_itu601 = 5 };
#define ERROR_AGAIN (-11)
#define ERROR_EOF (-(int)(('E') | ('O' << 8) | ('F' << 16) | ((unsigned)' ' << 24)))

static struct {
    unsigned (*avutil_version)(void);
    unsigned (*avcodec_version)(void);
    unsigned (*avformat_version)(void);
    unsigned (*swscale_version)(void);
    void (*log_set_level)(int);
    int (*strerror)(int, char *, size_t);
    frame *(*frame_alloc)(void);
    void (*frame_free)(frame **);
    int (*frame_get_buffer)(frame *, int);
    int (*frame_make_writable)(frame *);
    int (*channel_layout_default)(channel_layout *, int);
    int (*opt_set)(void *, const char *, const char *, int);
    int (*dict_set)(void **, const char *, const char *, int);
    const dictionary_entry *(*dict_get)(const void *, const char *, const dictionary_entry *, int);
    int (*opt_set_int)(void *, const char *, int64_t, int);
    int (*opt_set_q)(void *, const char *, rational, int);
    int (*opt_set_pixel_fmt)(void *, const char *, int, int);
    int (*opt_set_image_size)(void *, const char *, int, int, int);
    int (*opt_get_int)(void *, const char *, int, int64_t *);
    const void *(*find_encoder_by_name)(const char *);
    const void *(*find_encoder)(int);
    void *(*codec_alloc_context)(const void *);
    int (*codec_open)(void *, const void *, void **);
    void (*codec_free_context)(void **);
    int (*send_frame)(void *, const frame *);
    int (*receive_packet)(void *, packet *);
    int (*parameters_from_context)(void *, const void *);
    int (*parameters_to_context)(void *, const codec_parameters *);
    codec_parameters *(*parameters_alloc)(void);
    void (*parameters_free)(codec_parameters **);
    packet *(*packet_alloc)(void);
    void (*packet_free)(packet **);
    void (*packet_unref)(packet *);
    void (*packet_rescale_ts)(packet *, rational, rational);
    int (*alloc_output_context)(format_context **, const void *, const char *, const char *);
    stream *(*new_stream)(format_context *, const void *);
    uint8_t *(*stream_new_side_data)(stream *, int, size_t);
    void (*display_rotation_set)(int32_t *, double);
    int (*avio_open)(void **, const char *, int);
    int (*avio_closep)(void **);
    int (*write_header)(format_context *, void **);
    int (*interleaved_write_frame)(format_context *, packet *);
    int (*write_trailer)(format_context *);
    void (*free_context)(format_context *);
    void *(*sws_get_context)(int, int, int, int, int, int, int, void *, void *, const double *);
    int (*sws_scale)(void *, const uint8_t *const[], const int[], int, int, uint8_t *const[], const int[]);
    void (*sws_free_context)(void *);
    // Reading.
    int (*open_input)(format_context **, const char *, const void *, void **);
    int (*find_stream_info)(format_context *, void **);
    int (*find_best_stream)(format_context *, int, int, int, const void **, int);
    uint8_t *(*stream_get_side_data)(const stream *, int, size_t *);
    void (*close_input)(format_context **);
    int (*read_frame)(format_context *, packet *);
    int (*send_packet)(void *, const packet *);
    int (*receive_frame)(void *, frame *);
    void (*frame_unref)(frame *);
    const int *(*sws_get_coefficients)(int);
    int (*sws_set_colorspace_details)(void *, const int[4], int, const int[4], int, int, int, int);
    int (*get_pix_fmt)(const char *);
    void *(*sws_alloc_context)(void);
    int (*sws_init_context)(void *, void *, void *);
    // Segmented output, written to memory.
    void *(*malloc)(size_t);
    void (*free)(void *);
    void *(*avio_alloc_context)(unsigned char *, int, int, void *, int (*)(void *, uint8_t *, int),
                                int (*)(void *, uint8_t *, int), int64_t (*)(void *, int64_t, int));
    void (*avio_context_free)(void **);
    void (*avio_flush)(void *);
    int (*write_frame)(format_context *, packet *);
} api;

static int loaded = 0;  // 1 usable, -1 unusable
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(library, field, name)                    \
    do {                                                 \
        *(void **)(&api.field) = dlsym(library, name);   \
        if (!api.field) return 0;                        \
    } while (0)

#define RESOLVE_IN(table, library, field, name)    \
    do {                                           \
        *(void **)(&table.field) = dlsym(library, name); \
        if (!table.field) return 0;                \
    } while (0)

static int resolve_all(void *util, void *codec, void *format, void *scale) {
    RESOLVE(util, avutil_version, "avutil_version");
    RESOLVE(codec, avcodec_version, "avcodec_version");
    RESOLVE(format, avformat_version, "avformat_version");
    RESOLVE(scale, swscale_version, "swscale_version");
    RESOLVE(util, log_set_level, "av_log_set_level");
    RESOLVE(util, strerror, "av_strerror");
    RESOLVE(util, frame_alloc, "av_frame_alloc");
    RESOLVE(util, frame_free, "av_frame_free");
    RESOLVE(util, frame_get_buffer, "av_frame_get_buffer");
    RESOLVE(util, frame_make_writable, "av_frame_make_writable");
    RESOLVE(util, channel_layout_default, "av_channel_layout_default");
    RESOLVE(util, opt_set, "av_opt_set");
    RESOLVE(util, dict_set, "av_dict_set");
    RESOLVE(util, dict_get, "av_dict_get");
    RESOLVE(util, opt_set_int, "av_opt_set_int");
    RESOLVE(util, opt_set_q, "av_opt_set_q");
    RESOLVE(util, opt_set_pixel_fmt, "av_opt_set_pixel_fmt");
    RESOLVE(util, opt_set_image_size, "av_opt_set_image_size");
    RESOLVE(util, opt_get_int, "av_opt_get_int");
    RESOLVE(codec, find_encoder_by_name, "avcodec_find_encoder_by_name");
    RESOLVE(codec, find_encoder, "avcodec_find_encoder");
    RESOLVE(codec, codec_alloc_context, "avcodec_alloc_context3");
    RESOLVE(codec, codec_open, "avcodec_open2");
    RESOLVE(codec, codec_free_context, "avcodec_free_context");
    RESOLVE(codec, send_frame, "avcodec_send_frame");
    RESOLVE(codec, receive_packet, "avcodec_receive_packet");
    RESOLVE(codec, parameters_from_context, "avcodec_parameters_from_context");
    RESOLVE(codec, parameters_to_context, "avcodec_parameters_to_context");
    RESOLVE(codec, parameters_alloc, "avcodec_parameters_alloc");
    RESOLVE(codec, parameters_free, "avcodec_parameters_free");
    RESOLVE(codec, packet_alloc, "av_packet_alloc");
    RESOLVE(codec, packet_free, "av_packet_free");
    RESOLVE(codec, packet_unref, "av_packet_unref");
    RESOLVE(codec, packet_rescale_ts, "av_packet_rescale_ts");
    RESOLVE(format, alloc_output_context, "avformat_alloc_output_context2");
    RESOLVE(format, new_stream, "avformat_new_stream");
    RESOLVE(format, stream_new_side_data, "av_stream_new_side_data");
    RESOLVE(util, display_rotation_set, "av_display_rotation_set");
    RESOLVE(format, avio_open, "avio_open");
    RESOLVE(format, avio_closep, "avio_closep");
    RESOLVE(format, write_header, "avformat_write_header");
    RESOLVE(format, interleaved_write_frame, "av_interleaved_write_frame");
    RESOLVE(format, write_trailer, "av_write_trailer");
    RESOLVE(format, free_context, "avformat_free_context");
    RESOLVE(scale, sws_get_context, "sws_getContext");
    RESOLVE(scale, sws_scale, "sws_scale");
    RESOLVE(scale, sws_free_context, "sws_freeContext");
    RESOLVE(format, open_input, "avformat_open_input");
    RESOLVE(format, find_stream_info, "avformat_find_stream_info");
    RESOLVE(format, find_best_stream, "av_find_best_stream");
    RESOLVE(format, stream_get_side_data, "av_stream_get_side_data");
    RESOLVE(format, close_input, "avformat_close_input");
    RESOLVE(format, read_frame, "av_read_frame");
    RESOLVE(codec, send_packet, "avcodec_send_packet");
    RESOLVE(codec, receive_frame, "avcodec_receive_frame");
    RESOLVE(util, frame_unref, "av_frame_unref");
    RESOLVE(scale, sws_get_coefficients, "sws_getCoefficients");
    RESOLVE(scale, sws_set_colorspace_details, "sws_setColorspaceDetails");
    RESOLVE(util, get_pix_fmt, "av_get_pix_fmt");
    RESOLVE(scale, sws_alloc_context, "sws_alloc_context");
    RESOLVE(scale, sws_init_context, "sws_init_context");
    RESOLVE(util, malloc, "av_malloc");
    RESOLVE(util, free, "av_free");
    RESOLVE(format, avio_alloc_context, "avio_alloc_context");
    RESOLVE(format, avio_context_free, "avio_context_free");
    RESOLVE(format, avio_flush, "avio_flush");
    RESOLVE(format, write_frame, "av_write_frame");
    return 1;
}

static void load(void) {
    loaded = -1;
    // The libraries stay loaded for the life of the process: codecs hold global state.
    void *util = dlopen("libavutil.so.57", RTLD_NOW | RTLD_LOCAL);
    void *codec = util ? dlopen("libavcodec.so.59", RTLD_NOW | RTLD_LOCAL) : NULL;
    void *format = codec ? dlopen("libavformat.so.59", RTLD_NOW | RTLD_LOCAL) : NULL;
    void *scale = format ? dlopen("libswscale.so.6", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!scale || !resolve_all(util, codec, format, scale)) return;
    // The struct layouts above belong to these majors (the version number's top bits).
    if (api.avutil_version() >> 16 != 57 || api.avcodec_version() >> 16 != 59 ||
        api.avformat_version() >> 16 != 59 || api.swscale_version() >> 16 != 6)
        return;
    api.log_set_level(log_level_error);
    loaded = 1;
}

int cffmpeg_available(void) {
    pthread_once(&once, load);
    return loaded == 1;
}

static void set_message(char *message, size_t capacity, const char *text) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", text);
}

static int fail(int code, const char *what, char *message, size_t capacity) {
    if (message && capacity > 0) {
        char reason[128] = "unknown error";
        api.strerror(code, reason, sizeof reason);
        snprintf(message, capacity, "%s: %s", what, reason);
    }
    return CFFMPEG_ERR_LIBRARY;
}

/// The encoder for a codec: the usual library first, then whatever FFmpeg offers for the codec.
static const void *video_encoder(int codec) {
    if (!cffmpeg_available()) return NULL;
    const char *names[2] = {NULL, NULL};
    if (codec == CFFMPEG_CODEC_H264) {
        names[0] = "libx264";
        names[1] = "libopenh264";
    } else if (codec == CFFMPEG_CODEC_HEVC) {
        names[0] = "libx265";
    } else {
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        const void *found = names[i] ? api.find_encoder_by_name(names[i]) : NULL;
        if (found) return found;
    }
    return api.find_encoder(codec == CFFMPEG_CODEC_H264 ? codec_id_h264 : codec_id_hevc);
}

int cffmpeg_has_encoder(int codec) {
    return video_encoder(codec) != NULL && api.find_encoder_by_name("aac") != NULL;
}

/// libswresample, loaded only when a movie's audio needs another rate.
enum { sample_fmt_s16 = 1, sample_fmt_flt = 3 };
static struct {
    unsigned (*version)(void);
    int (*alloc_set_opts2)(void **, const channel_layout *, int, int, const channel_layout *, int, int, int, void *);
    int (*init)(void *);
    int (*convert)(void *, uint8_t **, int, const uint8_t **, int);
    int (*get_out_samples)(void *, int);
    void (*free)(void **);
} swr;
static int swr_loaded = 0;  // 1 usable, -1 unusable
static pthread_once_t swr_once = PTHREAD_ONCE_INIT;

static int resolve_swr(void *library) {
    RESOLVE_IN(swr, library, version, "swresample_version");
    RESOLVE_IN(swr, library, alloc_set_opts2, "swr_alloc_set_opts2");
    RESOLVE_IN(swr, library, init, "swr_init");
    RESOLVE_IN(swr, library, convert, "swr_convert");
    RESOLVE_IN(swr, library, get_out_samples, "swr_get_out_samples");
    RESOLVE_IN(swr, library, free, "swr_free");
    return swr.version() >> 16 == 4;
}

static void load_swr(void) {
    void *library = dlopen("libswresample.so.4", RTLD_NOW | RTLD_LOCAL);
    swr_loaded = library && resolve_swr(library) ? 1 : -1;
}

struct cffmpeg_movie {
    format_context *format;
    void *video;
    void *audio;
    stream *video_stream;
    stream *audio_stream;
    rational video_time_base;
    rational audio_time_base;
    int64_t frame_ticks;
    int audio_channels;
    /// Resampling to the track's rate: the converter, the mono samples converted but not yet encoded,
    /// and the presentation time, in track samples, of the first of them.
    void *resampler;
    float *resampled;
    int resampled_count, resampled_capacity;
    int64_t resampled_pts;
    int resampling_started;
    int sound_input_rate;
    frame *picture;
    frame *sound;
    packet *packet;
    void *scaler;
    /// The converter of `cffmpeg_movie_write_picture`, for the last layout and size it was given.
    void *picture_scaler;
    int picture_format, picture_width, picture_height;
    int width, height;
    int header_written;
    int64_t bytes;
    /// A segmented movie's output: the I/O context writing into `output`, which grows as bytes come.
    int segmented;
    void *memory_io;
    uint8_t *output;
    size_t output_count, output_capacity;
    int output_failed;
    /// Whether the next picture is to be a key frame starting a new coded sequence.
    int force_key_frame;
    /// Where the session ends, in video ticks (0: not ended): the picture shown then lasts only until it.
    int64_t video_end;
};

/// AVIOContext (libavformat 59) up to its buffer, which the context may have replaced by the time it is freed.
typedef struct {
    const void *av_class;
    unsigned char *buffer;
} io_context_head;

/// The I/O context's sink: appends what the muxer writes to the movie's output.
static int write_to_memory(void *opaque, uint8_t *bytes, int count) {
    cffmpeg_movie *m = opaque;
    if (count <= 0) return 0;
    if (m->output_count + (size_t)count > m->output_capacity) {
        size_t grown = (m->output_count + (size_t)count) * 2;
        uint8_t *more = realloc(m->output, grown);
        if (!more) {
            m->output_failed = 1;
            return -12;  // AVERROR(ENOMEM)
        }
        m->output = more;
        m->output_capacity = grown;
    }
    memcpy(m->output + m->output_count, bytes, (size_t)count);
    m->output_count += (size_t)count;
    return count;
}

static void free_memory_io(cffmpeg_movie *m) {
    if (!m->memory_io) return;
    io_context_head *head = m->memory_io;
    api.free(head->buffer);
    api.avio_context_free(&m->memory_io);
    if (m->format) m->format->pb = NULL;
}

static void release(cffmpeg_movie *m) {
    if (!m) return;
    free_memory_io(m);
    free(m->output);
    if (m->format && m->format->pb) api.avio_closep(&m->format->pb);
    if (m->format) api.free_context(m->format);
    if (m->video) api.codec_free_context(&m->video);
    if (m->audio) api.codec_free_context(&m->audio);
    if (m->picture) api.frame_free(&m->picture);
    if (m->sound) api.frame_free(&m->sound);
    if (m->packet) api.packet_free(&m->packet);
    if (m->scaler) api.sws_free_context(m->scaler);
    if (m->picture_scaler) api.sws_free_context(m->picture_scaler);
    if (m->resampler) swr.free(&m->resampler);
    free(m->resampled);
    free(m);
}

/// Opens an encoder and its stream. The options are set by name (AVOptions), never by field.
static int open_video(cffmpeg_movie *m, const cffmpeg_movie_request *r, char *message, size_t capacity) {
    const void *codec = video_encoder(r->codec);
    if (!codec) {
        set_message(message, capacity, "no encoder for the codec in this FFmpeg");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    m->video = api.codec_alloc_context(codec);
    if (!m->video) return CFFMPEG_ERR_MEMORY;
    // Timestamps count ticks of the timescale; the encoders take their planned frame rate from the
    // time base and the ticks a frame lasts (x264 and x265 both read it so).
    m->video_time_base = (rational){1, r->timescale};
    m->frame_ticks = r->frame_ticks;
    api.opt_set_image_size(m->video, "video_size", r->width, r->height, 0);
    api.opt_set_pixel_fmt(m->video, "pixel_format", pix_fmt_yuv420p, 0);
    api.opt_set_q(m->video, "time_base", m->video_time_base, 0);
    api.opt_set_int(m->video, "ticks_per_frame", r->frame_ticks, 0);
    api.opt_set_int(m->video, "b", r->bit_rate, 0);
    api.opt_set_int(m->video, "g", r->key_interval, 0);
    // No B-frames, as in a phone's camera recordings: frames leave the encoder in order, so
    // presentation and decoding times agree and the track starts at zero with no edit list.
    api.opt_set_int(m->video, "bf", 0, 0);
    // Limited ("video") range and BT.601, as the frames are converted (and tagged by iPhones).
    api.opt_set(m->video, "color_range", "tv", 0);
    api.opt_set(m->video, "colorspace", "smpte170m", 0);
    // QuickTime and MPEG-4 keep the parameter sets in the sample description, not in the stream.
    api.opt_set(m->video, "flags", "+global_header", 0);
    // Speed over size: the picture is cheap, encoding is the cost of recording. x265 is several
    // times slower than x264 at equal presets, so it gets the fastest one.
    api.opt_set(m->video, "preset", r->codec == CFFMPEG_CODEC_HEVC ? "ultrafast" : "veryfast", opt_search_children);
    if (r->codec == CFFMPEG_CODEC_HEVC) {
        api.opt_set(m->video, "x265-params", "log-level=error", opt_search_children);
        // Apple's players want HEVC tagged 'hvc1' (parameter sets in the sample description).
        api.opt_set_int(m->video, "codec_tag", 'h' | ('v' << 8) | ('c' << 16) | ('1' << 24), 0);
    }
    if (r->segmented) {
        // A fragment is cut before a forced key frame: every earlier picture must have left the encoder by then, so
        // it holds none back for look-ahead, and the forced picture starts a new coded sequence (IDR).
        api.opt_set(m->video, "tune", "zerolatency", opt_search_children);
        api.opt_set_int(m->video, "forced-idr", 1, opt_search_children);
    }
    int status = api.codec_open(m->video, codec, NULL);
    if (status < 0) return fail(status, "opening the video encoder", message, capacity);
    m->video_stream = api.new_stream(m->format, NULL);
    if (!m->video_stream) return CFFMPEG_ERR_MEMORY;
    m->video_stream->time_base = m->video_time_base;
    m->video_stream->avg_frame_rate = (rational){r->timescale, r->frame_ticks};
    status = api.parameters_from_context(m->video_stream->codecpar, m->video);
    if (status < 0) return fail(status, "describing the video stream", message, capacity);
    int turn = ((r->rotation_degrees % 360) + 360) % 360;
    if (turn != 0) {
        // QuickTime and MPEG-4 keep a recording's orientation in the track header's matrix, which the muxer
        // writes from the stream's display matrix. av_display_rotation_set takes the clockwise angle, as the
        // request does (ffprobe then states the anticlockwise one, −90 for a portrait recording).
        int32_t *matrix =
            (int32_t *)api.stream_new_side_data(m->video_stream, packet_side_data_display_matrix, 9 * sizeof(int32_t));
        if (!matrix) return CFFMPEG_ERR_MEMORY;
        api.display_rotation_set(matrix, (double)turn);
        // The translation that keeps the turned picture at the origin, as a phone's recordings carry it
        // (so code that applies the track's transform as it stands draws on the canvas): the stored
        // height across for a quarter turn, both sizes for a half turn, the width down for three
        // quarters. 16.16 fixed point, as the matrix's first two columns.
        int64_t tx = turn == 90 ? r->height : turn == 180 ? r->width : 0;
        int64_t ty = turn == 180 ? r->height : turn == 270 ? r->width : 0;
        matrix[6] = (int32_t)(tx * 65536);
        matrix[7] = (int32_t)(ty * 65536);
    }

    m->picture = api.frame_alloc();
    if (!m->picture) return CFFMPEG_ERR_MEMORY;
    m->picture->width = r->width;
    m->picture->height = r->height;
    m->picture->format = pix_fmt_yuv420p;
    status = api.frame_get_buffer(m->picture, 0);
    if (status < 0) return fail(status, "allocating a picture", message, capacity);
    m->scaler = api.sws_get_context(r->width, r->height, pix_fmt_nv12, r->width, r->height, pix_fmt_yuv420p,
                                    sws_bilinear, NULL, NULL, NULL);
    return m->scaler ? CFFMPEG_OK : CFFMPEG_ERR_MEMORY;
}

/// A converter of mono 16-bit samples at `from` Hz to mono floats at `to` Hz.
static int open_resampler(cffmpeg_movie *m, int from, int to, char *message, size_t capacity) {
    pthread_once(&swr_once, load_swr);
    if (swr_loaded != 1) {
        set_message(message, capacity, "audio at another rate needs libswresample 4 (Debian: libswresample4)");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    channel_layout mono;
    api.channel_layout_default(&mono, 1);
    int status = swr.alloc_set_opts2(&m->resampler, &mono, sample_fmt_flt, to, &mono, sample_fmt_s16, from, 0, NULL);
    if (status < 0 || !m->resampler) return fail(status, "preparing the resampler", message, capacity);
    status = swr.init(m->resampler);
    return status < 0 ? fail(status, "preparing the resampler", message, capacity) : CFFMPEG_OK;
}

static int open_audio(cffmpeg_movie *m, const cffmpeg_movie_request *r, char *message, size_t capacity) {
    const void *codec = api.find_encoder_by_name("aac");
    if (!codec) {
        set_message(message, capacity, "no AAC encoder in this FFmpeg");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    m->audio = api.codec_alloc_context(codec);
    if (!m->audio) return CFFMPEG_ERR_MEMORY;
    int rate = r->audio_output_rate > 0 ? r->audio_output_rate : r->audio_sample_rate;
    m->audio_time_base = (rational){1, rate};
    m->sound_input_rate = r->audio_sample_rate;
    codec_parameters *parameters = api.parameters_alloc();
    if (!parameters) return CFFMPEG_ERR_MEMORY;
    parameters->codec_type = media_type_audio;
    parameters->codec_id = codec_id_aac;
    parameters->format = sample_fmt_fltp;  // FFmpeg's AAC encoder takes planar floats only
    int copied = api.parameters_to_context(m->audio, parameters);
    api.parameters_free(&parameters);
    if (copied < 0) return fail(copied, "setting the sample format", message, capacity);
    api.opt_set_int(m->audio, "ar", rate, 0);
    m->audio_channels = r->audio_channels == 2 ? 2 : 1;
    api.opt_set(m->audio, "ch_layout", m->audio_channels == 2 ? "stereo" : "mono", 0);
    api.opt_set_q(m->audio, "time_base", m->audio_time_base, 0);
    api.opt_set_int(m->audio, "b", r->audio_bit_rate > 0 ? r->audio_bit_rate : 64000, 0);
    api.opt_set(m->audio, "flags", "+global_header", 0);
    int status = api.codec_open(m->audio, codec, NULL);
    if (status < 0) return fail(status, "opening the AAC encoder", message, capacity);
    int64_t frame_size = 0;
    api.opt_get_int(m->audio, "frame_size", 0, &frame_size);
    if (frame_size != 1024) {
        set_message(message, capacity, "the AAC encoder does not take 1,024-sample frames");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    m->audio_stream = api.new_stream(m->format, NULL);
    if (!m->audio_stream) return CFFMPEG_ERR_MEMORY;
    m->audio_stream->time_base = m->audio_time_base;
    status = api.parameters_from_context(m->audio_stream->codecpar, m->audio);
    if (status < 0) return fail(status, "describing the audio stream", message, capacity);

    m->sound = api.frame_alloc();
    if (!m->sound) return CFFMPEG_ERR_MEMORY;
    m->sound->nb_samples = 1024;
    m->sound->format = sample_fmt_fltp;
    m->sound->sample_rate = rate;
    api.channel_layout_default(&m->sound->ch_layout, m->audio_channels);
    status = api.frame_get_buffer(m->sound, 0);
    if (status < 0) return fail(status, "allocating audio samples", message, capacity);
    return rate == r->audio_sample_rate ? CFFMPEG_OK : open_resampler(m, r->audio_sample_rate, rate, message, capacity);
}

int cffmpeg_movie_open(const cffmpeg_movie_request *r, cffmpeg_movie **out, char *message, size_t capacity) {
    *out = NULL;
    if (!cffmpeg_available()) {
        set_message(message, capacity, "FFmpeg 5.1's libraries are not installed (" CFFMPEG_PACKAGES ")");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    if ((!r->path && !r->segmented) || !r->container || r->width <= 0 || r->height <= 0 || r->width % 2 || r->height % 2 ||
        r->frame_ticks <= 0 || r->timescale <= 0 || r->rotation_degrees % 90 != 0) {
        set_message(message, capacity, "invalid movie request");
        return CFFMPEG_ERR_ARGUMENT;
    }
    cffmpeg_movie *m = calloc(1, sizeof *m);
    if (!m) return CFFMPEG_ERR_MEMORY;
    m->width = r->width;
    m->height = r->height;
    m->segmented = r->segmented;
    int status = api.alloc_output_context(&m->format, NULL, r->container, r->segmented ? NULL : r->path);
    if (status < 0 || !m->format) {
        release(m);
        return fail(status, "choosing the container", message, capacity);
    }
    int result = open_video(m, r, message, capacity);
    if (result == CFFMPEG_OK && r->audio_sample_rate > 0) result = open_audio(m, r, message, capacity);
    m->packet = result == CFFMPEG_OK ? api.packet_alloc() : NULL;
    if (result == CFFMPEG_OK && !m->packet) result = CFFMPEG_ERR_MEMORY;
    if (result != CFFMPEG_OK) {
        release(m);
        return result;
    }
    if (r->segmented) {
        // Fragmented MPEG-4 in memory, cut where the caller flushes: an initialization segment (ftyp and a moov
        // without samples), then fragments whose sample offsets count from their own moof, and no index at the end.
        const int size = 64 * 1024;
        unsigned char *buffer = api.malloc(size);
        m->memory_io = buffer ? api.avio_alloc_context(buffer, size, 1, m, NULL, write_to_memory, NULL) : NULL;
        if (!m->memory_io) {
            if (buffer) api.free(buffer);
            release(m);
            return CFFMPEG_ERR_MEMORY;
        }
        m->format->pb = m->memory_io;
        api.opt_set(m->format, "movflags",
                    r->segmented == 2 ? "+frag_custom+empty_moov+default_base_moof+skip_trailer+cmaf"
                                      : "+frag_custom+empty_moov+default_base_moof+skip_trailer",
                    opt_search_children);
    } else {
        status = api.avio_open(&m->format->pb, r->path, avio_flag_write);
        if (status < 0) {
            release(m);
            return fail(status, "creating the file", message, capacity);
        }
    }
    if (!r->segmented && r->fragment_microseconds > 0) {
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)r->fragment_microseconds);
        api.opt_set(m->format, "frag_duration", text, opt_search_children);
        api.opt_set(m->format, "movflags", "+delay_moov", opt_search_children);
    } else if (!r->segmented && r->fast_start) {
        // The muxer rewrites the finished file with its movie box first, reading it back by the same name.
        api.opt_set(m->format, "movflags", "+faststart", opt_search_children);
    }
    if (r->metadata_count > 0) {
        // Each entry becomes a QuickTime metadata item ('mdta' key in the movie's 'keys' and 'ilst'
        // boxes), as Apple's capture writes its com.apple.quicktime.* items.
        for (int i = 0; i < r->metadata_count; i++) {
            status = api.dict_set(&m->format->metadata, r->metadata[2 * i], r->metadata[2 * i + 1], 0);
            if (status < 0) {
                release(m);
                return fail(status, "adding the movie's metadata", message, capacity);
            }
        }
        api.opt_set(m->format, "movflags", "+use_metadata_tags", opt_search_children);
    }
    status = api.write_header(m->format, NULL);
    if (status < 0) {
        release(m);
        return fail(status, "writing the movie header", message, capacity);
    }
    m->header_written = 1;
    if (m->segmented) api.avio_flush(m->format->pb);
    *out = m;
    return CFFMPEG_OK;
}

/// Sends a frame (NULL drains) and writes every packet the encoder has ready.
static int encode(cffmpeg_movie *m, void *encoder, stream *s, rational time_base, int64_t duration,
                  const frame *f, char *message, size_t capacity) {
    int status = api.send_frame(encoder, f);
    if (status < 0) return fail(status, "encoding", message, capacity);
    for (;;) {
        status = api.receive_packet(encoder, m->packet);
        if (status == ERROR_AGAIN || status == ERROR_EOF) return CFFMPEG_OK;
        if (status < 0) return fail(status, "encoding", message, capacity);
        m->packet->stream_index = s->index;
        // Each frame lasts one tick of its encoder's clock; the muxer needs it for the last sample.
        if (m->packet->duration == 0) m->packet->duration = duration;
        // The picture on screen when the session ends is cut short there, so the movie ends with the session.
        if (encoder == m->video && m->video_end > 0 && m->packet->pts != INT64_MIN && m->packet->pts < m->video_end &&
            m->packet->pts + m->packet->duration > m->video_end)
            m->packet->duration = m->video_end - m->packet->pts;
        api.packet_rescale_ts(m->packet, time_base, s->time_base);
        m->bytes += m->packet->size;
        status = api.interleaved_write_frame(m->format, m->packet);
        api.packet_unref(m->packet);
        if (status < 0) return fail(status, "writing the movie", message, capacity);
    }
}

int cffmpeg_movie_write_video(cffmpeg_movie *m, const uint8_t *luma, size_t luma_stride, const uint8_t *chroma,
                              size_t chroma_stride, int64_t frame_index, char *message, size_t capacity) {
    int status = api.frame_make_writable(m->picture);
    if (status < 0) return fail(status, "reusing the picture", message, capacity);
    const uint8_t *planes[4] = {luma, chroma, NULL, NULL};
    const int strides[4] = {(int)luma_stride, (int)chroma_stride, 0, 0};
    api.sws_scale(m->scaler, planes, strides, 0, m->height, m->picture->data, m->picture->linesize);
    m->picture->pts = frame_index * m->frame_ticks;
    m->picture->pict_type = m->force_key_frame ? picture_type_i : picture_type_none;
    m->force_key_frame = 0;
    return encode(m, m->video, m->video_stream, m->video_time_base, m->frame_ticks, m->picture, message, capacity);
}

/// FFmpeg's pixel format for a picture layout, and whether its Y'CbCr is full range; -1 when unknown.
static int picture_pixel_format(int layout, int *full_range) {
    *full_range = layout == CFFMPEG_PICTURE_NV12_FULL || layout == CFFMPEG_PICTURE_P010_FULL;
    switch (layout) {
    case CFFMPEG_PICTURE_NV12:
    case CFFMPEG_PICTURE_NV12_FULL: return pix_fmt_nv12;
    case CFFMPEG_PICTURE_P010:
    case CFFMPEG_PICTURE_P010_FULL: return api.get_pix_fmt("p010le");
    case CFFMPEG_PICTURE_BGRA: return api.get_pix_fmt("bgra");
    case CFFMPEG_PICTURE_ARGB: return api.get_pix_fmt("argb");
    default: return -1;
    }
}

/// The converter from a picture's layout and size to the movie's pictures, made again when either changes.
static int picture_scaler(cffmpeg_movie *m, const cffmpeg_picture *p, char *message, size_t capacity) {
    if (m->picture_scaler && m->picture_format == p->format && m->picture_width == p->width &&
        m->picture_height == p->height)
        return CFFMPEG_OK;
    int full_range = 0;
    int source = picture_pixel_format(p->format, &full_range);
    if (source < 0 || p->width <= 0 || p->height <= 0) {
        set_message(message, capacity, "unsupported picture layout");
        return CFFMPEG_ERR_ARGUMENT;
    }
    if (m->picture_scaler) api.sws_free_context(m->picture_scaler);
    // The ranges are options set before the converter is made: set afterwards, a same-size Y'CbCr
    // source would take swscale's plain copy, which ignores them.
    void *scaler = api.sws_alloc_context();
    m->picture_scaler = scaler;
    if (!scaler) return CFFMPEG_ERR_MEMORY;
    api.opt_set_int(scaler, "srcw", p->width, 0);
    api.opt_set_int(scaler, "srch", p->height, 0);
    api.opt_set_int(scaler, "src_format", source, 0);
    api.opt_set_int(scaler, "dstw", m->width, 0);
    api.opt_set_int(scaler, "dsth", m->height, 0);
    api.opt_set_int(scaler, "dst_format", pix_fmt_yuv420p, 0);
    api.opt_set_int(scaler, "sws_flags", sws_bilinear, 0);
    api.opt_set_int(scaler, "src_range", full_range, 0);
    api.opt_set_int(scaler, "dst_range", 0, 0);
    int status = api.sws_init_context(scaler, NULL, NULL);
    if (status < 0) {
        // Never leave a half-made converter to be found by the next picture of the same layout.
        api.sws_free_context(scaler);
        m->picture_scaler = NULL;
        return fail(status, "preparing the picture converter", message, capacity);
    }
    // BT.601 on both sides, the source's range in and video range out, as the stream is tagged.
    const int *bt601 = api.sws_get_coefficients(sws_cs_itu601);
    api.sws_set_colorspace_details(scaler, bt601, full_range, bt601, 0, 0, 1 << 16, 1 << 16);
    m->picture_format = p->format;
    m->picture_width = p->width;
    m->picture_height = p->height;
    return CFFMPEG_OK;
}

int cffmpeg_movie_write_picture(cffmpeg_movie *m, const cffmpeg_picture *p, int64_t ticks, char *message,
                                size_t capacity) {
    int status = picture_scaler(m, p, message, capacity);
    if (status != CFFMPEG_OK) return status;
    status = api.frame_make_writable(m->picture);
    if (status < 0) return fail(status, "reusing the picture", message, capacity);
    const uint8_t *planes[4] = {p->planes[0], p->planes[1], NULL, NULL};
    const int strides[4] = {(int)p->strides[0], (int)p->strides[1], 0, 0};
    api.sws_scale(m->picture_scaler, planes, strides, 0, p->height, m->picture->data, m->picture->linesize);
    m->picture->pts = ticks;
    m->picture->pict_type = m->force_key_frame ? picture_type_i : picture_type_none;
    m->force_key_frame = 0;
    return encode(m, m->video, m->video_stream, m->video_time_base, m->frame_ticks, m->picture, message, capacity);
}

/// Encodes 1,024 mono samples at `pts`, in every channel of the track.
static int encode_sound(cffmpeg_movie *m, const float *mono, int64_t pts, char *message, size_t capacity) {
    int status = api.frame_make_writable(m->sound);
    if (status < 0) return fail(status, "reusing the audio frame", message, capacity);
    // Planar samples: each channel gets the same mono signal.
    for (int c = 0; c < m->audio_channels; c++) memcpy(m->sound->data[c], mono, 1024 * sizeof(float));
    m->sound->pts = pts;
    return encode(m, m->audio, m->audio_stream, m->audio_time_base, 1024, m->sound, message, capacity);
}

/// Encodes every whole 1,024-sample frame of the resampled samples, and with `pad` the rest filled with silence.
static int encode_resampled(cffmpeg_movie *m, int pad, char *message, size_t capacity) {
    if (pad && m->resampled_count % 1024 != 0) {
        int rest = 1024 - m->resampled_count % 1024;
        memset(m->resampled + m->resampled_count, 0, (size_t)rest * sizeof(float));
        m->resampled_count += rest;
    }
    int used = 0;
    int status = CFFMPEG_OK;
    while (status == CFFMPEG_OK && m->resampled_count - used >= 1024) {
        status = encode_sound(m, m->resampled + used, m->resampled_pts, message, capacity);
        used += 1024;
        m->resampled_pts += 1024;
    }
    memmove(m->resampled, m->resampled + used, (size_t)(m->resampled_count - used) * sizeof(float));
    m->resampled_count -= used;
    return status;
}

/// Converts `count` samples (none to flush the converter) to the track's rate and encodes what fills frames.
static int resample_audio(cffmpeg_movie *m, const int16_t *samples, int count, int64_t sample_index, char *message,
                          size_t capacity) {
    if (!m->resampling_started) {
        // The first sample's time at the track's rate; later buffers follow on without gaps.
        m->resampled_pts = (sample_index * m->audio_time_base.den + m->sound_input_rate / 2) / m->sound_input_rate;
        m->resampling_started = 1;
    }
    // Room for the converted samples and a frame of padding.
    int room = swr.get_out_samples(m->resampler, count) + 1024;
    if (m->resampled_count + room > m->resampled_capacity) {
        int grown = m->resampled_count + room;
        float *more = realloc(m->resampled, (size_t)grown * sizeof(float));
        if (!more) return CFFMPEG_ERR_MEMORY;
        m->resampled = more;
        m->resampled_capacity = grown;
    }
    uint8_t *out = (uint8_t *)(m->resampled + m->resampled_count);
    const uint8_t *in = (const uint8_t *)samples;
    int made = swr.convert(m->resampler, &out, room - 1024, samples ? &in : NULL, count);
    if (made < 0) return fail(made, "resampling audio", message, capacity);
    m->resampled_count += made;
    return encode_resampled(m, samples == NULL, message, capacity);
}

int cffmpeg_movie_write_audio(cffmpeg_movie *m, const int16_t *samples, int count, int64_t sample_index,
                              char *message, size_t capacity) {
    if (!m->audio) return CFFMPEG_OK;
    if (count != 1024) {
        set_message(message, capacity, "audio comes in 1,024-sample buffers");
        return CFFMPEG_ERR_ARGUMENT;
    }
    if (m->resampler) return resample_audio(m, samples, count, sample_index, message, capacity);
    float mono[1024];
    for (int i = 0; i < count; i++) mono[i] = (float)samples[i] / 32768.0f;
    return encode_sound(m, mono, sample_index, message, capacity);
}

int64_t cffmpeg_movie_bytes(const cffmpeg_movie *m) { return m ? m->bytes : 0; }

void cffmpeg_movie_force_key_frame(cffmpeg_movie *m) {
    if (m) m->force_key_frame = 1;
}

void cffmpeg_movie_end_video(cffmpeg_movie *m, int64_t ticks) {
    if (m && ticks > 0) m->video_end = ticks;
}

int cffmpeg_movie_flush_fragment(cffmpeg_movie *m, char *message, size_t capacity) {
    if (!m || !m->segmented) {
        set_message(message, capacity, "only a segmented movie is cut into fragments");
        return CFFMPEG_ERR_ARGUMENT;
    }
    // Packets waiting to be interleaved reach the muxer first; then the muxer writes them as one fragment.
    int status = api.interleaved_write_frame(m->format, NULL);
    if (status >= 0) status = api.write_frame(m->format, NULL);
    if (status < 0) return fail(status, "writing a fragment", message, capacity);
    api.avio_flush(m->format->pb);
    if (m->output_failed) return CFFMPEG_ERR_MEMORY;
    return CFFMPEG_OK;
}

const uint8_t *cffmpeg_movie_output(const cffmpeg_movie *m, size_t *count) {
    *count = m ? m->output_count : 0;
    return m ? m->output : NULL;
}

void cffmpeg_movie_clear_output(cffmpeg_movie *m) {
    if (m) m->output_count = 0;
}

/// Drains the encoders and writes the trailer (and, for a segmented movie, its last fragment).
static int drain_and_close(cffmpeg_movie *m, char *message, size_t capacity) {
    int result = encode(m, m->video, m->video_stream, m->video_time_base, m->frame_ticks, NULL, message, capacity);
    if (result == CFFMPEG_OK && m->resampler && m->resampling_started)
        result = resample_audio(m, NULL, 0, 0, message, capacity);
    if (result == CFFMPEG_OK && m->audio)
        result = encode(m, m->audio, m->audio_stream, m->audio_time_base, 1024, NULL, message, capacity);
    if (result == CFFMPEG_OK) {
        int status = api.write_trailer(m->format);
        if (status < 0) result = fail(status, "writing the movie trailer", message, capacity);
    }
    if (result == CFFMPEG_OK && m->segmented) {
        api.avio_flush(m->format->pb);
        if (m->output_failed) result = CFFMPEG_ERR_MEMORY;
    } else if (result == CFFMPEG_OK) {
        int status = api.avio_closep(&m->format->pb);
        if (status < 0) result = fail(status, "closing the file", message, capacity);
    }
    return result;
}

int cffmpeg_movie_finish(cffmpeg_movie *m, char *message, size_t capacity) {
    int result = drain_and_close(m, message, capacity);
    release(m);
    return result;
}

int cffmpeg_movie_finish_segments(cffmpeg_movie *m, void *context,
                                  void (*take)(void *context, const uint8_t *bytes, size_t count), char *message,
                                  size_t capacity) {
    int result = m->segmented ? drain_and_close(m, message, capacity) : CFFMPEG_ERR_ARGUMENT;
    if (result == CFFMPEG_OK) take(context, m->output, m->output_count);
    release(m);
    return result;
}

void cffmpeg_movie_discard(cffmpeg_movie *m) { release(m); }

// Reading: demux the best stream of a kind and decode it. Pictures are converted to RGB24; sound is handed on
// interleaved as 32-bit floats.

enum { media_type_video = 0, pix_fmt_rgb24 = 2, color_range_full = 2 };

/// One stream of a movie being decoded: the demuxer, the stream's decoder, and where decoding stands.
typedef struct {
    format_context *format;
    void *decoder;
    packet *packet;
    frame *frame;
    int stream_index;
    rational time_base;
    int draining, finished;
} stream_decoder;

static void decoder_close(stream_decoder *d) {
    if (d->frame) api.frame_free(&d->frame);
    if (d->packet) api.packet_free(&d->packet);
    if (d->decoder) api.codec_free_context(&d->decoder);
    if (d->format) api.close_input(&d->format);
}

/// Opens `path` and a decoder for its best stream of `media_type`; `kind` names the stream in messages.
static int decoder_open(stream_decoder *d, const char *path, int media_type, const char *kind, char *message,
                        size_t capacity) {
    char what[64];
    int status = api.open_input(&d->format, path, NULL, NULL);
    if (status < 0) {
        d->format = NULL;
        return fail(status, "opening the movie", message, capacity);
    }
    status = api.find_stream_info(d->format, NULL);
    if (status < 0) return fail(status, "reading the movie's streams", message, capacity);
    const void *codec = NULL;
    int index = api.find_best_stream(d->format, media_type, -1, -1, &codec, 0);
    if (index < 0 || !codec || (unsigned)index >= d->format->nb_streams) {
        snprintf(what, sizeof what, "finding a %s stream", kind);
        if (index < 0) return fail(index, what, message, capacity);
        snprintf(what, sizeof what, "no decoder for the movie's %s stream", kind);
        set_message(message, capacity, what);
        return CFFMPEG_ERR_LIBRARY;
    }
    stream *s = d->format->streams[index];
    d->stream_index = index;
    d->time_base = s->time_base;
    d->decoder = api.codec_alloc_context(codec);
    d->packet = api.packet_alloc();
    d->frame = api.frame_alloc();
    if (!d->decoder || !d->packet || !d->frame) return CFFMPEG_ERR_MEMORY;
    status = api.parameters_to_context(d->decoder, s->codecpar);
    if (status >= 0) status = api.codec_open(d->decoder, codec, NULL);
    snprintf(what, sizeof what, "opening the %s decoder", kind);
    return status < 0 ? fail(status, what, message, capacity) : CFFMPEG_OK;
}

/// Decodes the stream's next frame into `d->frame` (the caller unrefs it) with its presentation time in seconds
/// (−1 when the stream gives none); CFFMPEG_END after the last.
static int decoder_receive(stream_decoder *d, double *seconds, char *message, size_t capacity) {
    for (;;) {
        if (d->finished) return CFFMPEG_END;
        int status = api.receive_frame(d->decoder, d->frame);
        if (status >= 0) {
            int64_t t = d->frame->best_effort_timestamp;
            if (t == INT64_MIN) t = d->frame->pts;
            *seconds = d->time_base.den > 0 && t != INT64_MIN ? (double)t * d->time_base.num / d->time_base.den : -1;
            return CFFMPEG_OK;
        }
        if (status == ERROR_EOF) {
            d->finished = 1;
            return CFFMPEG_END;
        }
        if (status != ERROR_AGAIN) return fail(status, "decoding the movie", message, capacity);
        if (d->draining) {
            d->finished = 1;
            return CFFMPEG_END;
        }
        // The decoder wants more: the next packet of the stream, or the end of input.
        for (;;) {
            status = api.read_frame(d->format, d->packet);
            if (status < 0) {
                d->draining = 1;
                status = api.send_packet(d->decoder, NULL);
                if (status < 0 && status != ERROR_EOF) return fail(status, "decoding the movie", message, capacity);
                break;
            }
            if (d->packet->stream_index != d->stream_index) {
                api.packet_unref(d->packet);
                continue;
            }
            status = api.send_packet(d->decoder, d->packet);
            api.packet_unref(d->packet);
            if (status < 0 && status != ERROR_AGAIN) return fail(status, "decoding the movie", message, capacity);
            break;
        }
    }
}

struct cffmpeg_reader {
    stream_decoder stream;
    void *scaler;
    int scaler_format, scaler_width, scaler_height;
    /// The converted picture, in rows padded as swscale needs: its vector code writes whole blocks of pixels, past
    /// the end of a row that is not a multiple of the block, so it never writes into the caller's tight rows.
    frame *rgb;
};

int cffmpeg_reader_metadata(const cffmpeg_reader *r, int index, const char **key, const char **value) {
    if (!r || !r->stream.format || index < 0) return 0;
    // The entries in order: an empty key matches every one when suffixes are ignored (AV_DICT_IGNORE_SUFFIX).
    const dictionary_entry *entry = NULL;
    for (int i = 0; i <= index; i++) {
        entry = api.dict_get(r->stream.format->metadata, "", entry, 2);
        if (!entry) return 0;
    }
    *key = entry->key;
    *value = entry->value;
    return 1;
}

void cffmpeg_reader_close(cffmpeg_reader *r) {
    if (!r) return;
    if (r->scaler) api.sws_free_context(r->scaler);
    if (r->rgb) api.frame_free(&r->rgb);
    decoder_close(&r->stream);
    free(r);
}

int cffmpeg_reader_open(const char *path, cffmpeg_reader **out, cffmpeg_reader_info *info, char *message,
                        size_t capacity) {
    *out = NULL;
    if (!cffmpeg_available()) {
        set_message(message, capacity, "FFmpeg's libraries are missing (" CFFMPEG_PACKAGES ")");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    cffmpeg_reader *r = calloc(1, sizeof *r);
    if (!r) return CFFMPEG_ERR_MEMORY;
    int status = decoder_open(&r->stream, path, media_type_video, "video", message, capacity);
    if (status != CFFMPEG_OK) {
        cffmpeg_reader_close(r);
        return status;
    }
    stream *s = r->stream.format->streams[r->stream.stream_index];
    const video_parameters *parameters = (const video_parameters *)s->codecpar;
    info->width = parameters->width;
    info->height = parameters->height;
    info->frames = s->nb_frames;
    info->seconds = s->duration > 0 && s->time_base.den > 0 ? (double)s->duration * s->time_base.num / s->time_base.den : 0;
    info->rate = s->avg_frame_rate.den > 0 ? (double)s->avg_frame_rate.num / s->avg_frame_rate.den : 0;
    // The track header's matrix, which the demuxer hands on as the stream's display matrix.
    size_t matrix_size = 0;
    const uint8_t *matrix = api.stream_get_side_data(s, packet_side_data_display_matrix, &matrix_size);
    memset(info->matrix, 0, sizeof info->matrix);
    if (matrix && matrix_size >= 9 * sizeof(int32_t)) memcpy(info->matrix, matrix, 9 * sizeof(int32_t));
    info->has_audio = api.find_best_stream(r->stream.format, media_type_audio, -1, -1, NULL, 0) >= 0;
    info->codec_id = parameters->codec_id;
    info->bit_rate = parameters->bit_rate;
    *out = r;
    return CFFMPEG_OK;
}

/// Converts the decoded picture to RGB24 at its own size, with the matrix and range it declares.
static int convert(cffmpeg_reader *r, uint8_t *rgb, int width, int height, char *message, size_t capacity) {
    frame *f = r->stream.frame;
    if (f->width != width || f->height != height) {
        set_message(message, capacity, "the movie changes size between frames");
        return CFFMPEG_ERR_ARGUMENT;
    }
    if (!r->scaler || r->scaler_format != f->format || r->scaler_width != width || r->scaler_height != height) {
        if (r->scaler) api.sws_free_context(r->scaler);
        r->scaler = api.sws_get_context(width, height, f->format, width, height, pix_fmt_rgb24, sws_bilinear, NULL,
                                        NULL, NULL);
        if (!r->scaler) {
            set_message(message, capacity, "cannot convert the movie's pixel format to RGB");
            return CFFMPEG_ERR_LIBRARY;
        }
        r->scaler_format = f->format;
        r->scaler_width = width;
        r->scaler_height = height;
    }
    // The matrix the picture declares (AVColorSpace and SWS_CS_* share their numbers for BT.709, BT.601 and
    // the rest); an unspecified one reads as BT.601, swscale's default.
    const int *matrix = api.sws_get_coefficients(f->colorspace);
    const int *output = api.sws_get_coefficients(1);
    api.sws_set_colorspace_details(r->scaler, matrix, f->color_range == color_range_full, output, 1, 0, 1 << 16,
                                   1 << 16);
    if (!r->rgb || r->rgb->width != width || r->rgb->height != height) {
        if (r->rgb) api.frame_free(&r->rgb);
        r->rgb = api.frame_alloc();
        if (!r->rgb) return CFFMPEG_ERR_MEMORY;
        r->rgb->width = width;
        r->rgb->height = height;
        r->rgb->format = pix_fmt_rgb24;
        int made = api.frame_get_buffer(r->rgb, 0);
        if (made < 0) {
            api.frame_free(&r->rgb);
            return fail(made, "allocating the converted picture", message, capacity);
        }
    }
    api.sws_scale(r->scaler, (const uint8_t *const *)f->data, f->linesize, 0, height, r->rgb->data, r->rgb->linesize);
    const size_t row = (size_t)width * 3;
    for (int y = 0; y < height; y++) memcpy(rgb + y * row, r->rgb->data[0] + (size_t)y * r->rgb->linesize[0], row);
    return CFFMPEG_OK;
}

int cffmpeg_reader_next(cffmpeg_reader *r, uint8_t *rgb, int width, int height, double *seconds, char *message,
                        size_t capacity) {
    int status = decoder_receive(&r->stream, seconds, message, capacity);
    if (status != CFFMPEG_OK) return status;
    int result = convert(r, rgb, width, height, message, capacity);
    api.frame_unref(r->stream.frame);
    return result;
}

// Sound: the decoders give planar or packed floats or 16-bit integers (AAC's is planar float); other sample
// formats are refused rather than converted wrongly.

enum { sample_fmt_s16p = 6 };

struct cffmpeg_audio_reader {
    stream_decoder stream;
    float *samples;
    size_t capacity;
};

void cffmpeg_audio_reader_close(cffmpeg_audio_reader *r) {
    if (!r) return;
    free(r->samples);
    decoder_close(&r->stream);
    free(r);
}

int cffmpeg_audio_reader_open(const char *path, cffmpeg_audio_reader **out, cffmpeg_audio_info *info, char *message,
                              size_t capacity) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    if (!cffmpeg_available()) {
        set_message(message, capacity, "FFmpeg's libraries are missing (" CFFMPEG_PACKAGES ")");
        return CFFMPEG_ERR_UNAVAILABLE;
    }
    cffmpeg_audio_reader *r = calloc(1, sizeof *r);
    if (!r) return CFFMPEG_ERR_MEMORY;
    int status = decoder_open(&r->stream, path, media_type_audio, "sound", message, capacity);
    if (status != CFFMPEG_OK) {
        cffmpeg_audio_reader_close(r);
        return status;
    }
    stream *s = r->stream.format->streams[r->stream.stream_index];
    info->seconds = s->duration > 0 && s->time_base.den > 0 ? (double)s->duration * s->time_base.num / s->time_base.den : 0;
    info->codec_id = ((const codec_parameters *)s->codecpar)->codec_id;
    *out = r;
    return CFFMPEG_OK;
}

/// The decoded frame's samples, interleaved floats, into the reader's own buffer.
static int interleave(cffmpeg_audio_reader *r, char *message, size_t capacity) {
    frame *f = r->stream.frame;
    int channels = f->ch_layout.nb_channels, count = f->nb_samples;
    if (channels <= 0 || count < 0) {
        set_message(message, capacity, "the sound stream declares no channels");
        return CFFMPEG_ERR_LIBRARY;
    }
    size_t needed = (size_t)channels * (size_t)count;
    if (needed > r->capacity) {
        float *grown = realloc(r->samples, needed * sizeof(float));
        if (!grown) return CFFMPEG_ERR_MEMORY;
        r->samples = grown;
        r->capacity = needed;
    }
    for (int c = 0; c < channels; c++) {
        for (int i = 0; i < count; i++) {
            float v;
            switch (f->format) {
            case sample_fmt_fltp: v = ((const float *)f->extended_data[c])[i]; break;
            case sample_fmt_flt: v = ((const float *)f->extended_data[0])[i * channels + c]; break;
            case sample_fmt_s16p: v = ((const int16_t *)f->extended_data[c])[i] / 32768.0f; break;
            case sample_fmt_s16: v = ((const int16_t *)f->extended_data[0])[i * channels + c] / 32768.0f; break;
            default:
                set_message(message, capacity, "the sound decoder gives a sample format not read here");
                return CFFMPEG_ERR_LIBRARY;
            }
            r->samples[(size_t)i * channels + c] = v;
        }
    }
    return CFFMPEG_OK;
}

int cffmpeg_audio_reader_next(cffmpeg_audio_reader *r, const float **samples, int *count, int *channels, int *rate,
                              double *seconds, char *message, size_t capacity) {
    for (;;) {
        int status = decoder_receive(&r->stream, seconds, message, capacity);
        if (status != CFFMPEG_OK) return status;
        frame *f = r->stream.frame;
        int64_t stamp = f->best_effort_timestamp != INT64_MIN ? f->best_effort_timestamp : f->pts;
        int result = interleave(r, message, capacity);
        int n = f->nb_samples, c = f->ch_layout.nb_channels, sr = f->sample_rate;
        api.frame_unref(f);
        if (result != CFFMPEG_OK) return result;
        // Samples before time zero are the encoder's priming, which the track's edit list puts before the start of
        // the presentation (a fragmented movie keeps them in its first packet, at negative times): they are left
        // out, as a player leaves them out, and the rest of the frame starts at zero.
        if (stamp != INT64_MIN && r->stream.time_base.den > 0 && *seconds < 0 && sr > 0 && c > 0) {
            double before = -*seconds * sr;
            int skip = before >= n ? n : (int)(before + 0.5);
            if (skip >= n) continue;
            memmove(r->samples, r->samples + (size_t)skip * (size_t)c, (size_t)(n - skip) * (size_t)c * sizeof(float));
            n -= skip;
            *seconds = 0;
        }
        *samples = r->samples;
        *count = n;
        *channels = c;
        *rate = sr;
        return CFFMPEG_OK;
    }
}
