/* Lesson 11, "Schelleng diagrams": which oscillation a bowed cello string settles into, over
 * the plane of bow-bridge distance x_b/L and bowing force f_b (van Walstijn et al., Acta
 * Acustica 2026, section 3.2). Each cell is one stroke of the bowed-string model (bow.h):
 * accelerate from rest, hold 0.1 m/s, (decelerate); its steady part is classified by
 * regime.h and measured (mean, RMS, f0, spectral centroid). Cells run in parallel in forked
 * workers and are appended to a TSV as they finish, so an interrupted sweep resumes, and
 * --shard K/N splits a large sweep over machines. Every unclassified cell names its reason
 * (the reason column); Figure 10's three boundary lines are read off the sweep and their
 * slopes printed against Schelleng's; --keep DIR keeps each cell's window so that the sweep
 * can be classified again without simulating.
 *
 * Try it: bin/schelleng --cell 0.075,2.15 (the Figure 6 point), then --full. */
#include "base/cli.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/plot.h"
#include "models/bow.h"
#include "measure/regime.h"
#include "measure/resample.h"
#include "measure/schelleng_stroke.h"
#include "base/util.h"
#include "sweep/workers.h"
#include "base/budget.h"
#include <sys/file.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROGRAM "schelleng"
#define NGALLERY 10
#define PLOT_RATE 20000.0   /* Hz: rate of the waveforms written for the figures */

/* ---- parameters ---------------------------------------------------------------------- */

typedef struct plane_params {
    double x_min, x_max, f_min, f_max, nx, nf, n_full;     /* see schelleng.ini */
    schelleng_stroke stroke;
    double gallery_x, gallery_offset, gallery_f[NGALLERY];
} plane_params;

static bow_instrument inst;
static param_spec inst_spec[BOW_NKEYS + 1];
static plane_params pp;
static param_spec plane_spec[32];
static const char *params_name = NULL;  /* --params: instrument overrides */

static void plane_table(void)
{
    static char keys[NGALLERY][16];
    const param_spec base[] = {
        {"x_min", &pp.x_min, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, "smallest x_b/L"},
        {"x_max", &pp.x_max, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, "largest x_b/L"},
        {"f_min", &pp.f_min, "N", 0, 100, CLI_OPEN_MIN, "smallest bowing force"},
        {"f_max", &pp.f_max, "N", 0, 100, CLI_OPEN_MIN, "largest bowing force"},
        {"nx", &pp.nx, "", 1, 400, 0, "bowing positions"},
        {"nf", &pp.nf, "", 1, 400, 0, "bowing forces"},
        {"n_full", &pp.n_full, "", 1, 400, 0, "positions and forces of the full grid"},
        {"accel", &pp.stroke.accel, "m/s^2", 0, 1000, CLI_OPEN_MIN, "bow acceleration from rest"},
        {"v_hold", &pp.stroke.v_hold, "m/s", 0, 10, CLI_OPEN_MIN, "steady bow velocity"},
        {"t_hold", &pp.stroke.t_hold, "s", 0, 60, CLI_OPEN_MIN, "length of the hold"},
        {"decel", &pp.stroke.decel, "m/s^2", 0, 1000, 0, "deceleration after the hold"},
        {"settle", &pp.stroke.settle, "s", 0, 60, 0, "analysis starts this long into the hold"},
        {"gallery_x", &pp.gallery_x, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, "x_b/L of the Figure 9 gallery"},
        {"gallery_offset", &pp.gallery_offset, "N", 0, 100, 0, "offset between gallery waveforms"},
    };
    size_t nb = sizeof base / sizeof base[0];
    memcpy(plane_spec, base, sizeof base);
    for (int k = 0; k < NGALLERY; k++) {
        snprintf(keys[k], sizeof keys[k], "gallery_f%d", k + 1);
        plane_spec[nb + k] = (param_spec){keys[k], &pp.gallery_f[k], "N", 0, 100, CLI_OPEN_MIN, "gallery force"};
    }
    plane_spec[nb + NGALLERY] = (param_spec){NULL, NULL, NULL, 0, 0, 0, NULL};
}

static int parse_set(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    return params_set(inst_spec, text, why, whylen);
}

static int parse_params_file(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    if (params_load_named(inst_spec, text, why, whylen) != 0)
        return -1;
    params_name = text;
    return 0;
}

typedef struct shard { long k, n; } shard;

static int parse_shard(const char *text, void *dest, char *why, size_t whylen)
{
    shard *s = dest;
    char *end;
    long k = strtol(text, &end, 10);
    if (end == text || *end != '/') {
        snprintf(why, whylen, "not of the form K/N");
        return -1;
    }
    const char *p = end + 1;
    long n = strtol(p, &end, 10);
    if (end == p || *end || n < 1 || k < 1 || k > n || n > 100000) {
        snprintf(why, whylen, "K and N must be integers with 1 <= K <= N <= 100000");
        return -1;
    }
    s->k = k, s->n = n;
    return 0;
}

typedef struct point { double x, f; bool set; } point;

static int parse_point(const char *text, void *dest, char *why, size_t whylen)
{
    point *c = dest;
    if (!strchr(text, ',')) {
        snprintf(why, whylen, "not of the form X,F");
        return -1;
    }
    if (cli_pair(text, &c->x, &c->f) || !(c->x > 0 && c->x < 1) || !(c->f > 0 && c->f <= 100)) {
        snprintf(why, whylen, "X (x_b/L) in (0, 1) and F (N) in (0, 100]");
        return -1;
    }
    c->set = true;
    return 0;
}

/* ---- the grid -------------------------------------------------------------------------- */

typedef struct grid {
    int nx, nf;
    double x_min, x_max, f_min, f_max;
    double rx, rf;      /* ratio between neighbouring positions, forces */
} grid;

static double grid_x(const grid *g, int i) { return g->nx > 1 ? g->x_min * pow(g->rx, i) : g->x_min; }
static double grid_f(const grid *g, int j) { return g->nf > 1 ? g->f_min * pow(g->rf, j) : g->f_min; }

/* What a worker sends back for one cell (one write, smaller than PIPE_BUF). */
typedef struct cell_msg {
    int index;              /* j * nx + i */
    int status;             /* 0, or -1 with err */
    double seconds;         /* wall time of the cell, s */
    double cpu;             /* CPU time of the cell, s */
    double dt;              /* the time step that succeeded, s */
    regime_result r;
    char err[240];
} cell_msg;

static const char *const columns[] = {
    "i_x", "i_f", "x_b_over_L", "f_b_N", "regime", "slips_per_period", "f0_hz", "mean_N", "rms_N",
    "centroid_hz", "period_ratio", "regularity", "flybacks_per_period", "amplitude_N", "amplitude_ratio",
    "x_lo", "x_hi", "f_lo", "f_hi", "seconds", "cpu_seconds", "dt_s", "source", "reason", "secondary_ratio", NULL,
};
#define NCOLUMNS (sizeof columns / sizeof columns[0] - 1)

