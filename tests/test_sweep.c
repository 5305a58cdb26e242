/* test_sweep.c: the sweep module (src/study/sweep.h) on a toy grid whose task t computes t^2
 * in a forked worker: grid order, shards that cover the grid exactly once, resume that skips
 * the rows already there (and cuts a torn last row), a worker killed mid-task leaving no row
 * and no half row, results of any size through the pipes, and results files that are not this
 * sweep's refused and left untouched. */
#include "check.h"
#include "study/sweep.h"
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXT 64

typedef struct toy {
    long order[MAXT];   /* tasks in the order take() saw them */
    long n;             /* how many */
    long kill_task;     /* the worker running this task kills itself (-1: none) */
    size_t pad;         /* bytes of filler added to every result, B */
    int bad_fill;       /* results whose filler came back wrong */
} toy;

static const char *const columns[] = {"task", "square", NULL};

static void run(long t, void *ctx, sweep_msg *out)
{
    toy *c = ctx;
    if (t == c->kill_task)
        raise(SIGKILL);
    long sq = t * t;
    sweep_msg_add(out, &sq, sizeof sq);
    for (size_t k = 0; k < c->pad; k++) {
        unsigned char b = (unsigned char)(t + k);
        sweep_msg_add(out, &b, 1);
    }
}

static int take(long t, const void *msg, size_t len, void *ctx, char *row)
{
    toy *c = ctx;
    long sq;
    memcpy(&sq, msg, sizeof sq);
    const unsigned char *fill = (const unsigned char *)msg + sizeof sq;
    for (size_t k = 0; k < len - sizeof sq; k++)
        c->bad_fill += fill[k] != (unsigned char)(t + k);
    if (c->n < MAXT)
        c->order[c->n++] = t;
    return snprintf(row, SWEEP_ROW_MAX, "%ld\t%ld\n", t, sq);
}

static long row_task(char *const *field, void *ctx, bool *again, char *why, size_t whylen)
{
    (void)ctx, (void)again;
    char *end;
    long t = strtol(field[0], &end, 10);
    if (*end || t < 0) {
        snprintf(why, whylen, "not a task number");
        return -1;
    }
    return t;
}

static sweep_spec spec_of(toy *c, long tasks, sweep_shard sh, long jobs, const char *results)
{
    return (sweep_spec){"test_sweep", "toy", "tasks", tasks, sh, jobs, false, NULL, results, columns,
                        "bin/test_sweep results v1: toy", row_task, run, take, c, NULL};
}

/* Opens and runs; the sweep_run status (sweep_open's when it refuses, + 10). */
static int go(sweep_spec *sp, sweep_stats *st)
{
    sweep s;
    int rc = sweep_open(&s, sp);
    if (rc != 0)
        return 10 + rc;
    return sweep_run(&s, st);
}

static char *slurp(const char *path, size_t *n)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    *n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[*n] = 0;
    if (f)
        fclose(f);
    return buf;
}

/* Rows of a results file: each task's count in seen[], -1 when some line is not whole. */
static long rows_of(const char *path, int seen[MAXT])
{
    size_t n;
    char *text = slurp(path, &n), *line = strchr(text, '\n');
    long rows = 0;
    memset(seen, 0, MAXT * sizeof *seen);
    while (line && line[1]) {
        long t, sq;
        char *next = strchr(line + 1, '\n');
        if (!next || sscanf(line + 1, "%ld\t%ld", &t, &sq) != 2 || sq != t * t || t < 0 || t >= MAXT)
            return -1;
        seen[t]++, rows++;
        line = next;
    }
    return rows;
}

static void quiet(int *saved)
{
    fflush(stderr);
    *saved = dup(2);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
}

