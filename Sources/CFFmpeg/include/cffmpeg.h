// CFFmpeg: movie writing (H.264 or HEVC video, AAC audio, QuickTime or MPEG-4 files) and movie
// reading (any container and video codec FFmpeg decodes) through FFmpeg's libraries, loaded at run time.
//
// FFmpeg is optional: a machine without it simply records no movies. cffmpeg.c opens the
// libraries of FFmpeg 5.1 by their sonames (libavformat.so.59, libavcodec.so.59, libavutil.so.57,
// libswscale.so.6) with dlopen and resolves the few functions it uses with dlsym. It sets codec
// parameters through the AVOptions API; the handful of struct fields it must touch are declared
// for exactly these major versions, which it checks at load time, so no FFmpeg headers are needed
// to build.
#ifndef CFFMPEG_H
#define CFFMPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CFFMPEG_OK = 0,
    CFFMPEG_ERR_UNAVAILABLE = 1,  ///< The libraries, their versions or the encoder are missing.
    CFFMPEG_ERR_LIBRARY = 2,      ///< FFmpeg reported an error; the message says which.
    CFFMPEG_ERR_ARGUMENT = 3,     ///< The request is inconsistent.
    CFFMPEG_ERR_MEMORY = 4,       ///< An allocation failed.
    CFFMPEG_END = 5               ///< A reader has no more frames.
};

enum { CFFMPEG_CODEC_H264 = 1, CFFMPEG_CODEC_HEVC = 2 };

/// The Debian packages that provide the libraries, for messages.
#define CFFMPEG_PACKAGES "libavformat59 libavcodec59 libswscale6"

/// 1 when the four libraries load with the expected major versions; computed once.
int cffmpeg_available(void);

/// 1 when an encoder for the codec (and AAC) exists; computed once per codec.
int cffmpeg_has_encoder(int codec);

/// What one movie holds.
typedef struct cffmpeg_movie_request {
    const char *path;        ///< Where to write (the file is created or truncated).
    const char *container;   ///< "mov" or "mp4".
    int codec;               ///< CFFMPEG_CODEC_H264 or CFFMPEG_CODEC_HEVC.
    int width, height;       ///< Even sizes.
    int frame_ticks;         ///< A frame's nominal duration, frame_ticks / timescale seconds: the rate the
                             ///< encoder plans for, and the last frame's duration.
    int timescale;           ///< Video timestamps count 1 / timescale seconds.
    int64_t bit_rate;        ///< Video bits per second.
    int key_interval;        ///< Frames between key frames.
    int audio_sample_rate;   ///< 0 for no audio track; else the rate of the mono samples given, in 1,024-sample
                             ///< buffers.
    int audio_output_rate;   ///< The AAC track's rate; 0 for the samples' own. Another rate is resampled with
                             ///< libswresample (libswresample4, which libavcodec59 depends on).
    int64_t fragment_microseconds;  ///< 0 writes one movie box at the end; else fragments this long.
    int rotation_degrees;    ///< Clockwise turn for display, a multiple of 90, kept in the track matrix (the
                             ///< pictures are stored as given).
    int audio_channels;      ///< 1 (mono) or 2: the mono samples given are written to both channels.
    int audio_bit_rate;      ///< AAC bits per second; 0 for 64,000.
    int fast_start;          ///< 1: the movie box goes before the media when the file is finished (one movie
                             ///< box only), so a player can start before the whole file has arrived.
    const char *const *metadata;  ///< metadata_count (key, value) pairs, written as QuickTime metadata items.
    int metadata_count;
    int segmented;           ///< 1: no file (`path` is ignored); the movie is fragmented MPEG-4 kept in memory, an
                             ///< initialization segment (ftyp, moov) at the header and then one fragment (moof,
                             ///< mdat) each time cffmpeg_movie_flush_fragment is called and at the end, read with
                             ///< cffmpeg_movie_output. 2: the same, declared CMAF (ISO/IEC 23000-19: brand 'cmfc').
} cffmpeg_movie_request;

typedef struct cffmpeg_movie cffmpeg_movie;

/// Creates the file and writes its header.
int cffmpeg_movie_open(const cffmpeg_movie_request *request, cffmpeg_movie **movie, char *message,
                       size_t message_capacity);

/// Encodes one video frame given as 8-bit Y'CbCr 4:2:0 with interleaved chroma (NV12), video range.
/// `frame_index` counts frames from the start of the movie.
int cffmpeg_movie_write_video(cffmpeg_movie *movie, const uint8_t *luma, size_t luma_stride, const uint8_t *chroma,
                              size_t chroma_stride, int64_t frame_index, char *message, size_t message_capacity);

/// How a picture given to `cffmpeg_movie_write_picture` is laid out (CoreVideo's formats).
enum {
    CFFMPEG_PICTURE_NV12 = 1,       ///< 8-bit 4:2:0, interleaved chroma, video range ('420v').
    CFFMPEG_PICTURE_NV12_FULL = 2,  ///< The same, full range ('420f').
    CFFMPEG_PICTURE_P010 = 3,       ///< 10 bits in the high bits of 16, video range ('x420').
    CFFMPEG_PICTURE_P010_FULL = 4,  ///< The same, full range ('xf20').
    CFFMPEG_PICTURE_BGRA = 5,       ///< 8-bit B, G, R, A ('BGRA').
    CFFMPEG_PICTURE_ARGB = 6,       ///< 8-bit A, R, G, B (32 'ARGB').
};

