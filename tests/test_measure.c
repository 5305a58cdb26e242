/* test_measure.c: the signal measures of src/analysis/measure.c that the lessons read a stroke with,
 * on signals whose answer is known: the fundamental of a sine, of a sawtooth whose
 * fundamental is weaker than its harmonics' sum, of a signal with a DC offset, and of
 * nothing periodic; the signed area of a circle run both ways and of a rectangle; the
 * resampler (libsamplerate) on sines in and above the new band, both ways, and bad rates. */
#include "check.h"
#include "analysis/measure.h"
#include "analysis/resample.h"
#include "base/util.h"
#include <math.h>
#include <stdlib.h>

#define FS 48000.0

static void test_fundamental(void)
{
    size_t n = 9600;    /* 0.2 s */
    double *x = xcalloc(n, sizeof *x);
    for (size_t k = 0; k < n; k++)
        x[k] = sin(2 * M_PI * 98.0 * k / FS);
    /* the parabola through the lag's neighbours is good to about 0.1% over 20 periods */
    check_close("fundamental of a 98 Hz sine, Hz", measure_fundamental(x, n, FS, 40, 1000), 98.0, 0.1);
    for (size_t k = 0; k < n; k++)
        x[k] = 3.0 + fmod(k * 220.0 / FS, 1.0);    /* sawtooth at 220 Hz on a DC offset */
    check_close("fundamental of a 220 Hz sawtooth with an offset, Hz", measure_fundamental(x, n, FS, 40, 1000),
                220.0, 0.2);
    for (size_t k = 0; k < n; k++)
        x[k] = sin(2 * M_PI * 98.0 * k / FS) + 0.8 * sin(2 * M_PI * 196.0 * k / FS);
    double f = measure_fundamental(x, n, FS, 40, 1000);
    check_close("fundamental of 98 Hz + a strong octave, Hz", f, 98.0, 0.1);
    for (size_t k = 0; k < n; k++)
        x[k] = 1.5;
    check(measure_fundamental(x, n, FS, 40, 1000) == 0.0, "a constant signal has no fundamental (0)");
    unsigned s = 12345;
    for (size_t k = 0; k < n; k++) {
        s = s * 1103515245u + 12345u;
        x[k] = (double)(s >> 8) / (1u << 24) - 0.5;
    }
    f = measure_fundamental(x, n, FS, 40, 1000);
    check(f == 0.0, "white noise has no fundamental (got %g)", f);
    check(measure_fundamental(x, 10, FS, 40, 1000) == 0.0, "10 samples: none");
    check(measure_fundamental(x, n, FS, 1000, 40) == 0.0, "an empty range: none");
    free(x);
}

/* measure_fundamental's autocorrelation, lag by lag as its definition reads (each sum over i in
 * order): what its four lags side by side must equal bit for bit */
static double fundamental_plain(const double *x, size_t n, double fs, double f_lo, double f_hi)
{
    double mean = 0, r0 = 0, best = -1;
    for (size_t i = 0; i < n; i++)
        mean += x[i] / n;
    for (size_t i = 0; i < n; i++)
        r0 += (x[i] - mean) * (x[i] - mean);
    long lo = (long)floor(fs / f_hi), hi = (long)ceil(fs / f_lo);
    hi = hi > (long)n / 2 ? (long)n / 2 : hi;
    double *r = xcalloc((size_t)hi + 2, sizeof(double));
    for (long L = lo - 1; L <= hi + 1; L++) {
        double sum = 0;
        for (size_t i = 0; i + L < n; i++)
            sum += (x[i] - mean) * (x[i + L] - mean);
        r[L] = sum / (r0 * (double)(n - L) / n);
    }
    for (long L = lo; L <= hi; L++)
        best = fmax(best, r[L]);
    double f = 0;
    for (long L = lo; L <= hi && f == 0; L++)
        if (r[L] >= r[L - 1] && r[L] >= r[L + 1] && r[L] >= 0.9 * best && best > 0.3) {
            double d = r[L - 1] - 2 * r[L] + r[L + 1];
            f = fs / (L + (d != 0 ? 0.5 * (r[L - 1] - r[L + 1]) / d : 0.0));
        }
    free(r);
    return f;
}

static void test_fundamental_exact(void)
{
    unsigned s = 2024;
    int same = 0, found = 0, runs = 40;
    for (int c = 0; c < runs; c++) {
        size_t n = 1500 + 37 * (size_t)c;     /* every length mod 4; the short clip hi to n/2 */
        double *x = xcalloc(n, sizeof *x), f1 = 60 + 20 * c, a2 = 0.1 * (c % 9);
        for (size_t k = 0; k < n; k++) {
            s = s * 1103515245u + 12345u;
            x[k] = 0.3 + sin(2 * M_PI * f1 * k / FS) +
                   a2 * sin(2 * M_PI * 2.0 * f1 * k / FS + 1.0) +
                   0.05 * ((double)(s >> 8) / (1u << 24) - 0.5);
        }
        double f = measure_fundamental(x, n, FS, 40, 1000);
        same += f == fundamental_plain(x, n, FS, 40, 1000);
        found += f > 0;
        free(x);
    }
    check(same == runs && found > runs / 2, "fundamental: the four lags side by side give the "
          "plain lag-by-lag sums' f0 bit for bit on %d of %d signals (1500-2943 samples; %d with "
          "an f0)", same, runs, found);
}