static void loud(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

int main(void)
{
    char dir[] = "/tmp/test_sweep.XXXXXX", path[256];
    if (!mkdtemp(dir))
        return 1;
    sweep_stats st;
    int saved;

    /* grid order: one worker takes the tasks as the grid lists them */
    toy a = {.kill_task = -1};
    sweep_spec sp = spec_of(&a, 9, (sweep_shard){1, 1}, 1, NULL);
    int rc = go(&sp, &st);
    int in_order = a.n == 9;
    for (long k = 0; k < a.n; k++)
        in_order &= a.order[k] == k;
    check(rc == 0 && in_order && st.computed == 9, "one worker: the 9 tasks in grid order (rc %d, %ld taken)", rc, a.n);

    /* shards: every part of N, together, takes every task exactly once, each in its own part */
    for (long N = 1; N <= 5; N++) {
        int count[MAXT] = {0}, wrong = 0;
        for (long K = 1; K <= N; K++) {
            toy b = {.kill_task = -1};
            sp = spec_of(&b, 23, (sweep_shard){K, N}, 3, NULL);
            go(&sp, &st);
            for (long k = 0; k < b.n; k++)
                count[b.order[k]]++, wrong += b.order[k] % N != K - 1;
        }
        int once = 1;
        for (long t = 0; t < 23; t++)
            once &= count[t] == 1;
        check(once && !wrong, "--shard K/%ld for K = 1..%ld: 23 tasks each taken once, in its own part", N, N);
    }

    /* results of any size: 200 kB a task (more than a pipe holds) over 3 workers, intact */
    toy big = {.kill_task = -1, .pad = 200000};
    sp = spec_of(&big, 6, (sweep_shard){1, 1}, 3, NULL);
    rc = go(&sp, &st);
    check(rc == 0 && big.n == 6 && big.bad_fill == 0, "200 kB results over 3 workers: 6 taken, %d bytes wrong",
          big.bad_fill);

    /* resume: a file with tasks 0, 2, 4 (and a torn last row) gets only 1, 3, 5 */
    snprintf(path, sizeof path, "%s/resume.tsv", dir);
    char want[6] = {1, 0, 1, 0, 1, 0};
    toy c = {.kill_task = -1};
    sp = spec_of(&c, 6, (sweep_shard){1, 1}, 2, path);
    sp.want = want;
    rc = go(&sp, &st);
    FILE *f = fopen(path, "a");
    fputs("5\t2", f);
    fclose(f);
    toy d = {.kill_task = -1};
    sp = spec_of(&d, 6, (sweep_shard){1, 1}, 2, path);
    long pending = sweep_pending(&sp);
    sweep_shard odd = {2, 2};
    sp.shard = odd;
    long pending_odd = sweep_pending(&sp);
    sp.shard = (sweep_shard){1, 1};
    check(pending == 3 && pending_odd == 3, "the estimate's count: 3 tasks pending, all 3 in part 2 of 2 (%ld, %ld)",
          pending, pending_odd);
    rc |= go(&sp, &st);
    int seen[MAXT];
    long rows = rows_of(path, seen);
    check(rc == 0 && st.skipped == 3 && st.computed == 3 && rows == 6 && seen[1] + seen[3] + seen[5] == 3,
          "resume: 3 rows skipped, 3 computed, the torn row cut, 6 whole rows (%ld)", rows);

    /* a worker killed mid-task: its row is absent, no half row, the others all there; the same
     * run again computes just that task */
    snprintf(path, sizeof path, "%s/killed.tsv", dir);
    toy e = {.kill_task = 4};
    sp = spec_of(&e, 10, (sweep_shard){1, 1}, 2, path);
    quiet(&saved);
    rc = go(&sp, &st);
    loud(saved);
    rows = rows_of(path, seen);
    check(rc == 1 && st.lost == 1 && rows == 9 && seen[4] == 0, "a worker killed at task 4: exit 1, 1 lost, 9 whole "
          "rows without task 4 (rc %d, %ld rows)", rc, rows);
    check(strstr(st.first_lost, "task 4") && strstr(st.first_lost, "killed by signal 9"), "the lost task named with "
          "how its worker ended: %s", st.first_lost);
    toy g = {.kill_task = -1};
    sp = spec_of(&g, 10, (sweep_shard){1, 1}, 2, path);
    rc = go(&sp, &st);
    rows = rows_of(path, seen);
    check(rc == 0 && st.computed == 1 && g.order[0] == 4 && rows == 10, "run again: only task 4 computed, 10 rows");

    /* refused and untouched: another sweep's header, a row off the grid, text that is no results file */
    const char *bad[] = {"task\tsquare\tbin/test_sweep results v1: another toy\n0\t0\n",
                         "task\tsquare\tbin/test_sweep results v1: toy\n99\t9801\n", "notes for Tuesday\n"};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/bad%d.tsv", dir, k);
        f = fopen(path, "w");
        fputs(bad[k], f);
        fclose(f);
        toy h = {.kill_task = -1};
        sp = spec_of(&h, 10, (sweep_shard){1, 1}, 2, path);
        quiet(&saved);
        rc = go(&sp, &st);
        loud(saved);
        size_t n;
        const char *now = slurp(path, &n);
        check(rc == 12 && strcmp(now, bad[k]) == 0 && h.n == 0, "refused (exit 2), file untouched, nothing run: %.*s",
              (int)strcspn(bad[k], "\n"), bad[k]);
    }
    check(sweep_in_shard(7, (sweep_shard){2, 3}) && !sweep_in_shard(7, (sweep_shard){1, 3}),
          "task 7 is in part 2 of 3 (7 mod 3 = 1), not in part 1");
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return check_done();
}
