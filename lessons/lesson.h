/* lesson.h: where a lesson ends on a library error. The library returns a status and a failure
 * (base/failure.h) and never exits; a lesson is a program's main level, and these calls end it
 * with the failure's line on stderr and its status (2: bad input, 1: a failure), as main would. */
#ifndef IVPLAB_LESSON_H
#define IVPLAB_LESSON_H
#include "base/budget.h"
#include "base/failure.h"
#include "io/atomic.h"
#include "io/wav.h"
#include <stdlib.h>

/* status nonzero: print e's line and exit with status. */
static inline void exit_on(int status, const failure *e)
{
    if (status) {
        failure_print(e);
        exit(status);
    }
}

static inline void budget_check_or_exit(budget *b)
{
    failure e;
    exit_on(budget_check(b, &e), &e);
}

static inline FILE *atomic_open_or_exit(atomic_file *a, const char *program, const char *dir,
                                        const char *name)
{
    failure e;
    FILE *f = atomic_open_file(a, program, dir, name, &e);
    exit_on(f ? 0 : e.status, &e);
    return f;
}

static inline void atomic_commit_or_exit(atomic_file *a, const char *program)
{
    failure e;
    exit_on(atomic_commit_file(a, program, &e), &e);
}

static inline void atomic_check_output_or_exit(const char *program, const char *flag,
                                               const char *path, bool dash_ok)
{
    failure e;
    exit_on(atomic_check_output(program, flag, path, dash_ok, &e), &e);
}

static inline void atomic_check_folder_or_exit(const char *program, const char *flag,
                                               const char *dir)
{
    failure e;
    exit_on(atomic_check_folder(program, flag, dir, &e), &e);
}

static inline void wav_write_or_exit(const char *program, const char *path, const double *x,
                                     size_t n, int fs, double gain, wav_data *back)
{
    failure e;
    exit_on(wav_write_file(program, path, x, n, fs, gain, back, &e), &e);
}

#endif