/* One results row, tab-separated, ending in a newline. */
static int format_row(char *buf, size_t n, const grid *g, const cell_msg *m, const char *source)
{
    int i = m->index % g->nx, j = m->index / g->nx;
    double x = grid_x(g, i), f = grid_f(g, j), sx = sqrt(g->rx), sf = sqrt(g->rf);
    const regime_result *r = &m->r;
    return snprintf(buf, n,
                    "%d\t%d\t%.6g\t%.6g\t%s\t%.4f\t%.4f\t%.5g\t%.5g\t%.5g\t%.5f\t%.4f\t%.4f\t%.5g\t%.4g\t%.6g\t%.6g\t"
                    "%.6g\t%.6g\t%.3f\t%.3f\t%.3g\t%s\t%s\t%.4f\n",
                    i, j, x, f, m->status ? "failed" : regime_name(r->kind), r->slips_per_period, r->f0_hz,
                    r->mean_n, r->rms_n, r->centroid_hz, r->period_ratio, r->regularity, r->flybacks_per_period,
                    r->amplitude_n, r->amplitude_ratio, x / sx, x * sx, f / sf, f * sf, m->seconds, m->cpu, m->dt,
                    source, m->status ? "failed" : regime_reason_name(r->reason), r->secondary_ratio);
}

static int write_all(int fd, const void *buf, size_t n);

/* ---- the results file: read what is done, append the rest -------------------------------- */

/* The header of a results file: the column names, then one field naming this program, the grid
 * and the model (a hash of every instrument value and of the stroke), so that a file is resumed
 * only by a run that computes the same cells. */
static void results_header(char *buf, size_t n, const grid *g, const char *source)
{
    unsigned long long h = 1469598103934665603ull;     /* FNV-1a over the values, as text */
    char text[160];
    for (const param_spec *ps = inst_spec; ps->key; ps++) {
        snprintf(text, sizeof text, "%s=%.17g;", ps->key, *ps->dest);
        for (const char *c = text; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
    }
    const schelleng_stroke *st = &pp.stroke;
    snprintf(text, sizeof text, "stroke=%.17g,%.17g,%.17g,%.17g,%.17g", st->accel, st->v_hold, st->t_hold, st->decel,
             st->settle);
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; columns[k]; k++)
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s\t", columns[k]);
    snprintf(buf + len, len < n ? n - len : 0, "bin/schelleng results v1: x %.9g-%.9g (%d), f %.9g-%.9g N (%d), "
             "model %016llx, %s\n", g->x_min, g->x_max, g->nx, g->f_min, g->f_max, g->nf, h, source);
}

/* Opens the results file (created when missing), locks it against a second run (flock) and
 * marks done[] from its rows. An existing file is resumed only when it starts with this
 * program's header for this grid and model (part K > 1 of a sharded sweep, which has no
 * header: with a whole row of this grid); only an unfinished last row after whole ones is cut
 * off. Returns the descriptor (appending), or -1 with a reason and *code 2 (the file is not
 * ours, or in use; it is left untouched) or 1 (a system error). */
