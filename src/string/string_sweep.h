/* string_sweep.h: the grid of runs of the plucked string (string/string_run), each scored as the
 * challenge does (score), and the figure data it leaves: every fixed-step method over a substep
 * sweep on the Galerkin system, each grid of a doubling N sweep exact in time, with each
 * fixed-step method and with CVODE, and the CVODE order study. Every run, scored, is handed to
 * the caller (done: to print it, keep it for a figure); the sweep keeps every run and the notes
 * on stability and failures; and the CVODE tolerance study. The
 * figure tables (modal-METHOD.tsv, modal-methods.txt, modal-note.txt, fd-N.tsv, fd-N-cvode.tsv,
 * fd-N-fixed.tsv, cvode-order.tsv, cvode-rtol.tsv) go to the data folder through io/atomic. */
#ifndef IVPLAB_STRING_SWEEP_H
#define IVPLAB_STRING_SWEEP_H
#include "method/set.h"
#include "base/failure.h"
#include "string/string_run.h"
#include "string/score.h"
#include <stdio.h>

typedef struct string_sweep string_sweep;
/* A run is done and scored (its signal in w->sig): print it, keep what a figure needs. */
typedef void (*string_run_done)(string_sweep *w, string_run *r, void *ctx);

struct string_sweep {
    string_run_cfg cfg;         /* what every run shares */
    const char *program;        /* for the messages of a data file that cannot be written */
    const char *out;            /* data folder (the runs' WAVs go to its wav/) */
    const challenge *ch;        /* the format, scale and E_spec frames of the score */
    const wav_data *ref;        /* the reference as decoded from its WAV */
    const char *space, *method; /* filters: "all" or one name ("exact", "cvode", a method) */
    const method_set *methods;  /* the program's methods, which the method filter picks from */
    double duration;            /* of the signal, s */
    long sub_min, sub_max;      /* modal substeps, doubling */
    long N_min, N_max;          /* grids, doubling */
    long fd_sub;                /* substeps of the fixed-step grid runs */
    long fd_fixed_N_max;        /* largest N of the fixed-step grid runs */
    long cvode_N_max;           /* largest N of the CVODE grid runs */
    bool cvode_modal;           /* CVODE on the Galerkin system even when not asked by name */
    string_run_done done;       /* called for every run */
    void *ctx;                  /* passed to done */
    string_run *runs;           /* every run so far (owned) */
    size_t nrun, cap;
    char notes[8192];           /* stability and failures, one line each */
    size_t nlen;                /* length the notes would have (may exceed the buffer) */
    double *sig;                /* the current run's pickup signal, cfg.n samples, m/s (owned) */
    FILE *fn, *fcv, *ffx;       /* fd-N.tsv, fd-N-cvode.tsv, fd-N-fixed.tsv while the grids run */
    long n20; /* samples of the first 20 ms (the figure of the reference and two runs) */
    double *coarse, *fine; /* their coarse (the 3-point grid of N_min, exact in time) and finest
                              stepped solution (smallest E_wave), m/s (owned) */
    char coarse_name[96], fine_name[96]; /* their legends ("" when none ran) */
    double fine_err;            /* the finest's E_wave */
};

/* Whether a filter ("all" or a name) takes name. */
bool string_sweep_wants(const char *filter, const char *name);
/* Allocates the run list, the signal and the figure's solutions; every setting above done, done
 * and ctx set first. */
void string_sweep_init(string_sweep *w);
void string_sweep_free(string_sweep *w);
/* Adds a line to the notes (printf-like). */
void string_sweep_note(string_sweep *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Each call below that writes files: 0, or the status with e when a file cannot be written
 * (io/atomic.h); those that make a grid also -1 with the reason in err when it cannot be made. */
/* The Galerkin system of M modes: its exact sum, each method over the substeps (with its
 * stability limit in the notes), CVODE when asked. */
int string_sweep_modal(string_sweep *w, const string_mode *modes, int M, failure *e);
/* The grids of both stencils the space filter takes, over the N sweep; modes are the exact
 * series' (for the phase-saturated share). -1 with the grid's reason when one cannot be made. */
int string_sweep_grids(string_sweep *w, const string_params *s, const string_mode *modes, int nm,
                       char *err, size_t errlen, failure *e);

/* first20ms.tsv: the first 20 ms of the reference (ref, as decoded: units of s_ref) beside the
 * coarse and the finest run, scaled likewise. */
int string_sweep_first20ms(const string_sweep *w, const double *ref, failure *e);

/* The order study: CVODE's BDF with its order capped at q = 1..5 (and stability-limit detection
 * at q >= 3) on the 5-point grid of N intervals (rows[0], nrows[0]) and on the Galerkin system of
 * M modes (rows[1]), each over the first T s or steps internal steps; cvode-order.tsv written. In
 * *w_top, *a_top the fastest grid mode's omega0 (rad/s) and alpha (1/s). 0, or -1 with the reason
 * the grid cannot be made. */
int string_sweep_order_study(const string_sweep *w, const string_params *s, long N,
                             const string_mode *modes, int M, double T, long steps,
                             string_study_row rows[2][8], int nrows[2], double *w_top,
                             double *a_top, char *err, size_t errlen, failure *e);

/* The order study's table (rows as string_sweep_order_study leaves them; T s or steps internal
 * steps a run, the grid's N, the Galerkin system's M) and what it says about Dahlquist's second
 * barrier (the fastest grid mode: omega w_top, rad/s, alpha a_top, 1/s), on stdout. */
void string_sweep_print_study(const string_sweep *w, double T, double steps, long N,
                              string_study_row rows[2][8], const int nrows[2], int M, double w_top,
                              double a_top);
/* The tolerance study: CVODE on the 5-point grid of N intervals, three setups (BDF and band
 * Newton, Adams and band Newton, Adams and fixed-point iteration) at rtol 1e-3 ... 1e-8, each over
 * the window t0 .. t0 + T from the exact semi-discrete state at t0 (string_rtol_run: the rates are
 * over its second half); cvode-rtol.tsv written, one block a setup. In *lam_re, *lam_im the grid's
 * fastest mode's eigenvalue (1/s). 0, or -1 with the reason the grid cannot be made. */
#define STRING_RTOL_ROWS 18
int string_sweep_rtol_study(const string_sweep *w, const string_params *s, long N, double t0,
                            double T, string_rtol_row rows[STRING_RTOL_ROWS], double *lam_re,
                            double *lam_im, char *err, size_t errlen, failure *e);
/* Its table and verdicts on stdout: the largest spread of steps per second over rtol (max/min - 1)
 * against STRING_RTOL_FLAT (flat, held by stability, when within it; a step held by accuracy at
 * order q would grow 10^(5/(q+1)) times over the five decades, 6.8 at q = 5) and the setup of
 * least processor time per second of sound (mean over rtol). */
#define STRING_RTOL_FLAT 0.5
void string_sweep_print_rtol(const string_sweep *w, long N, const string_rtol_row *rows,
                             double lam_re, double lam_im);
/* The best E_wave of each method of the runs, with its cost, in the order the methods first ran,
 * on stdout. */
void string_sweep_print_best(const string_sweep *w);
#endif
