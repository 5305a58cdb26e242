#include "study/sweep.h"
#include "base/budget.h"
#include "base/util.h"
#include "io/atomic.h"
#include "study/workers.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_MAX_B 2048     /* B: longest line of a results file, newline included */
#define MAX_FIELDS 64

void sweep_msg_add(sweep_msg *m, const void *bytes, size_t n)
{
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->len + n)
            cap *= 2;
        char *d = xcalloc(cap, 1);
        if (m->len)
            memcpy(d, m->data, m->len);
        free(m->data);
        m->data = d, m->cap = cap;
    }
    memcpy(m->data + m->len, bytes, n);
    m->len += n;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* 0 when all n bytes came, -1 at an end of file or an error first. */
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

bool sweep_in_shard(long t, sweep_shard sh) { return t % sh.n == sh.k - 1; }

int sweep_parse_shard(const char *text, void *dest, char *why, size_t whylen)
{
    sweep_shard *s = dest;
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

/* ---- the results file ------------------------------------------------------------------- */

static int ncolumns(const sweep_spec *sp)
{
    int n = 0;
    while (sp->columns[n])
        n++;
    return n;
}

static void header_text(const sweep_spec *sp, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; sp->columns[k]; k++)
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s\t", sp->columns[k]);
    snprintf(buf + len, len < n ? n - len : 0, "%s\n", sp->identity);
}

/* Why a first line that is not our header is refused. */
static void header_refusal(const sweep_spec *sp, const char *line, const char *header, char *why,
                           size_t whylen)
{
    char first[128], tag[128];
    snprintf(first, sizeof first, "%s\t", sp->columns[0]);
    snprintf(tag, sizeof tag, "bin/%s results", sp->program);
    const char *theirs = strrchr(line, '\t'), *ours = strrchr(header, '\t');
    bool ours_cols = strncmp(line, first, strlen(first)) == 0 && theirs;
    if (ours_cols && strncmp(theirs + 1, tag, strlen(tag)) != 0)
        snprintf(
            why, whylen,
            "--results %s was made by an earlier bin/%s, whose header does not name the grid and "
            "the model; it is left untouched (accepted: remove it to start again, or another "
            "--results file)",
            sp->results, sp->program);
    else if (ours_cols)
        snprintf(
            why, whylen,
            "--results %s is not on this grid and model: its header says '%.*s', this run '%.*s'; "
            "accepted: the flags that made it, or another --results file",
            sp->results, (int)strcspn(theirs + 1, "\n"), theirs + 1, (int)strcspn(ours + 1, "\n"),
            ours + 1);
    else
        snprintf(
            why, whylen,
            "--results %s does not start with this program's results header; it is left untouched "
            "(accepted: a results file of this grid and model, or a new name)",
            sp->results);
}

/* Checks one line read at lineno (len bytes from fgets over span bytes of the file): 0 a whole
 * line, 1 an unfinished last row to cut, -1 refused (why). */
static int line_shape(const char *path, const char *line, size_t len, long span, long lineno,
                      char *why, size_t whylen)
{
    if ((long)len != span) {
        snprintf(why, whylen,
                 "%s:%ld: a NUL byte; not a results file of this program, left untouched", path,
                 lineno);
        return -1;
    }
    if (line[len - 1] == '\n')
        return 0;
    if (len == LINE_MAX_B - 1)
        snprintf(why, whylen,
                 "%s:%ld: a line over %d characters; not a results file of this program, left "
                 "untouched",
                 path, lineno, LINE_MAX_B - 2);
    else if (lineno <= 2)
        snprintf(why, whylen, "%s: no whole %s; not a results file of this program, left untouched",
                 path, lineno == 1 ? "header" : "row");
    else
        return 1;
    return -1;
}

/* The task of a row (line, split in place), checked by row_task: the task, or -1 (why, without
 * the file's name). *again: a whole row of a task to run again. */
