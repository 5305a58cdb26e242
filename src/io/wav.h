/* wav.h: WAV files through libsndfile: mono 32-bit IEEE float. A WAV is made whole in memory
 * (libsndfile's virtual I/O), so its header holds the final sizes before the first byte goes
 * out, and then written by the output rule of io/atomic.h: a regular file atomically, a device,
 * FIFO or "-" (standard output) straight through, with a header a pipe reader can trust. */
#ifndef IVPLAB_WAV_H
#define IVPLAB_WAV_H
#include "base/failure.h"
#include <stddef.h>

typedef struct wav_data {
    int rate;               /* samples per second, Hz */
    int channels;
    int format;             /* libsndfile major | subtype */
    long frames;            /* samples per channel */
    double *x;              /* frames * channels samples, interleaved (owned) */
} wav_data;

/* Write x[k] * gain, k < n, as a mono 32-bit float WAV at fs Hz. 0 on success; -1 with a
 * one-line reason (naming the path) in err. */
int wav_write(const char *path, const double *x, size_t n, int fs, double gain, char *err,
              size_t errlen);
/* The same, and back (if not NULL) gets the samples decoded from the very bytes written, as a
 * reader of the file sees them, even when another run replaces the file meanwhile. */
int wav_write_back(const char *path, const double *x, size_t n, int fs, double gain, wav_data *back,
                   char *err, size_t errlen);

/* The lessons' sound files: wav_write_back; on failure nonzero, e: one line "program: reason"
 * (status 2 when path is a directory or a part of it a file, 1 otherwise). */
int wav_write_file(const char *program, const char *path, const double *x, size_t n, int fs,
                   double gain, wav_data *back, failure *e);

/* Before any sample is read: 0 to go on, or nonzero with a reason in why. hdr has no samples. */
typedef int (*wav_header_check)(const wav_data *hdr, const void *ctx, char *why, size_t whylen);

/* Read any file libsndfile reads; "-" is standard input. 0 on success; -1 with a reason in err. */
int wav_read(const char *path, wav_data *out, char *err, size_t errlen);
/* The same, with check (if not NULL) judging the header before anything is allocated. */
int wav_read_checked(const char *path, wav_data *out, wav_header_check check, const void *ctx,
                     char *err, size_t errlen);
void wav_data_free(wav_data *w);     /* leaves it empty; safe twice */
/* "WAV 32-bit float", "WAV 16-bit PCM", ... */
const char *wav_format_name(int format);

#endif
