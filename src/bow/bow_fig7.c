/* bow_fig7.c: Figure 7's first-slip transients, a client of sweep.h (bow_fig7.h). */
#include "bow/bow_fig7.h"
#include "base/cli.h"
#include "base/util.h"
#include "io/atomic.h"
#include "bow/bow_record.h"
#include "bow/gesture.h"
#include "study/sweep.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Figure 7: the nine first-slip transients, independent runs over study/sweep.h's workers
 * (--jobs). A worker sends a fig7_head, then the bridge force and the time of every 4th step. */
typedef struct fig7_head {
    int status;         /* 0; 1 the run failed, 2 the model refused the parameters (err) */
    double zmax;        /* largest |z| over the bound mu_s / sigma0, 1 */
    double taumin;      /* smallest contact temperature rise, K */
    double t_slip;      /* the first slip, s (0: none) */
    double drop;        /* its force drop, N */
    double fall;        /* the steepest fall of the force, N/s */
    size_t n;           /* samples of the bridge force (every 4th step) */
    char err[600];      /* why it failed */
} fig7_head;

typedef struct fig7_job {
    const char *prog;           /* the program, in its errors */
    const bow_instrument *in0;  /* the instrument, before each run's mu_d and b_tau */
    const bow_figure_params *fp;    /* the nine runs' parameters */
    fig7_head head[9];          /* what each run measured */
    double *col[9];             /* its bridge force, N */
    double *tcol;               /* the times, s (of the first run to arrive) */
    failure fail;               /* the first run that failed (status 0: none) */
} fig7_job;


/* The instrument and stroke of transient c = 3 b + d (b_tau scale b, mu_d d). */
static void fig7_setup(const bow_instrument *in0, const bow_figure_params *fp, long c,
                       bow_instrument *in, gesture *g)
{
    *in = *in0;
    in->mu_d = fp->fig7_mu_d[c % 3];
    in->b_tau = in0->b_tau * fp->fig7_b_scale[c / 3];
    *g = gesture_stroke(fp->fig7_accel, fp->fig7_accel * fp->fig7_duration, 0.0, 0.0, fp->fig7_f_b,
                        fp->fig7_x_b_rel * in->L);
    g->duration = fp->fig7_duration;
}

