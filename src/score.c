#include "score.h"
#include "io/json.h"
#include "util.h"
#include <gsl/gsl_fft_real.h>
#include <limits.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *challenge_path(void)
{
    return repo_file("challenge.json");
}

int challenge_load(const char *path, challenge *ch, char *err, size_t errlen)
{
    memset(ch, 0, sizeof *ch);
    json *j = json_load(path, err, errlen);
    if (!j)
        return -1;
    struct { const char *path; double *dest; } num[] = {
        {"parameters.L.value", &ch->string.L},
        {"parameters.c.value", &ch->string.c},
        {"parameters.sigma0.value", &ch->string.sigma0},
        {"parameters.kappa.value", &ch->string.kappa},
        {"parameters.pluck_height.value", &ch->string.height},
        {"parameters.xp.value", &ch->string.xp},
        {"parameters.w.value", &ch->string.w},
        {"parameters.xm.value", &ch->string.xm},
        {"output.signal_scale", &ch->signal_scale},
        {"fields.t.stop", &ch->field_t_stop},
        {"playback.gain_db", &ch->playback_gain_db},
    };
    struct { const char *path; double lo, hi; long *dest; } whole[] = {
        {"output.num_samples", 1, 1e9, &ch->num_samples},
        {"error_measures.E_spec.frame_length", 2, 1 << 20, NULL},
        {"error_measures.E_spec.hop", 1, 1 << 20, NULL},
        {"output.sample_rate", 1, 1e7, NULL},
        {"fields.x.count", 2, 1e6, &ch->field_nx},
        {"fields.t.count", 2, 1e7, &ch->field_nt},
    };
    char why[200];
    int rc = 0;
    for (size_t i = 0; i < sizeof num / sizeof num[0] && rc == 0; i++)
        if (json_number(j, num[i].path, num[i].dest, why, sizeof why) || !isfinite(*num[i].dest)) {
            snprintf(err, errlen, "%s: %s", path, why);
            rc = -1;
        }
    for (size_t i = 0; i < sizeof whole / sizeof whole[0] && rc == 0; i++) {
        double v;
        if (json_number(j, whole[i].path, &v, why, sizeof why) || v != floor(v) || v < whole[i].lo || v > whole[i].hi) {
            snprintf(err, errlen, "%s: %s must be an integer in [%g, %g]", path, whole[i].path, whole[i].lo, whole[i].hi);
            rc = -1;
        } else if (whole[i].dest) {
            *whole[i].dest = (long)v;
        } else if (i == 1) {
            ch->frame_length = (int)v;
        } else if (i == 2) {
            ch->hop = (int)v;
        } else {
            ch->sample_rate = (int)v;
        }
    }
    if (rc == 0 && (ch->frame_length & (ch->frame_length - 1)) != 0) {
        snprintf(err, errlen, "%s: error_measures.E_spec.frame_length %d is not a power of two (GSL's radix-2 FFT)", path,
                 ch->frame_length);
        rc = -1;
    }
    if (rc == 0 && !(ch->signal_scale > 0)) {
        snprintf(err, errlen, "%s: output.signal_scale must be positive", path);
        rc = -1;
    }
    const char *id = json_string(j, "id");
    snprintf(ch->id, sizeof ch->id, "%s", id ? id : "string-pluck-v1");
    json_free(j);
    return rc;
}

static const char *container_name(int major)
{
    switch (major) {
    case SF_FORMAT_WAVEX: return "WAV with WAVE_FORMAT_EXTENSIBLE";
    case SF_FORMAT_AIFF: return "AIFF";
    case SF_FORMAT_AU: return "AU";
    case SF_FORMAT_RAW: return "raw";
    case SF_FORMAT_W64: return "Sony Wave64";
    case SF_FORMAT_FLAC: return "FLAC";
    case SF_FORMAT_OGG: return "Ogg";
    case SF_FORMAT_RF64: return "RF64";
    default: return "not WAV";
    }
}

