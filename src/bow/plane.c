#include "bow/plane.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "analysis/resample.h"
#include "base/util.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- parameters and the grid --------------------------------------------------------------- */

void plane_keys_bind(plane_params *p, plane_keys *k)
{
    static char keys[PLANE_NGALLERY][24];
    PARAMS_FILL(k->grid,
        FLAG_REAL("x_min", p->x_min, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX,
            "smallest x_b/L (log-spaced grid)"),
        FLAG_REAL("x_max", p->x_max, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, "largest x_b/L"),
        FLAG_REAL("f_min", p->f_min, "N", 0, 100, CLI_OPEN_MIN,
            "smallest bowing force (log-spaced grid)"),
        FLAG_REAL("f_max", p->f_max, "N", 0, 100, CLI_OPEN_MIN, "largest bowing force"),
        FLAG_REAL("nx", p->nx, "", 1, 400, PARAM_WHOLE, "bowing positions"),
        FLAG_REAL("nf", p->nf, "", 1, 400, PARAM_WHOLE, "bowing forces"));
    PARAMS_FILL(k->stroke,
        FLAG_REAL("accel", p->stroke.accel, "m/s^2", 0, 1000, CLI_OPEN_MIN,
            "bow acceleration from rest"),
        FLAG_REAL("v_hold", p->stroke.v_hold, "m/s", 0, 10, CLI_OPEN_MIN, "steady bow velocity"),
        FLAG_REAL("t_hold", p->stroke.t_hold, "s", 0, 60, CLI_OPEN_MIN, "length of the hold"),
        FLAG_REAL("settle", p->stroke.settle, "s", 0, 60, CLI_CLOSED,
            "the analysis window starts this long into the hold"));
    PARAMS_FILL(k->rest,
        FLAG_REAL("n_full", p->n_full, "", 1, 400, CLI_CLOSED,
            "positions and forces of the full grid"),
        FLAG_REAL("decel", p->stroke.decel, "m/s^2", 0, 1000, CLI_CLOSED,
            "deceleration after the hold"),
        FLAG_REAL("gallery_x", p->gallery_x, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX,
            "x_b/L of the Figure 9 gallery"),
        FLAG_REAL("gallery_offset", p->gallery_offset, "N", 0, 100, CLI_CLOSED,
            "offset between gallery waveforms"));
    for (int i = 0; i < PLANE_NGALLERY; i++) {
        snprintf(keys[i], sizeof keys[i], "gallery_f%d", i + 1);
        k->gallery[i] = (param_spec)FLAG_REAL(keys[i], p->gallery_f[i], "N", 0, 100, CLI_OPEN_MIN,
                                              "gallery force");
    }
    k->gallery[PLANE_NGALLERY] = (param_spec)FLAG_END;
    PARAMS_FILL(k->all, FLAG_TABLE(k->grid), FLAG_TABLE(k->stroke), FLAG_TABLE(k->rest),
                FLAG_TABLE(k->gallery));
}

void plane_grid_init(plane_grid *g, int nx, int nf, double x_min, double x_max, double f_min,
                     double f_max)
{
    *g = (plane_grid){.nx = nx, .nf = nf, .x_min = x_min, .x_max = x_max, .f_min = f_min,
                      .f_max = f_max,
                      .rx = nx > 1 ? pow(x_max / x_min, 1.0 / (double)(nx - 1)) : 1.0,
                      .rf = nf > 1 ? pow(f_max / f_min, 1.0 / (double)(nf - 1)) : 1.0};
    if (g->rx == 1.0)
        g->rx = 1.1;
    if (g->rf == 1.0)
        g->rf = 1.1;
}

double plane_x(const plane_grid *g, int i)
{
    return g->nx > 1 ? g->x_min * pow(g->rx, i) : g->x_min;
}
double plane_f(const plane_grid *g, int j)
{
    return g->nf > 1 ? g->f_min * pow(g->rf, j) : g->f_min;
}

