/* spectrum.h: the magnitude spectrum of a sampled signal through GSL's mixed-radix real FFT,
 * with a Hann window, and its peak. GSL's FFT takes any length, but a length with a large
 * prime factor (88201 = 193 x 457: 2 s at 44.1 kHz plus the sample at t = 0) falls back to a
 * slow transform; spectrum_fast_length gives the next 2-3-5-smooth length to zero-pad to. */
#ifndef IVPLAB_SPECTRUM_H
#define IVPLAB_SPECTRUM_H
#include <stddef.h>
#include <stdio.h>

typedef struct spectrum {
    size_t n;               /* samples windowed */
    size_t nfft;            /* transform length: n, or n zero-padded */
    size_t nbins;           /* bins 0 .. nfft/2 */
    double df;              /* bin spacing fs / nfft, Hz */
    double *mag;            /* |X_k| of the windowed signal, units of x (owned) */
} spectrum;

/* Hann-windowed spectrum of x[0..n-1] sampled at fs (Hz). 0 on success; -1 when GSL fails
 * (n < 2 included). */
int spectrum_hann(const double *x, size_t n, double fs, spectrum *s);
/* The same with the windowed samples zero-padded to nfft >= n (a finer bin grid of the same
 * spectrum); nfft < n is an error (-1). */
int spectrum_hann_padded(const double *x, size_t n, size_t nfft, double fs, spectrum *s);
/* The smallest length >= n whose only prime factors are 2, 3 and 5 (n >= 1). */
size_t spectrum_fast_length(size_t n);
void spectrum_free(spectrum *s);                 /* leaves it empty; safe twice */
/* Frequency of bin k, Hz. */
double spectrum_freq(const spectrum *s, size_t k);
/* Level of bin k in dB relative to the largest bin (-inf dB floor clipped at -400 dB). */
double spectrum_db(const spectrum *s, size_t k, double peak_mag);
/* The largest bin with f in [fmin, fmax]; its frequency refined by a parabola through the
 * log magnitudes of it and its neighbours (Hz) into *f_peak, its magnitude into *mag (either
 * may be NULL). Returns the bin, or (size_t)-1 when the band holds no bin. */
size_t spectrum_peak(const spectrum *s, double fmin, double fmax, double *f_peak, double *mag);

/* The spectrum as a figure's table, "f_Hz\tlevel_dB" (dB re peak_mag), bins 1 .. nbins-1: all of
 * them, or with buckets > 0 the bins of lowest and highest level in each of that many equal spans
 * of log f (for a log f axis; the peak's bin is among them). */
void spectrum_write_tsv(FILE *f, const spectrum *s, double peak_mag, size_t buckets);

#endif
