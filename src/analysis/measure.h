/* measure.h: what the lessons measure: orders of accuracy from error tables, and what a
 * method does to a free oscillator (pitch in cents, T60) read from its R(z). */
#ifndef IVPLAB_MEASURE_H
#define IVPLAB_MEASURE_H
#include "method/method.h"
#include <stdbool.h>
#include <stddef.h>

/* Least-squares slope of log y against log x over n points (the order of a convergence table). */
double measure_loglog_slope(const double *x, const double *y, size_t n);
/* Slopes between neighbours, s[i] = log(y[i+1]/y[i]) / log(x[i+1]/x[i]), i < n - 1: they show
 * a pre-asymptotic range or round-off that a single fit would hide. */
void measure_pairwise_slopes(const double *x, const double *y, size_t n, double *s);

/* What one step of h does to the free oscillator u'' = -omega0^2 u - 2 sigma0 u' (underdamped):
 * the numerical eigenvalue log(R(h lambda))/h against lambda = -sigma0 + j omega1. */
typedef struct osc_fidelity {
    double gain;            /* |R(h lambda)| per step */
    bool grows;             /* |R| > 1: the method amplifies the oscillator */
    double cents;           /* pitch error, cents (1200 log2 of numerical over exact omega1) */
    double t60_ratio;       /* numerical T60 over exact T60 (meaningless when it grows) */
    double t60;             /* the T60 one step of h gives, 6 ln 10 / (-ln|R(h lambda)| / h), s
                               (INFINITY when |R| >= 1: the envelope never decays) */
} osc_fidelity;

osc_fidelity measure_oscillator_fidelity(const method *m, double omega0, double sigma0, double h);

/* T60 = 6 ln 10 / sigma: the time to decay by 60 dB, s. */
double measure_t60(double sigma);

/* The order of a convergence table over its asymptotic range, chosen without knowing the order:
 * the longest run of at least MEASURE_MIN_POINTS points whose errors are all above floor (the reference's own
 * error, or round-off) and whose pairwise slopes all agree within agree (max - min) and are at
 * least MEASURE_MIN_ORDER (the error falls); on a tie the run at smaller h. The fit takes the
 * npts smallest h of that run: err[*first .. *first + *count - 1] (h decreasing). Without such
 * a run: NAN, *count 0 and *status "not asymptotic" (enough points above the floor, their
 * slopes disagree) or "reference floor" (too few above it); else *status NULL. */
#define MEASURE_MIN_ORDER 0.5
#define MEASURE_MIN_POINTS 4
double measure_asymptotic_order(const double *h, const double *err, size_t n, double floor, size_t npts,
                                double agree, size_t *first, size_t *count, const char **status);

/* Decay rate and angular frequency of a ringing signal u(t_i), i < n, equally spaced: the local
 * maxima (refined by a parabola through each peak and its neighbours) give the envelope
 * e^{-sigma t}, fitted by least squares on log u_peak, and the period, the mean spacing of the
 * peaks. Returns the number of peaks used (sigma, omega are NAN when fewer than 3). */
size_t measure_ringing(const double *t, const double *u, size_t n, double *sigma, double *omega);

/* Fundamental frequency of x (n samples at fs) searched in [f_lo, f_hi] Hz from the
 * normalised autocorrelation of x - mean: the shortest lag that is a local maximum within 10%
 * of the best lag's value, refined by a parabola through it and its neighbours. 0 when there
 * is none (a constant signal, fewer than 16 samples, a range that does not fit in half the signal, or a best
 * correlation of 0.3 or less: nothing repeats). */
double measure_fundamental(const double *x, size_t n, double fs, double f_lo, double f_hi);

/* The signed area swept by the path (x_k, y_k), k < n, about the origin (the shoelace sum
 * of 0.5 (x_{k-1} y_k - x_k y_{k-1}) over k = 1..n-1): for a closed loop the area it
 * encloses, positive when it runs anticlockwise in the (x, y) plane. Unit: x's times y's. */
double measure_loop_area(const double *x, const double *y, size_t n);

#endif