int plane_check(const char *program, const plane_params *p, long nx, long nf,
                const bow_instrument *in, failure *e)
{
    if (p->x_min > p->x_max)
        return failure_input(e, program, "--x_min %g is above --x_max %g; accepted: x_min <= x_max",
                             p->x_min, p->x_max);
    if (p->f_min > p->f_max)
        return failure_input(e, program, "--f_min %g is above --f_max %g; accepted: f_min <= f_max",
                             p->f_min, p->f_max);
    if (p->stroke.settle >= p->stroke.t_hold - 2.0 / in->f0)
        return failure_input(
            e, program,
            "--settle %g leaves under two periods of the %g s hold; accepted: settle < "
            "t_hold - 2/f0",
            p->stroke.settle, p->stroke.t_hold);
    /* a log-spaced grid needs two distinct ends: with one end, --nx/--nf cells would walk off it */
    if (nx > 1 && p->x_min == p->x_max)
        return failure_input(
            e, program,
            "--x_min %g equals --x_max with --nx %ld, a grid leaving [x_min, x_max]; "
            "accepted: x_min < x_max, or --nx 1",
            p->x_min, nx);
    if (nf > 1 && p->f_min == p->f_max)
        return failure_input(
            e, program,
            "--f_min %g equals --f_max with --nf %ld, a grid leaving [f_min, f_max]; "
            "accepted: f_min < f_max, or --nf 1",
            p->f_min, nf);
    if (p->gallery_x * in->L <= 0.5 * in->W_b || p->x_min * in->L <= 0.5 * in->W_b)
        return failure_input(
            e, program,
            "x_b/L %g puts the bow hair (width %g m) over the bridge; accepted: x_b > "
            "W_b / 2",
            fmin(p->gallery_x, p->x_min), in->W_b);
    return 0;
}

/* ---- one cell in a worker, its row in the parent ----------------------------------------------
 */

/* What a worker sends back for one cell. */
typedef struct cell_msg {
    int status;             /* 0, or -1 with err */
    double seconds;         /* wall time of the cell, s */
    double cpu;             /* CPU time of the cell, s */
    double dt;              /* the time step that succeeded, s */
    regime_result r;        /* the classification */
    char err[240];          /* why the stroke failed */
} cell_msg;

static const char *const columns[] = {
    "i_x",
    "i_f",
    "x_b_over_L",
    "f_b_N",
    "regime",
    "slips_per_period",
    "f0_hz",
    "mean_N",
    "rms_N",
    "centroid_hz",
    "period_ratio",
    "regularity",
    "flybacks_per_period",
    "amplitude_N",
    "amplitude_ratio",
    "x_lo",
    "x_hi",
    "f_lo",
    "f_hi",
    "seconds",
    "cpu_seconds",
    "dt_s",
    "source",
    "reason",
    "secondary_ratio",
    NULL,
};

