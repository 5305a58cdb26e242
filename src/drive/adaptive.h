/* adaptive.h: adaptive step-size drivers. An embedded pair is a tableau with two rows of weights
 * (method.h, method/tableau.h): b advances the step, b-hat is a second answer from the same
 * stages, and e = h sum_j (b_j - bhat_j) k_j estimates the error at no extra F. A step is
 * accepted when max_i |e_i| / (atol + rtol max(|y_i|, |y_new,i|)) <= 1, and the next h is
 * h * clamp(safety * err^(-1/(q+1))), q the lower order of the two rows. The lecture's Heun-Euler
 * pair (Heun's two samples also give forward Euler's y_hat = y + h F(t, y): exponent 1/2) is the
 * built-in heun tableau with bhat = (1, 0); Dormand-Prince 5(4), the lecture's solve_ivp default,
 * is lessons/methods/dopri54.tab. GSL's pairs (its rkf45, the peer) are driven by gsl_pairs.h. */
#ifndef IVPLAB_ADAPTIVE_H
#define IVPLAB_ADAPTIVE_H
#include "problem/ivp.h"
#include "method/method.h"

typedef struct adaptive_opts {
    double rtol;            /* relative tolerance */
    double atol;            /* absolute tolerance, units of y */
    double h0;              /* first step tried, s (0: 1e-3 of the interval) */
    double hmin;            /* give up below this step, s (0: 1e-14 of the interval) */
    long max_steps;         /* attempted steps allowed (0: 10^7) */
    double safety;          /* factor on the optimal step (0: 0.9) */
    double grow_max;        /* largest step growth per step (0: 5) */
    double shrink_min;      /* smallest step factor per step (0: 0.2) */
    /* after each accepted step: time reached, the step taken, the state, ctx; nonzero stops */
    int (*on_step)(double t, double h, const double *y, void *ctx);
    void *ctx;
} adaptive_opts;

typedef struct adaptive_stats {
    long accepted;          /* steps kept */
    long rejected;          /* steps shrunk and retried */
    long nfev;              /* F evaluations */
    double hmin_used;       /* smallest accepted step, s */
    double hmax_used;       /* largest accepted step, s */
} adaptive_stats;

/* Integrate y from t0 to t1 with the embedded pair tab (in place), name for messages. 0 on success;
 * -1 with err naming the method, the time and the reason (also when tab has no b-hat). */
int adaptive_pair(const rk_tableau *tab, const char *name, const ivp *p, double t0, double *y, double t1,
                  const adaptive_opts *o, adaptive_stats *st, char *err, size_t errlen);

/* Integrate y from t0 to t1 with the Heun-Euler pair (in place). 0 on success; -1 with err
 * naming the method, the time and the reason. */
int adaptive_heun_euler(const ivp *p, double t0, double *y, double t1, const adaptive_opts *o,
                        adaptive_stats *st, char *err, size_t errlen);

#endif
