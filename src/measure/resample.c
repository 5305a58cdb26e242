#include "measure/resample.h"
#include "base/util.h"
#include <gsl/gsl_sf_bessel.h>
#include <math.h>
#include <stdlib.h>

#define ZEROS 24            /* half-width of the kernel in zero crossings of the sinc */
#define KAISER_BETA 8.6     /* about 90 dB stop-band attenuation */
#define TABLE 1024          /* kernel table points per zero crossing */

double *resample_sinc(const double *x, size_t n, double fs_in, double fs_out, double cutoff, size_t *n_out)
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
