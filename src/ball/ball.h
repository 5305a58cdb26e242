/* ball.h: the ball on a damped oscillator (the model: ball/ball_model.h) and the loops both
 * ball lessons share beyond it: the settings file, the model's flags, and the adaptive run (CVODE
 * with root functions on the contact, each impact's start and end found to solver accuracy, the
 * impulse from the ball's momentum balance, the energy watched at every step). */
#ifndef IVPLAB_BALL_H
#define IVPLAB_BALL_H
#include "base/budget.h"
#include "base/cli.h"
#include "base/failure.h"
#include "drive/cvode.h"
#include "drive/solve.h"
#include "ball/ball_model.h"
#include <stdbool.h>
#include <stddef.h>

/* Load lessons/params/ball.ini into s. 0, or 2 with e: "program: reason". The programs' flags
 * for its keys are the groups of ball_params (ball/ball_model.h). */
int ball_settings_load(const char *program, ball_settings *s, failure *e);

/* After every internal step of the adaptive run: its end t, its size h, the state y there and
 * the energy (ball_energy at t, y: the run computes it at each step to watch it). Nonzero stops
 * the run. */
typedef int (*ball_step_sink)(double t, double h, const double *y, double energy, void *ctx);

/* The adaptive run: CVODE BDF, dense Newton on the analytic Jacobian (or the method asked for:
 * CVODE Adams with the same Newton, or a GSL explicit pair with the contact roots located by
 * bisection). Optional outputs at tout (sink) and after every internal step (on_step), each with
 * ctx. */
typedef struct ball_adaptive_opts {
    double T;               /* final time, s */
    double rtol, atol;      /* tolerances (atol in m and m/s) */
    double max_step;        /* largest step, s */
    const double *tout;     /* output times, increasing, within [0, T] */
    size_t nout;
    sample_sink sink;
    ball_step_sink on_step;
    void *ctx;
    const char *method;     /* the adaptive solver: "cvode-bdf" (NULL: the same), "cvode-adams", or
                               "gsl-PAIR" for one of GSL's explicit pairs (gsl_pairs.h) */
    long max_steps; /* internal steps allowed (0: no cap): the run stops there, -1 naming the cap */
    long max_impacts; /* impacts allowed (0: no cap), likewise: a stiff contact can chatter without
                         end */
} ball_adaptive_opts;

/* "cvode-bdf|cvode-adams|gsl-rk2|gsl-rkf45|gsl-rkck|gsl-rk8pd": what ball_adaptive_opts.method
 * takes. */
const char *ball_adaptive_methods(void);

typedef struct ball_adaptive_result {
    ball_impacts impacts;   /* every impact, start and end found as roots */
    cvode_stats stats;      /* CVODE's statistics */
    double energy0;         /* total energy at t = 0, J */
    double energy_final;    /* at T, J */
    double energy_rise;     /* largest rise of the total energy above its running minimum, J */
    double energy_rise_t;   /* where that rise was found, s */
    double h_median[3];     /* median internal step in free fall (before the first contact), in
                               contact, and ringing between contacts, s (NAN when none) */
    long h_count[3];        /* internal steps of each kind */
} ball_adaptive_result;

enum { BALL_FALL = 0, BALL_CONTACT = 1, BALL_RING = 2 };

/* Run from y0 to o->T. 0 on success; -1 with CVODE's explanation in err. r->impacts must be
 * freed by the caller (also after a failure). */
int ball_solve_adaptive(const ball *b, const double y0[4], const ball_adaptive_opts *o,
                        ball_adaptive_result *r, char *err, size_t errlen);

/* The adaptive reference of a sampled run and how far it can be trusted: the run with u1 at every
 * k / fs up to T, the same at tolerances check_tol times tighter, the leading impacts the two
 * agree on within tol s, how far they part after, and the first contact. */
typedef struct ball_reference {
    ball_adaptive_result run;   /* the reference: its impacts */
    ball_adaptive_result check; /* the tighter run */
    double *tout;               /* the sample times k / fs, s (owned) */
    double *u1;                 /* u1 at them, m (owned) */
    size_t n;                   /* samples filled */
    size_t horizon;             /* leading impacts the two agree on within tol */
    double later_diff;          /* largest disagreement after the horizon, s */
    double contact;             /* the first contact's length, s (NAN: no impact) */
    double e;                   /* its restitution (NAN: no impact) */
    progress *meter;            /* ticked a sample of the reference run */
} ball_reference;

/* 0, or -1 with "the adaptive reference failed: ..." or "the check of the adaptive reference
 * failed: ..." in err. Each sample of the reference ticks meter by one (NULL: none). Free with
 * ball_reference_free (also after a failure). */
int ball_reference_run(ball *b, const ball_settings *s, const double y0[4], double fs, double tol,
                       progress *meter, ball_reference *R, char *err, size_t errlen);
void ball_reference_free(ball_reference *R);

/* A fixed-step run of the ball at h for n steps from y0 (a method that steps u' = v apart gets the
 * state positions first, ball_ivp_uv), with u1 and the impacts read off every sample. */
typedef struct ball_fixed_run {
    double *u1;             /* u1 at every sample, m (n + 1 of them; owned) */
    size_t n;               /* samples the run reached */
    ball_impacts impacts;   /* found from the samples (ball_detector; owned) */
    solve_result res;       /* what the driver said: steps, time reached, the reason of a failure */
    solve_status status;    /* SOLVE_OK, SOLVE_BLOWUP, SOLVE_FAILED */
    bool refused; /* failed before its first step (the method does not take the problem) */
} ball_fixed_run;

/* bound: blow-up when max |y_i| exceeds it (m, m/s). Each sample ticks meter by one (NULL: none).
 */
void ball_solve_fixed(ball *b, const double y0[4], const method *m, double h, long n, double bound,
                      progress *meter, ball_fixed_run *r);
void ball_fixed_run_free(ball_fixed_run *r);

#endif
