/* solve.h: the fixed-step driver. n steps of h from t0, each sample handed to a sink,
 * every count kept, blow-up detected and reported with the method and the time. */
#ifndef IVPLAB_SOLVE_H
#define IVPLAB_SOLVE_H
#include "problem/ivp.h"
#include "method/method.h"

/* Receives sample k at time t (k = 0 is the initial value). Nonzero stops the run. */
typedef int (*sample_sink)(long k, double t, const double *y, void *ctx);

typedef struct solve_opts {
    const method *m;        /* the method */
    double t0;              /* start time, s */
    double h;               /* step, s */
    long n;                 /* number of steps */
    double bound;           /* blow-up when max |y_i| exceeds this (0: only non-finite values) */
    long every;             /* hand every k-th sample to the sink (0 or 1: every sample) */
    sample_sink sink;       /* optional */
    void *ctx;              /* passed to the sink */
} solve_opts;

/* The steps that reach t0 + T by steps of h: n = ceil(T / h), T = n h within 1e-9 relative
 * counting as exact; *h_last = T - (n - 1) h, in (0, h], the last step taken short when T is
 * not a multiple of h (0 when it is: every step h). */
long solve_steps_to(double T, double h, double *h_last);

typedef enum { SOLVE_OK = 0, SOLVE_BLOWUP = 1, SOLVE_FAILED = 2, SOLVE_STOPPED = 3 } solve_status;

typedef struct solve_result {
    solve_status status;
    long steps;             /* steps taken */
    double t;               /* time reached, s */
    ivp_counts counts;      /* F and Jacobian evaluations, Newton iterations, factorizations */
    double seconds;         /* wall time, s */
    char message[320];      /* on blow-up or failure: method, time and reason, in words */
} solve_result;

/* Advance y (in place) by opts->n steps. The result says what happened; the return value is
 * its status. w may be NULL (a workspace is then made and freed inside). */
solve_status solve_fixed(const ivp *p, double *y, const solve_opts *opts, workspace *w, solve_result *res);
/* The same run to t0 + T: opts->n is ignored; the steps are solve_steps_to(T, opts->h), the
 * last one short when T is not a multiple of h (the sink sees it as sample n at t0 + T). */
solve_status solve_fixed_to(const ivp *p, double *y, const solve_opts *opts, double T, workspace *w,
                            solve_result *res);

#endif