static int open_results(const char *path, const grid *g, const char *source, long shard_k, char *done, long *rows,
                        int *code, char *why, size_t whylen)
{
    *code = 2;
    *rows = 0;
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        snprintf(why, whylen, "--results %s is not a regular file; accepted: a results file of this program, or a "
                 "new name", path);
        return -1;
    }
    char *dir = xstrdup(path), *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        mkdir_p(dir);
    }
    free(dir);
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        *code = 1;
        snprintf(why, whylen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(why, whylen, "--results %s is in use by another bin/schelleng run (locked); accepted: wait for it "
                 "to end, or another --results file", path);
        close(fd);
        return -1;
    }
    char header[2048];
    results_header(header, sizeof header, g, source);
    FILE *f = fdopen(dup(fd), "r");
    if (!f) {
        *code = 1;
        snprintf(why, whylen, "cannot read %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    char line[2048];
    long lineno = 0, good_end = 0, nrows = 0;
    int status = 0;     /* 0 reading, 1 done, -1 refused */
    while (status == 0) {
        long start = ftell(f);
        if (!fgets(line, sizeof line, f)) {
            status = 1;
            break;
        }
        lineno++;
        size_t len = strlen(line);
        long end = ftell(f);
        if ((long)len != end - start) {
            snprintf(why, whylen, "%s:%ld: a NUL byte; not a results file of this program, left untouched", path, lineno);
            status = -1;
            break;
        }
        if (line[len - 1] != '\n') {
            if (len == sizeof line - 1)
                snprintf(why, whylen, "%s:%ld: a line over %zu characters; not a results file of this program, left "
                         "untouched", path, lineno, sizeof line - 2);
            else if (lineno == 1 || (lineno == 2 && shard_k == 1))
                snprintf(why, whylen, "%s: no whole %s; not a results file of this program, left untouched", path,
                         lineno == 1 && shard_k == 1 ? "header" : "row");
            else {
                status = 1;     /* an unfinished last row after whole ones: cut below */
                break;
            }
            status = -1;
            break;
        }
        if (lineno == 1 && shard_k == 1) {
            if (strcmp(line, header) != 0) {
                const char *theirs = strrchr(line, '\t'), *ours = strrchr(header, '\t');
                if (strncmp(line, "i_x\t", 4) == 0 && theirs && strncmp(theirs + 1, "bin/schelleng results", 21) != 0)
                    snprintf(why, whylen, "--results %s was made by an earlier bin/schelleng, whose header does not name "
                             "the grid and the model; it is left untouched (accepted: remove it to start again, or "
                             "another --results file)", path);
                else if (strncmp(line, "i_x\t", 4) == 0 && theirs && ours)
                    snprintf(why, whylen, "--results %s is not on this grid and model: its header says '%.*s', this "
                             "run '%.*s'; accepted: the flags that made it, or another --results file", path,
                             (int)strcspn(theirs + 1, "\n"), theirs + 1, (int)strcspn(ours + 1, "\n"), ours + 1);
                else
                    snprintf(why, whylen, "--results %s does not start with this program's results header; it is "
                             "left untouched (accepted: a results file of this grid and model, or a new name)", path);
                status = -1;
                break;
            }
            good_end = end;
            continue;
        }
        int i, j;
        double x, fb;
        char *field[32];
        int nf = 0;
        for (char *s = strtok(line, "\t\n"); s && nf < 32; s = strtok(NULL, "\t\n"))
            field[nf++] = s;
        if (nf != (int)NCOLUMNS || sscanf(field[0], "%d", &i) != 1 || sscanf(field[1], "%d", &j) != 1 ||
            sscanf(field[2], "%lf", &x) != 1 || sscanf(field[3], "%lf", &fb) != 1) {
            snprintf(why, whylen, "%s:%ld: not a results row of this program; the file is left untouched", path, lineno);
            status = -1;
            break;
        }
        if (i < 0 || i >= g->nx || j < 0 || j >= g->nf || fabs(x / grid_x(g, i) - 1) > 1e-5 ||
            fabs(fb / grid_f(g, j) - 1) > 1e-5) {
            snprintf(why, whylen,
                     "%s:%ld: cell (%d, %d) at x_b/L %g, f_b %g N is not on this grid; accepted: the grid that "
                     "made the file, or another --results file",
                     path, lineno, i, j, x, fb);
            status = -1;
            break;
        }
        if (strcmp(field[22], source) != 0) {
            snprintf(why, whylen, "%s:%ld: a %s row, but this run computes %s cells; use another --results file",
                     path, lineno, field[22], source);
            status = -1;
            break;
        }
        if (!done[j * g->nx + i])
            nrows++;
        done[j * g->nx + i] = 1;
        good_end = end;
    }
    fclose(f);
    if (status < 0) {
        close(fd);
        return -1;
    }
    if (fstat(fd, &sb) == 0 && sb.st_size > good_end && ftruncate(fd, good_end) != 0) {
        *code = 1;
        snprintf(why, whylen, "cannot cut the unfinished last row of %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (good_end == 0 && shard_k == 1 && write_all(fd, header, strlen(header)) != 0) {
        *code = 1;
        snprintf(why, whylen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    *rows = nrows;
    return fd;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w, n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r, n -= (size_t)r;
    }
    return 0;
}

typedef struct sweep_opts {
    grid g;
    shard sh;
    long jobs;
    bool stand_in;
    const char *results;
    const char *label;      /* for the progress bar */
    const char *keep;       /* folder of kept analysis windows (NULL: none) */
    const char *redo;       /* run only the cells unclassified in this results file (NULL: all) */
} sweep_opts;

typedef struct cell_row cell_row;
static long load_rows(const char *path, cell_row *rows, long cap);

/* want[c] = 1 for the cells of g that the results file path has as unclassified. 0, or -1
 * with a reason (the file unreadable, or a row off this grid). */
static int unclassified_cells(const char *path, const grid *g, char *want, char *why, size_t whylen);

typedef struct sweep_stats {
    long cells, skipped, computed, failed;
    double wall;            /* s */
    double cell_seconds;    /* CPU time summed over the computed cells, s */
    char first_error[400];
} sweep_stats;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void worker(int task_fd, int result_fd, const sweep_opts *so)
{
    regime_opts ro = regime_defaults();
    int index;
    while (read_all(task_fd, &index, sizeof index) == 0) {
        cell_msg m;
        memset(&m, 0, sizeof m);
        m.index = index;
        double x = grid_x(&so->g, index % so->g.nx), f = grid_f(&so->g, index / so->g.nx);
        double t0 = wall_seconds(), c0 = cpu_seconds();
        m.dt = inst.dt;
        if (so->stand_in)
            m.status = schelleng_standin_cell(&inst, &pp.stroke, x, f, &ro, &m.r);
        else {
            char kept[4096];
            if (so->keep)
                snprintf(kept, sizeof kept, "%s/%s-x%.9g-f%.9g.bin", so->keep, so->label, x, f);
            m.status = schelleng_cell_kept(so->keep ? kept : NULL, &inst, &pp.stroke, x, f, &ro, &m.r, &m.dt, m.err,
                                           sizeof m.err);
        }
        m.seconds = wall_seconds() - t0;
        m.cpu = cpu_seconds() - c0;
        if (write_all(result_fd, &m, sizeof m) != 0)
            _exit(1);
    }
    _exit(0);
}

/* A sweep's results file, opened and checked before any work: the locked descriptor and the
 * cells of the shard still to compute. */
typedef struct sweep_prep {
    int fd;
    int *todo;
    long ntodo, cells, skipped;
} sweep_prep;

/* 0, or the exit status (2: the file is not this sweep's or is in use; 1: a system error) with
 * the message on stderr. */
static int sweep_prepare(const sweep_opts *so, sweep_prep *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->fd = -1;
    const grid *g = &so->g;
    long total = (long)g->nx * g->nf, rows;
    const char *source = so->stand_in ? "stand-in" : "simulation";
    char *done = xcalloc((size_t)total, 1), why[1200];
    char *want = NULL;
    if (so->redo) {
        want = xcalloc((size_t)total, 1);
        if (unclassified_cells(so->redo, g, want, why, sizeof why) != 0) {
            fprintf(stderr, PROGRAM ": --redo_unclassified %s: %s\n", so->redo, why);
            free(want);
            free(done);
            return 2;
        }
    }
    int code;
    pr->fd = open_results(so->results, g, source, so->sh.k, done, &rows, &code, why, sizeof why);
    if (pr->fd < 0) {
        fprintf(stderr, PROGRAM ": %s\n", why);
        free(done);
        free(want);
        return code;
    }
    pr->todo = xcalloc((size_t)total, sizeof *pr->todo);
    for (long c = 0; c < total; c++) {
        if (c % so->sh.n != so->sh.k - 1 || (want && !want[c]))
            continue;
        pr->cells++;
        if (done[c])
            pr->skipped++;
        else
            pr->todo[pr->ntodo++] = (int)c;
    }
    free(done);
    free(want);
    return 0;
}

/* Run every cell of the shard not yet in the results file (pr from sweep_prepare, closed here).
 * 0, or 1 on a failure to write. */
static int sweep(const sweep_opts *so, sweep_prep *pr, sweep_stats *st)
{
    memset(st, 0, sizeof *st);
    const grid *g = &so->g;
    const char *source = so->stand_in ? "stand-in" : "simulation";
    int fd = pr->fd, *todo = pr->todo;
    long ntodo = pr->ntodo;
    st->cells = pr->cells;
    st->skipped = pr->skipped;
    double t_start = wall_seconds();
    if (ntodo == 0) {
        close(fd);
        free(todo);
        return 0;
    }
    /* The work queue: every index written up front into one pipe (ints are read whole);
     * the workers read the next index when free and send one message per cell. */
    long jobs = so->jobs < ntodo ? so->jobs : ntodo;
    int task[2], result[2];
    if (pipe(task) != 0 || pipe(result) != 0) {
        fprintf(stderr, PROGRAM ": pipe: %s\n", strerror(errno));
        close(fd);
        free(todo);
        return 1;
    }
    fflush(NULL);
    pid_t *pid = xcalloc((size_t)jobs, sizeof *pid);
    for (long w = 0; w < jobs; w++) {
        pid[w] = workers_fork();
        if (pid[w] == 0) {
            close(task[1]);
            close(result[0]);
            close(fd);
            worker(task[0], result[1], so);
        }
        if (pid[w] < 0) {
            fprintf(stderr, PROGRAM ": fork: %s\n", strerror(errno));
            jobs = w;
            break;
        }
    }
    close(task[0]);
    close(result[1]);
    /* The queue may exceed the pipe's buffer: feed it as the workers drain it. */
    long sent = 0, got = 0;
    int rc = 0;
    budget_meter(so->label, "cells", (double)ntodo, true);
    while (got < ntodo) {
        struct pollfd pf[2] = {{result[0], POLLIN, 0}, {task[1], POLLOUT, 0}};
        int npf = sent < ntodo ? 2 : 1;
        if (poll(pf, (nfds_t)npf, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (npf == 2 && (pf[1].revents & POLLOUT)) {
            if (write_all(task[1], &todo[sent], sizeof(int)) == 0)
                sent++;
            if (sent == ntodo)
                close(task[1]);
        }
        if (pf[0].revents & (POLLIN | POLLHUP)) {
            cell_msg m;
            if (read_all(result[0], &m, sizeof m) != 0) {
                fprintf(stderr, PROGRAM ": a worker stopped before its cells were done\n");
                rc = 1;
                break;
            }
            char row[1024];
            int len = format_row(row, sizeof row, g, &m, source);
            if (write_all(fd, row, (size_t)len) != 0) {    /* one write of the whole row */
                fprintf(stderr, PROGRAM ": cannot append to %s: %s\n", so->results, strerror(errno));
                rc = 1;
                break;
            }
            got++;
            st->computed++;
            st->cell_seconds += m.cpu;
            if (m.status) {
                if (st->failed++ == 0)
                    snprintf(st->first_error, sizeof st->first_error, "cell x_b/L %.4g, f_b %.4g N: %s",
                             grid_x(g, m.index % g->nx), grid_f(g, m.index / g->nx), m.err);
            }
            budget_tick(1.0);
        }
    }
    if (sent < ntodo)
        close(task[1]);
    close(result[0]);
    for (long w = 0; w < jobs; w++) {
        if (rc)
            kill(pid[w], SIGTERM);
        waitpid(pid[w], NULL, 0);
        workers_forget(pid[w]);
    }
    budget_finish();
    free(pid);
    close(fd);
    free(todo);
    st->wall = wall_seconds() - t_start;
    return rc;
}

/* Whole rows of a results file (lines of 23 fields), read only: for the estimate. */
static long finished_rows(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long rows = 0, tabs = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        if (c == '\t')
            tabs++;
        if (c == '\n') {
            rows += tabs == (long)NCOLUMNS - 1;
            tabs = 0;
        }
    }
    fclose(f);
    return rows;
}

/* ---- reading the results back ------------------------------------------------------------ */

struct cell_row {
    int i, j;       /* grid indices */
    double x, f;    /* x_b/L, f_b in N */
    int kind;       /* regime_kind, -1 for a failed cell */
    int reason;     /* regime_reason, -1 when unknown */
};

/* Every row of a results file; returns how many (rows holds at most cap). */
static long load_rows(const char *path, cell_row *rows, long cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[2048];
    long n = 0;
    while (fgets(line, sizeof line, f) && n < cap) {
        if (strncmp(line, "i_x\t", 4) == 0)
            continue;
        char *field[32];
        int nf = 0;
        for (char *s = strtok(line, "\t\n"); s && nf < 32; s = strtok(NULL, "\t\n"))
            field[nf++] = s;
        cell_row c;
        if (nf < 5 || sscanf(field[0], "%d", &c.i) != 1 || sscanf(field[1], "%d", &c.j) != 1 ||
            sscanf(field[2], "%lf", &c.x) != 1 || sscanf(field[3], "%lf", &c.f) != 1)
            continue;
        c.kind = regime_from_name(field[4]);
        c.reason = nf > 23 ? regime_reason_from_name(field[23]) : -1;
        rows[n++] = c;
    }
    fclose(f);
    return n;
}

/* ---- Figure 9 and Figure 11: waveforms ---------------------------------------------------- */

static double *at_plot_rate(const schelleng_signal *s, size_t *n)
{
    char err[300];
    double *y = resample(s->bridge, s->n, s->fs, PLOT_RATE, n, err, sizeof err);
    if (!y) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        exit(1);
    }
    return y;
}

/* Ten strokes at gallery_x; writes gallery.tsv (t, the ten bridge forces) and returns the
 * number of failures (messages on stderr). */
static int gallery(const char *out, long jobs, table *tab)
{
    regime_opts ro = regime_defaults();
    double *wave[NGALLERY] = {0};
    size_t nw[NGALLERY] = {0};
    regime_result res[NGALLERY];
    int failed = 0;
    /* Two at a time over the workers: each child writes its waveform into a shared pipe. */
    for (int k0 = 0; k0 < NGALLERY; k0 += (int)jobs) {
        int fds[NGALLERY][2];
        pid_t pid[NGALLERY];
        int k1 = k0 + (int)jobs > NGALLERY ? NGALLERY : k0 + (int)jobs;
        fflush(NULL);
        for (int k = k0; k < k1; k++) {
            if (pipe(fds[k]) != 0)
                return NGALLERY;
            pid[k] = workers_fork();
            if (pid[k] == 0) {
                close(fds[k][0]);
                schelleng_signal s;
                regime_result r;
                char err[300];
                int st = schelleng_cell(&inst, &pp.stroke, pp.gallery_x, pp.gallery_f[k], &ro, &r, &s, NULL, err,
                                        sizeof err);
                size_t n = 0;
                double *w = st == 0 ? at_plot_rate(&s, &n) : NULL;
                if (st != 0)
                    fprintf(stderr, PROGRAM ": gallery f_b %g N: %s\n", pp.gallery_f[k], err);
                write_all(fds[k][1], &st, sizeof st);
                write_all(fds[k][1], &r, sizeof r);
                write_all(fds[k][1], &n, sizeof n);
                if (n)
                    write_all(fds[k][1], w, n * sizeof *w);
                _exit(0);
            }
            close(fds[k][1]);
        }
        for (int k = k0; k < k1; k++) {
            int st = -1;
            if (read_all(fds[k][0], &st, sizeof st) == 0 && st == 0 && read_all(fds[k][0], &res[k], sizeof res[k]) == 0 &&
                read_all(fds[k][0], &nw[k], sizeof nw[k]) == 0) {
                wave[k] = xcalloc(nw[k] + 1, sizeof(double));
                if (read_all(fds[k][0], wave[k], nw[k] * sizeof(double)) != 0)
                    nw[k] = 0;
            } else
                failed++;
            close(fds[k][0]);
            waitpid(pid[k], NULL, 0);
            workers_forget(pid[k]);
        }
    }
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, out, "gallery.tsv");
    fprintf(f, "t_s");
    for (int k = 0; k < NGALLERY; k++)
        fprintf(f, "\tf_b = %.2f N (%s)", pp.gallery_f[k], wave[k] ? regime_label(res[k].kind) : "failed");
    fprintf(f, "\n");
    size_t n = 0;
    for (int k = 0; k < NGALLERY; k++)
        n = nw[k] > n ? nw[k] : n;
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%.6f", (double)i / PLOT_RATE);
        for (int k = 0; k < NGALLERY; k++) {
            if (wave[k] && i < nw[k])
                fprintf(f, "\t%.5g", wave[k][i]);
            else
                fprintf(f, "\tNaN");
        }
        fprintf(f, "\n");
    }
    atomic_commit_or_exit(&af, PROGRAM);
    for (int k = 0; k < NGALLERY; k++) {
        if (wave[k]) {
            table_cell(tab, "gallery");
            table_cell(tab, "%.4g", pp.gallery_x);
            table_cell(tab, "%.3g", pp.gallery_f[k]);
            table_cell(tab, "%s", regime_name(res[k].kind));
            table_cell(tab, "%.3f", res[k].slips_per_period);
            table_cell(tab, "%.2f", res[k].f0_hz);
            table_cell(tab, "%.3f", res[k].mean_n);
            table_cell(tab, "%.3f", res[k].rms_n);
            table_cell(tab, "%.1f", res[k].centroid_hz);
        }
        free(wave[k]);
    }
    return failed;
}

/* Figure 11: one waveform per regime, simulated where the sweep found one (the cell nearest the
 * middle of that regime's cells in log coordinates), synthetic otherwise. examples.tsv holds
 * the regime, its source, the cell, and four periods of the bridge force. */
static int examples(const char *out, const char *results, bool stand_in, const grid *g)
{
    long cap = 100000;
    cell_row *rows = xcalloc((size_t)cap, sizeof *rows);
    long n = stand_in ? 0 : load_rows(results, rows, cap);
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, out, "examples.tsv");
    fprintf(f, "regime\tsource\tcell\tt_ms\tbridge_N\n");
    regime_opts ro = regime_defaults();
    double T0 = 1.0 / inst.f0;
    for (int k = 0; k < REGIME_COUNT; k++) {
        /* The member closest to the regime's log-centroid. */
        double cx = 0, cf = 0;
        long m = 0;
        for (long r = 0; r < n; r++)
            if (rows[r].kind == k)
                cx += log(rows[r].x), cf += log(rows[r].f), m++;
        long best = -1;
        double dbest = INFINITY;
        for (long r = 0; r < n && m; r++)
            if (rows[r].kind == k) {
                double d = hypot(log(rows[r].x) - cx / m, log(rows[r].f) - cf / m);
                if (d < dbest)
                    dbest = d, best = r;
            }
        double *F = NULL;
        size_t nF = 0, k0 = 0;
        double fs = PLOT_RATE, x = NAN, fb = NAN;
        const char *source = "synthetic";
        schelleng_signal s = {0};
        if (best >= 0) {
            regime_result r;
            char err[300];
            /* The cell's own stroke: the grid's values, not the TSV's rounded ones (the
             * bowed string depends sensitively on them). */
            x = rows[best].i < g->nx ? grid_x(g, rows[best].i) : rows[best].x;
            fb = rows[best].j < g->nf ? grid_f(g, rows[best].j) : rows[best].f;
            if (schelleng_cell(&inst, &pp.stroke, x, fb, &ro, &r, &s, NULL, err, sizeof err) == 0) {
                F = at_plot_rate(&s, &nF);
                double t0, t1;
                schelleng_window(&pp.stroke, &t0, &t1);
                k0 = (size_t)lround((t1 - 4 * T0) * fs);
                source = "simulated";
            }
            schelleng_signal_free(&s);
        }
        if (!F) {
            nF = (size_t)lround(4 * T0 * fs);
            F = xcalloc(nF, sizeof *F);
            double *v = xcalloc(nF, sizeof *v), beta = 0.1;
            regime_synthetic((regime_kind)k, v, F, nF, fs, T0, pp.stroke.v_hold, beta,
                             regime_helmholtz_pp(inst.T, pp.stroke.v_hold, beta, 2 * inst.L * inst.f0), 5);
            free(v);
            k0 = 0;
            x = fb = NAN;
        }
        char where[96] = "a kinematic sketch, not the model";
        if (isfinite(x))
            snprintf(where, sizeof where, "x_b/L = %.4g, f_b = %.3g N", x, fb);
        for (size_t i = k0; i < nF && i < k0 + (size_t)lround(4 * T0 * fs); i++)
            fprintf(f, "%s\t%s\t%s\t%.4f\t%.5g\n", regime_name((regime_kind)k), source, where,
                    1e3 * (double)(i - k0) / fs, F[i]);
        free(F);
    }
    free(rows);
    atomic_commit_or_exit(&af, PROGRAM);
    return 0;
}

