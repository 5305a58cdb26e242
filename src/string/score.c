#include "string/score.h"
#include "base/cli.h"
#include "io/json.h"
#include "base/util.h"
#include <gsl/gsl_fft_real.h>
#include <limits.h>
#include <math.h>
#include <sndfile.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *challenge_path(void)
{
    return repo_file("challenge.json");
}

void challenge_keys_bind(string_params *s, challenge_keys *k)
{
    PARAMS_FILL(k->string,
        FLAG_REAL("parameters.L.value", s->L, "m", 0, CHALLENGE_L_MAX, CLI_OPEN_MIN,
            "string length", FLAG_SPELLED("L")),
        FLAG_REAL("parameters.c.value", s->c, "m/s", 0, CHALLENGE_C_MAX, CLI_OPEN_MIN,
            "wave speed", FLAG_SPELLED("c")),
        FLAG_REAL("parameters.sigma0.value", s->sigma0, "1/s", 0, CHALLENGE_SIGMA0_MAX, CLI_CLOSED,
            "frequency-independent loss rate", FLAG_SPELLED("sigma0")),
        FLAG_REAL("parameters.kappa.value", s->kappa, "m^2/s", 0, CHALLENGE_KAPPA_MAX, CLI_CLOSED,
            "Kelvin-Voigt viscosity", FLAG_SPELLED("kappa")),
        FLAG_REAL("parameters.pluck_height.value", s->height, "m", 0, CHALLENGE_HEIGHT_MAX,
            CLI_OPEN_MIN, "pluck height u0(xp) (at most L/10: a linear model)",
            FLAG_SPELLED("pluck-height")),
        FLAG_REAL("parameters.xp.value", s->xp, "m", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN,
            "pluck centre (w < xp < L - w)", FLAG_SPELLED("xp")),
        FLAG_REAL("parameters.w.value", s->w, "m", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN,
            "half-width of the finger load (L/w not an integer)", FLAG_SPELLED("w")),
        FLAG_REAL("parameters.xm.value", s->xm, "m", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN,
            "pickup position (0 < xm < L)", FLAG_SPELLED("xm")));
}

/* A number of the challenge at the dotted member path c->name, in c's range (whole if
 * CLI_WHOLE). */
static int read_value(const json_t *j, const param_spec *c, char *why, size_t n)
{
    double v;
    if (json_doc_number(j, c->name, &v, why, n) != 0)
        return -1;
    bool lo = (c->open & CLI_OPEN_MIN) ? v > c->min : v >= c->min;
    bool hi = (c->open & CLI_OPEN_MAX) ? v < c->max : v <= c->max;
    bool whole = c->open & CLI_WHOLE;
    if (!lo || !hi || (whole && v != floor(v))) {
        snprintf(why, n, "%s = %.10g is not accepted; accepted: %s in %c%g, %g%c%s%s", c->name, v,
                 whole ? "an integer" : "a number", (c->open & CLI_OPEN_MIN) ? '(' : '[', c->min,
                 c->max, (c->open & CLI_OPEN_MAX) ? ')' : ']', c->unit[0] ? " " : "", c->unit);
        return -1;
    }
    *(double *)c->dest = v;
    return 0;
}

/* The challenge's values against each other, once each is in its range: the string's conditions,
 * the signal's length, the E_spec frame and hop, the field's ends and size. */
static int challenge_consistent(const string_params *s, double rate, double samples, double frame,
                                double hop, double x1, double nx, double nt, char *why, size_t n)
{
    char reason[300];
    if (string_check(s, reason, sizeof reason) != 0) {
        snprintf(why, n, "parameters: %s (the same conditions as bin/pluck's flags of these names)",
                 reason);
        return -1;
    }
    if (samples / rate > CHALLENGE_DURATION_MAX) {
        snprintf(why, n,
                 "output.num_samples = %.0f at output.sample_rate = %.0f Hz is %g s; accepted: at "
                 "most %g s "
                 "(as --duration)",
                 samples, rate, samples / rate, CHALLENGE_DURATION_MAX);
        return -1;
    }
    if (((long)frame & ((long)frame - 1)) != 0 || frame > samples) {
        snprintf(why, n,
                 "error_measures.E_spec.frame_length = %.0f is not accepted; accepted: a power of "
                 "two (GSL's "
                 "radix-2 FFT) of at most output.num_samples = %.0f",
                 frame, samples);
        return -1;
    }
    if (hop > samples) {
        snprintf(why, n,
                 "error_measures.E_spec.hop = %.0f is longer than output.num_samples = %.0f", hop,
                 samples);
        return -1;
    }
    if (x1 != s->L) {
        snprintf(why, n,
                 "fields.x.stop = %g is not parameters.L.value = %g; accepted: the field spans the "
                 "string",
                 x1, s->L);
        return -1;
    }
    if (nx * nt > CHALLENGE_FIELD_VALUES_MAX) {
        snprintf(
            why, n,
            "fields.x.count x fields.t.count = %.0f x %.0f = %.3g values (%.3g bytes of float32); "
            "accepted: at most %.3g values",
            nx, nt, nx * nt, 4 * nx * nt, (double)CHALLENGE_FIELD_VALUES_MAX);
        return -1;
    }
    return 0;
}

