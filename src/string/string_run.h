/* string_run.h: one solution of the plucked string (string/string.h) as an IVP, its pickup
 * signal sampled at fs and what it cost: the Galerkin system stepped mode by mode with a
 * fixed-step method, a finite-difference grid with a fixed-step method, or either system with
 * CVODE (band Newton on the constant Jacobian, or fixed-point iteration). Beside them what the runs
 * need to know or say: the largest step at which a fixed-step method is stable on every mode of a
 * list (from its R(z)), the share of a grid's error that comes from modes whose phase has drifted
 * past a radian, the best run of a method, the CVODE order study's runs, a tolerance-study run from
 * the exact semi-discrete state, and the work a sweep of runs is estimated to take. A run never
 * exits: a blow-up, refusal or failure is said in its status and message. */
#ifndef IVPLAB_STRING_RUN_H
#define IVPLAB_STRING_RUN_H
#include "base/budget.h"
#include "method/method.h"
#include "io/params.h"
#include "string/string.h"
#include <stdbool.h>
#include <stddef.h>

/* What every run of a sweep shares. */
typedef struct string_run_cfg {
    double fs;                  /* sample rate, Hz */
    long n;                     /* samples of the signal */
    double tol_abs; /* series tolerance, m/s: a mode whose share stays below it is not stepped */
    double blowup;  /* blow-up factor, 1 (times the initial size, and the fastest frequency) */
    bool adams;                 /* CVODE's family: Adams (else BDF) */
    bool fixedpoint; /* CVODE's nonlinear solver: fixed-point iteration (else band Newton) */
    double rtol;                /* CVODE relative tolerance, 1 */
    double atol;                /* CVODE absolute tolerance, m (and m/s) */
    int max_order;              /* CVODE's largest order, 1 */
    bool stab_lim;              /* CVODE's BDF stability-limit detection */
    progress *meter; /* ticked by the fixed-step runs, in steps times unknowns (NULL: none) */
} string_run_cfg;

/* One solution and its score. */
typedef struct string_run {
    const char *space;          /* "modal", "fd3", "fd5" */
    long size;                  /* M modes or N intervals */
    char method[32];            /* method name, "cvode-bdf" or "exact" */
    long substeps;              /* m (0 for CVODE and the exact semi-discrete solution) */
    double E_wave, E_spec;      /* scores, 1 (inf when it blew up) */
    double seconds;             /* wall time of the solve, s */
    long nfev;                  /* F evaluations (for the modal system: of all 2x2 mode problems) */
    long steps;                 /* CVODE's internal steps (0 for fixed steps) */
    const char *status; /* "ok", "blowup", "refused", "failed", "not_run" (h above the largest
                         * stable step: not stepped, no scores, E_wave NAN) */
    char message[640];          /* why, when not ok; CVODE's counts when ok */
} string_run;

/* A fresh run record: status "ok", no scores, no counts. */
void string_run_start(string_run *r, const char *space, long size, const char *method,
                      long substeps);
bool string_run_ok(const string_run *r);

/* |R(h lambda)| for the damped oscillator (alpha, omega0^2) of the mode: the larger of its two
 * eigenvalues' (for a method that steps u' = v apart, its amplification on the undamped one). */
double string_mode_growth(const method *m, const string_mode *md, double h);
/* The largest h, s, at which every mode is stable (1 when none limits it below 1 s) and in
 * *limiting the mode that sets it (1-based; 0: no limit). A mode j whose velocity bound is below
 * skip_below * 3/(pi^2 j^2) is not stepped by string_run_modal and is passed over. */
double string_stable_h(const method *m, const string_mode *modes, int nm, double skip_below,
                       int *limiting);
/* m such that h = 1/(fs m) is within hmax: ceil(1 / (fs hmax)). */
double string_substeps_for(double fs, double hmax);
/* Index of the fastest mode (largest omega0), the first of equals; -1 when nm = 0. */
int string_modes_fastest(const string_mode *modes, int nm);

/* The Galerkin system of modes[0..M-1], mode by mode, sub steps a sample (fastest first; a mode
 * that stops contributing while the method is stable for it is stopped). out has cfg->n samples. */