/// One picture of any of those layouts, at any size: one plane, or luma and interleaved chroma.
typedef struct cffmpeg_picture {
    int format;
    int width, height;
    const uint8_t *planes[2];
    size_t strides[2];
} cffmpeg_picture;

/// Encodes one picture, converted to the movie's 4:2:0 video range (BT.601) and scaled to its size.
/// `ticks` is its presentation time in 1 / timescale seconds; times must increase.
int cffmpeg_movie_write_picture(cffmpeg_movie *movie, const cffmpeg_picture *picture, int64_t ticks, char *message,
                                size_t message_capacity);

/// Encodes 1,024 mono 16-bit samples; `sample_index` counts samples from the start of the movie.
int cffmpeg_movie_write_audio(cffmpeg_movie *movie, const int16_t *samples, int count, int64_t sample_index,
                              char *message, size_t message_capacity);

/// Makes the next picture a key frame that starts a new coded sequence (an IDR picture), so a fragment can begin
/// with it.
void cffmpeg_movie_force_key_frame(cffmpeg_movie *movie);

/// Ends the video at `ticks` (1 / timescale seconds): the picture shown then lasts only until it, as a session's end
/// cuts the last sample short. Pictures still in the encoder are cut as they leave it.
void cffmpeg_movie_end_video(cffmpeg_movie *movie, int64_t ticks);

/// Writes every sample encoded so far as a fragment of its own (segmented movies only).
int cffmpeg_movie_flush_fragment(cffmpeg_movie *movie, char *message, size_t message_capacity);

/// The bytes of a segmented movie written since the output was last cleared; `count` receives their length. The
/// pointer is valid until the next call that writes or clears.
const uint8_t *cffmpeg_movie_output(const cffmpeg_movie *movie, size_t *count);

/// Empties a segmented movie's output.
void cffmpeg_movie_clear_output(cffmpeg_movie *movie);

/// Bytes of compressed media handed to the file so far.
int64_t cffmpeg_movie_bytes(const cffmpeg_movie *movie);

/// Drains the encoders, writes the trailer and closes the file; frees the movie in every case.
int cffmpeg_movie_finish(cffmpeg_movie *movie, char *message, size_t message_capacity);

/// As cffmpeg_movie_finish, for a segmented movie: drains the encoders, writes the last fragment and calls
/// `take(context, bytes, count)` with what is left of the output, then frees the movie in every case.
int cffmpeg_movie_finish_segments(cffmpeg_movie *movie, void *context,
                                  void (*take)(void *context, const uint8_t *bytes, size_t count), char *message,
                                  size_t message_capacity);

/// Closes the file without finishing it and frees the movie (the caller removes the file).
void cffmpeg_movie_discard(cffmpeg_movie *movie);

/// What a movie's video stream declares, read before any frame is decoded. Unknown values are 0.
typedef struct cffmpeg_reader_info {
    int width, height;
    int64_t frames;   ///< The container's frame count.
    double seconds;   ///< The stream's duration.
    double rate;      ///< The average frame rate.
    /// The video track's display matrix as QuickTime stores it (a, b, u, c, d, v, tx, ty, w; 16.16 fixed point
    /// but u, v, w in 2.30), all zero where the stream carries none.
    int32_t matrix[9];
    int has_audio;    ///< Whether the movie has an audio stream.
    int codec_id;     ///< FFmpeg's codec number of the video stream (27 for H.264, 173 for HEVC).
    int64_t bit_rate; ///< The video stream's declared bits per second.
} cffmpeg_reader_info;

typedef struct cffmpeg_reader cffmpeg_reader;

/// Opens a movie file and its best video stream for decoding.
int cffmpeg_reader_open(const char *path, cffmpeg_reader **reader, cffmpeg_reader_info *info, char *message,
                        size_t message_capacity);

/// Decodes the next picture into `rgb` (width × height × 3 bytes, 8-bit RGB) with its presentation time
/// in seconds (−1 when the stream gives none); CFFMPEG_END after the last.
int cffmpeg_reader_next(cffmpeg_reader *reader, uint8_t *rgb, int width, int height, double *seconds, char *message,
                        size_t message_capacity);

/// The movie's `index`-th container-level metadata entry, as the demuxer names it (a QuickTime 'mdta' item
/// under its reverse-DNS key, such as com.apple.quicktime.make); 0 past the last. The strings live as long as
/// the reader.
int cffmpeg_reader_metadata(const cffmpeg_reader *reader, int index, const char **key, const char **value);

/// Frees a reader.
void cffmpeg_reader_close(cffmpeg_reader *reader);

/// What a movie's sound stream declares before decoding. Unknown values are 0.
typedef struct cffmpeg_audio_info {
    double seconds;   ///< The stream's duration.
    int codec_id;     ///< FFmpeg's codec number (86018 for AAC).
} cffmpeg_audio_info;

typedef struct cffmpeg_audio_reader cffmpeg_audio_reader;

/// Opens a movie file and its best sound stream for decoding.
int cffmpeg_audio_reader_open(const char *path, cffmpeg_audio_reader **reader, cffmpeg_audio_info *info,
                              char *message, size_t message_capacity);

/// Decodes the next frame of sound: `*count` samples a channel, interleaved 32-bit floats in `*samples` (owned by
/// the reader, valid until the next call), with its channel count, sample rate and presentation time in seconds
/// (−1 when the stream gives none); CFFMPEG_END after the last.
int cffmpeg_audio_reader_next(cffmpeg_audio_reader *reader, const float **samples, int *count, int *channels,
                              int *rate, double *seconds, char *message, size_t message_capacity);

/// Frees a sound reader.
void cffmpeg_audio_reader_close(cffmpeg_audio_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
