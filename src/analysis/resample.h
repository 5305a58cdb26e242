/* resample.h: change the sampling rate of a signal by band-limited interpolation, through
 * libsamplerate's best sinc converter (SRC_SINC_BEST_QUALITY; Debian 12's 0.2.2 describes it
 * as 144 dB SNR over 96% of the lower Nyquist band), so going down in rate low-pass filters
 * instead of aliasing. libsamplerate works in 32-bit floats: the result carries their relative
 * rounding (about 1e-7, -140 dB), as the 32-bit float WAVs the lessons write do anyway. */
#ifndef IVPLAB_RESAMPLE_H
#define IVPLAB_RESAMPLE_H
#include <stddef.h>

/* x[k] at fs_in (Hz), k < n (n >= 1), into a new array at fs_out (Hz) covering the same time
 * span: the samples at j / fs_out for every j with j / fs_out <= (n - 1) / fs_in (the input is
 * taken as zero outside it); *n_out gets their number. NULL with a one-line reason in err when
 * the rates are not positive or their ratio is outside libsamplerate's (1/256 to 256), or when
 * libsamplerate fails. */
double *resample(const double *x, size_t n, double fs_in, double fs_out, size_t *n_out, char *err, size_t errlen);

#endif