static const char *source_name(const plane_sweep *ps)
{
    return ps->stand_in ? "stand-in" : "simulation";
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_cell(long t, void *ctx, sweep_msg *out)
{
    const plane_sweep *ps = ctx;
    regime_opts ro = regime_defaults();
    cell_msg m;
    memset(&m, 0, sizeof m);
    double x = plane_x(&ps->grid, (int)(t % ps->grid.nx)),
           f = plane_f(&ps->grid, (int)(t / ps->grid.nx));
    double t0 = wall_seconds(), c0 = cpu_seconds();
    m.dt = ps->inst->dt;
    if (ps->stand_in)
        m.status = schelleng_standin_cell(ps->inst, ps->stroke, x, f, &ro, &m.r);
    else {
        char kept[4096];
        if (ps->keep)
            snprintf(kept, sizeof kept, "%s/%s-x%.9g-f%.9g.bin", ps->keep, ps->spec.label, x, f);
        m.status = schelleng_cell_kept(ps->keep ? kept : NULL, ps->inst, ps->stroke, x, f, &ro,
                                       &m.r, &m.dt, m.err, sizeof m.err);
    }
    m.seconds = wall_seconds() - t0;
    m.cpu = cpu_seconds() - c0;
    sweep_msg_add(out, &m, sizeof m);
}

static int take_cell(long t, const void *msg, size_t len, void *ctx, char *row)
{
    plane_sweep *ps = ctx;
    cell_msg m;
    if (len != sizeof m)
        return 0;
    memcpy(&m, msg, sizeof m);
    const plane_grid *g = &ps->grid;
    int i = (int)(t % g->nx), j = (int)(t / g->nx);
    double x = plane_x(g, i), f = plane_f(g, j), sx = sqrt(g->rx), sf = sqrt(g->rf);
    ps->cpu += m.cpu;
    if (m.status && ps->failed++ == 0)
        snprintf(ps->first_error, sizeof ps->first_error, "cell x_b/L %.4g, f_b %.4g N: %s", x, f,
                 m.err);
    const regime_result *r = &m.r;
    return snprintf(row, SWEEP_ROW_MAX,
                    "%d\t%d\t%.6g\t%.6g\t%s\t%.4f\t%.4f\t%.5g\t%.5g\t%.5g\t%.5f\t%.4f\t%.4f\t%."
                    "5g\t%.4g\t%.6g\t%.6g\t"
                    "%.6g\t%.6g\t%.3f\t%.3f\t%.3g\t%s\t%s\t%.4f\n",
                    i, j, x, f, m.status ? "failed" : regime_name(r->kind), r->slips_per_period,
                    r->f0_hz, r->mean_n, r->rms_n, r->centroid_hz, r->period_ratio, r->regularity,
                    r->flybacks_per_period, r->amplitude_n, r->amplitude_ratio, x / sx, x * sx,
                    f / sf, f * sf, m.seconds, m.cpu, m.dt, source_name(ps),
                    m.status ? "failed" : regime_reason_name(r->reason), r->secondary_ratio);
}

static bool on_grid(const plane_grid *g, int i, int j, double x, double f)
{
    return i >= 0 && i < g->nx && j >= 0 && j < g->nf && fabs(x / plane_x(g, i) - 1) <= 1e-5 &&
           fabs(f / plane_f(g, j) - 1) <= 1e-5;
}

/* Field k of a row as a number: whole, and finite unless nan_ok. */
static bool number(char *const *field, int k, bool nan_ok, double *v)
{
    char *end;
    *v = strtod(field[k], &end);
    return end != field[k] && !*end && (isfinite(*v) || (nan_ok && isnan(*v)));
}

/* The fields after the cell of a row (x, f: the cell's): "" when each is of this program's
 * making, else what is wrong (the column). */
static void row_fields(char *const *field, const plane_sweep *ps, double x, double f, char *bad,
                       size_t n)
{
    static const int nan_ok[] = {
        6, 9, 10, 14}; /* f0, centroid, T/T0, amplitude ratio: NAN when not periodic */
    double v[PLANE_NCOLUMNS], sx = sqrt(ps->grid.rx), sf = sqrt(ps->grid.rf);
    bad[0] = 0;
    for (int k = 5; k < PLANE_NCOLUMNS && !bad[0]; k++) {
        bool nan = false;
        for (size_t q = 0; q < sizeof nan_ok / sizeof nan_ok[0]; q++)
            nan |= nan_ok[q] == k;
        if (k != 22 && k != 23 && !number(field, k, nan, &v[k]))
            snprintf(bad, n, "%s '%s' is not a %snumber", columns[k], field[k],
                     nan ? "" : "finite ");
    }
    int kind = regime_from_name(field[4]), reason = regime_reason_from_name(field[23]);
    const double edge[4] = {x / sx, x * sx, f / sf, f * sf};
    for (int k = 15; k < 19 && !bad[0]; k++)
        if (fabs(v[k] / edge[k - 15] - 1) > 1e-5)
            snprintf(bad, n, "%s %s is not the cell's edge %.6g", columns[k], field[k],
                     edge[k - 15]);
    if (bad[0])
        return;
    if (kind < 0 || reason < 0)
        snprintf(bad, n, "%s '%s' is not one of this program's", kind < 0 ? "regime" : "reason",
                 kind < 0 ? field[4] : field[23]);
    else if ((kind == REGIME_UNCLASSIFIED) != (reason != REGIME_REASON_NONE))
        snprintf(bad, n, "regime %s with reason %s", field[4], field[23]);
    else if (v[19] < 0 || v[20] < 0 || v[21] <= 0)
        snprintf(bad, n, "seconds, cpu_seconds, dt_s %s, %s, %s out of range", field[19], field[20],
                 field[21]);
}

static long row_cell(char *const *field, void *ctx, bool *again, char *why, size_t whylen)
{
    const plane_sweep *ps = ctx;
    char *end_i, *end_j, bad[200];
    long i = strtol(field[0], &end_i, 10), j = strtol(field[1], &end_j, 10);
    double x, f;
    if (*end_i || *end_j || !number(field, 2, false, &x) || !number(field, 3, false, &f))
        return -1;
    if (i > INT_MAX || j > INT_MAX || !on_grid(&ps->grid, (int)i, (int)j, x, f)) {
        snprintf(
            why, whylen,
            "cell (%ld, %ld) at x_b/L %g, f_b %g N is not on this grid; accepted: the grid that "
            "made the file, or another --results file",
            i, j, x, f);
        return -1;
    }
    if (strcmp(field[22], source_name(ps)) != 0) {
        snprintf(why, whylen,
                 "a %s row, but this run computes %s cells; use another --results file", field[22],
                 source_name(ps));
        return -1;
    }
    *again = strcmp(field[4], "failed") == 0 && strcmp(field[23], "failed") == 0;
    if (*again) {
        snprintf(why, whylen, "cell (%ld, %ld) failed", i, j);
        return j * ps->grid.nx + i;
    }
    row_fields(field, ps, x, f, bad, sizeof bad);
    if (bad[0]) {
        snprintf(why, whylen,
                 "cell (%ld, %ld): %s; accepted: rows as bin/schelleng writes them (without this "
                 "row its cell runs again)",
                 i, j, bad);
        return -1;
    }
    return j * ps->grid.nx + i;
}

static void cell_name(long t, void *ctx, char *buf, size_t n)
{
    const plane_sweep *ps = ctx;
    snprintf(buf, n, "cell (%ld, %ld)", t % ps->grid.nx, t / ps->grid.nx);
}

/* The header's last field: this program, the grid and the model (FNV-1a over every instrument
 * value and the stroke, as text). */
static void identity(plane_sweep *ps, const char *program, sweep_shard shard)
{
    unsigned long long h = 1469598103934665603ull;
    char text[160];
    bow_instrument copy = *ps->inst;
    param_spec spec[BOW_NKEYS + 1];
    bow_param_table(&copy, spec);
    const schelleng_stroke *st = ps->stroke;
    for (const param_spec *p = spec;; p++) {
        if (p->name)
            snprintf(text, sizeof text, "%s=%.17g;", p->name, *(double *)p->dest);
        else
            snprintf(text, sizeof text, "stroke=%.17g,%.17g,%.17g,%.17g,%.17g", st->accel,
                     st->v_hold, st->t_hold, st->decel, st->settle);
        for (const char *c = text; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        if (!p->name)
            break;
    }
    const plane_grid *g = &ps->grid;
    snprintf(ps->identity, sizeof ps->identity,
             "bin/%s results v1: x %.9g-%.9g (%d), f %.9g-%.9g N (%d), model "
             "%016llx, %s",
             program, g->x_min, g->x_max, g->nx, g->f_min, g->f_max, g->nf, h, source_name(ps));
    char whole[sizeof ps->identity];
    memcpy(whole, ps->identity, sizeof whole);
    sweep_shard_identity(ps->identity, sizeof ps->identity, whole, shard);
}

/* want[c] = 1 for the cells that ps->redo has as unclassified; 0, or -1 with the reason. */
static int unclassified_cells(plane_sweep *ps, char *why, size_t whylen)
{
    FILE *f = fopen(ps->redo, "r");
    if (!f) {
        snprintf(why, whylen, "cannot read it: %s; accepted: a results file of this grid",
                 strerror(errno));
        return -1;
    }
    fclose(f);
    const plane_grid *g = &ps->grid;
    ps->want = xcalloc((size_t)g->nx * (size_t)g->nf, 1);
    long n;
    plane_row *rows = plane_load_rows(ps->redo, &n);
    int rc = 0;
    for (long r = 0; r < n && rc == 0; r++) {
        const plane_row *c = &rows[r];
        if (!on_grid(g, c->i, c->j, c->x, c->f)) {
            snprintf(
                why, whylen,
                "cell (%d, %d) at x_b/L %g, f_b %g N is not on this grid; accepted: a results file "
                "of this grid",
                c->i, c->j, c->x, c->f);
            rc = -1;
        } else if (c->kind == REGIME_UNCLASSIFIED)
            ps->want[(size_t)c->j * (size_t)g->nx + (size_t)c->i] = 1;
    }
    free(rows);
    return rc;
}

int plane_sweep_init(plane_sweep *ps, const char *program, const char *label, const char *results,
                     sweep_shard shard, long jobs)
{
    ps->failed = 0, ps->cpu = 0, ps->first_error[0] = 0, ps->want = NULL;
    identity(ps, program, shard);
    char why[1200];
    if (ps->redo && unclassified_cells(ps, why, sizeof why) != 0) {
        fprintf(stderr, "%s: --redo_unclassified %s: %s\n", program, ps->redo, why);
        plane_sweep_free(ps);
        return 2;
    }
    ps->spec = (sweep_spec){.program = program, .label = label, .unit = "cells",
                            .tasks = (long)ps->grid.nx * ps->grid.nf, .shard = shard,
                            .jobs = jobs, .progress = true, .want = ps->want,
                            .results = results, .columns = columns, .identity = ps->identity,
                            .row_task = row_cell, .run = run_cell, .take = take_cell, .ctx = ps,
                            .task_name = cell_name};
    return 0;
}

int plane_sweep_open(plane_sweep *ps, sweep *s)
{
    int rc = sweep_open(s, &ps->spec);
    if (rc != 0)
        plane_sweep_free(ps);
    return rc;
}

void plane_sweep_free(plane_sweep *ps)
{
    free(ps->want);
    ps->want = NULL;
}

/* The merged file's name from a part's: ...-K-of-N.tsv without -K-of-N; 0, or -1. */
static int merged_name(const char *part, char *path, size_t n)
{
    const char *of = NULL, *k, *p;
    for (p = strstr(part, "-of-"); p; p = strstr(p + 1, "-of-"))
        of = p;
    for (k = of; k && k > part && k[-1] >= '0' && k[-1] <= '9'; k--)
        ;
    long total;
    char tail[8] = "";
    if (!of || k == of || k == part || k[-1] != '-' ||
        sscanf(of, "-of-%ld%7s", &total, tail) != 2 || strcmp(tail, ".tsv") != 0)
        return -1;
    snprintf(path, n, "%.*s.tsv", (int)(k - 1 - part), part);
    return 0;
}

int plane_merge(const char *program, char *const *part, int nparts, const char *results,
                plane_grid *g, char *path, size_t pathlen)
{
    char line[2048] = "", tag[64], source[32] = "", base[sizeof ((plane_sweep *)0)->identity];
    FILE *f = fopen(part[0], "r");
    if (!f) {
        fprintf(stderr, "%s: --merge: cannot read %s: %s\n", program, part[0], strerror(errno));
        return 2;
    }
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    const char *id = strrchr(line, '\t');
    int nx = 0, nf = 0, used = 0;
    double x0, x1, f0, f1;
    snprintf(tag, sizeof tag, "bin/%s results v1: x", program);
    if (!id || strncmp(id + 1, tag, strlen(tag)) != 0 ||
        sscanf(id + 1 + strlen(tag),
               " %lf-%lf (%d), f %lf-%lf N (%d), model %*[0-9a-f], %31[a-z-]%n", &x0, &x1, &nx, &f0,
               &f1, &nf, source, &used) != 7 ||
        nx < 1 || nf < 1 || nx > 400 || nf > 400) {
        fprintf(stderr,
                "%s: --merge: %s does not start with a results header of bin/%s; accepted: the "
                "parts that "
                "--shard K/N wrote\n",
                program, part[0], program);
        return 2;
    }
    if (!results && merged_name(part[0], path, pathlen) != 0) {
        fprintf(stderr,
                "%s: --merge: %s is not named ...-K-of-N.tsv, so the merged file has no name; "
                "accepted: "
                "--results FILE\n",
                program, part[0]);
        return 2;
    }
    if (results)
        snprintf(path, pathlen, "%s", results);
    snprintf(base, sizeof base, "%.*s", (int)(strlen(tag) + (size_t)used), id + 1);
    plane_sweep ps = {.stand_in = strcmp(source, "stand-in") == 0};
    plane_grid_init(&ps.grid, nx, nf, x0, x1, f0, f1);
    *g = ps.grid;
    sweep_spec spec = {.program = program, .label = "merge", .unit = "cells",
                       .tasks = (long)nx * nf, .shard = {1, 1}, .jobs = 1, .results = path,
                       .columns = columns, .identity = base, .row_task = row_cell, .ctx = &ps,
                       .task_name = cell_name};
    return sweep_merge(&spec, part, nparts);
}

void plane_results_name(char *path, size_t n, const char *out, const char *params_name, bool full,
                        bool stand_in, sweep_shard sh)
{
    char base[256] = "results";
    if (params_name) {
        const char *b = strrchr(params_name, '/');
        b = b ? b + 1 : params_name;
        snprintf(base, sizeof base, "results-%.*s", (int)(strcspn(b, ".")), b);
    }
    snprintf(base + strlen(base), sizeof base - strlen(base), "%s%s", full ? "-full" : "",
             stand_in ? "-stand-in" : "");
    if (sh.n > 1)
        snprintf(base + strlen(base), sizeof base - strlen(base), "-%ld-of-%ld", sh.k, sh.n);
    snprintf(path, n, "%s/%s.tsv", out, base);
}

/* ---- reading a results file back ------------------------------------------------------------- */

plane_row *plane_load_rows(const char *path, long *n)
{
    long cap = 1024;
    plane_row *rows = xcalloc((size_t)cap, sizeof *rows);
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return rows;
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "i_x\t", 4) == 0)
            continue;
        char *field[32];
        int nf = 0;
        for (char *s = strtok(line, "\t\n"); s && nf < 32; s = strtok(NULL, "\t\n"))
            field[nf++] = s;
        plane_row c;
        if (nf < 5 || sscanf(field[0], "%d", &c.i) != 1 || sscanf(field[1], "%d", &c.j) != 1 ||
            sscanf(field[2], "%lf", &c.x) != 1 || sscanf(field[3], "%lf", &c.f) != 1)
            continue;
        c.kind = regime_from_name(field[4]);
        c.reason = nf > 23 ? regime_reason_from_name(field[23]) : -1;
        if (*n == cap) {
            plane_row *more = xcalloc((size_t)cap * 2, sizeof *rows);
            memcpy(more, rows, (size_t)cap * sizeof *rows);
            free(rows);
            rows = more, cap *= 2;
        }
        rows[(*n)++] = c;
    }
    fclose(f);
    return rows;
}

