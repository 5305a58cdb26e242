/* resample_compare.c: the measurement behind src/analysis/resample.c's choices (issue 17 item 5,
 * issue 28 row 5): the hand-written Kaiser-windowed sinc resampler it had (kept here, as it was,
 * for the comparison) and resample()'s two converters, RESAMPLE_BEST (libsamplerate's
 * SRC_SINC_BEST_QUALITY) and RESAMPLE_SOUND (SRC_SINC_MEDIUM_QUALITY), on a logarithmic sine sweep
 * (20 Hz to 20 kHz, and 26 to 99 kHz for the aliasing) and on the bowed string's bridge force
 * (the default stroke of bin/bow, 200 kHz to 48 kHz): the largest error against the exact
 * samples of the sweep, and the relative in-band spectral error against the 200 kHz signal
 * (Hann-windowed Fourier sums over the analysis window 0.3-0.5 s, every 5 Hz). Not built by
 * make; from the top folder after `make all`:
 *   cc -std=c17 -O2 -Isrc -D_DEFAULT_SOURCE tests/bench/resample_compare.c -o build/resample_compare \
 *     build/libivplab.a -lsundials_cvode -lsundials_nvecserial -lsundials_sunmatrixdense \
 *     -lsundials_sunmatrixband -lsundials_sunlinsoldense -lsundials_sunlinsolband \
 *     -lsundials_sunnonlinsolfixedpoint $(pkg-config --libs gsl sndfile hdf5-serial jansson samplerate) -lm \
 *   && build/resample_compare
 */
#include "bow/gesture.h"
#include "io/params.h"
#include "bow/bow.h"
#include "analysis/resample.h"
#include "base/util.h"
#include <gsl/gsl_sf_bessel.h>
#include <samplerate.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* the resampler src/analysis/resample.c had before libsamplerate, unchanged */
#define ZEROS 24            /* half-width of the kernel in zero crossings of the sinc */
#define KAISER_BETA 8.6     /* about 90 dB stop-band attenuation */
#define TABLE 1024          /* kernel table points per zero crossing */