static long parse_row(const sweep_spec *sp, char *line, bool *again, char *why, size_t whylen)
{
    char *field[MAX_FIELDS];
    int nf = 0;
    for (char *s = strtok(line, "\t\n"); s && nf < MAX_FIELDS; s = strtok(NULL, "\t\n"))
        field[nf++] = s;
    snprintf(why, whylen, "not a results row of this program (%d fields, %d expected)", nf,
             ncolumns(sp));
    *again = false;
    long t = nf == ncolumns(sp) ? sp->row_task(field, sp->ctx, again, why, whylen) : -1;
    if (t >= sp->tasks) {
        snprintf(why, whylen, "task %ld is not of this grid (%ld tasks)", t, sp->tasks);
        return -1;
    }
    return t;
}

/* A row: marks its task in done[] (not one to run again: *again counts those); 0, or -1
 * refused (why). */
static int take_row(const sweep_spec *sp, char *line, long lineno, char *done, long *rows,
                    long *again, char *why, size_t whylen)
{
    char reason[1024];
    bool redo;
    long t = parse_row(sp, line, &redo, reason, sizeof reason);
    if (t < 0) {
        snprintf(why, whylen, "%s:%ld: %s; the file is left untouched", sp->results, lineno,
                 reason);
        return -1;
    }
    *again += redo;
    *rows += !done[t] && !redo;
    done[t] |= !redo;
    return 0;
}

/* Reads the file from its start: done[] from its rows; *good_end the end of its last whole
 * line; *again the rows of tasks to run again. 0, or -1 refused (why). */
static int read_results(const sweep_spec *sp, FILE *f, const char *header, char *done, long *rows,
                        long *good_end, long *again, char *why, size_t whylen)
{
    char line[LINE_MAX_B];
    long lineno = 0;
    *good_end = 0, *again = 0;
    for (;;) {
        long start = ftell(f);
        if (!fgets(line, sizeof line, f))
            return 0;
        lineno++;
        int shape =
            line_shape(sp->results, line, strlen(line), ftell(f) - start, lineno, why, whylen);
        if (shape != 0)
            return shape > 0 ? 0 : -1;
        if (lineno == 1) {
            if (strcmp(line, header) != 0) {
                header_refusal(sp, line, header, why, whylen);
                return -1;
            }
        } else if (take_row(sp, line, lineno, done, rows, again, why, whylen) != 0)
            return -1;
        *good_end = ftell(f);
    }
}

/* Opens (creating its folder) and locks the results file: the descriptor, or -1 (why, *code).
 * *created: the file is new. */