long plane_counts(const char *path, long counts[REGIME_COUNT + 1],
                  long reasons[REGIME_REASON_COUNT])
{
    long n;
    plane_row *rows = plane_load_rows(path, &n);
    memset(counts, 0, (REGIME_COUNT + 1) * sizeof *counts);
    memset(reasons, 0, REGIME_REASON_COUNT * sizeof *reasons);
    for (long r = 0; r < n; r++) {
        counts[rows[r].kind >= 0 ? rows[r].kind : REGIME_COUNT]++;
        if (rows[r].kind == REGIME_UNCLASSIFIED && rows[r].reason >= 0)
            reasons[rows[r].reason]++;
    }
    free(rows);
    return n;
}

void plane_summary_rows(table *tab, const char *what, const char *results)
{
    long counts[REGIME_COUNT + 1], reasons[REGIME_REASON_COUNT];
    long n = plane_counts(results, counts, reasons);
    for (int k = 0; k <= REGIME_COUNT; k++) {
        if (k == REGIME_COUNT && counts[k] == 0)
            continue;
        table_cell(tab, "%s", what);
        table_cell(tab, "%s", k < REGIME_COUNT ? regime_name((regime_kind)k) : "failed");
        table_cell(tab, "%ld", counts[k]);
        table_cell(tab, "%ld", n);
    }
    for (int k = 1; k < REGIME_REASON_COUNT; k++)
        if (reasons[k]) {
            table_cell(tab, "%s", what);
            table_cell(tab, "unclassified:%s", regime_reason_name((regime_reason)k));
            table_cell(tab, "%ld", reasons[k]);
            table_cell(tab, "%ld", counts[REGIME_UNCLASSIFIED]);
        }
}

