/* wav.h: WAV files through libsndfile: mono 32-bit IEEE float, written atomically. */
#ifndef IVPLAB_WAV_H
#define IVPLAB_WAV_H
#include <stddef.h>

/* Write x[k] * gain, k < n, as a mono 32-bit float WAV at fs Hz. 0 on success; -1 with a
 * one-line reason (naming the path) in err. */
int wav_write(const char *path, const double *x, size_t n, int fs, double gain, char *err, size_t errlen);

typedef struct wav_data {
    int rate;               /* samples per second, Hz */
    int channels;
    int format;             /* libsndfile major | subtype */
    long frames;            /* samples per channel */
    double *x;              /* frames * channels samples, interleaved (owned) */
} wav_data;

/* Read any file libsndfile reads. 0 on success; -1 with a reason in err. */
int wav_read(const char *path, wav_data *out, char *err, size_t errlen);
void wav_data_free(wav_data *w);     /* leaves it empty; safe twice */
/* "WAV 32-bit float", "WAV 16-bit PCM", ... */
const char *wav_format_name(int format);

#endif
