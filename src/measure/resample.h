/* resample.h: change the sampling rate of a signal by band-limited interpolation: each output
 * sample is the input convolved with a Kaiser-windowed sinc whose cut-off lies below both
 * Nyquist frequencies (so going down in rate low-pass filters instead of aliasing). */
#ifndef IVPLAB_RESAMPLE_H
#define IVPLAB_RESAMPLE_H
#include <stddef.h>

/* x[k] at fs_in (Hz), k < n, into a new array at fs_out (Hz) covering the same time span;
 * *n_out gets its length. cutoff: the pass band as a fraction of the lower Nyquist frequency
 * (e.g. 0.9). */
double *resample_sinc(const double *x, size_t n, double fs_in, double fs_out, double cutoff, size_t *n_out);

#endif