static int open_locked(const sweep_spec *sp, bool *created, int *code, char *why, size_t whylen)
{
    const char *path = sp->results;
    struct stat sb, now;
    *code = 2;
    *created = stat(path, &sb) != 0;
    if (!*created && !S_ISREG(sb.st_mode)) {
        snprintf(
            why, whylen,
            "--results %s is not a regular file; accepted: a results file of this program, or a "
            "new name",
            path);
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
    /* locked, and still the file of that name (not one a rewrite has just replaced) */
    bool locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (!locked || fstat(fd, &sb) != 0 || stat(path, &now) != 0 || sb.st_ino != now.st_ino) {
        snprintf(
            why, whylen,
            "--results %s is in use by another bin/%s run (locked); accepted: wait for it to end, "
            "or another --results file",
            path, sp->program);
        close(fd);
        return -1;
    }
    manifest_note(path);    /* this run's results (resumed or new) are its figures' data */
    return fd;
}

/* The results file rewritten without the rows of tasks to run again, up to good_end: the new
 * file replaces it atomically, locked before it is in place. Its descriptor (appending), or -1
 * (why); fd is closed either way. */
static int drop_again(const sweep_spec *sp, int fd, long good_end, long *end, char *why,
                      size_t whylen)
{
    atomic_file af;
    FILE *in = fdopen(fd, "r"), *out = atomic_open(&af, sp->results);
    int lock = out ? dup(af.fd) : -1;
    if (!in || !out || lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
        snprintf(why, whylen, "cannot rewrite %s without its failed rows: %s", sp->results,
                 strerror(errno));
        if (out)
            atomic_abort(&af);
        if (in)
            fclose(in);
        else
            close(fd);
        if (lock >= 0)
            close(lock);
        return -1;
    }
    char line[LINE_MAX_B], copy[LINE_MAX_B], reason[1024];
    rewind(in);
    *end = 0;
    for (long lineno = 1; ftell(in) < good_end && fgets(line, sizeof line, in); lineno++) {
        bool again = false;
        memcpy(copy, line, sizeof line);
        if (lineno > 1)
            parse_row(sp, copy, &again, reason, sizeof reason);
        if (!again)
            fputs(line, out), *end += (long)strlen(line);
    }
    fclose(in);
    if (atomic_commit(&af) != 0 || fcntl(lock, F_SETFL, O_APPEND) != 0) {
        snprintf(why, whylen, "cannot rewrite %s without its failed rows: %s", sp->results,
                 strerror(errno));
        close(lock);
        return -1;
    }
    return lock;
}

/* Gives up a results file that could not get its header: removed when this run made it. */
static void drop_new(const sweep *s)
{
    if (ftruncate(s->fd, 0) == 0 && s->created)
        unlink(s->spec->results);
}

/* The results file opened, read into done[], its torn last row cut, the rows to run again
 * dropped and the header written when new: s->fd, or -1 (why, *code). */
static int open_results(sweep *s, char *done, long *rows, int *code, char *why, size_t whylen)
{
    const sweep_spec *sp = s->spec;
    int fd = open_locked(sp, &s->created, code, why, whylen);
    if (fd < 0)
        return -1;
    char header[LINE_MAX_B + 512];
    header_text(sp, header, sizeof header);
    FILE *f = fdopen(dup(fd), "r");
    long good_end = 0, again = 0;
    *code = 2;
    int rc = f ? read_results(sp, f, header, done, rows, &good_end, &again, why, whylen) : -1;
    if (!f) {
        *code = 1;
        snprintf(why, whylen, "cannot read %s: %s", sp->results, strerror(errno));
    } else
        fclose(f);
    struct stat sb;
    if (rc == 0 && fstat(fd, &sb) == 0 && sb.st_size > good_end && ftruncate(fd, good_end) != 0) {
        *code = 1, rc = -1;
        snprintf(why, whylen, "cannot cut the unfinished last row of %s: %s", sp->results,
                 strerror(errno));
    }
    s->end = good_end;
    if (rc == 0 && again > 0 && (fd = drop_again(sp, fd, good_end, &s->end, why, whylen)) < 0)
        return *code = 1, -1;
    s->fd = fd;
    if (rc == 0 && good_end == 0 && write_all(fd, header, strlen(header)) != 0) {
        *code = 1, rc = -1;
        snprintf(why, whylen, "cannot write %s: %s", sp->results, strerror(errno));
        drop_new(s);
    } else if (rc == 0 && good_end == 0)
        s->end = (long)strlen(header);
    if (rc != 0) {
        close(fd);
        s->fd = -1;
        return -1;
    }
    return fd;
}

long sweep_pending(const sweep_spec *spec)
{
    char *done = xcalloc((size_t)spec->tasks + 1, 1), line[LINE_MAX_B], why[256];
    long rows = 0, lineno = 0, pending = 0, again = 0;
    FILE *f = spec->results ? fopen(spec->results, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (++lineno == 1)
            continue;   /* the header */
        if (len && line[len - 1] == '\n')
            take_row(spec, line, lineno, done, &rows, &again, why, sizeof why);
    }
    if (f)
        fclose(f);
    for (long t = 0; t < spec->tasks; t++)
        pending += sweep_in_shard(t, spec->shard) && (!spec->want || spec->want[t]) && !done[t];
    free(done);
    return pending;
}

int sweep_open(sweep *s, const sweep_spec *spec)
{
    memset(s, 0, sizeof *s);
    s->spec = spec;
    s->fd = -1;
    char *done = xcalloc((size_t)spec->tasks + 1, 1), why[1600];
    long rows = 0;
    if (spec->results) {
        int code;
        if (open_results(s, done, &rows, &code, why, sizeof why) < 0) {
            fprintf(stderr, "%s: %s\n", spec->program, why);
            free(done);
            return code;
        }
    }
    s->todo = xcalloc((size_t)spec->tasks + 1, sizeof *s->todo);
    for (long t = 0; t < spec->tasks; t++) {
        if (!sweep_in_shard(t, spec->shard) || (spec->want && !spec->want[t]))
            continue;
        s->tasks++;
        if (done[t])
            s->skipped++;
        else
            s->todo[s->ntodo++] = t;
    }
    free(done);
    return 0;
}

void sweep_free(sweep *s)
{
    if (s->fd >= 0)
        close(s->fd);
    free(s->todo);
    s->fd = -1;
    s->todo = NULL;
    s->ntodo = 0;
}

/* ---- merging the parts of a sharded sweep ------------------------------------------------ */

void sweep_shard_identity(char *buf, size_t n, const char *base, sweep_shard sh)
{
    if (sh.n > 1)
        snprintf(buf, n, "%s, shard %ld/%ld", base, sh.k, sh.n);
    else
        snprintf(buf, n, "%s", base);
}

static void name_task(const sweep_spec *sp, long t, char *buf, size_t n)
{
    if (sp->task_name)
        sp->task_name(t, sp->ctx, buf, n);
    else
        snprintf(buf, n, "task %ld", t);
}

/* What the parts hold, as they are read. */
typedef struct merged {
    char **row;         /* row[t]: the line of task t, NULL until seen */
    int *from;          /* from[t]: the part it came from */
    long *line;         /* line[t]: its line there */
    char **shard_of;    /* shard_of[k - 1]: the part that is shard k, NULL until seen */
    sweep_shard sh;     /* the first part's shard: its total is every part's */
} merged;

/* The shard a part's header names, from its first line: 0, or -1 (why). */
static int part_header(const sweep_spec *sp, const char *part, const char *line, sweep_shard *sh,
                       char *why, size_t whylen)
{
    char header[LINE_MAX_B + 512], wanted[LINE_MAX_B + 512];
    header_text(sp, header, sizeof header);
    size_t cols = (size_t)(strrchr(header, '\t') - header) + 1, base = strlen(header) - 1;
    const char *tag = line + cols;
    *sh = (sweep_shard){1, 1};
    if (strncmp(line, header, cols) != 0 || strncmp(tag, "bin/", 4) != 0) {
        snprintf(why, whylen,
                 "%s does not start with a results header of bin/%s; accepted: the parts that "
                 "--shard K/N wrote",
                 part, sp->program);
        return -1;
    }
    const char *at = strstr(tag, ", shard ");
    if (at && sscanf(at, ", shard %ld/%ld", &sh->k, &sh->n) != 2)
        *sh = (sweep_shard){0, 0};
    sweep_shard_identity(wanted, sizeof wanted, sp->identity, *sh);
    if (strncmp(line, header, base) != 0 || strcmp(tag, strcat(wanted, "\n")) != 0) {
        snprintf(why, whylen,
                 "%s is of another grid or model: its header says '%.*s', the first part's '%s'; "
                 "accepted: parts of one sweep",
                 part, (int)strcspn(tag, "\n"), tag, sp->identity);
        return -1;
    }
    return 0;
}

/* Reads part p into m. 0, or -1 (why: the part, its line, the task). */
static int merge_part(const sweep_spec *sp, char *const *part, int p, merged *m, char *why,
                      size_t whylen)
{
    FILE *f = fopen(part[p], "r");
    if (!f && errno == ENOENT && p > 0)
        return 0;   /* a part not there: its shard is named missing */
    if (!f) {
        snprintf(why, whylen, "cannot read %s: %s", part[p], strerror(errno));
        return -1;
    }
    char line[LINE_MAX_B], copy[LINE_MAX_B], reason[1024], task[128];
    sweep_shard sh = {0, 0};
    int rc = 0;
    for (long lineno = 1; rc == 0; lineno++) {
        long start = ftell(f);
        if (!fgets(line, sizeof line, f))
            break;
        size_t len = strlen(line);
        if (line_shape(part[p], line, len, ftell(f) - start, lineno, why, whylen) != 0) {
            if (line[len - 1] != '\n' && len < LINE_MAX_B - 1)
                snprintf(why, whylen,
                         "%s:%ld: a torn row (no newline at its end); accepted: whole parts (the "
                         "command of shard %ld/%ld again cuts it and completes the part)",
                         part[p], lineno, sh.k, sh.n);
            rc = -1;
        } else if (lineno == 1) {
            rc = part_header(sp, part[p], line, &sh, why, whylen);
            if (rc == 0 && p == 0)
                m->sh = sh, m->shard_of = xcalloc((size_t)sh.n, sizeof *m->shard_of);
            if (rc == 0 && sh.n != m->sh.n)
                snprintf(
                    why, whylen,
                    "%s is shard %ld of %ld, %s of %ld; accepted: the parts of one --shard K/N",
                    part[p], sh.k, sh.n, part[0], m->sh.n),
                    rc = -1;
            else if (rc == 0 && m->shard_of[sh.k - 1])
                snprintf(why, whylen,
                         "%s is shard %ld/%ld again (so is %s); accepted: each part once", part[p],
                         sh.k, sh.n, m->shard_of[sh.k - 1]),
                    rc = -1;
            else if (rc == 0)
                m->shard_of[sh.k - 1] = part[p];
        } else {
            bool again;
            memcpy(copy, line, len + 1);
            long t = parse_row(sp, copy, &again, reason, sizeof reason);
            if (t >= 0)
                name_task(sp, t, task, sizeof task);
            if (t < 0)
                snprintf(why, whylen, "%s:%ld: %s", part[p], lineno, reason);
            else if (again)
                snprintf(
                    why, whylen,
                    "%s:%ld: %s; accepted: whole valid rows (the command of shard %ld/%ld runs it "
                    "again)",
                    part[p], lineno, reason, sh.k, sh.n);
            else if (!sweep_in_shard(t, sh))
                snprintf(why, whylen, "%s:%ld: %s is not of shard %ld/%ld", part[p], lineno, task,
                         sh.k, sh.n);
            else if (m->row[t])
                snprintf(why, whylen,
                         "%s:%ld: %s again (first at %s:%ld); accepted: each cell once", part[p],
                         lineno, task, part[m->from[t]], m->line[t]);
            rc = t < 0 || again || !sweep_in_shard(t, sh) || m->row[t] ? -1 : 0;
            if (rc == 0)
                m->row[t] = xstrdup(line), m->from[t] = p, m->line[t] = lineno;
        }
    }
    if (rc == 0 && sh.n == 0)
        snprintf(why, whylen, "%s: empty; accepted: the parts that --shard K/N wrote", part[p]),
            rc = -1;
    fclose(f);
    return rc;
}

/* Every shard there and every task of each: 0, or -1 (why: the shards or the cell to rerun). */
static int merge_complete(const sweep_spec *sp, const merged *m, char *why, size_t whylen)
{
    size_t len = 0;
    why[0] = 0;
    for (long k = 1; k <= m->sh.n; k++)
        if (!m->shard_of[k - 1] && len < whylen)
            len += (size_t)snprintf(why + len, whylen - len, "%s%ld", len ? ", " : "", k);
    if (len) {
        char list[512];
        snprintf(list, sizeof list, "%s", why);
        snprintf(why, whylen,
                 "shards %s of %ld missing; accepted: every part (run --shard K/%ld for those K)",
                 list, m->sh.n, m->sh.n);
        return -1;
    }
    for (long t = 0; t < sp->tasks; t++)
        if (!m->row[t]) {
            char task[128];
            name_task(sp, t, task, sizeof task);
            sweep_shard sh = {t % m->sh.n + 1, m->sh.n};
            snprintf(
                why, whylen,
                "%s lacks %s (an unfinished part); accepted: whole parts (the command of shard "
                "%ld/%ld completes it)",
                m->shard_of[sh.k - 1], task, sh.k, sh.n);
            return -1;
        }
    return 0;
}

int sweep_merge(const sweep_spec *sp, char *const *part, int nparts)
{
    merged m = {.row = xcalloc((size_t)sp->tasks, sizeof(char *)),
                .from = xcalloc((size_t)sp->tasks, sizeof(int)),
                .line = xcalloc((size_t)sp->tasks, sizeof(long))};
    char why[2400], header[LINE_MAX_B + 512];
    int rc = 0;
    for (int p = 0; p < nparts && rc == 0; p++)
        rc = merge_part(sp, part, p, &m, why, sizeof why) ? 2 : 0;
    if (rc == 0)
        rc = merge_complete(sp, &m, why, sizeof why) ? 2 : 0;
    atomic_file af;
    FILE *out = rc == 0 ? atomic_open(&af, sp->results) : NULL;
    if (rc == 0 && out) {
        header_text(sp, header, sizeof header);
        fputs(header, out);
        for (long t = 0; t < sp->tasks; t++)
            fputs(m.row[t], out);
    }
    if (rc == 0 && (!out || atomic_commit(&af) != 0))
        rc = 1, snprintf(why, sizeof why, "cannot write %s: %s", sp->results, strerror(errno));
    if (rc == 0)
        manifest_note(sp->results);     /* the merged grid is this run's data for the figures */
    if (rc)
        fprintf(stderr, "%s: %s\n", sp->program, why);
    for (long t = 0; t < sp->tasks; t++)
        free(m.row[t]);
    free(m.row), free(m.from), free(m.line), free(m.shard_of);
    return rc;
}

/* ---- the workers ---------------------------------------------------------------------------- */

typedef struct frame {
    long task;      /* which task */
    size_t len;     /* bytes of the result that follow, B */
} frame;

typedef struct worker {
    pid_t pid;      /* 0 when ended and waited for */
    int task_fd;    /* tasks to it (-1: closed, no more to come) */
    int result_fd;  /* results from it */
    long task;      /* the task in flight, -1 when idle */
} worker;

static void worker_main(const sweep_spec *sp, int task_fd, int result_fd)
{
    signal(SIGINT, SIG_IGN);    /* the parent decides: a terminal's ^C reaches the whole group */
    long t;
    while (read_all(task_fd, &t, sizeof t) == 0) {
        sweep_msg m = {NULL, 0, 0};
        sp->run(t, sp->ctx, &m);
        frame fr = {t, m.len};
        if (write_all(result_fd, &fr, sizeof fr) != 0 ||
            (m.len && write_all(result_fd, m.data, m.len) != 0))
            _exit(1);
        free(m.data);
    }
    _exit(0);
}

/* Starts n workers (fewer when fork fails: the number started, messages on stderr). */
static long start_workers(const sweep *s, worker *w, long n)
{
    fflush(NULL);
    for (long k = 0; k < n; k++) {
        int task[2], result[2];
        if (pipe(task) != 0 || pipe(result) != 0) {
            fprintf(stderr, "%s: pipe: %s\n", s->spec->program, strerror(errno));
            return k;
        }
        pid_t pid = workers_fork();
        if (pid == 0) {
            for (long j = 0; j < k; j++)
                close(w[j].task_fd), close(w[j].result_fd);
            close(task[1]), close(result[0]);
            if (s->fd >= 0)
                close(s->fd);
            worker_main(s->spec, task[0], result[1]);
        }
        close(task[0]), close(result[1]);
        if (pid < 0) {
            fprintf(stderr, "%s: fork: %s\n", s->spec->program, strerror(errno));
            close(task[1]), close(result[0]);
            return k;
        }
        w[k] = (worker){pid, task[1], result[0], -1};
    }
    return n;
}

/* Ends worker w (killed first when kill_it) and waits for it: its wait status (0 when none). */
static int end_worker(worker *w, bool kill_it)
{
    int status = 0;
    if (w->task_fd >= 0)
        close(w->task_fd);
    w->task_fd = -1;
    if (w->pid > 0) {
        if (kill_it)
            kill(w->pid, SIGKILL);
        while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
            ;
        workers_forget(w->pid);
    }
    w->pid = 0;
    if (w->result_fd >= 0)
        close(w->result_fd);
    w->result_fd = -1;
    return status;
}

/* ---- stop signals ------------------------------------------------------------------------------
 */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (int)(sizeof stop_signals / sizeof stop_signals[0])
static volatile sig_atomic_t stop_sig;      /* the first stop signal, 0 when none */
static volatile sig_atomic_t abandon;       /* the tasks in flight are not waited for */
static struct sigaction before[NSTOP];

static void on_stop(int sig)
{
    if (stop_sig)
        abandon = 1;
    else
        stop_sig = sig;
    if (sig != SIGINT)
        abandon = 1;
}

static void catch_stops(bool keep_rows)
{
    stop_sig = 0;
    abandon = !keep_rows;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;    /* no SA_RESTART: poll returns at once */
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &sa, &before[i]);
}

