/* work_record.h: the record of a work-precision study (bin/work): one entry a run, every count
 * it made, its error, its wall time; the cost model that weighs the counts; the work at which a
 * method's runs reach an error; the record as a file and as the per-method table. */
#ifndef IVPLAB_WORK_RECORD_H
#define IVPLAB_WORK_RECORD_H
#include <stdbool.h>
#include <stdio.h>

typedef struct work_run {
    char method[32];        /* name as --tsv prints it */
    char label[48];         /* legend */
    bool adaptive;
    double param;           /* steps n (fixed) or tolerance (adaptive) */
    long steps;             /* steps taken (accepted, for adaptive drivers) */
    long rejected;          /* rejected steps (-1: not reported) */
    long nfev;              /* F evaluations (difference Jacobians included) */
    long njev;              /* Jacobian evaluations */
    long nfactor;           /* LU factorizations */
    long nsolve;            /* solves with those factors (one a Newton iteration) */
    double seconds;         /* wall time of one run, s: the fastest of repeats (a shared machine only
                               ever slows a run down) */
    double error;           /* ||y - y(T)|| */
} work_run;

/* The cost model, in F-equivalents, for a dense linear F = A y of dimension d (F: 2 d^2 flops):
 * a Jacobian as d F (what finite differences cost), an LU factorization (2/3) d^3 flops = d/3 F,
 * a solve with the factors 2 d^2 flops = 1 F. */
double work_run_cost(const work_run *q, double d);

/* What a run is measured by: evaluations (F + J), the cost model, or wall time. */
typedef enum { BY_EVALS, BY_COST, BY_SECONDS } work_axis;

/* The work (by ax) at which the error crosses target along a method's n runs (sorted by increasing
 * work), interpolated in log-log between the bracketing runs; beyond the runs, extrapolated from
 * the last two (*how says which: "first run", "interpolated", "extrapolated", "not reached"). */
double work_to_reach(const work_run *r, int n, double target, work_axis ax, double d, const char **how);

/* The record as TSV into f: a header, then one gnuplot data block a method. */
void work_runs_write(FILE *f, const work_run *rec, int n, double d);

/* The table on stdout, in io/table.h's mode (kind, runs and seconds are wide columns): per
 * method, evaluations, cost and seconds to reach target, how, best error, runs, and the slope
 * -d log error / d log evals over the runs with error in (1e-11, 0.1). For the methods named
 * pick[0] and pick[1], their evaluations, cost and slope into picked (NAN if absent). */
void work_runs_table(const work_run *rec, int n, double target, double d, int mode, const char *const pick[2],
                     double picked[2][3]);

#endif
