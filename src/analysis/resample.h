/* resample.h: change the sampling rate of a signal by band-limited interpolation, through
 * libsamplerate's sinc converters, so going down in rate low-pass filters instead of aliasing.
 * libsamplerate works in 32-bit floats: the result carries their relative rounding (about 1e-7,
 * -140 dB), as the 32-bit float WAVs the lessons write do anyway. */
#ifndef IVPLAB_RESAMPLE_H
#define IVPLAB_RESAMPLE_H
#include <stddef.h>

/* Which converter: how much of the band it keeps, measured 200 kHz -> 48 kHz by
 * tests/bench/resample_compare.c (a sweep's largest error to 20 kHz; what aliases from 26-99 kHz;
 * the bowed string's in-band spectral error; its CPU for 1 s of sound). */
typedef enum {
    /* SRC_SINC_BEST_QUALITY: to 97% of the lower Nyquist band (23.3 kHz at 48 kHz); 1.5e-7,
     * -155 dB, -140 dB; 0.10 s. For figures and analyses, whose waveforms at a low rate (20 kHz)
     * show the band's edge. */
    RESAMPLE_BEST,
    /* SRC_SINC_MEDIUM_QUALITY: to 90% of it (21.6 kHz at 48 kHz); 3.3e-6 (-110 dB), -132 dB,
     * -123 dB; 0.03 s. For sound at an audio rate: what it leaves out is above hearing and below
     * 16-bit sound's floor (-96 dB). SRC_SINC_FASTEST, measured beside it (issue 28 row 5), takes
     * half the time (0.26e9 instructions against 0.62e9 in bin/bow's 1 s stroke) but bends the
     * top of the band: 5.5e-2 at 10-18 kHz, 0.15 at 18-20 kHz, -80 dB on the string to 20 kHz;
     * its WAV of that stroke differs by -77 dB RMS, above 16-bit's floor: not used. */
    RESAMPLE_SOUND
} resample_quality;

/* x[k] at fs_in (Hz), k < n (n >= 1), into a new array at fs_out (Hz) covering the same time
 * span: the samples at j / fs_out for every j with j / fs_out <= (n - 1) / fs_in (the input is
 * taken as zero outside it); *n_out gets their number. NULL with a one-line reason in err when
 * the rates are not positive or their ratio is outside libsamplerate's (1/256 to 256), or when
 * libsamplerate fails. */
double *resample(const double *x, size_t n, double fs_in, double fs_out, resample_quality q,
                 size_t *n_out, char *err, size_t errlen);

#endif