long plane_central(const plane_row *rows, long n, int kind)
{
    double cx = 0, cf = 0;
    long m = 0, best = -1;
    for (long r = 0; r < n; r++)
        if (rows[r].kind == kind)
            cx += log(rows[r].x), cf += log(rows[r].f), m++;
    double dbest = INFINITY;
    for (long r = 0; r < n && m; r++)
        if (rows[r].kind == kind) {
            double d = hypot(log(rows[r].x) - cx / m, log(rows[r].f) - cf / m);
            if (d < dbest)
                dbest = d, best = r;
        }
    return best;
}

/* ---- waveforms ------------------------------------------------------------------------------ */

double *plane_resampled(const schelleng_signal *s, double rate, size_t *n, char *err, size_t errlen)
{
    return resample(s->bridge, s->n, s->fs, rate, RESAMPLE_BEST, n, err, errlen);
}

/* The gallery as a sweep without a results file: a worker sends the classification, then the
 * waveform. */
typedef struct gallery_job {
    const char *program;            /* for messages */
    const bow_instrument *in;       /* the instrument */
    const schelleng_stroke *st;     /* the stroke */
    double x;                       /* x_b/L of every stroke */
    const double *f;                /* their forces, N */
    double rate;                    /* Hz */
    plane_wave *out;                /* what arrives */
} gallery_job;

