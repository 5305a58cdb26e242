#include "analysis/spectrum.h"
#include "base/util.h"
#include "io/numfmt.h"
#include "io/plot.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_real.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t spectrum_fast_length(size_t n)
{
    for (size_t m = n > 1 ? n : 1;; m++) {
        size_t r = m;
        while (r % 2 == 0) r /= 2;
        while (r % 3 == 0) r /= 3;
        while (r % 5 == 0) r /= 5;
        if (r == 1)
            return m;
    }
}

int spectrum_hann(const double *x, size_t n, double fs, spectrum *s)
{
    return spectrum_hann_padded(x, n, n, fs, s);
}

int spectrum_hann_padded(const double *x, size_t n, size_t nfft, double fs, spectrum *s)
{
    memset(s, 0, sizeof *s);
    if (n < 2 || nfft < n)
        return -1;
    double *d = xcalloc(nfft, sizeof *d);   /* d[n .. nfft-1] = 0: the padding */
    /* Hann window w_k = (1 - cos(2 pi k / (n - 1))) / 2, the symmetric form. */
    for (size_t k = 0; k < n; k++)
        d[k] = x[k] * 0.5 * (1.0 - cos(2.0 * M_PI * (double)k / (double)(n - 1)));
    gsl_fft_real_wavetable *wt = gsl_fft_real_wavetable_alloc(nfft);
    gsl_fft_real_workspace *ws = gsl_fft_real_workspace_alloc(nfft);
    int rc = (wt && ws) ? gsl_fft_real_transform(d, 1, nfft, wt, ws) : GSL_ENOMEM;
    gsl_fft_real_workspace_free(ws);
    gsl_fft_real_wavetable_free(wt);
    if (rc != GSL_SUCCESS) {
        free(d);
        return -1;
    }
    /* Half-complex order: d[0] = X_0, (d[2k-1], d[2k]) = X_k, and d[nfft-1] = X_{nfft/2} for
     * even nfft. */
    s->n = n;
    s->nfft = nfft;
    s->nbins = nfft / 2 + 1;
    s->df = fs / (double)nfft;
    s->mag = xcalloc(s->nbins, sizeof *s->mag);
    s->mag[0] = fabs(d[0]);
    for (size_t k = 1; k < s->nbins; k++) {
        if (2 * k == nfft)
            s->mag[k] = fabs(d[nfft - 1]);
        else
            s->mag[k] = hypot(d[2 * k - 1], d[2 * k]);
    }
    free(d);
    return 0;
}

void spectrum_free(spectrum *s)
{
    free(s->mag);
    memset(s, 0, sizeof *s);
}

double spectrum_freq(const spectrum *s, size_t k)
{
    return s->df * (double)k;
}

double spectrum_db(const spectrum *s, size_t k, double peak_mag)
{
    double r = s->mag[k] / peak_mag;
    return r > 1e-20 ? 20.0 * log10(r) : -400.0;
}

size_t spectrum_peak(const spectrum *s, double fmin, double fmax, double *f_peak, double *mag)
{
    size_t best = (size_t)-1;
    for (size_t k = 0; k < s->nbins; k++) {
        double f = spectrum_freq(s, k);
        if (f >= fmin && f <= fmax && (best == (size_t)-1 || s->mag[k] > s->mag[best]))
            best = k;
    }
    if (best == (size_t)-1)
        return best;
    double f = spectrum_freq(s, best);
    if (best > 0 && best + 1 < s->nbins && s->mag[best - 1] > 0 && s->mag[best + 1] > 0) {
        double a = log(s->mag[best - 1]), b = log(s->mag[best]), c = log(s->mag[best + 1]);
        double den = a - 2.0 * b + c;
        if (den < 0.0)
            f += 0.5 * (a - c) / den * s->df;
    }
    if (f_peak)
        *f_peak = f;
    if (mag)
        *mag = s->mag[best];
    return best;
}

void spectrum_write_tsv(FILE *f, const spectrum *s, double peak_mag, size_t buckets)
{
    fprintf(f, "f_Hz\tlevel_dB\n");
    size_t n = s->nbins > 1 ? s->nbins - 1 : 0;
    double (*bins)[2] = xcalloc(n + 1, sizeof *bins);    /* log10 f, level of bins 1 .. nbins-1 */
    for (size_t k = 0; k < n; k++) {
        bins[k][0] = log10(spectrum_freq(s, k + 1));
        bins[k][1] = spectrum_db(s, k + 1, peak_mag);
    }
    const size_t level[] = {1};
    size_t *keep = xcalloc(2 * buckets + 2 > n ? 2 * buckets + 2 : n, sizeof *keep);
    size_t nkeep = plot_decimate(&bins[0][0], n, 2, 0, level, 1, buckets, keep);
    const char *const fmt[] = {"%.4f", "%.4f"};
    for (size_t i = 0; i < nkeep; i++) {
        const double row[2] = {spectrum_freq(s, keep[i] + 1), bins[keep[i]][1]};
        numfmt_row(f, row, 2, fmt);
    }
    free(keep);
    free(bins);
}
