/* plot.c: --plot and --show, the same gnuplot run `make render-plots` does, for one program. */
#define _GNU_SOURCE
#include "io/plot.h"
#include "io/atomic.h"
#include "io/numfmt.h"
#include "base/util.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FIGURES 32

/* The checkout's root (the folder holding plots/common.gp) into root; 0 on success. */
static int checkout_root(char *root, size_t n)
{
    const char *common = repo_file("plots/common.gp");
    char real[PATH_MAX];
    if (access(common, R_OK) != 0 || !realpath(common, real))
        return -1;
    char *cut = strstr(real, "/plots/common.gp");
    if (!cut)
        return -1;
    *cut = '\0';
    snprintf(root, n, "%s", real);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The figure scripts in root/plots (common.gp aside), their names without .gp, sorted. */
static int list_scripts(const char *root, char names[][64], int max)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/plots", root);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len < 4 || len > 60 || strcmp(e->d_name + len - 3, ".gp") != 0 || strcmp(e->d_name, "common.gp") == 0)
            continue;
        snprintf(names[n], 64, "%.*s", (int)(len - 3), e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, 64, by_name);
    return n;
}

/* The program whose data a line of a script reads: datadir("NAME") or, in scripts written
 * before datadir(), data."/NAME/. 1 with the name in prog, else 0. */
static int reads_program(const char *line, char *prog, size_t n)
{
    const char *q, *end = NULL;
    if (line[0] == '#')
        return 0;
    if ((q = strstr(line, "datadir(\""))) {
        q += strlen("datadir(\"");
        end = strchr(q, '"');
    } else if ((q = strstr(line, "data.\"/"))) {
        q += strlen("data.\"/");
        end = strchr(q, '/');
    }
    if (!q || !end || end == q || (size_t)(end - q) >= n ||
        strspn(q, "abcdefghijklmnopqrstuvwxyz0123456789_-") < (size_t)(end - q))
        return 0;
    snprintf(prog, n, "%.*s", (int)(end - q), q);
    return 1;
}

/* Every program that one of the scripts reads (into progs), or the scripts that read program
 * (into progs, when program is not NULL). */
static int walk(const char *root, const char *program, char progs[][64], int max)
{
    char files[128][64];
    int nf = list_scripts(root, files, 128), n = 0;
    for (int i = 0; i < nf && n < max; i++) {
        char path[PATH_MAX + 128], line[1024], prog[64];
        snprintf(path, sizeof path, "%s/plots/%s.gp", root, files[i]);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        bool mine = false;
        while (!mine && fgets(line, sizeof line, f)) {
            if (!reads_program(line, prog, sizeof prog))
                continue;
            if (program) {
                mine = strcmp(prog, program) == 0;
                continue;
            }
            bool seen = false;
            for (int k = 0; k < n; k++)
                seen = seen || strcmp(progs[k], prog) == 0;
            if (!seen && n < max)
                memcpy(progs[n++], prog, sizeof prog);
        }
        fclose(f);
        if (mine)
            memcpy(progs[n++], files[i], 64);
    }
    if (nf < 0)
        return -1;
    if (!program)
        qsort(progs, (size_t)n, 64, by_name);
    return n;
}

int plot_scripts(const char *program, char names[][64], int max)
{
    char root[PATH_MAX];
    if (checkout_root(root, sizeof root) != 0)
        return -1;
    return walk(root, program, names, max);
}

int plot_programs(char names[][64], int max)
{
    char root[PATH_MAX];
    if (checkout_root(root, sizeof root) != 0)
        return -1;
    return walk(root, NULL, names, max);
}

/* s as a gnuplot single-quoted string body ('' for '). */
static char *gp_quote(const char *s)
{
    char *q = xcalloc(2 * strlen(s) + 1, 1), *o = q;
    for (; *s; s++) {
        *o++ = *s;
        if (*s == '\'')
            *o++ = '\'';
    }
    return q;
}

typedef struct job {
    char name[64];
    const char *fmt;        /* "png", "svg" or "window" */
    atomic_file out;        /* the figure under its temporary name */
    FILE *err;              /* gnuplot's stderr */
    pid_t pid;
    int status;
} job;

/* gnuplot on plots/NAME.gp for job j, in the background; wterm: the window terminal (qt, wxt, x11)
 * for a window, NULL for a file. */