static void release_stops(void)
{
    for (int i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &before[i], NULL);
}

/* After a stop signal: what was kept and how to go on, then the program ends by the signal
 * (through the handlers that were there before: workers.h's, io/atomic's). */
static void stopped(const sweep *s, const sweep_stats *st, long in_flight)
{
    const sweep_spec *sp = s->spec;
    const char *name = stop_sig == SIGINT ? "SIGINT" : stop_sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    fprintf(stderr, "%s%s: stopped by %s after %ld of %ld %s",
            sp->progress && isatty(2) ? "\n" : "", sp->program, name, st->skipped + st->computed,
            st->tasks, sp->unit);
    if (in_flight)
        fprintf(stderr, " (%ld in flight abandoned)", in_flight);
    else if (!abandon)
        fprintf(stderr, " (those in flight finished)");
    if (sp->results)
        fprintf(stderr, "; %s holds whole rows only: the same command resumes it\n", sp->results);
    else
        fprintf(stderr, "; nothing was written\n");
    int sig = stop_sig;
    release_stops();
    raise(sig);
    _exit(128 + sig);
}

/* ---- the run -----------------------------------------------------------------------------------
 */

/* A result from worker w: taken and its row appended. 0; 1 when the row could not be written;
 * -1 when the worker ended first (the task is lost, the worker waited for). */
