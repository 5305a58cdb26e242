/* atomic.h: the one rule for every output path a program writes.
 *   - missing or a regular file: written under a temporary name in the same folder and renamed
 *     into place when complete, so no reader ever sees half a file, and two runs writing the
 *     same name leave one whole run's file;
 *   - a symlink: followed (hop by hop, to the name at its end); the rule applies to that name
 *     and the link stays a link;
 *   - a character or block device, a FIFO or a socket: opened and written straight into;
 *     nothing is created, replaced or removed, and a short write or a failed close is an error;
 *   - "-" (where a program accepts it, see atomic_check_output): standard output, written
 *     straight into;
 *   - a directory: refused (errno EISDIR).
 * A run stopped by SIGINT or SIGTERM removes its temporaries. */
#ifndef IVPLAB_ATOMIC_H
#define IVPLAB_ATOMIC_H
#include "base/failure.h"
#include <stdbool.h>
#include <stdio.h>

typedef struct atomic_file {
    char path[4096];        /* the name the user gave */
    char target[4096];      /* the name the bytes go to (symlinks followed); "-": standard output */
    char tmp[4096];         /* the temporary name, "" when none */
    unsigned mode;          /* 0: a regular or new file (renamed over); else the type of a target
                             * written straight (S_IFCHR, S_IFIFO, ...; S_IFIFO for "-") */
    FILE *f;                /* the open stream (it points at this struct: keep it in place) */
    int fd;                 /* the descriptor under f */
    int error;              /* errno of the first failed write or close, 0 if none */
} atomic_file;

/* Open an output stream on path by the rule above, creating the folder a new file goes in.
 * NULL on failure (errno set: EISDIR for a directory). */
FILE *atomic_open(atomic_file *a, const char *path);
/* The same for path = dir/name. */
FILE *atomic_open_in(atomic_file *a, const char *dir, const char *name);
/* For libraries that open files by name (gnuplot, ...): a temporary name to write, by the same
 * rule (beside a regular target; in $TMPDIR for a target written straight, whose bytes the
 * commit then copies in). NULL on failure (errno set). */
const char *atomic_reserve(atomic_file *a, const char *path);
/* Flush and close; rename into place (a regular file) or copy a reserved temporary into a
 * target written straight. 0 on success; -1 (errno set) removes the temporary. */
int atomic_commit(atomic_file *a);
/* Give up: close, remove the temporary (a device or FIFO is left as it is). */
void atomic_abort(atomic_file *a);
/* n bytes to path by the rule, in one open and commit. 0, or -1 with errno. */
int atomic_write(const char *path, const void *bytes, size_t n);

/* The lessons' data files: open dir/name (NULL on failure), or commit it and note it in the
 * manifest (nonzero on failure). A failure fills e with one line "program: cannot write PATH:
 * reason", status 2 for a directory where the file goes or a file where a folder goes, 1
 * otherwise (the temporary removed). */
FILE *atomic_open_file(atomic_file *a, const char *program, const char *dir, const char *name,
                       failure *e);
int atomic_commit_file(atomic_file *a, const char *program, failure *e);

/* A file named by a flag (--wav, --field, ...), checked right after the flags are read and
 * before any work: a directory, or "-" where dash_ok is false or standard output is already
 * taken by another flag, returns 2 with e the line naming the flag, the value and what is accepted.
 * "-" with dash_ok takes standard output for that file: from then on everything the program
 * prints goes to standard error. */
int atomic_check_output(const char *program, const char *flag, const char *path, bool dash_ok,
                        failure *e);
/* A folder named by a flag (--sound), checked before any work: an existing file there, or as a
 * part of it, returns 2 with e the line. A missing folder is made when the first file goes in. */
int atomic_check_folder(const char *program, const char *flag, const char *dir, failure *e);
/* What an output flag accepts, in words (for --help and the refusals). */
#define ATOMIC_ACCEPTS_DASH                                                                        \
    "a file, a symlink, a device or FIFO, or - (standard output; the report then goes to "         \
    "standard error)"
#define ATOMIC_ACCEPTS "a file, a symlink, a device or FIFO"

/* Why a write failed, for a message: what is accepted for EISDIR and ENOTDIR, else strerror. */
const char *atomic_reason(int e);

/* The manifest: the files a run wrote, so that a figure draws exactly the data of the run that made
 * it. Every data file committed by atomic_commit_file is noted (and what a program writes by
 * other means, by manifest_note); before --plot draws and at exit, each folder that received one
 * gets MANIFEST_NAME: their names, one a line, under a comment line naming the program and the
 * time. A later run replaces it with its own list, so a file an older run left in the folder is
 * listed by none; plot_render draws from the listed files alone. */
#define MANIFEST_NAME "manifest.txt"

/* path was written whole by this run (its folder's manifest will list its name). */
void manifest_note(const char *path);
/* Write (replace) the manifest of every folder this run wrote into; 0, or -1 with errno. */
int manifest_write(void);
/* The names dir's manifest lists, into names (up to max, each under 256 bytes); how many, or -1
 * when dir has no manifest (data from before manifests, or copied by hand: every file counts). */
int manifest_read(const char *dir, char names[][256], int max);


/* dir/name into buf (size n); returns buf. */
char *path_join(char *buf, size_t n, const char *dir, const char *name);

#endif