static void gallery_stroke(long k, void *ctx, sweep_msg *out)
{
    const gallery_job *job = ctx;
    regime_opts ro = regime_defaults();
    schelleng_signal s = {0};
    regime_result r;
    char err[300];
    int st =
        schelleng_cell(job->in, job->st, job->x, job->f[k], &ro, &r, &s, NULL, err, sizeof err);
    size_t n = 0;
    double *w = st == 0 ? plane_resampled(&s, job->rate, &n, err, sizeof err) : NULL;
    if (!w)
        fprintf(stderr, "%s: gallery f_b %g N: %s\n", job->program, job->f[k], err);
    sweep_msg_add(out, &r, sizeof r);
    if (n)
        sweep_msg_add(out, w, n * sizeof *w);
    free(w);
    schelleng_signal_free(&s);
}

static int gallery_take(long k, const void *msg, size_t len, void *ctx, char *row)
{
    (void)row;
    plane_wave *o = &((gallery_job *)ctx)->out[k];
    if (len <= sizeof o->r)
        return 0;
    memcpy(&o->r, msg, sizeof o->r);
    o->n = (len - sizeof o->r) / sizeof(double);
    o->wave = xcalloc(o->n, sizeof(double));
    memcpy(o->wave, (const char *)msg + sizeof o->r, o->n * sizeof(double));
    return 0;
}