static int receive(sweep *s, worker *w, sweep_stats *st)
{
    const sweep_spec *sp = s->spec;
    frame fr;
    char *msg = NULL;
    if (read_all(w->result_fd, &fr, sizeof fr) != 0 || fr.task != w->task ||
        (fr.len && read_all(w->result_fd, msg = xcalloc(fr.len, 1), fr.len) != 0)) {
        free(msg);
        pid_t pid = w->pid;
        int status = end_worker(w, true); /* a worker that has ended already keeps its own status */
        char how[48] = "ended";
        if (WIFSIGNALED(status))
            snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(status));
        else if (WIFEXITED(status))
            snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(status));
        if (st->lost++ == 0)
            snprintf(st->first_lost, sizeof st->first_lost,
                     "task %ld: its worker (pid %d) %s before sending its "
                     "result",
                     w->task, (int)pid, how);
        w->task = -1;
        return -1;
    }
    char row[SWEEP_ROW_MAX];
    int len = sp->take(fr.task, msg, fr.len, sp->ctx, row);
    free(msg);
    w->task = -1;
    if (len > 0 && s->fd >= 0 &&
        write_all(s->fd, row, (size_t)len) != 0) { /* one write of the whole row */
        int e = errno;
        bool cut = ftruncate(s->fd, s->end) ==
                   0; /* a part of the row written: cut back to the whole rows */
        fprintf(stderr, "%s: cannot append to %s: %s; %s\n", sp->program, sp->results, strerror(e),
                cut ? "it holds whole rows only: the same command resumes it"
                    : "and cannot cut its torn last row");
        return 1;
    }
    s->end += len > 0 ? len : 0;
    st->computed++;
    if (sp->progress)
        budget_tick(&s->meter, 1.0);
    return 0;
}

