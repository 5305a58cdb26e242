/* test_score: E_wave and E_spec as defined (against a naive DFT), challenge.json read back, and
 * bin/score refusing every wrong format with a clear message and exit status 2. */
#include "check.h"
#include "string/score.h"
#include "base/util.h"
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* E_spec written straight from the definition: direct DFT sums, no FFT. */
static double spec_naive(const double *a, const double *r, size_t n, int M, int H)
{
    double num = 0, den = 0;
    for (size_t m = 0; m + (size_t)M <= n; m += (size_t)H)
        for (int q = 0; q <= M / 2; q++) {
            double ar = 0, ai = 0, rr = 0, ri = 0;
            for (int j = 0; j < M; j++) {
                double g = 0.5 * (1 - cos(2 * M_PI * j / M)), ph = -2 * M_PI * (double)q * j / M;
                ar += a[m + j] * g * cos(ph), ai += a[m + j] * g * sin(ph);
                rr += r[m + j] * g * cos(ph), ri += r[m + j] * g * sin(ph);
            }
            double d = hypot(ar, ai) - hypot(rr, ri);
            num += d * d;
            den += rr * rr + ri * ri;
        }
    return sqrt(num / den);
}

static void write_wav(const char *path, int rate, int channels, int format, long frames, double scale)
{
    SF_INFO info = {0};
    info.samplerate = rate, info.channels = channels, info.format = format;
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    if (!f) {
        printf("FAIL: cannot write %s: %s\n", path, sf_strerror(NULL));
        exit(1);
    }
    double *x = xcalloc((size_t)(frames * channels), sizeof(double));
    for (long k = 0; k < frames * channels; k++)
        x[k] = scale * 0.4 * exp(-3.0 * k / 48000.0) * sin(2 * M_PI * 110.0 * k / 48000.0);
    sf_writef_double(f, x, frames);
    sf_close(f);
    free(x);
}