int plane_gallery(const char *program, const bow_instrument *in, const schelleng_stroke *st,
                  double x, const double *f, int n, long jobs, double rate, plane_wave *out)
{
    memset(out, 0, (size_t)n * sizeof *out);
    gallery_job job = {.program = program, .in = in, .st = st, .x = x, .f = f, .rate = rate,
                       .out = out};
    sweep_spec spec = {.program = program, .label = "gallery", .unit = "strokes", .tasks = n,
                       .shard = {1, 1}, .jobs = jobs, .run = gallery_stroke,
                       .take = gallery_take, .ctx = &job};
    sweep s;
    sweep_stats stats;
    int failed = sweep_open(&s, &spec) != 0 || sweep_run(&s, &stats) != 0;
    for (int k = 0; k < n; k++)
        failed += !out[k].wave;
    return failed;
}

const char *plane_example(const char *program, const bow_instrument *in, const schelleng_stroke *st,
                          const plane_grid *g, const plane_row *rows, long n, int kind, double rate,
                          double periods, double **w, size_t *nw, char *where, size_t wherelen,
                          failure *e)
{
    double T0 = 1.0 / in->f0, t0, t1;
    size_t len = (size_t)lround(periods * T0 * rate);
    long best = plane_central(rows, n, kind);
    schelleng_window(st, &t0, &t1);
    *w = NULL;
    if (best >= 0) {
        schelleng_signal s = {0};
        regime_result r;
        regime_opts ro = regime_defaults();
        const plane_row *c = &rows[best];
        double x = c->i < g->nx ? plane_x(g, c->i) : c->x,
               fb = c->j < g->nf ? plane_f(g, c->j) : c->f;
        size_t all = 0, k0 = (size_t)lround((t1 - periods * T0) * rate);
        char err[300];
        bool ran = schelleng_cell(in, st, x, fb, &ro, &r, &s, NULL, err, sizeof err) == 0;
        double *F = ran ? plane_resampled(&s, rate, &all, err, sizeof err) : NULL;
        schelleng_signal_free(&s);
        if (ran && !F) {
            failure_set(e, 1, "%s: %s", program, err);     /* the resampler refused */
            return NULL;
        }
        if (F) {
            *nw = k0 < all ? (all - k0 < len ? all - k0 : len) : 0;
            *w = xcalloc(*nw + 1, sizeof **w);
            memcpy(*w, F + (k0 < all ? k0 : 0), *nw * sizeof **w);
            free(F);
            snprintf(where, wherelen, "x_b/L = %.4g, f_b = %.3g N", x, fb);
            return "simulated";
        }
    }
    *nw = len;
    *w = xcalloc(len, sizeof **w);
    double *v = xcalloc(len, sizeof *v), beta = 0.1;
    regime_synthetic((regime_kind)kind, v, *w, len, rate, T0, st->v_hold, beta,
                     regime_helmholtz_pp(in->T, st->v_hold, beta, 2 * in->L * in->f0), 5);
    free(v);
    snprintf(where, wherelen, "a kinematic sketch, not the model");
    return "synthetic";
}