static pid_t start(job *j, const char *root, const char *data, const char *linkroot, const char *wterm)
{
    bool window = wterm != NULL;
    char *qd = gp_quote(data), *qo = gp_quote(window ? "" : j->out.tmp), *ql = gp_quote(linkroot);
    char *vars = xasprintf("fmt='%s'; name='%s'; dir='%s'; data='%s'; outfile='%s'; wterm='%s'", j->fmt, j->name, qd,
                           ql, qo, window ? wterm : "");
    free(ql);
    char *script = xasprintf("plots/%s.gp", j->name);
    free(qd);
    free(qo);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(root) != 0)
            _exit(126);
        if (j->err)
            dup2(fileno(j->err), 2);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
        }
        if (window)
            execlp("gnuplot", "gnuplot", "-persist", "-e", vars, script, (char *)NULL);
        else
            execlp("gnuplot", "gnuplot", "-e", vars, script, (char *)NULL);
        _exit(127);
    }
    free(vars);
    free(script);
    return pid;
}

/* The first line gnuplot wrote on stderr that is not a warning, into buf. */
static void first_error(FILE *err, char *buf, size_t n)
{
    snprintf(buf, n, "gnuplot failed");
    if (!err)
        return;
    rewind(err);
    char line[512];
    bool found = false;
    while (fgets(line, sizeof line, err)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || strstr(line, "arning"))
            continue;
        if (!found || strstr(line, "line ")) {
            snprintf(buf, n, "%s", line);
            found = true;
        }
    }
}

/* The data file gnuplot could not open (a figure whose data this run did not write), into buf;
 * 0 if that was not the failure. */
static int missing_data(FILE *err, char *buf, size_t n)
{
    if (!err)
        return 0;
    rewind(err);
    char line[1024];
    while (fgets(line, sizeof line, err)) {
        char *q = strstr(line, "Cannot find or open file \"");
        if (q) {
            q += strlen("Cannot find or open file \"");
            snprintf(buf, n, "%.*s", (int)strcspn(q, "\""), q);
            return 1;
        }
    }
    return 0;
}

/* Whether the terminal list of `print GPVAL_TERMINALS` (blank-separated) names term. */
static bool has_terminal(const char *list, const char *term)
{
    size_t n = strlen(term);
    for (const char *q = list; (q = strstr(q, term)) != NULL; q += n)
        if ((q == list || q[-1] == ' ' || q[-1] == '\n') && (q[n] == ' ' || q[n] == '\n' || q[n] == '\0'))
            return true;
    return false;
}

#define WINDOW_PACKAGES "install gnuplot-qt or gnuplot-x11 (on Debian 12 either replaces gnuplot-nox, the three " \
                        "conflict; PNG and SVG keep working)"

/* The window terminal gnuplot offers here (qt, then wxt, then x11 when DISPLAY is set) into term,
 * and NULL; or why no window can open, in words. */
static const char *window_terminal(char *term, size_t n)
{
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    bool x = d && d[0], wl = w && w[0];
    if (!x && !wl)
        return "no display (neither DISPLAY nor WAYLAND_DISPLAY is set: a console, or ssh without -X)";
    FILE *p = popen("gnuplot -e 'print GPVAL_TERMINALS' 2>&1", "r");
    char buf[4096] = "";
    if (p) {
        size_t k = fread(buf, 1, sizeof buf - 1, p);
        buf[k] = '\0';
        pclose(p);
    }
    const char *pick = has_terminal(buf, "qt") ? "qt" : has_terminal(buf, "wxt") ? "wxt"
                       : has_terminal(buf, "x11") && x ? "x11" : NULL;
    if (!pick && has_terminal(buf, "x11"))
        return "this gnuplot's only window terminal is x11 and DISPLAY is not set (Wayland alone: " WINDOW_PACKAGES ")";
    if (!pick)
        return "this gnuplot has no window terminal (qt, wxt or x11; Debian's gnuplot-nox has none): " WINDOW_PACKAGES;
    snprintf(term, n, "%s", pick);
    return NULL;
}

static int render(const plot_opts *p, const char *program, const char *root, const char *data, const char *figs,
                  const char *cwd, const char *linkroot, char names[][64], int n, bool tsv);

/* The view of the data a run's figures read (see make_view) and the folder it stands for. */
static char view_path[PATH_MAX + 128], view_data[PATH_MAX];

/* path for the user: a file of the view as the data folder's, relative to the working directory
 * when below it. */
