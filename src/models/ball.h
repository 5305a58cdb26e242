/* ball.h: the ball on a damped oscillator (the model: models/ball_model.h) and the loops both
 * ball lessons share beyond it: the settings file, the model's flags, and the adaptive run (CVODE
 * with root functions on the contact, each impact's start and end found to solver accuracy, the
 * impulse from the ball's momentum balance, the energy watched at every step). */
#ifndef IVPLAB_BALL_H
#define IVPLAB_BALL_H
#include "base/cli.h"
#include "drive/cvode.h"
#include "models/ball_model.h"
#include <stdbool.h>
#include <stddef.h>

/* Load lessons/params/ball.ini into s; on failure prints "program: reason" and exits 2. */
void ball_settings_load(const char *program, ball_settings *s, param_spec *spec);

/* The model's flags, shared by bin/drop and bin/audiorate (s: a ball_settings loaded from ball.ini,
 * so --help shows the file's values). */
#define BALL_MODEL_OPTS(s)                                                                          \
    {"m1", CLI_DOUBLE, &(s).m1, "kg", "oscillator mass", 0, 1e6, CLI_OPEN_MIN, NULL, NULL, NULL},    \
    {"m2", CLI_DOUBLE, &(s).m2, "kg", "ball mass", 0, 1e6, CLI_OPEN_MIN, NULL, NULL, NULL},          \
    {"h0", CLI_DOUBLE, &(s).h0, "m", "drop height of the ball, at rest", 0, 1e3, CLI_OPEN_MIN, NULL, \
     NULL, NULL},                                                                                   \
    {"f0", CLI_DOUBLE, &(s).f0, "Hz", "pitch of the oscillator alone", 0, 2e4, CLI_OPEN_MIN, NULL,   \
     NULL, NULL},                                                                                   \
    {"t60", CLI_DOUBLE, &(s).t60, "s", "60 dB decay time of the oscillator alone", 0, 1e4,           \
     CLI_OPEN_MIN, NULL, NULL, NULL},                                                               \
    {"kc", CLI_DOUBLE, &(s).kc, "N/m^1.5", "Hertz contact stiffness", 0, 1e15, CLI_OPEN_MIN, NULL,   \
     NULL, NULL},                                                                                   \
    {"lambda", CLI_DOUBLE, &(s).lambda, "s/m", "contact loss", 0, 1e3, 0, NULL, NULL, NULL},         \
    {"g", CLI_DOUBLE, &(s).g, "m/s^2", "gravity", 0, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},           \
    {"T", CLI_DOUBLE, &(s).T, "s", "duration", 0, 60, CLI_OPEN_MIN, NULL, NULL, NULL}

/* The adaptive run: CVODE BDF, dense Newton on the analytic Jacobian (or the method asked for:
 * CVODE Adams with the same Newton, or a GSL explicit pair with the contact roots located by
 * bisection). Optional outputs at tout (sink) and after every internal step (on_step), each with ctx. */
typedef struct ball_adaptive_opts {
    double T;               /* final time, s */
    double rtol, atol;      /* tolerances (atol in m and m/s) */
    double max_step;        /* largest step, s */
    const double *tout;     /* output times, increasing, within [0, T] */
    size_t nout;
    sample_sink sink;
    cvode_step_sink on_step;
    void *ctx;
    const char *method;     /* the adaptive solver: "cvode-bdf" (NULL: the same), "cvode-adams", or
                               "gsl-PAIR" for one of GSL's explicit pairs (gsl_pairs.h) */
} ball_adaptive_opts;

/* "cvode-bdf|cvode-adams|gsl-rk2|gsl-rkf45|gsl-rkck|gsl-rk8pd": what ball_adaptive_opts.method takes. */
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
int ball_solve_adaptive(const ball *b, const double y0[4], const ball_adaptive_opts *o, ball_adaptive_result *r,
                        char *err, size_t errlen);

#endif