/* ---- main ---------------------------------------------------------------------------------- */

static int unclassified_cells(const char *path, const grid *g, char *want, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot read it: %s; accepted: a results file of this grid", strerror(errno));
        return -1;
    }
    fclose(f);
    long cap = (long)g->nx * g->nf + 1;
    cell_row *rows = xcalloc((size_t)cap, sizeof *rows);
    long n = load_rows(path, rows, cap);
    int rc = 0;
    for (long r = 0; r < n && rc == 0; r++) {
        const cell_row *c = &rows[r];
        if (c->i < 0 || c->i >= g->nx || c->j < 0 || c->j >= g->nf || fabs(c->x / grid_x(g, c->i) - 1) > 1e-5 ||
            fabs(c->f / grid_f(g, c->j) - 1) > 1e-5) {
            snprintf(why, whylen, "cell (%d, %d) at x_b/L %g, f_b %g N is not on this grid; accepted: a results file of this grid",
                     c->i, c->j, c->x, c->f);
            rc = -1;
        } else if (c->kind == REGIME_UNCLASSIFIED)
            want[(size_t)c->j * (size_t)g->nx + (size_t)c->i] = 1;
    }
    free(rows);
    return rc;
}

/* The regime counts of a results file, then the unclassified cells by reason
 * ("unclassified:REASON"). */