static const char *shown(const char *path, const char *cwd)
{
    static char buf[2 * PATH_MAX + 256];
    size_t v = strlen(view_path);
    if (v && strncmp(path, view_path, v) == 0 && (path[v] == '/' || path[v] == '\0')) {
        snprintf(buf, sizeof buf, "%s%s", view_data, path + v);
        path = buf;
    }
    size_t n = strlen(cwd);
    if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

/* view: a link to the data folder when it has no manifest (-1), else a folder of links to the
 * files its manifest lists that exist (how many); -2 with errno when it cannot be made. */
static int make_view(const char *data, const char *view)
{
    static char names[4096][256];
    int n = manifest_read(data, names, 4096);
    if (n < 0)
        return symlink(data, view) == 0 ? -1 : -2;
    if (mkdir(view, 0700) != 0)
        return -2;
    int made = 0;
    for (int i = 0; i < n; i++) {
        char from[PATH_MAX + 260], to[PATH_MAX + 400];
        snprintf(from, sizeof from, "%.4000s/%.255s", data, names[i]);
        snprintf(to, sizeof to, "%.4000s/%.255s", view, names[i]);
        if (access(from, F_OK) == 0 && symlink(from, to) == 0)
            made++;
    }
    return made;
}

/* Remove what make_view made. */
static void drop_view(const char *view, int nlisted)
{
    if (nlisted < 0) {
        unlink(view);
        return;
    }
    DIR *d = opendir(view);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%.4000s/%.255s", view, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(view);
}

int plot_render(const plot_opts *p, const char *program, const char *dir, bool tsv)
{
    if (!p->plot && !p->show)
        return 0;
    char root[PATH_MAX], data[PATH_MAX], figs[PATH_MAX], cwd[PATH_MAX] = "";
    if (checkout_root(root, sizeof root) != 0) {
        fprintf(stderr, "%s: --plot: cannot find the figure scripts (plots/common.gp) of the checkout\n", program);
        return 1;
    }
    if (!realpath(dir, data)) {
        fprintf(stderr, "%s: --plot: data folder %s: %s\n", program, dir, strerror(errno));
        return 1;
    }
    char deffigs[PATH_MAX + 16];
    snprintf(deffigs, sizeof deffigs, "%s/plots/out", root);
    const char *want = p->figures ? p->figures : deffigs;
    if (mkdir_p(want) != 0 || !realpath(want, figs)) {
        fprintf(stderr, "%s: --figures %s: %s\n", program, want, strerror(errno));
        return 1;
    }
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    char names[MAX_FIGURES][64];
    int n = walk(root, program, names, MAX_FIGURES);
    if (n <= 0) {
        fprintf(stderr, "%s: --plot: no figure script in %s/plots reads datadir(\"%s\")\n", program, root, program);
        return 1;
    }
    /* data/PROGRAM is this run's folder for scripts that read data."/PROGRAM/" rather than
     * datadir(), in a private temporary folder removed at the end: the data folder itself, or,
     * when it has a manifest, a folder of links to the files it lists (the last run's) alone. */
    const char *tmpdir = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    char linkroot[PATH_MAX], view[PATH_MAX + 128];
    snprintf(linkroot, sizeof linkroot, "%s/ivplab-plot-XXXXXX", tmpdir);
    if (!mkdtemp(linkroot)) {
        fprintf(stderr, "%s: --plot: cannot make a temporary folder in %s: %s\n", program, tmpdir, strerror(errno));
        return 1;
    }
    snprintf(view, sizeof view, "%s/%s", linkroot, program);
    snprintf(view_path, sizeof view_path, "%s", view);
    snprintf(view_data, sizeof view_data, "%s", data);
    manifest_write();
    int nlisted = make_view(data, view);
    if (nlisted == -2) {
        fprintf(stderr, "%s: --plot: cannot link %s: %s\n", program, view, strerror(errno));
        rmdir(linkroot);
        return 1;
    }
    int rc = render(p, program, root, nlisted >= 0 ? view : data, figs, cwd, linkroot, names, n, tsv);
    drop_view(view, nlisted);
    view_path[0] = '\0';
    rmdir(linkroot);
    return rc;
}

/* Reserve every figure's file (PNG and SVG of each script) under its temporary name; 0, or 1
 * after saying which could not be. */
static int reserve(job *jobs, int njobs, const char *program, const char *figs, char names[][64])
{
    for (int k = 0; k < njobs; k++) {
        job *j = &jobs[k];
        memcpy(j->name, names[k / 2], sizeof j->name);
        j->fmt = k % 2 ? "svg" : "png";
        char final[PATH_MAX + 80];
        snprintf(final, sizeof final, "%s/%s.%s", figs, j->name, j->fmt);
        if (!atomic_reserve(&j->out, final)) {
            fprintf(stderr, "%s: cannot write %s: %s\n", program, final, strerror(errno));
            for (int i = 0; i < k; i++)
                atomic_abort(&jobs[i].out);
            return 1;
        }
        j->err = tmpfile();
    }
    return 0;
}

/* Run every job's gnuplot, as many at a time as there are cores (at most 8). */
static void run_all(job *jobs, int njobs, const char *root, const char *data, const char *linkroot)
{
    int running = 0, next = 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int width = cores < 1 ? 1 : cores > 8 ? 8 : (int)cores;
    while (next < njobs || running > 0) {
        while (next < njobs && running < width) {
            jobs[next].pid = start(&jobs[next], root, data, linkroot, NULL);
            if (jobs[next].pid < 0)
                jobs[next].status = -1;
            else
                running++;
            next++;
        }
        int st;
        pid_t done = wait(&st);
        if (done < 0)
            break;
        for (int k = 0; k < next; k++)
            if (jobs[k].pid == done) {
                jobs[k].status = st;
                running--;
            }
    }
}

/* gnuplot exits 0 when it could not write its output (a full disk, the file-size limit): a
 * figure is whole when its file ends as its format ends (PNG: the IEND chunk; SVG: "</svg>"). */
static bool figure_whole(const job *j)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char tail[16];
    FILE *f = fopen(j->out.tmp, "rb");
    if (!f)
        return false;
    size_t n = 0;
    if (fseek(f, -(long)sizeof tail, SEEK_END) == 0)
        n = fread(tail, 1, sizeof tail, f);
    fclose(f);
    if (n != sizeof tail)
        return false;
    if (strcmp(j->fmt, "png") == 0)
        return memcmp(tail + 4, iend, sizeof iend) == 0;
    return memmem(tail, sizeof tail, "</svg>", 6) != NULL;
}