static void test_loop_area(void)
{
    size_t n = 1001;
    double *x = xcalloc(n, sizeof *x), *y = xcalloc(n, sizeof *y);
    for (size_t k = 0; k < n; k++) {     /* unit circle, anticlockwise, closed (last = first) */
        x[k] = cos(2 * M_PI * k / (n - 1));
        y[k] = sin(2 * M_PI * k / (n - 1));
    }
    double exact = 0.5 * (n - 1) * sin(2 * M_PI / (n - 1));    /* the inscribed polygon's area */
    check_close("circle run anticlockwise: area", measure_loop_area(x, y, n), exact, 1e-12);
    check_close("the same circle clockwise: minus the area", measure_loop_area(y, x, n), -exact, 1e-12);
    double sx[5] = {1, 3, 3, 1, 1}, sy[5] = {2, 2, 5, 5, 2};   /* a 2 x 3 rectangle away from the origin */
    check_close("rectangle 2 x 3 off the origin: area", measure_loop_area(sx, sy, 5), 6.0, 1e-15);
    check(measure_loop_area(sx, sy, 1) == 0.0, "a single point: area 0");
    free(x);
    free(y);
}

/* The largest |y_j - sin(2 pi f j / fo)| away from the ends (5 ms each: the converter's
 * kernel reaches about 3 ms either side at 48 kHz, and the sine starts and stops abruptly). */
static double sine_error(const double *y, size_t m, double f, double fo)
{
    double e = 0;
    size_t edge = (size_t)(0.005 * fo);
    for (size_t j = edge; j + edge < m; j++)
        e = fmax(e, fabs(y[j] - sin(2 * M_PI * f * j / fo)));
    return e;
}

static void test_resample(void)
{
    double fs = 200000, fo = 48000;
    size_t n = 20000, m = 0;
    char err[300];
    double *x = xcalloc(n, sizeof(double)), *y;
    const double f_in[] = {1000, 20000};
    for (int c = 0; c < 2; c++) {
        for (size_t k = 0; k < n; k++)
            x[k] = sin(2 * M_PI * f_in[c] * k / fs);
        y = resample(x, n, fs, fo, RESAMPLE_BEST, &m, err, sizeof err);
        double e = y ? sine_error(y, m, f_in[c], fo) : INFINITY;
        /* the hand-written Kaiser sinc it replaced: 1.0e-5 at 1 kHz, 4.1e-5 near 20 kHz */
        check(m == 4800 && e < 1e-6, "resample 200 kHz -> 48 kHz: a %g Hz sine within %.2e (%zu samples)", f_in[c], e,
              m);
        free(y);
    }
    for (size_t k = 0; k < n; k++)      /* the converter for sound: its band to 21.6 kHz */
        x[k] = sin(2 * M_PI * 20000.0 * k / fs);
    y = resample(x, n, fs, fo, RESAMPLE_SOUND, &m, err, sizeof err);
    double es = y ? sine_error(y, m, 20000.0, fo) : INFINITY;
    check(m == 4800 && es < 5e-6, "resample for sound 200 kHz -> 48 kHz: a 20 kHz sine within %.2e "
          "(libsamplerate's medium sinc: 3.2e-6, -110 dB)", es);
    free(y);
    for (size_t k = 0; k < n; k++)
        x[k] = sin(2 * M_PI * 30000.0 * k / fs);    /* above the new Nyquist frequency */
    y = resample(x, n, fs, fo, RESAMPLE_BEST, &m, err, sizeof err);
    double a = y ? max_abs(y + 240, m - 480) : INFINITY;
    check(a < 1e-5, "resample: a 30 kHz sine is removed, not aliased to 18 kHz (amplitude %.2e)", a);
    free(y);
    y = resample(x, n, fs, fo, RESAMPLE_SOUND, &m, err, sizeof err);
    a = y ? max_abs(y + 240, m - 480) : INFINITY;
    check(a < 1e-5, "resample for sound: a 30 kHz sine is removed (amplitude %.2e)", a);
    free(y);
    for (size_t k = 0; k < 4800; k++)
        x[k] = sin(2 * M_PI * 1000.0 * k / fo);
    y = resample(x, 4800, fo, fs, RESAMPLE_BEST, &m, err, sizeof err);
    double e = y ? sine_error(y, m, 1000.0, fs) : INFINITY;
    check(m == 19996 && e < 1e-6, "resample 48 kHz -> 200 kHz: a 1 kHz sine within %.2e (%zu samples)", e, m);
    free(y);
    y = resample(x, 4800, fo, 0.0, RESAMPLE_BEST, &m, err, sizeof err);
    check(y == NULL && err[0], "resample to 0 Hz refused: %s", err);
    y = resample(x, 4800, 1e6, 1e3, RESAMPLE_BEST, &m, err, sizeof err);
    check(y == NULL && err[0], "resample by 1/1000 refused: %s", err);
    free(x);
}

int main(void)
{
    test_resample();
    test_fundamental();
    test_fundamental_exact();
    test_loop_area();
    return check_done();
}
