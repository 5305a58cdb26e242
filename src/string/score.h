/* score.h: the challenge (challenge.json read at run time), the format check of a submitted WAV,
 * and the two error measures of string-pluck-v1: E_wave and E_spec (GSL's FFT). */
#ifndef IVPLAB_SCORE_H
#define IVPLAB_SCORE_H
#include "io/params.h"
#include "io/wav.h"
#include "string/string.h"
#include <stddef.h>
#include <stdio.h>

typedef struct challenge {
    char id[64];                /* "string-pluck-v1" */
    string_params string;       /* the model parameters */
    double signal_scale;        /* s_ref: sample = s / s_ref, m/s */
    int sample_rate;            /* Hz */
    long num_samples;           /* samples in the deliverable */
    int frame_length;           /* E_spec frame M, samples */
    int hop;                    /* E_spec hop H, samples */
    long field_nx;              /* field grid: positions */
    long field_nt;              /* field grid: times */
    double field_t_stop;        /* last field time, s */
    double playback_gain_db;    /* listening gain, dB (never applied to the deliverable) */
} challenge;

/* The accepted ranges of challenge.json's values: bin/pluck's flags of the same meaning take the
 * same ranges (--L, --c, --sigma0, --kappa, --pluck-height, --xp, --w, --xm, --fs, --duration). */
#define CHALLENGE_L_MAX 100.0           /* parameters.L, m */
#define CHALLENGE_C_MAX 1e5             /* parameters.c, m/s */
#define CHALLENGE_SIGMA0_MAX 1e5        /* parameters.sigma0, 1/s */
#define CHALLENGE_KAPPA_MAX 10.0        /* parameters.kappa, m^2/s */
#define CHALLENGE_HEIGHT_MAX 10.0       /* parameters.pluck_height, m */
#define CHALLENGE_LENGTH_MAX 100.0      /* parameters.xp, w, xm, m */
#define CHALLENGE_FS_MIN 1000.0         /* output.sample_rate, Hz */
#define CHALLENGE_FS_MAX 768000.0
#define CHALLENGE_DURATION_MAX 60.0     /* output.num_samples / sample_rate and fields.t.stop, s */
#define CHALLENGE_FIELD_VALUES_MAX                                                                 \
    50000000L                           /* fields.x.count * fields.t.count (200 MB of float32) */
#define CHALLENGE_GAIN_DB_MAX 60.0      /* |playback.gain_db|, dB */

/* challenge.json found from the program's location (bin/../challenge.json), else ./challenge.json.
 * Returns a static buffer. */
const char *challenge_path(void);
/* Read every value above from path (strict JSON, by jansson) and check the whole challenge at
 * once: each value in its range, whole where it counts, and consistent (the string's conditions,
 * a frame no longer than the signal, the field's size and ends). 0, or -1 with "FILE: reason"
 * naming the member in err. */
int challenge_load(const char *path, challenge *ch, char *err, size_t errlen);
/* The challenge's string parameters (parameters.NAME.value), each declared once and bound to s:
 * bin/pluck's flags of the same names (FLAG_TABLE), with their ranges and help. */
typedef struct challenge_keys {
    param_spec string[9];
} challenge_keys;
void challenge_keys_bind(string_params *s, challenge_keys *k);

/* Is w the specified deliverable (WAV, IEEE float 32, mono, the rate and the length, finite
 * samples)? 0, or -1 with every mismatch said in why. With w->x NULL (a header read before its
 * samples, see wav_read_checked) the samples are not looked at. */
int score_check_format(const wav_data *w, const challenge *ch, char *why, size_t whylen);
/* The same as a wav_header_check (ctx: the challenge), so that a file is judged by its header
 * before its samples are allocated. */
int score_check_header(const wav_data *hdr, const void *ch, char *why, size_t whylen);

/* E_wave = |a - r|_2 / |r|_2 over n samples. */
double score_wave(const double *a, const double *r, size_t n);
/* E_spec with frames of M samples (periodic Hann), hop H, no padding, one-sided bins 0..M/2.
 * M must be a power of two (GSL's radix-2 real FFT). NAN when n < M or M is not a power of two. */
double score_spec(const double *a, const double *r, size_t n, int M, int H);

/* The magnitude spectrogram E_spec compares: mag[m * (M/2 + 1) + q] = |X_m[q]| for frames
 * m < score_frames(n, M, H). Same window, hop and bins as score_spec. */
size_t score_frames(size_t n, int M, int H);
/* The work of one E_spec (score_spec: two transforms a frame), in FFT operations: frames x 2 M
 * log2 M; measured about 1.7 ns each (bin/score, M = 8192, H = 8: 2.3e9 in 4.0 s). Above
 * SCORE_SPEC_CAP a program refuses without --allow-long. score_spectrogram is half of it. */
double score_spec_work(size_t n, int M, int H);
#define SCORE_SPEC_CAP 2e10             /* FFT operations: about 35 s */
#define SCORE_SPEC_UNIT "FFT operations (E_spec frames x 2 M log2 M)"
void score_spectrogram(const double *x, size_t n, int M, int H, double *mag);

/* A solution scored as the challenge does: x (n samples at fs, m/s) written to path as a float32
 * WAV of gain 1/s_ref (io/wav, atomically), read back, its format checked (score_check_format) and
 * the decoded samples scored against the decoded reference ref. 0 with *E_wave, *E_spec; -1 with
 * the reason in err (write, read or format). */
int score_submission(const char *path, const double *x, size_t n, int fs, const challenge *ch,
                     const wav_data *ref, double *E_wave, double *E_spec, char *err, size_t errlen);

/* The spectrogram E_spec compares, as level in dB against its loudest bin (floored at -240 dB),
 * written to f as gnuplot blocks: a header "t_s f_Hz level_dB", then per frame one row per bin up
 * to f_max Hz (frame time at its centre) and a blank line. */
void score_spectrogram_tsv(FILE *f, const double *x, size_t n, int M, int H, double fs,
                           double f_max);

/* The listening copy (never the deliverable): x times gain, then a limiter with instant attack
 * (it never exceeds ceiling) and an exponential release of release s. Returns the n samples
 * (free them); *max_cut_db is the largest cut, dB, *limited_s the time the limiter acted, s. */
double *score_listening_copy(const double *x, long n, double gain, double ceiling, double release,
                             double fs, double *max_cut_db, double *limited_s);

#endif