/* Commit each drawn figure and print its path; a figure without data is skipped with a note, a
 * failed one named with gnuplot's reason. 1 if any failed; *skipped counts the skipped files. */
static int commit_all(job *jobs, int njobs, const char *program, const char *cwd, bool tsv, int *skipped)
{
    int failed = 0;
    char miss[PATH_MAX];
    for (int k = 0; k < njobs; k++) {
        job *j = &jobs[k];
        bool ok = j->status == 0 && j->pid > 0;
        if (ok && !figure_whole(j)) {
            if (!failed)    /* one line: the first figure cut short */
                fprintf(stderr, "%s: cannot write %s: gnuplot wrote it cut short (disk full or file-size limit)\n",
                        program, j->out.path);
            atomic_abort(&j->out);
            failed = 1;
        } else if (ok && atomic_commit(&j->out) != 0) {
            fprintf(stderr, "%s: cannot write %s: %s\n", program, j->out.path, strerror(errno));
            failed = 1;
        } else if (!ok && j->pid > 0 && missing_data(j->err, miss, sizeof miss)) {
            /* not this run's figure (e.g. bin/bow --quick writes no Figure 4 data): say so, go on */
            if (k % 2 == 0)
                fprintf(stderr, "%s: figure %s skipped: %s is not from this run (it did not write it)\n", program, j->name,
                        shown(miss, cwd));
            atomic_abort(&j->out);
            j->status = -2;
            (*skipped)++;
        } else if (!ok) {
            char why[512];
            if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 127)
                snprintf(why, sizeof why, "gnuplot not found (Debian package gnuplot-nox; make deps installs it)");
            else
                first_error(j->err, why, sizeof why);
            if (!failed || k % 2 == 0)
                fprintf(stderr, "%s: figure %s (%s): %s\n", program, j->name, j->fmt, why);
            atomic_abort(&j->out);
            failed = 1;
        } else {
            fprintf(tsv ? stderr : stdout, "figure: %s\n", shown(j->out.path, cwd));
        }
    }
    return failed;
}

/* --show: one window a drawn figure (gnuplot -persist keeps it open after gnuplot exits), each
 * named as it opens; or one line saying why no window can open here. The files are written
 * either way, so this never fails the run. */
