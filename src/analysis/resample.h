/* resample.h: change the sampling rate of a signal by band-limited interpolation, through
 * libsamplerate's medium sinc converter (SRC_SINC_MEDIUM_QUALITY; Debian 12's 0.2.2 describes it
 * as 121 dB SNR over 90% of the lower Nyquist band), so going down in rate low-pass filters
 * instead of aliasing. Measured (tests/bench/resample_compare.c), 200 kHz to 48 kHz: a sweep's
 * largest error 3.3e-6 to 20 kHz (-110 dB; the best converter 1.5e-7), what aliases from 26-99
 * kHz -132 dB (-155), the bowed string's in-band spectral error -123 dB (-140); its band ends at
 * about 21.6 kHz (23.3): both are below what is heard (20 kHz, and 16-bit sound's -96 dB floor),
 * at a third of the best's processor time (bin/bow: 0.03 s against 0.10 s a second of sound, a
 * tenth of its whole run). libsamplerate works in 32-bit floats, as the WAVs the lessons write. */
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
