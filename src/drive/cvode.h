/* cvode.h: the adaptive driver, SUNDIALS CVODE (BDF or Adams; dense, band or no linear
 * solver), with outputs at given times, root functions for events, and every statistic.
 * cvode.c and sun_dense.c are the only files that include SUNDIALS. */
#ifndef IVPLAB_CVODE_H
#define IVPLAB_CVODE_H
#include "problem/ivp.h"
#include "drive/solve.h"
#include <stdbool.h>

typedef enum { CVODE_BDF, CVODE_ADAMS } cvode_lmm;
typedef enum {
    CVODE_DENSE,     /* Newton on a dense Jacobian (the problem's, or CVODE's differences) */
    CVODE_BAND,      /* Newton on a band Jacobian of half-widths upper/lower (a linear problem:
                        its constant Jacobian, once; otherwise differences) */
    CVODE_FIXEDPOINT, /* no linear solver: fixed-point iteration (non-stiff, with Adams) */
    CVODE_BORDERED   /* Newton on a dense Jacobian solved by its structure: apart from the few
                        unknowns named in border, the unknowns fall into small groups coupled
                        only through those (a Schur complement on the border, GSL's LU) */
} cvode_solver;

/* Root functions g_i(t, y), i < nroots: an event is where one changes sign. */
typedef int (*cvode_root_fn)(double t, const double *y, double *g, void *params);
/* An event at t: dir[i] is +1 where g_i rose through 0, -1 where it fell, 0 elsewhere. */
typedef int (*cvode_event_sink)(double t, const double *y, const int *dir, void *ctx);
/* After each internal step: the time reached, the step just taken (s) and the state. */
typedef int (*cvode_step_sink)(double t, double h, const double *y, void *ctx);

typedef struct cvode_opts {
    cvode_lmm lmm;              /* BDF (stiff) or Adams (non-stiff) */
    cvode_solver solver;        /* linear solver for the Newton iteration */
    long upper, lower;          /* band half-widths (CVODE_BAND) */
    const long *border;         /* the coupling unknowns (CVODE_BORDERED), distinct, nborder */
    long nborder;
    double rtol;                /* relative tolerance */
    double atol;                /* absolute tolerance, units of y */
    double max_step;            /* largest step, s (0: no limit) */
    double init_step;           /* first step, s (0: CVODE's estimate) */
    long max_steps;             /* internal steps allowed between outputs (0: 10^6) */
    int max_order;              /* largest BDF/Adams order (0: CVODE's default, 5 or 12) */
    bool stab_lim_det; /* BDF stability-limit detection (lightly damped oscillatory modes) */
    const double *tout;         /* output times, increasing, within [t0, t1] */
    size_t nout;
    sample_sink sink;           /* receives (k, tout[k], y(tout[k])), k = 0, 1, ... */
    void *ctx;                  /* passed to every sink */
    int nroots;                 /* number of root functions */
    cvode_root_fn roots;
    cvode_event_sink on_event;
    cvode_step_sink on_step;   /* sinks may read the statistics so far through the cvode_stats
                                  pointer they were given in ctx, if the caller put it there */
    bool stats_at_end;          /* no sink reads them: the statistics once, at the end, whatever
                                   the sinks (not after every step: 2.7% of bin/drop's
                                   instructions); the step sink still gets each step's h */
} cvode_opts;

typedef struct cvode_stats {
    long steps;                 /* internal steps */
    long nfev;                  /* F evaluations by the integrator */
    long nfev_jac;              /* F evaluations for difference Jacobians */
    long njev;                  /* Jacobian evaluations */
    long nsetups;               /* linear solver setups */
    long netf;                  /* error-test failures */
    long nniters;               /* nonlinear iterations */
    long nncf;                  /* nonlinear convergence failures */
    long ngev;                  /* root function evaluations */
    long nevents;               /* events found */
    double last_h;              /* last step, s */
    int last_q;                 /* order of the last step */
    double seconds;             /* wall time, s */
} cvode_stats;

/* Sensible defaults: BDF, dense, rtol 1e-8, atol 1e-10, no outputs, no roots. */
cvode_opts cvode_defaults(void);

/* Integrate y from t0 to t1 (y holds y(t0) on entry and y(t1) on return). 0 on success;
 * otherwise err gets one line: the method, the time, the reason in words and a suggestion. */
int cvode_solve(const ivp *p, double t0, double *y, double t1, const cvode_opts *o,
                cvode_stats *st, char *err, size_t errlen);

/* CVODE's weighted RMS norm sqrt(sum_i (x_i w_i)^2 / n), the error norm of every step, as the
 * linked SUNDIALS's serial vector computes it (N_VWrmsNorm); NAN when SUNDIALS cannot make one. */
double cvode_wrms_norm(const double *x, const double *w, size_t n);

/* CVODE_BORDERED's linear solver on one n x n matrix M (row-major), outside an integration:
 * x = M^-1 b, with the k border unknowns given. 0; 1 when M is singular; -1 when the border is
 * not a set of distinct unknowns below n. */
int cvode_bordered_solve(size_t n, const double *M, const long *border, long k, const double *b,
                         double *x);

/* "cvode-bdf" or "cvode-adams". */
const char *cvode_name(const cvode_opts *o);
/* SUNDIALS version string, e.g. "6.4.1". */
const char *cvode_version(void);

#endif
