/* budget.h: long work is estimated before it starts. A program states what its work is counted
 * in (steps, cells, ...) and its cap, estimates the work, the bytes it will write and the memory
 * it will hold from its flags, and calls budget_check: above a cap it refuses (status 2, one line
 * naming the estimate, the cap and --allow-long, the one flag that lifts every cap); accepted
 * work then reports progress through budget_tick, and long work (estimated at BUDGET_LONG of
 * the cap or more) shows a progress line with the estimated end on stderr once it has run
 * BUDGET_QUIET_S. Shorter work never prints one, however slow the machine. */
#ifndef IVPLAB_BUDGET_H
#define IVPLAB_BUDGET_H
#include <stdbool.h>
#include <stddef.h>
#include "base/failure.h"

#define BUDGET_OUT_CAP 1e9      /* B: most a program writes without --allow-long */
#define BUDGET_MEM_CAP 1e9      /* B: most memory a program holds without --allow-long */
#define BUDGET_ROWS 100000L /* rows: a per-step data file is thinned to at most about this many */
#define BUDGET_QUIET_S 2.0      /* s: work shorter than this shows no progress line */
#define BUDGET_LONG 0.1         /* share of the cap from which work is long and shows progress */

/* The progress line of accepted work: an object, never a global. main makes it (its budget's
 * meter, started by budget_check) and hands a pointer down to whatever ticks it (a model's run
 * options, a sink's context); a NULL progress ticks nothing. */
typedef struct progress {
    const char *label, *unit;   /* "ivp", "steps" */
    double total, done;         /* the work estimated and done, in unit */
    double t0, last;            /* start, last line, s (wall clock) */
    long calls;                 /* ticks so far */
    int tenth;                  /* last tenth printed (non-terminal) */
    bool always, shown, active;
    bool silent;                /* short work: never a line */
} progress;

typedef struct budget {
    const char *program;    /* "ivp" */
    const char *unit;       /* what the work is counted in: "steps", "cells", ... */
    double cap;             /* most work accepted without --allow-long, in unit */
    double work;            /* the estimate, in unit */
    double bytes_out;       /* estimated bytes written, B */
    double bytes_mem;       /* estimated peak memory of the large arrays, B */
    const char *from;       /* the flags the estimate comes from, e.g. "--T / --h" */
    bool allow_long;        /* --allow-long */
    char help[480];         /* --allow-long's help line, naming the caps */
    progress meter;         /* the work's progress line, once budget_check accepts it */
} budget;

/* Fills in the program, the unit and the cap (and the help line of --allow-long). */
void budget_init(budget *b, const char *program, const char *unit, double cap, const char *from);

/* The --allow-long flag, for a program's flag table (b: its budget). */
#define BUDGET_OPT(b) \
    {.name = "allow-long", .kind = CLI_FLAG, .dest = &(b).allow_long, .unit = "", .help = (b).help}

/* Refuses (returns 2; e: the one line naming the estimate, the cap and --allow-long) when b->work,
 * b->bytes_out or b->bytes_mem is above its cap and --allow-long was not given; otherwise starts
 * b->meter on b->work (silent below BUDGET_LONG of the cap) and returns 0. */
int budget_check(budget *b, failure *e);

/* (Re)starts a progress meter: total units of work under a label ("sweep"); always: show the
 * line from the start, not only after BUDGET_QUIET_S. */
void budget_meter(progress *meter, const char *label, const char *unit, double total, bool always);
/* units more of the work are done (cheap: call it every step; meter NULL: nothing). */
void budget_tick(progress *meter, double units);
/* The work is done: the final progress line (when one was shown) ends with a newline. */
void budget_finish(progress *meter);
/* Ends the progress line where the work stopped short (a failure): the count reached, no 100%. */
void budget_stop(progress *meter);

/* Keep every stride-th of n + 1 samples (and the last) so that a data file has at most about
 * BUDGET_ROWS rows: 1 when n is below that. */
long budget_stride(long n);
/* A solve.h sample sink that only ticks its context, a progress, by one step. */
int budget_tick_sink(long k, double t, const double *y, void *ctx);

/* "1.9 GB", "384 kB": n bytes in words. */
void budget_bytes_text(char *buf, size_t n, double bytes);

#endif
