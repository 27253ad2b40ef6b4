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
    int frame_ticks;         ///< One frame lasts frame_ticks / timescale seconds; video pts count frames.
    int timescale;
    int64_t bit_rate;        ///< Video bits per second.
    int key_interval;        ///< Frames between key frames.
    int audio_sample_rate;   ///< 0 for no audio track; else mono AAC at this rate, 1,024-sample buffers.
    int64_t fragment_microseconds;  ///< 0 writes one movie box at the end; else fragments this long.
    int rotation_degrees;    ///< Clockwise turn for display, a multiple of 90, kept in the track matrix (the
                             ///< pictures are stored as given).
} cffmpeg_movie_request;

typedef struct cffmpeg_movie cffmpeg_movie;

/// Creates the file and writes its header.
int cffmpeg_movie_open(const cffmpeg_movie_request *request, cffmpeg_movie **movie, char *message,
                       size_t message_capacity);

/// Encodes one video frame given as 8-bit Y'CbCr 4:2:0 with interleaved chroma (NV12), video range.
/// `frame_index` counts frames from the start of the movie.
int cffmpeg_movie_write_video(cffmpeg_movie *movie, const uint8_t *luma, size_t luma_stride, const uint8_t *chroma,
                              size_t chroma_stride, int64_t frame_index, char *message, size_t message_capacity);

/// Encodes 1,024 mono 16-bit samples; `sample_index` counts samples from the start of the movie.
int cffmpeg_movie_write_audio(cffmpeg_movie *movie, const int16_t *samples, int count, int64_t sample_index,
                              char *message, size_t message_capacity);

/// Bytes of compressed media handed to the file so far.
int64_t cffmpeg_movie_bytes(const cffmpeg_movie *movie);

/// Drains the encoders, writes the trailer and closes the file; frees the movie in every case.
int cffmpeg_movie_finish(cffmpeg_movie *movie, char *message, size_t message_capacity);

/// Closes the file without finishing it and frees the movie (the caller removes the file).
void cffmpeg_movie_discard(cffmpeg_movie *movie);

/// What a movie's video stream declares, read before any frame is decoded. Unknown values are 0.
typedef struct cffmpeg_reader_info {
    int width, height;
    int64_t frames;   ///< The container's frame count.
    double seconds;   ///< The stream's duration.
    double rate;      ///< The average frame rate.
} cffmpeg_reader_info;

typedef struct cffmpeg_reader cffmpeg_reader;

/// Opens a movie file and its best video stream for decoding.
int cffmpeg_reader_open(const char *path, cffmpeg_reader **reader, cffmpeg_reader_info *info, char *message,
                        size_t message_capacity);

/// Decodes the next picture into `rgb` (width × height × 3 bytes, 8-bit RGB) with its presentation time
/// in seconds (−1 when the stream gives none); CFFMPEG_END after the last.
int cffmpeg_reader_next(cffmpeg_reader *reader, uint8_t *rgb, int width, int height, double *seconds, char *message,
                        size_t message_capacity);

/// Frees a reader.
void cffmpeg_reader_close(cffmpeg_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