int score_check_format(const wav_data *w, const challenge *ch, char *why, size_t n)
{
    char buf[600] = "";
    size_t len = 0;
#define WRONG(...) len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, __VA_ARGS__)
    int major = w->format & SF_FORMAT_TYPEMASK, sub = w->format & SF_FORMAT_SUBMASK;
    if (major != SF_FORMAT_WAV)
        WRONG("%scontainer is %s, expected WAV (RIFF, WAVE_FORMAT_IEEE_FLOAT)", len ? "; " : "",
              container_name(major));
    if (sub != SF_FORMAT_FLOAT)
        WRONG("%ssample format is %s, expected 32-bit IEEE float", len ? "; " : "", wav_format_name(w->format));
    if (w->channels != 1)
        WRONG("%s%d channels, expected 1 (mono)", len ? "; " : "", w->channels);
    if (w->rate != ch->sample_rate)
        WRONG("%ssample rate %d Hz, expected %d Hz", len ? "; " : "", w->rate, ch->sample_rate);
    if (w->frames != ch->num_samples)
        WRONG("%s%ld samples (%.6g s), expected %ld", len ? "; " : "", w->frames,
              w->rate > 0 ? (double)w->frames / w->rate : 0.0, ch->num_samples);
    if (len == 0 && w->x)
        for (long k = 0; k < w->frames; k++)
            if (!isfinite(w->x[k])) {
                WRONG("sample %ld is not a finite number", k);
                break;
            }
#undef WRONG
    if (len == 0)
        return 0;
    snprintf(why, n, "%s", buf);
    return -1;
}

int score_check_header(const wav_data *hdr, const void *ch, char *why, size_t whylen)
{
    return score_check_format(hdr, ch, why, whylen);
}

double score_wave(const double *a, const double *r, size_t n)
{
    double num = 0.0, den = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d = a[k] - r[k];
        num += d * d;
        den += r[k] * r[k];
    }
    return sqrt(num) / sqrt(den);
}

/* |X[q]|, q = 0..M/2, of the windowed frame (GSL's half-complex layout after the transform). */
static void frame_magnitudes(const double *x, const double *g, int M, double *buf, double *mag)
{
    for (int j = 0; j < M; j++)
        buf[j] = x[j] * g[j];
    gsl_fft_real_radix2_transform(buf, 1, (size_t)M);
    mag[0] = fabs(buf[0]);
    mag[M / 2] = fabs(buf[M / 2]);
    for (int q = 1; q < M / 2; q++)
        mag[q] = hypot(buf[q], buf[M - q]);
}

size_t score_frames(size_t n, int M, int H)
{
    return M < 2 || H < 1 || n < (size_t)M ? 0 : (n - (size_t)M) / (size_t)H + 1;
}

static double *hann(int M)
{
    double *g = xcalloc((size_t)M, sizeof(double));
    for (int j = 0; j < M; j++)
        g[j] = 0.5 * (1.0 - cos(2.0 * M_PI * j / M));       /* periodic: j / M, not j / (M - 1) */
    return g;
}

void score_spectrogram(const double *x, size_t n, int M, int H, double *mag)
{
    size_t frames = score_frames(n, M, H);
    if (frames == 0 || (M & (M - 1)) != 0)
        return;
    double *g = hann(M), *buf = xcalloc((size_t)M, sizeof(double));
    for (size_t m = 0; m < frames; m++)
        frame_magnitudes(x + m * (size_t)H, g, M, buf, mag + m * (size_t)(M / 2 + 1));
    free(g);
    free(buf);
}

double score_spec(const double *a, const double *r, size_t n, int M, int H)
{
    if (M < 2 || (M & (M - 1)) != 0 || H < 1 || n < (size_t)M)
        return NAN;
    double *g = hann(M), *buf = xcalloc((size_t)M, sizeof(double));
    double *ma = xcalloc((size_t)M / 2 + 1, sizeof(double)), *mr = xcalloc((size_t)M / 2 + 1, sizeof(double));
    double num = 0.0, den = 0.0;
    size_t frames = score_frames(n, M, H);
    for (size_t m = 0; m < frames; m++) {
        frame_magnitudes(a + m * (size_t)H, g, M, buf, ma);
        frame_magnitudes(r + m * (size_t)H, g, M, buf, mr);
        for (int q = 0; q <= M / 2; q++) {
            double d = ma[q] - mr[q];
            num += d * d;
            den += mr[q] * mr[q];
        }
    }
    free(g);
    free(buf);
    free(ma);
    free(mr);
    return sqrt(num) / sqrt(den);
}
