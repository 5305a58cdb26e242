/* stability.h: a method's stability region |R(z)| <= 1 and its stability intervals on the
 * negative real and on the imaginary axis, read from the method table's own R(z), so the
 * stability lesson can never disagree with the stepping code. */
#ifndef IVPLAB_STABILITY_H
#define IVPLAB_STABILITY_H
#include "method/method.h"
#include <complex.h>
#include <stdbool.h>
#include <stdio.h>

/* |R| within this of 1 counts as stable: |R| = 1 on the unit circle is computed with round-off. */
#define STABILITY_TOL 1e-14
/* Scan step along an axis, in units of z; an interval shorter than this is reported as 0. */
#define STABILITY_SCAN_STEP 1e-3
/* An axis stable out to this |z| (and at the few far points beyond it) is reported as infinite. */
#define STABILITY_SCAN_MAX 100.0
/* The bisection after the scan: it stops when the bracket is below this share of the bound (of 1
 * below 1), or gives up (NAN) after this many halvings; from the widest bracket (9e7 wide, 1e8)
 * it takes 47 halvings, so NAN means R misbehaves (a NaN), never a slow search. */
#define STABILITY_BISECT_RTOL 1e-12
#define STABILITY_BISECT_MAX 200

/* Where a method's R is read for the eigenvalue lambda (1/s) at the step h (s): z = h lambda, but
 * j h |lambda| (with the sign of Im lambda) for a method on (u, v) halves (leapfrog), whose R is
 * defined on the undamped oscillator. */
double complex stability_z(const method *m, double h, double complex lambda);

/* Whether |R(z)| <= 1 (within STABILITY_TOL). */
bool stability_stable(const method *m, double complex z);

/* The largest x such that |R(x dir)| <= 1 for every point of [0, x] along the direction dir
 * (dir = -1: the negative real axis, dir = j: the imaginary axis). INFINITY when the whole
 * half-axis is stable, 0 when no interval of at least STABILITY_SCAN_STEP is. Found by a scan
 * of STABILITY_SCAN_STEP, then bisection to STABILITY_BISECT_RTOL (relative); NAN when the
 * bisection gave up after STABILITY_BISECT_MAX halvings (the caller says so). */
double stability_bound(const method *m, double complex dir);

/* The phase error of one step on an oscillator, arg R(z) - Im z, taken in (-pi, pi], rad: the
 * angle a step turns too far (positive) or too short. arg R alone lies in (-pi, pi] while Im z
 * grows without bound, so the plain difference is off by whole turns once |Im z| > pi - arg R. */
double stability_phase_error(const method *m, double complex z);

/* What one step of h does to a damped partial y = e^{lambda t}, lambda = -alpha + j omega
 * (omega > 0, rad/s; alpha, 1/s), read from R(h lambda): the method's frequency (Im z plus the
 * phase error of the step, over h: arg R / h without the wrap), its decay -ln|R| / h, the pitch
 * error 1200 log2(omega_num / omega) in cents and the T60 ratio alpha / decay (numerical T60
 * over exact; negative when the method makes the partial grow, INFINITY when |R| = 1). */
typedef struct stability_partial {
    double omega;           /* the method's angular frequency, rad/s */
    double decay;           /* the method's decay rate, 1/s */
    double cents;           /* pitch error, cents */
    double t60_ratio;       /* numerical T60 over exact, 1 */
} stability_partial;
stability_partial stability_partial_of(const method *m, double h, double alpha, double omega);

/* The "audio bandwidth" at step h: the frequency (Hz) up to which a partial of decay alpha (1/s)
 * keeps |cents| <= cents_max and |T60 ratio - 1| <= ratio_tol. A scan up from 1 Hz in steps of
 * 1% finds the first failing frequency (at most f_max, the Nyquist frequency of the rate); a
 * bisection then ends when the bracket is within 1e-9 relative or after 100 halvings. *limit is
 * "pitch" or "T60" (what fails first) or "none" (f_max reached: f_max is returned). 0 when the
 * lowest frequency already fails; NAN for a method whose R is for the undamped oscillator only
 * (leapfrog: stability_z), whose T60 it cannot say. */
double stability_bandwidth(const method *m, double h, double alpha, double f_max, double cents_max,
                           double ratio_tol, const char **limit);

/* Whether the region is bounded: every point of the circle |z| = radius (720 points) unstable.
 * Explicit methods (R a polynomial) have bounded regions; A-stable ones do not. */
bool stability_region_bounded(const method *m, double radius);

/* Write |R| on an nx x ny grid over [x0, x1] x [y0, y1] as a gnuplot grid (blank line between
 * rows): columns re_z, im_z, abs_R, stable (1 or 0). Returns 0, or -1 on a write error. */
int stability_grid(const method *m, FILE *f, double x0, double x1, int nx, double y0, double y1, int ny);

#endif