static double *hand_sinc(const double *x, size_t n, double fs_in, double fs_out, double cutoff, size_t *n_out)
{
    double fc = 0.5 * cutoff * fmin(fs_in, fs_out);            /* cut-off, Hz */
    double half = ZEROS / (2.0 * fc);                           /* kernel half-width, s */
    /* kernel k(u) for u = |t| / half in [0, 1], tabulated */
    size_t nt = (size_t)ZEROS * TABLE + 2;
    double *tab = xcalloc(nt, sizeof(double));
    double i0b = gsl_sf_bessel_I0(KAISER_BETA);
    for (size_t i = 0; i < nt; i++) {
        double u = fmin(1.0, (double)i / (nt - 2)), t = u * half;
        double arg = 2.0 * fc * t;
        double sinc = arg == 0.0 ? 1.0 : sin(M_PI * arg) / (M_PI * arg);
        double w = gsl_sf_bessel_I0(KAISER_BETA * sqrt(fmax(0.0, 1.0 - u * u))) / i0b;
        tab[i] = 2.0 * fc / fs_in * sinc * w;
    }
    size_t m = (size_t)floor((n - 1) / fs_in * fs_out) + 1;
    double *y = xcalloc(m, sizeof(double));
    long reach = (long)ceil(half * fs_in);
    for (size_t j = 0; j < m; j++) {
        double t = j / fs_out, c = t * fs_in;
        long k0 = (long)floor(c) - reach, k1 = (long)ceil(c) + reach;
        if (k0 < 0)
            k0 = 0;
        if (k1 > (long)n - 1)
            k1 = (long)n - 1;
        double s = 0.0;
        for (long k = k0; k <= k1; k++) {
            double u = fabs(c - k) / fs_in / half;
            if (u >= 1.0)
                continue;
            double pos = u * (nt - 2);
            size_t i = (size_t)pos;
            double f = pos - i;
            s += x[k] * (tab[i] + f * (tab[i + 1] - tab[i]));
        }
        y[j] = s;
    }
    free(tab);
    *n_out = m;
    return y;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

/* |sum w(t) x(t) e^{-j2pi f t}| / fs over samples in [t0,t1), Hann w over that span: complex */
static void dtft(const double *x, size_t n, double fs, double t0, double t1, double f, double *re, double *im)
{
    size_t k0 = (size_t)ceil(t0 * fs), k1 = (size_t)ceil(t1 * fs);
    double a = 0, b = 0;
    for (size_t k = k0; k < k1 && k < n; k++) {
        double t = k / fs, w = 0.5 - 0.5 * cos(2 * M_PI * (t - t0) / (t1 - t0));
        a += w * x[k] * cos(2 * M_PI * f * t);
        b -= w * x[k] * sin(2 * M_PI * f * t);
    }
    *re = a / fs, *im = b / fs;
}

static double chirp(double t, double f0, double f1, double T) /* log sweep */
{
    double k = log(f1 / f0) / T;
    return sin(2 * M_PI * f0 * (exp(k * t) - 1) / k);
}

static void sweep(const char *name, double *(*rs)(const double *, size_t, double, double, size_t *))
{
    double fs = 200000, fo = 48000, T = 1.0;
    size_t n = (size_t)(T * fs) + 1, m;
    double *x = xcalloc(n, sizeof *x);
    for (size_t k = 0; k < n; k++) x[k] = chirp(k / fs, 20, 20000, T);
    double t = now();
    double *y = rs(x, n, fs, fo, &m);
    t = now() - t;
    double band[5] = {0, 5000, 10000, 18000, 20000}, e[4] = {0};
    double k = log(20000.0 / 20) / T;
    for (size_t j = (size_t)(0.01 * fo); j + (size_t)(0.01 * fo) < m; j++) {
        double tt = j / fo, f = 20 * exp(k * tt), err = fabs(y[j] - chirp(tt, 20, 20000, T));
        for (int b = 0; b < 4; b++) if (f >= band[b] && f < band[b + 1]) e[b] = fmax(e[b], err);
    }
    for (size_t k2 = 0; k2 < n; k2++) x[k2] = chirp(k2 / fs, 26000, 99000, T);
    size_t m2;
    double *z = rs(x, n, fs, fo, &m2);
    double rms = 0; size_t c = 0;
    for (size_t j = (size_t)(0.01 * fo); j + (size_t)(0.01 * fo) < m2; j++) rms += z[j] * z[j], c++;
    rms = sqrt(rms / c);
    printf("%-10s sweep 20 Hz-20 kHz, 1 s at 200 kHz -> 48 kHz (%zu samples, %.1f ms): max |error| below 5 kHz %.2e, "
           "5-10 kHz %.2e, 10-18 kHz %.2e, 18-20 kHz %.2e; sweep 26-99 kHz leaves RMS %.2e (%.1f dB)\n",
           name, m, 1e3 * t, e[0], e[1], e[2], e[3], rms, 20 * log10(rms / sqrt(0.5)));
    free(x); free(y); free(z);
}

static double *mine(const double *x, size_t n, double a, double b, size_t *m) { return hand_sinc(x, n, a, b, 0.9, m); }
static double *through(const double *x, size_t n, double a, double b, resample_quality q, size_t *m)
{
    char err[300];
    double *y = resample(x, n, a, b, q, m, err, sizeof err);
    if (!y) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return y;
}
static double *best(const double *x, size_t n, double a, double b, size_t *m)
{
    return through(x, n, a, b, RESAMPLE_BEST, m);
}
static double *medium(const double *x, size_t n, double a, double b, size_t *m)
{
    return through(x, n, a, b, RESAMPLE_SOUND, m);
}

/* SRC_SINC_FASTEST through src_simple as resample() uses its converters (zeros after the end) */
static double *fastest(const double *x, size_t n, double a, double b, size_t *m)
{
    size_t k, pad = (size_t)ceil(a / b) + 2;
    *m = (size_t)floor((n - 1) / a * b) + 1;
    float *in = xcalloc(n + pad, sizeof *in), *out = xcalloc(*m, sizeof *out);
    for (k = 0; k < n; k++)
        in[k] = (float)x[k];
    SRC_DATA d = {.data_in = in, .data_out = out, .input_frames = (long)(n + pad),
                  .output_frames = (long)*m, .src_ratio = b / a};
    if (src_simple(&d, SRC_SINC_FASTEST, 1) != 0 || d.output_frames_gen != (long)*m) {
        fprintf(stderr, "SRC_SINC_FASTEST failed\n");
        exit(1);
    }
    double *y = xcalloc(*m, sizeof *y);
    for (k = 0; k < *m; k++)
        y[k] = out[k];
    free(in);
    free(out);
    return y;
}

int main(void)
{
    sweep("hand sinc", mine);
    sweep("SRC best", best);
    sweep("SRC medium", medium);
    sweep("SRC fastest", fastest);
    bow_instrument in;
    param_spec spec[BOW_NKEYS + 1];
    bow_param_table(&in, spec);
    char err[400];
    if (params_load(spec, params_path("cello-g.ini"), false, err, sizeof err) != 0) { puts(err); return 1; }
    gesture g = gesture_stroke(0.5, 0.1, 0.3, 0, 2.15, 0.075 * in.L);
    double *br, *vr; size_t n;
    if (bow_stroke(&in, &g, &br, &vr, &n, err, sizeof err) != 0) { puts(err); return 1; }
    double fs = 1.0 / in.dt, fo = 48000;
    size_t ma, mb;
    size_t mc, md;
    double t = now(); double *ya = mine(br, n, fs, fo, &ma); double ta = now() - t;
    t = now(); double *yb = best(br, n, fs, fo, &mb); double tb = now() - t;
    t = now(); double *yc = medium(br, n, fs, fo, &mc); double tc = now() - t;
    t = now(); double *yd = fastest(br, n, fs, fo, &md); double td = now() - t;
    printf("bow stroke (0.5 s, %zu samples at %g Hz): hand sinc %zu samples %.1f ms, SRC best %zu samples %.1f ms, "
           "SRC medium %zu samples %.1f ms, SRC fastest %zu samples %.1f ms\n", n, fs, ma, 1e3 * ta, mb,
           1e3 * tb, mc, 1e3 * tc, md, 1e3 * td);
    /* in-band spectral error on the analysis window 0.3-0.5 s */
    double lim[4] = {5000, 10000, 18000, 20000};
    for (int L = 0; L < 4; L++) {
        double ea = 0, eb = 0, ec = 0, ed = 0, ref = 0;
        for (double f = 5; f <= lim[L]; f += 5) {
            double xr, xi, ar, ai, br_, bi, cr, ci, dr, di;
            dtft(br, n, fs, 0.3, 0.5, f, &xr, &xi);
            dtft(ya, ma, fo, 0.3, 0.5, f, &ar, &ai);
            dtft(yb, mb, fo, 0.3, 0.5, f, &br_, &bi);
            dtft(yc, mc, fo, 0.3, 0.5, f, &cr, &ci);
            dtft(yd, md, fo, 0.3, 0.5, f, &dr, &di);
            ref += xr * xr + xi * xi;
            ea += (ar - xr) * (ar - xr) + (ai - xi) * (ai - xi);
            eb += (br_ - xr) * (br_ - xr) + (bi - xi) * (bi - xi);
            ec += (cr - xr) * (cr - xr) + (ci - xi) * (ci - xi);
            ed += (dr - xr) * (dr - xr) + (di - xi) * (di - xi);
        }
        printf("  0-%g Hz: relative spectral error hand sinc %.2e (%.1f dB), SRC best %.2e (%.1f dB), SRC medium %.2e "
               "(%.1f dB), SRC fastest %.2e (%.1f dB)\n", lim[L], sqrt(ea / ref), 10 * log10(ea / ref),
               sqrt(eb / ref), 10 * log10(eb / ref), sqrt(ec / ref), 10 * log10(ec / ref),
               sqrt(ed / ref), 10 * log10(ed / ref));
    }
    double d = 0; size_t mm = ma < mb ? ma : mb;
    for (size_t j = 0; j < mm; j++) d = fmax(d, fabs(ya[j] - yb[j]));
    printf("  largest sample difference between the two: %.3e N (peak %.3f N)\n", d, max_abs(ya, ma));
    d = 0, mm = mb < mc ? mb : mc;
    for (size_t j = 0; j < mm; j++) d = fmax(d, fabs(yb[j] - yc[j]));
    printf("  largest sample difference between SRC best and medium: %.3e N\n", d);
    d = 0, mm = mb < md ? mb : md;
    for (size_t j = 0; j < mm; j++) d = fmax(d, fabs(yb[j] - yd[j]));
    printf("  largest sample difference between SRC best and fastest: %.3e N\n", d);
    return 0;
}
