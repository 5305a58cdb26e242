/* sweep.h: a grid of independent tasks (0 .. tasks - 1, in grid order) run in forked workers.
 * A worker runs one task at a time and sends its result back as one message of any size; the
 * parent turns each result into a row and appends it to the results file with a single
 * write(2), so neither a crash nor two workers ever leave half a row, or hands it to the caller
 * (no results file); a write that fails (a full disk) is cut back to the last whole row. A
 * results file starts with a header (the column names and one field naming the program, the
 * grid, the model and the shard); a run over an existing file checks that header and every
 * field of every row, skips the tasks whose rows it holds (an unfinished last row is cut off;
 * the rows of tasks to run again, e.g. failed ones, are dropped by an atomic rewrite) and
 * refuses, leaving the file untouched, a file that is not this sweep's. The file is locked
 * against a second run. --shard K/N runs the tasks t with t mod N = K - 1 into a part with its
 * own header; sweep_merge checks the parts and joins them. A progress line with the ETA goes to
 * stderr (budget.h).
 *
 * Stop signals during the run: SIGINT with a results file stops handing out tasks, finishes the
 * rows in flight and says how to resume (a second SIGINT abandons them); SIGTERM, SIGHUP, or
 * SIGINT without a results file, abandon the tasks in flight at once. Either way the workers
 * are ended, the file holds whole rows only, and the program then ends by that signal. */
#ifndef IVPLAB_SWEEP_H
#define IVPLAB_SWEEP_H
#include "base/budget.h"
#include <stdbool.h>
#include <stddef.h>

#define SWEEP_ROW_MAX 4096      /* B: longest row take() may format, newline included */

/* --shard K/N */
typedef struct sweep_shard {
    long k;     /* this part, 1 .. n */
    long n;     /* parts */
} sweep_shard;

/* A worker's result: bytes appended by sweep_msg_add. */
typedef struct sweep_msg {
    char *data;     /* the bytes */
    size_t len;     /* bytes used, B */
    size_t cap;     /* bytes allocated, B */
} sweep_msg;

void sweep_msg_add(sweep_msg *m, const void *bytes, size_t n);

typedef struct sweep_spec {
    const char *program;    /* "schelleng": what messages start with ("bin/schelleng" in headers) */
    const char *label;      /* "sweep": the progress line's label */
    const char *unit;       /* "cells": what a task is called in messages */
    long tasks;             /* size of the grid, tasks */
    sweep_shard shard;      /* which part of the grid this run does ({1, 1}: all of it) */
    long jobs;              /* worker processes (at most the tasks to run), >= 1 */
    bool progress;          /* show the progress line with ETA from the start */
    const char *want;       /* NULL, or want[t] = 0 leaves task t out of this run (tasks bytes) */
    /* the results file (results NULL: none; take() then only receives each result) */
    const char *results;            /* its path */
    const char *const *columns;     /* the column names, NULL-terminated */
    const char *identity; /* the header's last field, "bin/PROGRAM results v1: ...grid, model" */
    /* Parses a row of the file back (fields split at tabs, as many as columns) and checks every
     * field: the task it holds, or -1 with the reason it is not this sweep's row in why. *again
     * (false on entry) set: a whole row of a task that must run again (why says why). */
    long (*row_task)(char *const *field, void *ctx, bool *again, char *why, size_t whylen);
    /* In a worker: runs task t, appending its result to out. */
    void (*run)(long t, void *ctx, sweep_msg *out);
    /* In the parent, as results arrive (in any order): takes the result of task t and formats
     * its row into row (at most SWEEP_ROW_MAX bytes, ending in a newline); returns the row's
     * length (0: no row). */
    int (*take)(long t, const void *msg, size_t len, void *ctx, char *row);
    void *ctx;              /* handed to the callbacks */
    /* The task t in words for messages ("cell (3, 4)"; NULL: "task t"). */
    void (*task_name)(long t, void *ctx, char *buf, size_t n);
} sweep_spec;

/* A sweep opened: the results file checked and locked, the tasks still to run. */
typedef struct sweep {
    const sweep_spec *spec; /* what it runs */
    int fd;                 /* the results file, locked, appending (-1: none) */
    long *todo;             /* the tasks of this run not yet in the file, in grid order */
    long ntodo;             /* how many, tasks */
    long tasks;             /* tasks of this shard (and of want), tasks */
    long skipped;           /* of them already in the results file, tasks */
    long end;               /* the end of the file's last whole row, B */
    bool created;           /* the results file was made by this run */
    progress meter;         /* the progress line of spec->progress */
} sweep;

typedef struct sweep_stats {
    long tasks;             /* tasks of this shard, tasks */
    long skipped;           /* already in the results file, tasks */
    long computed;          /* run and taken now, tasks */
    long lost;              /* whose worker ended before sending a result, tasks */
    double wall;            /* wall time of sweep_run, s */
    char first_lost[160];   /* the first lost task and why, "" when none */
} sweep_stats;

/* Opens (creates) and checks the results file and lists the tasks to run. 0, or the exit
 * status with one line on stderr: 2 (the file is not this sweep's, or in use: left untouched),
 * 1 (a system error). */
int sweep_open(sweep *s, const sweep_spec *spec);
/* Runs the tasks of sweep_open; closes the file. 0; 1 when a task was lost or a row could not
 * be written (message on stderr). Does not return after a stop signal (see above). */
int sweep_run(sweep *s, sweep_stats *st);
/* Frees what sweep_open holds (sweep_run does it too); leaves s empty and safe to free again. */
void sweep_free(sweep *s);

/* How many tasks sweep_open(spec) would leave to run: the results file read without locking,
 * creating or refusing anything (a line it cannot read counts for nothing), for the estimate
 * that budget.h checks before any file is touched. */
long sweep_pending(const sweep_spec *spec);
/* Checks the parts of a sweep run with --shard K/N (paths part[0 .. nparts - 1]) and writes
 * their rows, in task order, to spec->results (atomically) with the header of a whole run.
 * spec->identity is the identity without the shard (", shard K/N" is what the parts add). Every
 * part must start with this sweep's header and the same N; together they must hold every task
 * exactly once, each row whole and valid (no task to run again). A part after the first that
 * does not exist counts as its shard missing. 0; 2 with one line on stderr naming the part and
 * the task (or the shards missing); 1 when the file cannot be written. */
int sweep_merge(const sweep_spec *spec, char *const *part, int nparts);
/* The header's last field for part sh of a sweep whose whole identity is base. */
void sweep_shard_identity(char *buf, size_t n, const char *base, sweep_shard sh);
/* Whether task t belongs to part sh of the grid. */
bool sweep_in_shard(long t, sweep_shard sh);
/* The --shard flag's parser (cli.h CLI_CUSTOM): "K/N" into the sweep_shard at dest. */
int sweep_parse_shard(const char *text, void *dest, char *why, size_t whylen);

#endif