/* Run bin/score; its exit status, and its stderr in err. */
static int run_score(const char *bin, const char *args, char *err, size_t n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/score %s 2>&1 >/dev/null", bin, args);
    FILE *p = popen(cmd, "r");
    size_t got = fread(err, 1, n - 1, p);
    err[got] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
    /* ---- the measures ---- */
    size_t n = 2048 + 3 * 512 + 100;
    double *r = xcalloc(n, sizeof(double)), *a = xcalloc(n, sizeof(double)), *b = xcalloc(n, sizeof(double));
    for (size_t k = 0; k < n; k++) {
        r[k] = exp(-2e-4 * k) * (sin(0.031 * k) + 0.3 * sin(0.47 * k + 1.0));
        a[k] = 1.01 * r[k];
        b[k] = r[k] + 0.01 * sin(0.2 * k) + (k % 7 == 0 ? 1e-3 : 0.0);
    }
    check_close("E_wave of 1.01 x reference", score_wave(a, r, n), 0.01, 1e-12);
    check_close("E_spec of 1.01 x reference", score_spec(a, r, n, 2048, 512), 0.01, 1e-12);
    double fast = score_spec(b, r, n, 2048, 512), slow = spec_naive(b, r, n, 2048, 512);
    check(fabs(fast - slow) < 1e-11 * slow, "E_spec with GSL's FFT = the direct DFT definition (%.12g vs %.12g, 4 frames)",
          fast, slow);
    check(score_frames(96000, 2048, 512) == 184, "96000 samples make %zu frames (floor((N - M)/H) + 1 = 184)",
          score_frames(96000, 2048, 512));
    check(isnan(score_spec(a, r, 1000, 2048, 512)), "fewer samples than a frame: E_spec is not defined (NaN)");
    /* a pure delay: phase only within a frame is ignored by E_spec far more than by E_wave */
    double *d = xcalloc(n, sizeof(double));
    for (size_t k = 1; k < n; k++)
        d[k] = r[k - 1];
    double ew = score_wave(d, r, n), es = score_spec(d, r, n, 2048, 512);
    check(es < 0.2 * ew, "a one-sample delay: E_spec %.3g is far below E_wave %.3g", es, ew);
    free(a), free(b), free(d), free(r);

    /* ---- challenge.json ---- */
    challenge ch;
    char err[1200];
    int rc = challenge_load(challenge_path(), &ch, err, sizeof err);
    check(rc == 0, "challenge.json loads (%s)", rc ? err : challenge_path());
    check(ch.signal_scale == 2.5 && ch.sample_rate == 48000 && ch.num_samples == 96000 && ch.frame_length == 2048 &&
              ch.hop == 512 && ch.field_nx == 201 && ch.field_nt == 4001,
          "its values: s_ref %g m/s, %d Hz, %ld samples, M %d, H %d, field %ld x %ld", ch.signal_scale, ch.sample_rate,
          ch.num_samples, ch.frame_length, ch.hop, ch.field_nt, ch.field_nx);
    check(ch.string.L == 0.65 && ch.string.c == 143 && ch.string.xm == 0.54 && ch.string.w == 0.006,
          "the string: L %g m, c %g m/s, w %g m, xm %g m", ch.string.L, ch.string.c, ch.string.w, ch.string.xm);
    /* the JSON reader and the checks of challenge.json at load: test_challenge */

    /* ---- bin/score refuses every wrong format, exit 2, one clear line ---- */
    const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
    char dir[] = "/tmp/test_score_XXXXXX";
    if (!mkdtemp(dir)) {
        printf("FAIL: mkdtemp\n");
        return 1;
    }
    char p_ref[256], p_ok[256], args[1024];
    snprintf(p_ref, sizeof p_ref, "%s/ref.wav", dir);
    snprintf(p_ok, sizeof p_ok, "%s/ok.wav", dir);
    write_wav(p_ref, 48000, 1, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 96000, 1.0);
    write_wav(p_ok, 48000, 1, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 96000, 1.01);
    struct { const char *name; int rate, channels, format; long frames; const char *says; } bad[] = {
        {"rate.wav", 44100, 1, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 96000, "sample rate 44100 Hz, expected 48000 Hz"},
        {"stereo.wav", 48000, 2, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 96000, "2 channels, expected 1 (mono)"},
        {"pcm16.wav", 48000, 1, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 96000, "16-bit PCM, expected 32-bit IEEE float"},
        {"short.wav", 48000, 1, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 95999, "95999 samples (1.99998 s), expected 96000"},
        {"aiff.aiff", 48000, 1, SF_FORMAT_AIFF | SF_FORMAT_FLOAT, 96000, "container is AIFF, expected WAV"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, bad[i].name);
        write_wav(p, bad[i].rate, bad[i].channels, bad[i].format, bad[i].frames, 1.0);
        snprintf(args, sizeof args, "%s %s", p_ref, p);
        int st = run_score(bin, args, err, sizeof err);
        check(st == 2 && strstr(err, bad[i].says) && strchr(err, '\n') == strrchr(err, '\n'),
              "%s refused (exit %d): %s", bad[i].name, st, strtok(err, "\n") ? err : "");
    }
    char p_txt[256];
    snprintf(p_txt, sizeof p_txt, "%s/notes.wav", dir);
    FILE *f = fopen(p_txt, "w");
    fputs("this is not a sound file\n", f);
    fclose(f);
    snprintf(args, sizeof args, "%s %s", p_ref, p_txt);
    int st = run_score(bin, args, err, sizeof err);
    check(st == 2 && strstr(err, "not a readable sound file"), "a text file refused (exit %d): %s", st, strtok(err, "\n"));
    snprintf(args, sizeof args, "%s/missing.wav %s", dir, p_ok);
    st = run_score(bin, args, err, sizeof err);
    check(st == 2, "a missing reference refused (exit %d): %s", st, strtok(err, "\n"));
    /* the good pair scores, and the TSV has the columns file, E_wave, E_spec */
    char cmd[1200], line[512] = "", head[256] = "";
    snprintf(cmd, sizeof cmd, "%s/score --tsv %s %s", bin, p_ref, p_ok);
    FILE *p = popen(cmd, "r");
    if (!fgets(head, sizeof head, p) || !fgets(line, sizeof line, p))
        line[0] = '\0';
    st = pclose(p);
    check(strcmp(head, "file\tE_wave\tE_spec\n") == 0, "--tsv header: file, E_wave, E_spec");
    char *tab1 = strchr(line, '\t');
    double e1 = tab1 ? atof(tab1 + 1) : -1, e2 = tab1 && strchr(tab1 + 1, '\t') ? atof(strchr(tab1 + 1, '\t') + 1) : -1;
    /* both files are float32: 1.01 x is rounded per sample, so E_wave is 0.01 to float precision;
     * the exact value for the stored samples, in long double, must come out to 1e-12 */
    wav_data wr, wo;
    long double num = 0, den = 0;
    if (wav_read(p_ref, &wr, err, sizeof err) == 0 && wav_read(p_ok, &wo, err, sizeof err) == 0) {
        for (long k = 0; k < wr.frames; k++) {
            long double dd = (long double)wo.x[k] - wr.x[k];
            num += dd * dd;
            den += (long double)wr.x[k] * wr.x[k];
        }
        wav_data_free(&wr);
        wav_data_free(&wo);
    }
    double exact = (double)sqrtl(num / den);
    check(WEXITSTATUS(st) == 0 && fabs(e1 - exact) < 1e-12 && fabs(exact - 0.01) < 1e-8,
          "float32 reference scaled by 1.01: bin/score E_wave %.12f = %.12f (long double over the stored samples) to 1e-12",
          e1, exact);
    check(fabs(e2 - 0.01) < 1e-7, "and E_spec %.12f = 0.01 to float rounding", e2);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
    return check_done();
}