void string_run_modal(const string_run_cfg *c, const string_mode *modes, int M, const method *m,
                      long sub, double *out, string_run *r);
/* The grid fd with sub steps a sample; omega_max (rad/s) scales the blow-up bound of velocities. */
void string_run_fd(const string_run_cfg *c, string_fd *fd, double omega_max, const method *m,
                   long sub, double *out, string_run *r);
/* CVODE on fd, or on the Galerkin system g when fd is NULL, sampled at every k / fs, k < n. On
 * success the message holds CVODE's counts; r->method becomes CVODE's name ("cvode-bdf"). */
void string_run_cvode(const string_run_cfg *c, string_fd *fd, string_galerkin *g, double *out,
                      string_run *r);

/* The part of a grid's error from modes whose phase error has passed a radian by time T. Mode n's
 * phase drifts at |omega_n(grid) - omega_n|, so after t1 = 1/drift its error no longer grows with
 * the drift; its share of the signal energy after t1, summed over the underdamped modes both
 * lists have, over the whole energy: sum E_n (e^{-2 a t1} - e^{-2 a T}) / sum E_n (1 - e^{-2 a T}).
 * The saturated error is about sqrt(2 share) (|1 - e^{i phi}|^2 ~ 2 on average). */
double string_phase_saturated_share(const string_mode *exact, int ne, const string_mode *grid,
                                    int ng, double T);

/* The run of runs[0..n-1] with this method that is ok and has the smallest E_wave; NULL if none. */
const string_run *string_run_best(const string_run *runs, size_t n, const char *method);

/* ---- the order study: what CVODE pays per second of sound against its order cap ---- */
typedef struct string_study_row {
    int max_order;              /* CVODE's order cap q */
    bool stab_lim;              /* stability-limit detection */
    double t;                   /* simulated time reached, s */
    long steps, nfev,
        netf; /* internal steps, F evaluations (Jacobians included), error-test failures */
    double seconds;             /* wall time, s */
} string_study_row;

/* CVODE (cfg's family and tolerances, the row's cap and detection) on fd, or on g when fd is NULL,
 * from 0 to t1 or until budget internal steps, whichever comes first. */
void string_study_run(const string_run_cfg *c, const string_fd *fd, const string_galerkin *g,
                      double t1, long budget, string_study_row *row);
/* The row with the fewest steps per simulated second (the first of equals), and in *q2 the last
 * row with cap 2 (NULL if none). NULL when n = 0. */
const string_study_row *string_study_fewest(const string_study_row *rows, int n,
                                            const string_study_row **q2);

/* ---- the tolerance study: CVODE's steps against rtol on a grid, over a window of sound ---- */
typedef struct string_rtol_row {
    bool adams,
        fixedpoint; /* the setup: Adams (else BDF), fixed-point iteration (else band Newton) */
    double rtol;                /* relative tolerance, 1 (atol: the cfg's) */
    int max_order;              /* CVODE's order cap (set by string_rtol_run) */
    double t0, t1;    /* the window, s: CVODE starts at t0 from the exact semi-discrete state */
    double tm;        /* the first step's end past the window's middle: rates are over tm..t1 */
    long steps, nfev; /* internal steps and F evaluations (Jacobians included) over tm..t1 */
    double cpu;                 /* processor time of this thread over tm..t1, s */
    int q_most;                 /* the order CVODE took most steps at over tm..t1 */
    double err; /* RMS of the pickup's error against the exact semi-discrete solution over
                   the window's samples, over the RMS of that solution, 1 */
    bool ok;                    /* CVODE reached t1 (else message says why) */
    char message[400];
} string_rtol_row;

/* One run of the tolerance study (the row's setup and rtol, the cfg's atol and order cap, 5 at
 * most for BDF) on fd from t0 (a whole number of samples 1/fs) to t1; exact[k] is the exact
 * semi-discrete pickup at k / fs, k <= t1 fs; modes the grid's (string_fd_modes). */
void string_rtol_run(const string_run_cfg *c, string_fd *fd, const string_mode *modes, int nm,
                     const double *exact, string_rtol_row *row);