/* The challenge's id: absent means "string-pluck-v1"; else 1 to 63 printable characters, no spaces.
 */
static int challenge_id(const json_t *j, challenge *ch, char *why, size_t n)
{
    const char *id;
    if (json_doc_string(j, "id", &id, why, n) != 0)
        return -1;
    id = id ? id : "string-pluck-v1";
    size_t len = strlen(id);
    bool printable = len > 0 && len < sizeof ch->id;
    for (size_t k = 0; k < len && printable; k++)
        printable = id[k] > 0x20 && id[k] < 0x7f;
    if (!printable) {
        char shown[200];
        snprintf(
            why, n,
            "id '%s' is not accepted; accepted: 1 to %zu printable ASCII characters without spaces",
            cli_escape(id, shown, sizeof shown), sizeof ch->id - 1);
        return -1;
    }
    snprintf(ch->id, sizeof ch->id, "%s", id);
    return 0;
}

/* Every value the programs use, checked with the limits of bin/pluck's matching flags (score.h)
 * and against each other, before anything is computed or written. */
static int challenge_check(const json_t *j, challenge *ch, char *why, size_t n)
{
    string_params *s = &ch->string;
    double rate, samples, frame, hop, nx, nt, x0, x1, t0, channels;
    challenge_keys k;
    challenge_keys_bind(s, &k);
    const double samples_max = CHALLENGE_FS_MAX * CHALLENGE_DURATION_MAX;
    const double field_max = CHALLENGE_FIELD_VALUES_MAX / 2, gain = CHALLENGE_GAIN_DB_MAX;
    const param_spec v[] = {
        FLAG_TABLE(k.string),
        FLAG_REAL("output.channels", channels, "", 1, 1, CLI_WHOLE, ""),
        FLAG_REAL("output.sample_rate", rate, "Hz", CHALLENGE_FS_MIN, CHALLENGE_FS_MAX, CLI_WHOLE,
                  ""),
        FLAG_REAL("output.num_samples", samples, "", 2, samples_max, CLI_WHOLE, ""),
        FLAG_REAL("output.signal_scale", ch->signal_scale, "m/s", 0, 1e30, CLI_OPEN_MIN, ""),
        FLAG_REAL("error_measures.E_spec.frame_length", frame, "", 2, 1 << 20, CLI_WHOLE, ""),
        FLAG_REAL("error_measures.E_spec.hop", hop, "", 1, 1 << 20, CLI_WHOLE, ""),
        FLAG_REAL("fields.x.count", nx, "", 2, field_max, CLI_WHOLE, ""),
        FLAG_REAL("fields.x.start", x0, "m", 0, 0, CLI_CLOSED, ""),
        FLAG_REAL("fields.x.stop", x1, "m", 0, CHALLENGE_L_MAX, CLI_OPEN_MIN, ""),
        FLAG_REAL("fields.t.count", nt, "", 2, field_max, CLI_WHOLE, ""),
        FLAG_REAL("fields.t.start", t0, "s", 0, 0, CLI_CLOSED, ""),
        FLAG_REAL("fields.t.stop", ch->field_t_stop, "s", 0, CHALLENGE_DURATION_MAX, CLI_OPEN_MIN,
                  ""),
        FLAG_REAL("playback.gain_db", ch->playback_gain_db, "dB", -gain, gain, CLI_CLOSED, ""),
        FLAG_END,
    };
    param_spec rows[CLI_MAX_ROWS];
    cli_flatten(v, false, rows, CLI_MAX_ROWS);
    for (const param_spec *r = rows; r->name; r++)
        if (read_value(j, r, why, n) != 0)
            return -1;
    if (challenge_consistent(s, rate, samples, frame, hop, x1, nx, nt, why, n) != 0 ||
        challenge_id(j, ch, why, n) != 0)
        return -1;
    ch->sample_rate = (int)rate;
    ch->num_samples = (long)samples;
    ch->frame_length = (int)frame;
    ch->hop = (int)hop;
    ch->field_nx = (long)nx;
    ch->field_nt = (long)nt;
    return 0;
}