static void summary_rows(table *tab, const char *what, const char *results)
{
    long cap = 200000, counts[REGIME_COUNT + 1] = {0}, reasons[REGIME_REASON_COUNT] = {0};
    cell_row *rows = xcalloc((size_t)cap, sizeof *rows);
    long n = load_rows(results, rows, cap);
    for (long r = 0; r < n; r++) {
        counts[rows[r].kind >= 0 ? rows[r].kind : REGIME_COUNT]++;
        if (rows[r].kind == REGIME_UNCLASSIFIED && rows[r].reason >= 0)
            reasons[rows[r].reason]++;
    }
    free(rows);
    for (int k = 0; k <= REGIME_COUNT; k++) {
        if (k == REGIME_COUNT && counts[k] == 0)
            continue;
        table_cell(tab, "%s", what);
        table_cell(tab, "%s", k < REGIME_COUNT ? regime_name((regime_kind)k) : "failed");
        table_cell(tab, "%ld", counts[k]);
        table_cell(tab, "%ld", n);
    }
    for (int k = 1; k < REGIME_REASON_COUNT; k++) {
        if (reasons[k] == 0)
            continue;
        char name[64];
        snprintf(name, sizeof name, "unclassified:%s", regime_reason_name((regime_reason)k));
        table_cell(tab, "%s", what);
        table_cell(tab, "%s", name);
        table_cell(tab, "%ld", reasons[k]);
        table_cell(tab, "%ld", counts[REGIME_UNCLASSIFIED]);
    }
}