/* The largest h|lambda| up to which Adams-Moulton of order q (CVODE's Adams corrector; q = 1:
 * backward Euler) is stable at every step h on the ray of lambda = re + i im (its root condition,
 * scanned in 0.01 and bisected; searched up to 20), INFINITY where none is found (q <= 2:
 * A-stable). The tolerance study's stability line: |lambda| / limit steps per second. */
double string_adams_limit(int q, double re, double im);

/* ---- the work of a sweep, for the budget (base/budget) ---- */
typedef struct string_sweep_plan {
    double n;                   /* samples of each signal */
    double duration;            /* s */
    double modes;               /* Galerkin size M (at most the reference's modes) */
    double sub_min, sub_max;    /* modal substeps, doubling */
    double N_min, N_max;        /* grid sizes, doubling */
    double fd_sub;              /* substeps of the fixed-step grid runs */
    double fd_fixed_N_max;      /* largest N of the fixed-step grid runs */
    double cvode_N_max;         /* largest N of the CVODE grid runs */
    int nmeth, nimpl;           /* fixed-step methods run, of which implicit */
    bool modal, fd3, fd5;       /* the spaces swept */
    bool cvode;                 /* CVODE runs on the grids */
} string_sweep_plan;

/* Unknowns advanced one step (modal runs: 2 a mode, m a sample; grid runs 2(N-1), an implicit
 * step a band solve of about 4 x stencil values a row; CVODE about 2.7e5 max(1, N/130) F
 * evaluations a second of sound (Adams with fixed-point iteration, measured on FD5 N = 65 ... 520);
 * the exact semi-discrete solutions), WAVs written, and memory, bytes (the largest band LU with the
 * signals): each added to what is there. */
void string_sweep_estimate(const string_sweep_plan *p, double *work, double *wavs, double *mem);

/* ---- a sweep's settings as numbers: lessons/params/pluck.ini, then the flags ---- */
typedef struct string_settings {
    double tol;                 /* series tolerance, units of s_ref */
    double modes;               /* Galerkin size M */
    double sub_min, sub_max;    /* substep sweep (powers of two between) */
    double N_min, N_max;        /* FD sweep (doublings) */
    double fd_sub;              /* substeps of the fixed-step FD runs */
    double fd_fixed_N_max;      /* largest N of the fixed-step FD runs */
    double rtol, atol;          /* CVODE tolerances (1; m) */
    double cvode_N_max;         /* largest N of the CVODE FD runs */
    bool cvode_modal;           /* CVODE on the Galerkin system too */
    double max_order;           /* CVODE's largest order (1-5 for BDF, 1-12 for Adams) */
    bool stab_lim;              /* BDF stability-limit detection */
    double study_T;             /* order study: simulated time per run, s (0: no study) */
    double study_N;             /* order study: N of its 5-point grid */
    double study_steps;         /* order study: internal steps allowed per run */
    double rtol_start,
        rtol_time; /* tolerance study: window start and length, s (length 0: no study) */
    double rtol_N;              /* tolerance study: N of its 5-point grid */
    double blowup;              /* blow-up factor */
    double ceiling, release;    /* the listening copy's limiter: full scale; s */
} string_settings;

/* Every key of the settings from the .ini file at path (io/params). 0, or -1 with one line in err.
 */
int string_settings_load(string_settings *st, const char *path, char *err, size_t errlen);
/* The keys of pluck.ini, each declared once (io/params.h) and bound to a field of st, in the
 * groups bin/pluck takes as flags (FLAG_TABLE): tol, sweep, cvode; listen: the file only. */
typedef struct string_keys {
    param_spec tol[2], sweep[11], cvode[11], listen[3];
    param_spec all[5];
} string_keys;
void string_keys_bind(string_settings *st, string_keys *k);
/* What the values cannot say one by one: the sweeps' ranges in order, whole numbers (fs, Hz, with
 * them), and BDF's order cap of 5 (bdf: CVODE's family is BDF). 0, or -1 with one line in err
 * naming the flag, its value and what is accepted. */
int string_settings_check(const string_settings *st, double fs, bool bdf, char *err, size_t errlen);

#endif