int bow_fig7_check(const bow_instrument *in0, const bow_figure_params *fp, char *err, size_t errlen)
{
    for (long c = 0; c < 9; c++) {
        bow_instrument in;
        gesture g;
        fig7_setup(in0, fp, c, &in, &g);
        if (bow_model_check(&in, &g, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* In a worker: transient c = 3 b + d (b_tau scale b, mu_d d). */
static void fig7_run(long c, void *ctx, sweep_msg *out)
{
    const fig7_job *job = ctx;
    bow_instrument in;
    gesture g;
    fig7_setup(job->in0, job->fp, c, &in, &g);
    fig7_head h = {0};
    bow_model m;
    if (bow_model_init(&m, &in, &g, h.err, sizeof h.err) != 0) {
        h.status = 2;
        sweep_msg_add(out, &h, sizeof h);
        return;
    }
    bow_record r;
    bow_record_init(&r, &m, (size_t)lround(g.duration / in.dt) + 2);
    double *x = xcalloc(m.at.dim, sizeof(double));
    bow_run_opts o = {.solver = BOW_FIXED, .h = in.dt, .dt_out = in.dt, .t1 = g.duration,
                      .sink = bow_record_sink, .ctx = &r};
    bow_run_result res;
    if (bow_run(&m, &o, x, &res) != 0) {
        h.status = 1;
        snprintf(h.err, sizeof h.err, "figure 7 (mu_d %g, b_tau %g): %s", in.mu_d, in.b_tau,
                 res.message);
    } else {
        h.zmax = r.z_absmax / (in.mu_s / in.sigma0);
        h.taumin = r.tau_min;
        bow_record_slips(&r, 0, r.n, &h.t_slip);
        h.drop = h.t_slip > 0 ? bow_record_first_drop(&r, in.dt, h.t_slip, &h.fall) : 0;
        h.n = r.n / 4;
    }
    sweep_msg_add(out, &h, sizeof h);
    for (size_t k = 0; k < h.n; k++)
        sweep_msg_add(out, &r.bridge_u[4 * k], sizeof(double));
    for (size_t k = 0; k < h.n; k++)
        sweep_msg_add(out, &r.t[4 * k], sizeof(double));
    free(x);
    bow_record_free(&r);
    bow_model_free(&m);
}

static int fig7_take(long c, const void *msg, size_t len, void *ctx, char *row)
{
    (void)row;
    fig7_job *job = ctx;
    fig7_head *h = &job->head[c];
    memcpy(h, msg, sizeof *h);
    if (job->fail.status)
        return 0;
    if (h->status == 2)
        return failure_input(&job->fail, job->prog, "figure 7: %s", h->err), 0;
    if (h->status != 0 || len != sizeof *h + 2 * h->n * sizeof(double))
        return failure_set(&job->fail, 1, "%s: %s", job->prog,
                           h->status ? h->err : "figure 7: a run's result came back cut short"), 0;
    const double *v = (const double *)((const char *)msg + sizeof *h);
    job->col[c] = xcalloc(h->n + 1, sizeof(double));
    memcpy(job->col[c], v, h->n * sizeof(double));
    if (!job->tcol) {
        job->tcol = xcalloc(h->n + 1, sizeof(double));
        memcpy(job->tcol, v + h->n, h->n * sizeof(double));
    }
    return 0;
}

/* fig7.tsv (n samples of the nine bridge forces) and fig7_drops.tsv. */
static int fig7_files(const fig7_job *job, const char *dir, size_t n, const double *t_slip,
                      const double *drop, const double *fall, failure *e)
{
    const bow_figure_params *fp = job->fp;
    atomic_file af;
    FILE *f = atomic_open_file(&af, job->prog, dir, "fig7.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "t_s");
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++)
            fprintf(f, "\tb_tau_x%g_mu_d_%g", fp->fig7_b_scale[b], fp->fig7_mu_d[d]);
    fprintf(f, "\n");
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "%.7g", job->tcol[k]);
        for (int c = 0; c < 9; c++)
            fprintf(f, "\t%.6g", job->col[c][k]);
        fprintf(f, "\n");
    }
    if (atomic_commit_file(&af, job->prog, e))
        return e->status;
    f = atomic_open_file(&af, job->prog, dir, "fig7_drops.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "b_tau_scale\tmu_d\tfirst_slip_s\tforce_drop_N\tsteepest_fall_N_per_ms\tz_max_over_"
               "bound\ttau_min_k\n");
    for (int c = 0; c < 9; c++)
        fprintf(f, "%g\t%g\t%.5f\t%.4f\t%.3f\t%.4f\t%.3e\n", fp->fig7_b_scale[c / 3],
                fp->fig7_mu_d[c % 3], t_slip[c], drop[c], fall[c] * 1e-3, job->head[c].zmax,
                job->head[c].taumin);
    return atomic_commit_file(&af, job->prog, e);
}

int bow_fig7_write(const char *prog, const bow_instrument *in0, const bow_figure_params *fp,
                   const char *dir, long jobs, double *t_slip, double *drop, double *fall,
                   int *slipped, failure *e)
{
    fig7_job job = {.prog = prog, .in0 = in0, .fp = fp};
    sweep_spec spec = {.program = prog, .label = "figure 7", .unit = "runs", .tasks = 9,
                       .shard = {1, 1}, .jobs = jobs, .run = fig7_run, .take = fig7_take,
                       .ctx = &job};
    sweep s;
    sweep_stats st;
    int rc = 0;
    if (sweep_open(&s, &spec) != 0 || sweep_run(&s, &st) != 0)
        rc = failure_set(e, 1, "%s", "");     /* the sweep said why */
    else if (job.fail.status)
        rc = (*e = job.fail).status;
    if (rc == 0) {
        *slipped = 0;
        size_t n = job.head[0].n;
        for (int c = 0; c < 9; c++) {
            t_slip[c] = job.head[c].t_slip, drop[c] = job.head[c].drop, fall[c] = job.head[c].fall;
            *slipped += t_slip[c] > 0;
            n = job.head[c].n < n ? job.head[c].n : n;
        }
        rc = fig7_files(&job, dir, n, t_slip, drop, fall, e);
    }
    for (int c = 0; c < 9; c++)
        free(job.col[c]);
    free(job.tcol);
    return rc;
}