/* Hands worker w the next task, or tells it there are none (closing its task pipe). */
static void give(worker *w, const sweep *s, long *next)
{
    if (*next < s->ntodo && !stop_sig &&
        write_all(w->task_fd, &s->todo[*next], sizeof(long)) == 0) {
        w->task = s->todo[(*next)++];
        return;
    }
    close(w->task_fd);
    w->task_fd = -1;
}

/* Waits for results until none is in flight; 0, or 1 after a failed write. */
static int drive(sweep *s, worker *w, long nw, sweep_stats *st)
{
    struct pollfd *pf = xcalloc((size_t)nw, sizeof *pf);
    long *who = xcalloc((size_t)nw, sizeof *who), next = 0;
    int rc = 0;
    for (long k = 0; k < nw; k++)
        give(&w[k], s, &next);
    bool told = false;
    for (;;) {
        if (abandon && stop_sig)
            break;
        nfds_t n = 0;
        for (long k = 0; k < nw; k++)
            if (w[k].task >= 0)
                pf[n] = (struct pollfd){w[k].result_fd, POLLIN, 0}, who[n++] = k;
        if (n == 0)
            break;
        if (stop_sig && !told) {    /* a first SIGINT: say at once what happens now */
            fprintf(
                stderr,
                "%s%s: SIGINT: no more %s handed out; finishing the %ld in flight (SIGINT again "
                "abandons them)\n",
                s->spec->progress && isatty(2) ? "\n" : "", s->spec->program, s->spec->unit,
                (long)n);
            told = true;
        }
        if (poll(pf, n, -1) < 0) {
            if (errno == EINTR)
                continue;   /* a stop signal, looked at above */
            fprintf(stderr, "%s: poll: %s\n", s->spec->program, strerror(errno));
            rc = 1;
            break;
        }
        for (nfds_t i = 0; i < n && rc == 0; i++)
            if (pf[i].revents) {
                worker *wk = &w[who[i]];
                int r = receive(s, wk, st);
                rc = r > 0;
                if (r == 0)
                    give(wk, s, &next);
            }
        if (rc)
            break;
    }
    free(pf);
    free(who);
    return rc;
}

