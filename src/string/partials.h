/* partials.h: what a method does to each partial of the plucked string (string/string.h):
 * per mode k of the Galerkin system, the exact frequency and T60, the method's pitch error and
 * T60 ratio predicted from R(h lambda_k) (analysis/stability), and the same measured from the
 * pickup signal of the method's own run on the Galerkin system.
 *
 * The estimator is a matrix pencil on the full-band pickup signal. A linear one-step method on
 * the Galerkin system advances mode k by a fixed 2x2 matrix a sample, so the sampled pickup
 * signal is exactly a sum of 2K damped complex exponentials mu^n (K the excited modes): the
 * rank-2K pencil of its Hankel matrix returns the poles mu exactly up to round-off, with no
 * window, no frame length and no leakage between partials (a peak fit over frames is limited by
 * its bin width; the pencil is not). Each pole gives a frequency arg(mu) fs and a decay
 * -ln|mu| fs; the pole nearest (in ln mu) to the predicted one is the partial's. */
#ifndef IVPLAB_PARTIALS_H
#define IVPLAB_PARTIALS_H
#include "base/budget.h"
#include "analysis/stability.h"
#include "method/method.h"
#include "string/string.h"
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The poles of x[0..n-1] as a sum of K damped exponentials: the Hankel matrix with L + 1
 * columns (K < L, L + 1 <= n - L), its K leading right singular vectors V (GSL's SVD), and the
 * eigenvalues (GSL's nonsymmetric eigensolver) of the least-squares X in V_up X = V_down (V
 * without its last, its first row). 0, or -1 with the reason. */
int partials_pencil(const double *x, size_t n, size_t L, int K, double complex *poles, char *err,
                    size_t errlen);

/* A partial too weak to be measured: relative excitation below this is a node of the pluck or
 * the pickup (sin(k xp) or sin(k xm) zero to round-off), not a partial of the signal. */
#define PARTIALS_NODE 1e-9

/* A partial whose predicted decay rate (1/s) is above this many times the distance (rad/s) to its
 * neighbour's predicted frequency is not measured: it dies within a fraction of a beat with its
 * neighbour, so the signal cannot tell the two apart (backward Euler's upper partials). */
#define PARTIALS_RESOLVED 2.0

/* A method that makes an excited partial grow by more than this over the pencil's samples leaves
 * the others buried under it (forward Euler, Heun at audio rates): none is measured. */
#define PARTIALS_GROWTH_MAX 1e3

/* One mode of the Galerkin system. */
typedef struct partial_row {
    int mode;                   /* k, 1-based */
    double f_exact; /* the exact partial's frequency, sqrt(omega0^2 - alpha^2) / 2 pi, Hz */
    double alpha;               /* its decay sigma_k = sigma0 + kappa beta_k^2 / 2, 1/s */
    double t60_exact;           /* 6 ln 10 / alpha, s */
    double excitation; /* its velocity amplitude at the pickup over the largest partial's, 1 */
    stability_partial pred;     /* the method's, from R(h lambda_k) */
    const char *status; /* "measured", "weak" (below the level), "node", "unresolved", "swamped"
                           (another partial grows), "lost" (no pole) */
    double f_meas, decay_meas;  /* from the pole, Hz and 1/s (NAN unless measured) */
    double cents_meas, t60_ratio_meas;
} partial_row;

/* What a study is asked. */
typedef struct partials_cfg {
    double fs;                  /* sample rate, Hz */
    long sub;                   /* steps a sample, h = 1/(fs sub) */
    double f_max;               /* modes whose exact frequency is at most this, Hz */
    double level;               /* relative excitation at or above which a partial is measured */
    long n_fit;                 /* samples the pencil reads (from t = 0) */
    progress *meter;            /* ticked by the method's run (NULL: none) */
} partials_cfg;

/* The modes of the Galerkin system up to f_max (underdamped, exact frequency <= f_max): the
 * number, at most max_modes; *modes is allocated. */
int partials_modes(const string_params *s, double f_max, int max_modes, string_mode **modes);

/* The rows of the M modes (*rows allocated, M of them): predicted, then measured on n_fit samples
 * of the method's run (string/string_run). 0; 1 when a partial grows too much for any to be
 * measured (why in err); -1 with the reason (the run blew up, the pencil failed). */
int partials_study(const partials_cfg *c, const method *m, const string_mode *modes, int M,
                   partial_row **rows, char *err, size_t errlen);

/* The finite-difference grid fd (its exact semi-discrete modes) under the method at step h: for
 * each underdamped grid mode up to f_max (Hz), written as a TSV row to f: mode, f_exact_hz,
 * f_grid_hz, cents_grid (the grid alone), cents_total (grid and method), t60_ratio_grid,
 * t60_ratio_total, against the exact string's mode of the same k. 0, or -1 on a write error. */
int partials_grid_tsv(FILE *f, const string_fd *fd, const method *m, double h, double f_max);

#endif