static void show_windows(const char *program, const char *root, const char *data, const char *linkroot, job *jobs,
                         int njobs, bool tsv)
{
    char term[16];
    const char *why = window_terminal(term, sizeof term);
    if (why) {
        fprintf(stderr, "%s: --show: no window opened: %s; the figures above are written\n", program, why);
        return;
    }
    for (int k = 0; k < njobs; k += 2) {        /* the PNG job of each script: drawn, not skipped */
        if (jobs[k].status != 0)
            continue;
        job w;
        memset(&w, 0, sizeof w);
        memcpy(w.name, jobs[k].name, sizeof w.name);
        w.fmt = "window";
        w.err = tmpfile();
        pid_t pid = start(&w, root, data, linkroot, term);
        int st = -1;
        if (pid > 0)
            waitpid(pid, &st, 0);
        char reason[512];
        if (st == 0) {
            fprintf(tsv ? stderr : stdout, "window: %s (gnuplot %s, -persist)\n", w.name, term);
        } else {
            first_error(w.err, reason, sizeof reason);
            fprintf(stderr, "%s: --show: no window for %s: %s\n", program, w.name, reason);
        }
        if (w.err)
            fclose(w.err);
    }
}

static int render(const plot_opts *p, const char *program, const char *root, const char *data, const char *figs,
                  const char *cwd, const char *linkroot, char names[][64], int n, bool tsv)
{
    int njobs = 2 * n, skipped = 0;
    job *jobs = xcalloc((size_t)njobs, sizeof *jobs);
    if (reserve(jobs, njobs, program, figs, names) != 0) {
        free(jobs);
        return 1;
    }
    run_all(jobs, njobs, root, data, linkroot);
    int failed = commit_all(jobs, njobs, program, cwd, tsv, &skipped);
    if (!failed && skipped == njobs)
        fprintf(stderr, "%s: --plot: none of its figures has data in %s\n", program, shown(data, cwd));
    if (!failed && skipped < njobs && p->show)
        show_windows(program, root, data, linkroot, jobs, njobs, tsv);
    for (int k = 0; k < njobs; k++)
        if (jobs[k].err)
            fclose(jobs[k].err);
    free(jobs);
    return failed || skipped == njobs;
}

/* ---- the rows a figure keeps, chosen as they come ---- */

struct plot_stream {
    size_t ncol, tcol, nk, buckets, room;   /* room: rows a series may have to be kept whole */
    size_t kcols[PLOT_DECIMATE_KEYS];
    double t0, t_last;          /* the spans divide [t0, t_last]; t0 is the first row's */
    size_t n;                   /* rows pushed */
    size_t b;                   /* the current span, */
    double t_end;               /* where it ends */
    double *span;               /* its rows so far (nspan), the first of them row span_first */
    size_t nspan, cap_span, span_first;
    double *kept;               /* the rows kept so far, in order (every row while n <= room) */
    size_t *kept_i, nkept, cap_v, cap_i;
    bool done;
};

plot_stream *plot_stream_new(size_t ncol, size_t tcol, const size_t *kcols, size_t nk,
                             size_t buckets, double t_last)
{
    plot_stream *s = xcalloc(1, sizeof *s);
    s->nk = nk < PLOT_DECIMATE_KEYS ? nk : PLOT_DECIMATE_KEYS;
    s->ncol = ncol, s->tcol = tcol, s->buckets = buckets, s->t_last = t_last;
    s->room = buckets == 0 || s->nk == 0 ? SIZE_MAX : 2 * s->nk * buckets + 2;
    memcpy(s->kcols, kcols, s->nk * sizeof *kcols);
    return s;
}

static void stream_keep(plot_stream *s, const double *row, size_t i)
{
    s->kept = xgrow(s->kept, &s->cap_v, (s->nkept + 1) * s->ncol, sizeof *s->kept);
    s->kept_i = xgrow(s->kept_i, &s->cap_i, s->nkept + 1, sizeof *s->kept_i);
    memcpy(s->kept + s->nkept * s->ncol, row, s->ncol * sizeof *row);
    s->kept_i[s->nkept++] = i;
}

/* The current span's rows holding each key's smallest and largest value (the first such) to
 * the kept rows, in order, each once; the span is empty after. */