/* Figure 10's three boundary lines read off the sweep (regime_edges): a table of the fitted
 * slopes against Schelleng's, and RESULTS-boundaries.tsv beside the results file (each
 * column's edges, then the fits as a second block) for the figure. 0, or 1 when the file
 * cannot be written. */
static int boundaries(const char *results, const grid *g, table *tab)
{
    char path[4200];
    size_t stem = strlen(results) > 4 && strcmp(results + strlen(results) - 4, ".tsv") == 0 ? strlen(results) - 4
                                                                                              : strlen(results);
    snprintf(path, sizeof path, "%.*s-boundaries.tsv", (int)stem, results);
    size_t nx = (size_t)g->nx, nf = (size_t)g->nf, cells = nx * nf;
    int *kind = xcalloc(cells, sizeof *kind);
    for (size_t c = 0; c < cells; c++)
        kind[c] = -1;
    cell_row *rows = xcalloc(cells + 1, sizeof *rows);
    long n = load_rows(results, rows, (long)cells);
    for (long r = 0; r < n; r++)
        if (rows[r].i >= 0 && rows[r].i < g->nx && rows[r].j >= 0 && rows[r].j < g->nf)
            kind[(size_t)rows[r].j * nx + (size_t)rows[r].i] = rows[r].kind;
    free(rows);
    double *x = xcalloc(nx, sizeof *x), *f = xcalloc(nf, sizeof *f), *edge[REGIME_EDGE_COUNT];
    for (size_t i = 0; i < nx; i++)
        x[i] = grid_x(g, (int)i);
    for (size_t j = 0; j < nf; j++)
        f[j] = grid_f(g, (int)j);
    regime_fit fit[REGIME_EDGE_COUNT];
    static const double schelleng_slope[REGIME_EDGE_COUNT] = {-1, -2, NAN};
    for (int e = 0; e < REGIME_EDGE_COUNT; e++) {
        edge[e] = xcalloc(nx, sizeof(double));
        regime_edges(kind, x, nx, f, nf, (regime_edge)e, edge[e], &fit[e]);
        table_cell(tab, "%s", regime_edge_name((regime_edge)e));
        table_cell(tab, "%zu", fit[e].points);
        table_cell(tab, "%.3f", fit[e].slope);
        table_cell(tab, "%.3f", fit[e].slope_se);
        table_cell(tab, "%.4g", pow(10, fit[e].intercept));
        if (isnan(schelleng_slope[e]))
            table_cell(tab, "none");
        else
            table_cell(tab, "%.0f", schelleng_slope[e]);
    }
    atomic_file af;
    FILE *o = atomic_open(&af, path);
    int rc = 0;
    if (!o)
        rc = 1;
    else {
        fprintf(o, "x_b_over_L\thelmholtz_max_N\thelmholtz_min_N\tdouble_multiple_N\n");
        for (size_t i = 0; i < nx; i++)
            fprintf(o, "%.6g\t%.6g\t%.6g\t%.6g\n", x[i], edge[0][i], edge[1][i], edge[2][i]);
        fprintf(o, "\n\nboundary\tpoints\tslope\tslope_se\tf_at_1_N\tschelleng_slope\n");
        for (int e = 0; e < REGIME_EDGE_COUNT; e++)
            fprintf(o, "%s\t%zu\t%.6g\t%.6g\t%.6g\t%g\n", regime_edge_name((regime_edge)e), fit[e].points, fit[e].slope,
                    fit[e].slope_se, pow(10, fit[e].intercept), schelleng_slope[e]);
        rc = atomic_commit(&af) != 0;
    }
    if (rc)
        fprintf(stderr, PROGRAM ": cannot write %s: %s\n", path, strerror(errno));
    for (int e = 0; e < REGIME_EDGE_COUNT; e++)
        free(edge[e]);
    free(x);
    free(f);
    free(kind);
    return rc;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Classify one cell of the diagram: Helmholtz motion or not?\n"
    "     check: bin/schelleng --cell 0.075,2.15\n";

int main(int argc, char **argv)
{
    workers_guard();        /* before any work: workers end with this program */
    bow_param_table(&inst, inst_spec);
    char err[600];
    if (params_load(inst_spec, params_path("cello-g.ini"), false, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    plane_table();
    if (params_load(plane_spec, params_path("schelleng.ini"), false, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    long nx = lround(pp.nx), nf = lround(pp.nf), jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1)
        jobs = 1;
    bool full = false, stand_in = false;
    const char *what = "default", *results = NULL, *keep = NULL, *redo = NULL;
    shard sh = {1, 1};
    point cell = {0, 0, false};
    cli_common common = {false, "build/data/schelleng"};
    budget bg;
    budget_init(&bg, PROGRAM, "steps", 2e8, "--nx, --nf (cells; --full: 40 x 40), --t_hold, --v_hold / --accel (steps of dt a cell)");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        {"x_min", CLI_DOUBLE, &pp.x_min, "", "smallest x_b/L (log-spaced grid)", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, NULL, NULL, NULL},
        {"x_max", CLI_DOUBLE, &pp.x_max, "", "largest x_b/L", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, NULL, NULL, NULL},
        {"f_min", CLI_DOUBLE, &pp.f_min, "N", "smallest bowing force (log-spaced grid)", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"f_max", CLI_DOUBLE, &pp.f_max, "N", "largest bowing force", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"nx", CLI_LONG, &nx, "", "bowing positions", 1, 400, 0, NULL, NULL, NULL},
        {"nf", CLI_LONG, &nf, "", "bowing forces", 1, 400, 0, NULL, NULL, NULL},
        {"full", CLI_FLAG, &full, "", "the article's full grid, n_full x n_full of schelleng.ini (40 x 40); sweep only", 0, 0, 0, NULL, NULL, NULL},
        {"jobs", CLI_LONG, &jobs, "", "worker processes (default: the online cores)", 1, 256, 0, NULL, NULL, NULL},
        {"shard", CLI_CUSTOM, &sh, "", "run only the K-th of N interleaved parts (cells c with c mod N = K - 1)", 0, 0, 0, NULL, parse_shard, "K/N with integers 1 <= K <= N"},
        {"results", CLI_STRING, &results, "", "results TSV, appended as cells finish (default OUT/results[-PARAMS][-full][-K-of-N].tsv; the boundaries beside it, RESULTS-boundaries.tsv)", 0, 0, 0, NULL, NULL, NULL},
        {"keep", CLI_STRING, &keep, "", "keep each cell's analysis window in this folder; a later run with the same folder classifies the kept windows instead of simulating (e.g. into another --results)", 0, 0, 0, NULL, NULL, NULL},
        {"redo_unclassified", CLI_STRING, &redo, "", "run only the cells that this results file (of the same grid) has as unclassified, e.g. with a longer --t_hold into another --results", 0, 0, 0, NULL, NULL, NULL},
        {"what", CLI_CHOICE, &what, "", "default: sweep, Figure 13 sweep, Figure 9 gallery, Figure 11 examples; or one of them", 0, 0, 0, "default|sweep|fig13|gallery|examples", NULL, NULL},
        {"cell", CLI_CUSTOM, &cell, "", "classify one stroke at x_b/L,f_b and print it (no files)", 0, 0, 0, NULL, parse_point, "X,F with X = x_b/L in (0, 1) and F in (0, 100] N"},
        {"accel", CLI_DOUBLE, &pp.stroke.accel, "m/s^2", "bow acceleration from rest", 0, 1000, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"v_hold", CLI_DOUBLE, &pp.stroke.v_hold, "m/s", "steady bow velocity", 0, 10, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"t_hold", CLI_DOUBLE, &pp.stroke.t_hold, "s", "length of the hold", 0, 60, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"settle", CLI_DOUBLE, &pp.stroke.settle, "s", "the analysis window starts this long into the hold", 0, 60, 0, NULL, NULL, NULL},
        {"set", CLI_CUSTOM, NULL, "", "override one instrument value, KEY=VALUE (keys of cello-g.ini)", 0, 0, CLI_REPEAT, NULL, parse_set, "KEY=VALUE with a key of cello-g.ini and a value in its range"},
        {"params", CLI_CUSTOM, NULL, "", "read instrument values from another .ini over cello-g.ini (e.g. schelleng-fig13.ini)", 0, 0, 0, NULL, parse_params_file, "an .ini file with keys of cello-g.ini (" PARAMS_NAME_RULE ")"},
        {"stand_in", CLI_FLAG, &stand_in, "", "TESTING ONLY: a synthetic stand-in instead of the model (rows marked stand-in)", 0, 0, 0, NULL, NULL, NULL},
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {PROGRAM, "Schelleng diagrams: classify the steady oscillation of bowed strokes over x_b/L and f_b, in parallel.",
                           NULL, 0, opts, exercises};
    cli_parse(&spec, argc, argv);
    if (pp.x_min > pp.x_max)
        cli_fail(PROGRAM, "--x_min %g is above --x_max %g; accepted: x_min <= x_max", pp.x_min, pp.x_max);
    if (pp.f_min > pp.f_max)
        cli_fail(PROGRAM, "--f_min %g is above --f_max %g; accepted: f_min <= f_max", pp.f_min, pp.f_max);
    if (pp.stroke.settle >= pp.stroke.t_hold - 2.0 / inst.f0)
        cli_fail(PROGRAM, "--settle %g leaves under two periods of the %g s hold; accepted: settle < t_hold - 2/f0",
                 pp.stroke.settle, pp.stroke.t_hold);
    if (full) {
        nx = nf = lround(pp.n_full);
        if (strcmp(what, "default") == 0)
            what = "sweep";
    }
    /* a log-spaced grid needs two distinct ends: with one end, --nx/--nf cells would walk off it */
    if (nx > 1 && pp.x_min == pp.x_max)
        cli_fail(PROGRAM, "--x_min %g equals --x_max with --nx %ld, a grid leaving [x_min, x_max]; accepted: "
                 "x_min < x_max, or --nx 1", pp.x_min, nx);
    if (nf > 1 && pp.f_min == pp.f_max)
        cli_fail(PROGRAM, "--f_min %g equals --f_max with --nf %ld, a grid leaving [f_min, f_max]; accepted: "
                 "f_min < f_max, or --nf 1", pp.f_min, nf);
    if (sh.n > 1 && strcmp(what, "default") == 0)
        what = "sweep";
    if (pp.gallery_x * inst.L <= 0.5 * inst.W_b || pp.x_min * inst.L <= 0.5 * inst.W_b)
        cli_fail(PROGRAM, "x_b/L %g puts the bow hair (width %g m) over the bridge; accepted: x_b > W_b / 2",
                 fmin(pp.gallery_x, pp.x_min), inst.W_b);

    bool all = strcmp(what, "default") == 0;
    grid g = {(int)nx, (int)nf, pp.x_min, pp.x_max, pp.f_min, pp.f_max,
              nx > 1 ? pow(pp.x_max / pp.x_min, 1.0 / (double)(nx - 1)) : 1.0,
              nf > 1 ? pow(pp.f_max / pp.f_min, 1.0 / (double)(nf - 1)) : 1.0};
    if (g.rx == 1.0)
        g.rx = 1.1;
    if (g.rf == 1.0)
        g.rf = 1.1;
    /* Default results names: results[-PARAMS][-K-of-N].tsv in OUT. */
    char base[256] = "results", path_main[4096], path_fig13[4096];
    if (params_name) {
        const char *b = strrchr(params_name, '/');
        b = b ? b + 1 : params_name;
        snprintf(base, sizeof base, "results-%.*s", (int)(strcspn(b, ".")), b);
    }
    if (full)
        strcat(base, "-full");
    if (stand_in)
        strcat(base, "-stand-in");
    if (sh.n > 1)
        snprintf(base + strlen(base), sizeof base - strlen(base), "-%ld-of-%ld", sh.k, sh.n);
    snprintf(path_main, sizeof path_main, "%s/%s.tsv", common.out, base);
    snprintf(path_fig13, sizeof path_fig13, "%s/results-fig13%s.tsv", common.out, stand_in ? "-stand-in" : "");
    if (results)
        snprintf(path_main, sizeof path_main, "%s", results);

    /* The estimate: steps of dt of every cell this run simulates, less the rows its results files
     * already hold (a stand-in cell, synthesised and classified at the same rate, counts as one). */
    {
        double t_cell = pp.stroke.v_hold / pp.stroke.accel + pp.stroke.t_hold, steps_cell = t_cell / inst.dt;
        double shard_cells = ceil((double)nx * (double)nf / (double)sh.n);
        double swept = 0;
        if (!cell.set && (all || strcmp(what, "sweep") == 0))
            swept += fmax(0.0, shard_cells - (double)finished_rows(path_main));
        if (!cell.set && (all || strcmp(what, "fig13") == 0))
            swept += fmax(0.0, shard_cells - (double)finished_rows(results && !all ? results : path_fig13));
        double waves = cell.set ? 0 : ((all && !stand_in) || strcmp(what, "gallery") == 0 ? NGALLERY : 0) +
                                      ((all || strcmp(what, "examples") == 0) && !stand_in ? REGIME_COUNT : 0);
        double simulated = (cell.set ? 1 : 0) + swept + waves;
        bg.work = simulated * steps_cell;
        bg.bytes_out = 260.0 * swept + (waves ? t_cell * PLOT_RATE * 12.0 * (NGALLERY + 1) : 0);
        bg.bytes_mem = (double)(jobs < NGALLERY ? jobs : NGALLERY) * steps_cell * 8.0 * 4.0 +
                       (waves ? NGALLERY * t_cell * PLOT_RATE * 8.0 : 0);
        budget_check(&bg);
    }

    table tab;
    if (cell.set) {
        regime_opts ro = regime_defaults();
        regime_result r;
        double t0 = wall_seconds();
        int st = stand_in ? schelleng_standin_cell(&inst, &pp.stroke, cell.x, cell.f, &ro, &r)
                          : schelleng_cell(&inst, &pp.stroke, cell.x, cell.f, &ro, &r, NULL, NULL, err, sizeof err);
        if (st != 0) {
            fprintf(stderr, PROGRAM ": %s\n", err);
            return 1;
        }
        double t1, w0, w1;
        schelleng_window(&pp.stroke, &w0, &w1);
        t1 = wall_seconds() - t0;
        if (!common.tsv)
            printf("%sstroke at x_b/L = %g, f_b = %g N: %g m/s^2 to %g m/s, analysed %.3f-%.3f s (%.2f s wall)\n"
                   "%s: %s\n\n", stand_in ? "STAND-IN (synthetic, not the model): " : "", cell.x, cell.f,
                   pp.stroke.accel, pp.stroke.v_hold, w0, w1, t1, regime_label(r.kind), r.why);
        table_begin(&tab, stdout, common.tsv, "x_b_over_L", "f_b_N", "regime", "slips_per_period", "flybacks_per_period",
                    "f0_hz", "period_ratio", "regularity", "amplitude_ratio", "mean_N", "rms_N", "centroid_hz",
                    "secondary_ratio", "reason", NULL);
        table_cell(&tab, "%.4g", cell.x);
        table_cell(&tab, "%.4g", cell.f);
        table_cell(&tab, "%s", regime_name(r.kind));
        table_cell(&tab, "%.3f", r.slips_per_period);
        table_cell(&tab, "%.3f", r.flybacks_per_period);
        table_cell(&tab, "%.3f", r.f0_hz);
        table_cell(&tab, "%.4f", r.period_ratio);
        table_cell(&tab, "%.4f", r.regularity);
        table_cell(&tab, "%.3f", r.amplitude_ratio);
        table_cell(&tab, "%.4f", r.mean_n);
        table_cell(&tab, "%.4f", r.rms_n);
        table_cell(&tab, "%.1f", r.centroid_hz);
        table_cell(&tab, "%.3f", r.secondary_ratio);
        table_cell(&tab, "%s", regime_reason_name(r.reason));
        return 0;
    }

    /* Every results file is opened, checked and locked before anything is printed or computed. */
    bool do_sweep = all || strcmp(what, "sweep") == 0, do_fig13 = all || strcmp(what, "fig13") == 0;
    bow_instrument inst_main = inst, inst_fig13 = inst;
    if (do_fig13) {
        if (params_load(inst_spec, params_path("schelleng-fig13.ini"), true, err, sizeof err) != 0) {
            fprintf(stderr, PROGRAM ": %s\n", err);
            return 1;
        }
        inst_fig13 = inst;
        inst = inst_main;
    }
    sweep_opts so_main = {g, sh, jobs, stand_in, path_main, "sweep", keep, redo};
    sweep_opts so_fig13 = {g, sh, jobs, stand_in, results && !all ? results : path_fig13, "fig13", keep, redo};
    sweep_prep prep_main, prep_fig13;
    if (do_sweep) {
        int rc = sweep_prepare(&so_main, &prep_main);
        if (rc != 0)
            return rc;
    }
    if (do_fig13) {
        inst = inst_fig13;
        int rc = sweep_prepare(&so_fig13, &prep_fig13);
        inst = inst_main;
        if (rc != 0)
            return rc;
    }

    if (!common.tsv)
        printf("%sSchelleng plane: x_b/L %g-%g (%d), f_b %g-%g N (%d), log-spaced; stroke %g m/s^2 to %g m/s, "
               "hold %g s, analysed from %g s into the hold; %ld workers%s\n\n",
               stand_in ? "STAND-IN CELLS (synthetic, for testing the machinery; not results): " : "", g.x_min,
               g.x_max, g.nx, g.f_min, g.f_max, g.nf, pp.stroke.accel, pp.stroke.v_hold, pp.stroke.t_hold,
               pp.stroke.settle, jobs, sh.n > 1 ? "" : "");
    table_begin(&tab, stdout, common.tsv, "what", "regime", "cells", "of", NULL);
    int status = 0;
    sweep_stats st;
    double sweep_wall = 0, sweep_cpu = 0;
    long sweep_computed = 0, sweep_cells = 0, sweep_skipped = 0;
    if (do_sweep) {
        int rc = sweep(&so_main, &prep_main, &st);
        if (rc != 0)
            return rc;
        sweep_wall += st.wall, sweep_cpu += st.cell_seconds, sweep_computed += st.computed;
        sweep_cells += st.cells, sweep_skipped += st.skipped;
        summary_rows(&tab, params_name ? params_name : "sweep", path_main);
        if (st.failed) {
            fprintf(stderr, PROGRAM ": %ld cells failed; first: %s\n", st.failed, st.first_error);
            status = 1;
        }
    }
    if (do_fig13) {
        inst = inst_fig13;
        int rc = sweep(&so_fig13, &prep_fig13, &st);
        inst = inst_main;
        if (rc != 0)
            return rc;
        sweep_wall += st.wall, sweep_cpu += st.cell_seconds, sweep_computed += st.computed;
        sweep_cells += st.cells, sweep_skipped += st.skipped;
        summary_rows(&tab, "fig13", so_fig13.results);
        if (st.failed) {
            fprintf(stderr, PROGRAM ": Figure 13 sweep: %ld cells failed; first: %s\n", st.failed, st.first_error);
            status = 1;
        }
    }
    if ((all || strcmp(what, "sweep") == 0) && g.nx >= 2 && g.nf >= 2 && !redo) {   /* a redo is not the whole plane */
        table btab;
        if (!common.tsv)
            printf("\nFigure 10's boundaries read off the sweep, log10 f_b = a + slope log10(x_b/L):\n");
        table_begin(&btab, stdout, common.tsv, "boundary", "columns", "slope", "slope_se", "f_b_at_1_N",
                    "schelleng_slope", NULL);
        if (boundaries(path_main, &g, &btab) != 0)
            status = 1;
    }
    table gtab;
    if ((all && !stand_in) || strcmp(what, "gallery") == 0) {
        if (!common.tsv)
            printf("\nFigure 9 gallery at x_b/L = %g:\n", pp.gallery_x);
        table_begin(&gtab, stdout, common.tsv, "what", "x_b_over_L", "f_b_N", "regime", "slips_per_period", "f0_hz",
                    "mean_N", "rms_N", "centroid_hz", NULL);
        if (gallery(common.out, jobs, &gtab) != 0)
            status = 1;
    }
    if (all || strcmp(what, "examples") == 0)
        if (examples(common.out, path_main, stand_in, &g) != 0)
            status = 1;
    if (!common.tsv && sweep_cells > 0)
        printf("\nsweep: %ld cells (%ld already in the results, %ld computed) in %.1f s wall on %ld workers, "
               "%.2f s CPU per cell\n",
               sweep_cells, sweep_skipped, sweep_computed, sweep_wall, jobs,
               sweep_computed ? sweep_cpu / sweep_computed : 0.0);
    if (plot_render(&plot, PROGRAM, common.out, common.tsv) != 0)
        status = 1;
    return status;
}
