/* spectrum.h: the magnitude spectrum of a sampled signal through GSL's mixed-radix real FFT
 * (any length), with a Hann window, and its peak. */
#ifndef IVPLAB_SPECTRUM_H
#define IVPLAB_SPECTRUM_H
#include <stddef.h>

typedef struct spectrum {
    size_t nbins;           /* bins 0 .. n/2 */
    double df;              /* bin spacing fs / n, Hz */
    double *mag;            /* |X_k| of the windowed signal, units of x (owned) */
} spectrum;

/* Hann-windowed spectrum of x[0..n-1] sampled at fs (Hz). 0 on success; -1 when GSL fails
 * (n < 2 included). */
int spectrum_hann(const double *x, size_t n, double fs, spectrum *s);
void spectrum_free(spectrum *s);                 /* leaves it empty; safe twice */
/* Frequency of bin k, Hz. */
double spectrum_freq(const spectrum *s, size_t k);
/* Level of bin k in dB relative to the largest bin (-inf dB floor clipped at -400 dB). */
double spectrum_db(const spectrum *s, size_t k, double peak_mag);
/* The largest bin with f in [fmin, fmax]; its frequency refined by a parabola through the
 * log magnitudes of it and its neighbours (Hz) into *f_peak, its magnitude into *mag (either
 * may be NULL). Returns the bin, or (size_t)-1 when the band holds no bin. */
size_t spectrum_peak(const spectrum *s, double fmin, double fmax, double *f_peak, double *mag);

#endif