static void stream_flush(plot_stream *s)
{
    size_t pick[2 * PLOT_DECIMATE_KEYS] = {0}, m = 2 * s->nk, nc = s->ncol;
    const double *r = s->span;
    for (size_t i = 0; i < s->nspan; i++)
        for (size_t j = 0; j < s->nk; j++) {
            double v = r[i * nc + s->kcols[j]];
            if (v < r[pick[2 * j] * nc + s->kcols[j]])
                pick[2 * j] = i;
            if (v > r[pick[2 * j + 1] * nc + s->kcols[j]])
                pick[2 * j + 1] = i;
        }
    for (size_t a = 1; a < m; a++)     /* insertion sort of at most 8, then each once */
        for (size_t c = a; c > 0 && pick[c - 1] > pick[c]; c--) {
            size_t x = pick[c];
            pick[c] = pick[c - 1];
            pick[c - 1] = x;
        }
    for (size_t j = 0; s->nspan && j < m; j++)
        if (j == 0 || pick[j] != pick[j - 1])
            stream_keep(s, r + pick[j] * nc, s->span_first + pick[j]);
    s->nspan = 0;
}

/* Row i, not the first, into its span (a row at a span's end opens the next). The latest row may
 * be the last, which is no span's: plot_stream_rows takes it back out. */
static void stream_span(plot_stream *s, const double *row, size_t i)
{
    while (s->b + 1 < s->buckets && !(row[s->tcol] < s->t_end)) {
        stream_flush(s);
        s->b++;
        s->t_end = s->t0 + (s->t_last - s->t0) * (double)(s->b + 1) / (double)s->buckets;
    }
    if (s->nspan == 0)
        s->span_first = i;
    if ((s->nspan + 1) * s->ncol > s->cap_span)
        s->span = xgrow(s->span, &s->cap_span, (s->nspan + 1) * s->ncol, sizeof *s->span);
    memcpy(s->span + s->nspan++ * s->ncol, row, s->ncol * sizeof *row);
}

void plot_stream_push(plot_stream *s, const double *row)
{
    size_t i = s->n++;
    if (s->n <= s->room) {          /* the series may yet be kept whole */
        stream_keep(s, row, i);
        return;
    }
    if (s->n == s->room + 1) {      /* it is not: the rows so far into their spans */
        double *raw = s->kept;
        size_t nraw = s->nkept;
        free(s->kept_i);
        s->kept = NULL, s->kept_i = NULL, s->nkept = s->cap_v = s->cap_i = 0;
        s->t0 = raw[s->tcol];
        s->t_end = s->t0 + (s->t_last - s->t0) * 1.0 / (double)s->buckets;
        stream_keep(s, raw, 0);
        for (size_t r = 1; r < nraw; r++)
            stream_span(s, raw + r * s->ncol, r);
        free(raw);
    }
    stream_span(s, row, i);
}

size_t plot_stream_rows(plot_stream *s, const double **rows, const size_t **index)
{
    if (!s->done && s->n > s->room) {   /* the last row, out of its span */
        const double *last = s->span + --s->nspan * s->ncol;
        stream_flush(s);
        stream_keep(s, last, s->n - 1);
    }
    s->done = true;
    if (rows)
        *rows = s->kept;
    if (index)
        *index = s->kept_i;
    return s->nkept;
}

void plot_stream_free(plot_stream *s)
{
    if (!s)
        return;
    free(s->span), free(s->kept), free(s->kept_i);
    free(s);
}

size_t plot_decimate(const double *rows, size_t nrows, size_t ncol, size_t tcol,
                     const size_t *kcols, size_t nk, size_t buckets, size_t *keep)
{
    if (nrows == 0)
        return 0;
    double t_last = rows[(nrows - 1) * ncol + tcol];
    plot_stream *s = plot_stream_new(ncol, tcol, kcols, nk, buckets, t_last);
    for (size_t i = 0; i < nrows; i++)
        plot_stream_push(s, rows + i * ncol);
    const size_t *index;
    size_t n = plot_stream_rows(s, NULL, &index);
    memcpy(keep, index, n * sizeof *keep);
    plot_stream_free(s);
    return n;
}

size_t plot_stream_write(FILE *f, const char *header, plot_stream *s, const char *const *fmt)
{
    const double *rows;
    size_t n = plot_stream_rows(s, &rows, NULL);
    fprintf(f, "%s\n", header);
    for (size_t i = 0; i < n; i++)
        numfmt_row(f, rows + i * s->ncol, s->ncol, fmt);
    return n;
}