int sweep_run(sweep *s, sweep_stats *st)
{
    const sweep_spec *sp = s->spec;
    memset(st, 0, sizeof *st);
    st->tasks = s->tasks;
    st->skipped = s->skipped;
    double t0 = wall_seconds();
    int rc = 0;
    if (s->ntodo > 0) {
        long n = sp->jobs < s->ntodo ? sp->jobs : s->ntodo;
        worker *w = xcalloc((size_t)(n > 0 ? n : 1), sizeof *w);
        long nw = start_workers(s, w, n > 0 ? n : 1);
        if (sp->progress)
            budget_meter(&s->meter, sp->label, sp->unit, (double)s->ntodo, true);
        catch_stops(sp->results != NULL);
        void (*pipe_was)(int) =
            signal(SIGPIPE, SIG_IGN); /* a worker gone: EPIPE on its task pipe */
        rc = nw > 0 ? drive(s, w, nw, st) : 1;
        long in_flight = 0;
        for (long k = 0; k < nw; k++) {
            in_flight += w[k].task >= 0 && w[k].pid > 0;
            end_worker(&w[k], rc != 0 || (stop_sig && abandon));
        }
        free(w);
        if (sp->progress && !stop_sig && rc == 0 && !st->lost)
            budget_finish(&s->meter);
        else if (sp->progress && !stop_sig)
            budget_stop(&s->meter);
        if (stop_sig)
            stopped(s, st, in_flight);
        release_stops();
        signal(SIGPIPE, pipe_was);
        long undone = s->ntodo - st->computed - st->lost;
        if (undone > 0 && rc == 0) {
            fprintf(stderr, "%s: %ld %s not run (no worker left); the same command runs them\n",
                    sp->program, undone, sp->unit);
            rc = 1;
        }
    }
    if (st->lost) {
        fprintf(stderr, "%s: %ld %s lost (%s); the same command runs them again\n", sp->program,
                st->lost, sp->unit, st->first_lost);
        rc = 1;
    }
    sweep_free(s);
    st->wall = wall_seconds() - t0;
    return rc;
}