int challenge_load(const char *path, challenge *ch, char *err, size_t errlen)
{
    memset(ch, 0, sizeof *ch);
    json_t *j = json_doc_load(path, err, errlen);
    if (!j)
        return -1;
    char why[600], where[300];
    int rc = 0;
    if (challenge_check(j, ch, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", cli_escape(path, where, sizeof where), why);
        memset(ch, 0, sizeof *ch);
        rc = -1;
    }
    json_decref(j);
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
#define WRONG(...)                                                                                 \
    len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, __VA_ARGS__)
    int major = w->format & SF_FORMAT_TYPEMASK, sub = w->format & SF_FORMAT_SUBMASK;
    if (major != SF_FORMAT_WAV)
        WRONG("%scontainer is %s, expected WAV (RIFF, WAVE_FORMAT_IEEE_FLOAT)", len ? "; " : "",
              container_name(major));
    if (sub != SF_FORMAT_FLOAT)
        WRONG("%ssample format is %s, expected 32-bit IEEE float", len ? "; " : "",
              wav_format_name(w->format));
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

double score_spec_work(size_t n, int M, int H)
{
    return (double)score_frames(n, M, H) * 2.0 * M * log2(M > 1 ? M : 2);
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
    double *ma = xcalloc((size_t)M / 2 + 1, sizeof(double)),
           *mr = xcalloc((size_t)M / 2 + 1, sizeof(double));
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

int score_submission(const char *path, const double *x, size_t n, int fs, const challenge *ch,
                     const wav_data *ref, double *E_wave, double *E_spec, char *err, size_t errlen)
{
    wav_data sub;
    if (wav_write_back(path, x, n, fs, 1.0 / ch->signal_scale, &sub, err, errlen) != 0)
        return -1;
    if (score_check_format(&sub, ch, err, errlen) != 0) {
        wav_data_free(&sub);
        return -1;
    }
    *E_wave = score_wave(sub.x, ref->x, n);
    *E_spec = score_spec(sub.x, ref->x, n, ch->frame_length, ch->hop);
    wav_data_free(&sub);
    return 0;
}

void score_spectrogram_tsv(FILE *f, const double *x, size_t n, int M, int H, double fs,
                           double f_max)
{
    size_t fr = score_frames(n, M, H), nb = (size_t)M / 2 + 1;
    double *mag = xcalloc(fr * nb, sizeof(double)), top = 0.0;
    score_spectrogram(x, n, M, H, mag);
    for (size_t i = 0; i < fr * nb; i++)
        top = fmax(top, mag[i]);
    fprintf(f, "t_s\tf_Hz\tlevel_dB\n");
    for (size_t m = 0; m < fr; m++) {
        for (size_t q = 0; q < nb && q * fs / M <= f_max; q++)
            fprintf(f, "%.5f\t%.2f\t%.2f\n", (m * H + M / 2) / fs, q * fs / M,
                    20.0 * log10(fmax(mag[m * nb + q], 1e-12 * top) / top));
        fputc('\n', f);
    }
    free(mag);
}

double *score_listening_copy(const double *x, long n, double gain, double ceiling, double release,
                             double fs, double *max_cut_db, double *limited_s)
{
    double *y = xcalloc((size_t)n, sizeof(double)), env = 0.0, fall = exp(-1.0 / (release * fs));
    long limited = 0;
    *max_cut_db = 0.0;
    for (long k = 0; k < n; k++) {
        double v = x[k] * gain;
        env = fmax(fabs(v), env * fall);
        y[k] = env > ceiling ? v * ceiling / env : v;
        if (env > ceiling) {
            limited++;
            *max_cut_db = fmax(*max_cut_db, 20.0 * log10(env / ceiling));
        }
    }
    *limited_s = (double)limited / fs;
    return y;
}
