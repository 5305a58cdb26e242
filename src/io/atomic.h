/* atomic.h: every output file is written under a temporary name in the same folder and
 * renamed into place when complete, so no reader ever sees half a file. A run stopped by
 * SIGINT or SIGTERM removes its temporaries. */
#ifndef IVPLAB_ATOMIC_H
#define IVPLAB_ATOMIC_H
#include <stdio.h>

typedef struct atomic_file {
    char path[4096];        /* the final name */
    char tmp[4096];         /* the temporary name, "" when none is open */
    FILE *f;                /* open stream (atomic_open only) */
} atomic_file;

/* Open a stream on a temporary next to path, creating path's folder. NULL on failure
 * (errno set). */
FILE *atomic_open(atomic_file *a, const char *path);
/* The same for path = dir/name. */
FILE *atomic_open_in(atomic_file *a, const char *dir, const char *name);
/* For libraries that open files by name (libsndfile, HDF5): reserve a temporary name next to
 * path and return it; the caller writes it, then calls atomic_commit. NULL on failure. */
const char *atomic_reserve(atomic_file *a, const char *path);
/* Close (if open) and rename into place. 0 on success; -1 (errno set) removes the temporary. */
int atomic_commit(atomic_file *a);
/* Give up: remove the temporary. */
void atomic_abort(atomic_file *a);

/* The lessons' data files: open dir/name, or commit, or exit 1 with one line
 * "program: cannot write PATH: reason" (the temporary removed). */
FILE *atomic_open_or_exit(atomic_file *a, const char *program, const char *dir, const char *name);
void atomic_commit_or_exit(atomic_file *a, const char *program);

/* dir/name into buf (size n); returns buf. */
char *path_join(char *buf, size_t n, const char *dir, const char *name);

#endif