const double plane_schelleng_slope[REGIME_EDGE_COUNT] = {-1, -2, NAN};

static int write_boundaries(const char *path, const double *x, size_t nx, double *const *edge,
                            const regime_fit *fit)
{
    atomic_file af;
    FILE *o = atomic_open(&af, path);
    if (!o)
        return -1;
    fprintf(o, "x_b_over_L\thelmholtz_max_N\thelmholtz_min_N\tdouble_multiple_N\n");
    for (size_t i = 0; i < nx; i++)
        fprintf(o, "%.6g\t%.6g\t%.6g\t%.6g\n", x[i], edge[0][i], edge[1][i], edge[2][i]);
    fprintf(o, "\n\nboundary\tpoints\tslope\tslope_se\tf_at_1_N\tschelleng_slope\n");
    for (int e = 0; e < REGIME_EDGE_COUNT; e++)
        fprintf(o, "%s\t%zu\t%.6g\t%.6g\t%.6g\t%g\n", regime_edge_name((regime_edge)e),
                fit[e].points, fit[e].slope, fit[e].slope_se, pow(10, fit[e].intercept),
                plane_schelleng_slope[e]);
    if (atomic_commit(&af) != 0)
        return -1;
    manifest_note(path);
    return 0;
}

int plane_boundaries(const char *results, const plane_grid *g, regime_fit fit[REGIME_EDGE_COUNT],
                     char *path, size_t pathlen)
{
    size_t len = strlen(results),
           stem = len > 4 && strcmp(results + len - 4, ".tsv") == 0 ? len - 4 : len;
    snprintf(path, pathlen, "%.*s-boundaries.tsv", (int)stem, results);
    size_t nx = (size_t)g->nx, nf = (size_t)g->nf, cells = nx * nf;
    int *kind = xcalloc(cells, sizeof *kind);
    for (size_t c = 0; c < cells; c++)
        kind[c] = -1;
    long n;
    plane_row *rows = plane_load_rows(results, &n);
    for (long r = 0; r < n; r++)
        if (rows[r].i >= 0 && rows[r].i < g->nx && rows[r].j >= 0 && rows[r].j < g->nf)
            kind[(size_t)rows[r].j * nx + (size_t)rows[r].i] = rows[r].kind;
    free(rows);
    double *x = xcalloc(nx, sizeof *x), *f = xcalloc(nf, sizeof *f), *edge[REGIME_EDGE_COUNT];
    for (size_t i = 0; i < nx; i++)
        x[i] = plane_x(g, (int)i);
    for (size_t j = 0; j < nf; j++)
        f[j] = plane_f(g, (int)j);
    for (int e = 0; e < REGIME_EDGE_COUNT; e++) {
        edge[e] = xcalloc(nx, sizeof(double));
        regime_edges(kind, x, nx, f, nf, (regime_edge)e, edge[e], &fit[e]);
    }
    int rc = write_boundaries(path, x, nx, edge, fit);
    for (int e = 0; e < REGIME_EDGE_COUNT; e++)
        free(edge[e]);
    free(x);
    free(f);
    free(kind);
    return rc;
}
