/* bow_figures.c: the data of the bowed-string article's figures (bow_figures.h). */
#include "bow/bow_figures.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/numfmt.h"
#include "analysis/measure.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A stroke's tables: the time (the first column) as "%.7g", the others as "%.6g" (numfmt_row:
 * printf's characters at a fraction of its cost, stroke.tsv being 25000 lines a second of
 * sound). */
static const char *const stroke_fmt[] = {"%.7g", "%.6g", "%.6g", "%.6g", "%.6g", "%.6g",
                                         "%.6g", "%.6g", "%.6g", "%.6g"};

int bow_write_stroke_data(const char *prog, const bow_record *r, const bow_model *m, double t_up,
                          double f_b, bool track, size_t nz, const char *dir, failure *e)
{
    atomic_file af;
    FILE *f = atomic_open_file(&af, prog, dir, "stroke.tsv", e);
    if (!f)
        return e->status;
    fprintf(
        f,
        "t_s\tv_b_m_per_s\tbridge_force_N\tquasi_static_N\tv_mean_m_per_s\tz_mean_um\ttemp_mean_c\t"
        "temp_max_c\tf_over_fb\ttorsional_bridge_N\n");
    for (size_t k = 0; k < r->n; k += 8) {
        double t = r->t[k];
        double qs =
            !track && t <= t_up ? m->in.T * r->v_b[k] * t / (2.0 * m->g.position) : NAN; /* (89) */
        double row[] = {t, r->v_b[k], r->bridge_u[k], qs, r->v_mean[k], r->z_mean[k] * 1e6,
                        r->tau_mean[k] + m->in.ambient_c, r->tau_max[k] + m->in.ambient_c,
                        r->friction[k], r->bridge_w[k]};
        numfmt_row(f, row, 10, stroke_fmt);
    }
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    /* three periods at the end, every step */
    f = atomic_open_file(&af, prog, dir, "zoom.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "t_ms\tbridge_force_N\tv_mean_m_per_s\tf_over_fb\ttemp_mean_c\tz_mean_um\n");
    for (size_t k = r->n > nz ? r->n - nz : 0; k < r->n; k++) {
        double row[] = {r->t[k] * 1e3, r->bridge_u[k], r->v_mean[k], r->friction[k],
                        r->tau_mean[k] + m->in.ambient_c, r->z_mean[k] * 1e6};
        numfmt_row(f, row, 6, stroke_fmt);
    }
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    /* the steady-state mapping (28) at this load, for Figure 6g */
    f = atomic_open_file(&af, prog, dir, "steady.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "v_m_per_s\ttemp_c\tmu_ss\n");
    double F_b = f_b / m->in.W_b;
    for (int k = 0; k <= 200; k++) {
        double v = 2.0 * k / 200.0, tau;
        bow_tau_of_v(&m->fr, v, F_b, &tau);
        fprintf(f, "%.6g\t%.6g\t%.6g\n", v, tau + m->in.ambient_c, bow_mu_ss(&m->fr, tau));
    }
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    return 0;
}

int bow_write_modes(const char *prog, const bow_model *m, double sigma0, double sigma2,
                    const char *dir, failure *e)
{
    atomic_file af;
    FILE *f = atomic_open_file(&af, prog, dir, "modes.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "mode\tf_u_hz\tQ_u\tf_w_hz\tQ_w\tQ_u_loss_model_2025\n");
    int M = m->Mu > m->Mw ? m->Mu : m->Mw;
    for (int i = 0; i < M; i++) {
        fprintf(f, "%d", i + 1);
        if (i < m->Mu)
            fprintf(f, "\t%.6g\t%.6g", m->fu[i], m->Qu[i]);
        else
            fprintf(f, "\tNaN\tNaN");
        if (i < m->Mw)
            fprintf(f, "\t%.6g\t%.6g", m->fw[i], m->Qw[i]);
        else
            fprintf(f, "\tNaN\tNaN");
        if (i < m->Mu) {   /* Q = omega / (2 sigma) of the group's fitted loss model */
            double b = (i + 1) * M_PI / m->in.L, sig = sigma0 + sigma2 * b * b;
            fprintf(f, "\t%.6g\n", 2 * M_PI * m->fu[i] / (2 * sig));
        } else
            fprintf(f, "\tNaN\n");
    }
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    return 0;
}

int bow_write_fig4(const char *prog, const bow_instrument *in, const bow_figure_params *fp,
                   const char *dir, failure *e)
{
    bow_friction fr[3];
    for (int c = 0; c < 3; c++) {
        fr[c] = bow_friction_of(in);
        fr[c].mu_s = fp->fig4_mu_s, fr[c].mu_d = fp->fig4_mu_d, fr[c].b_tau = fp->fig4_b_tau;
        fr[c].c_tau = fp->fig4_c_tau, fr[c].y_a = fp->fig4_y_a, fr[c].xi = fp->fig4_xi;
        fr[c].tau_g = fp->fig4_tau_g[c];
    }
    atomic_file af;
    FILE *f = atomic_open_file(&af, prog, dir, "fig4_v.tsv", e);
    if (!f)
        return e->status;
    fprintf(f,
            "v_m_per_s\tmu_ss_%g\tmu_ss_%g\tmu_ss_%g\ttemp_c_%g\ttemp_c_%g\ttemp_c_%g\tmu_str_%"
            "g\tmu_str_%g\tmu_str_%g\n",
            fp->fig4_tau_g[0], fp->fig4_tau_g[1], fp->fig4_tau_g[2], fp->fig4_tau_g[0],
            fp->fig4_tau_g[1], fp->fig4_tau_g[2], fp->fig4_tau_g[0], fp->fig4_tau_g[1],
            fp->fig4_tau_g[2]);
    for (int k = 0; k <= 400; k++) {
        double v = fp->fig4_v_max * pow(10.0, -4.0 + 4.0 * k / 400.0), tau[3];
        fprintf(f, "%.6g", v);
        for (int c = 0; c < 3; c++) {
            bow_tau_of_v(&fr[c], v, fp->fig4_F_b, &tau[c]);
            fprintf(f, "\t%.6g", bow_mu_ss(&fr[c], tau[c]));
        }
        for (int c = 0; c < 3; c++)
            fprintf(f, "\t%.6g", tau[c] + in->ambient_c);
        for (int c = 0; c < 3; c++)
            fprintf(f, "\t%.6g", bow_mu_str_tau(&fr[c], tau[c]));
        fprintf(f, "\n");
    }
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    f = atomic_open_file(&af, prog, dir, "fig4_y.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "temp_c\ty_%g\ty_%g\ty_%g\n", fp->fig4_tau_g[0], fp->fig4_tau_g[1],
            fp->fig4_tau_g[2]);
    for (int k = 0; k <= 300; k++) {
        double tau = 100.0 * k / 300.0;
        fprintf(f, "%.6g\t%.6g\t%.6g\t%.6g\n", tau + in->ambient_c, bow_y(&fr[0], tau),
                bow_y(&fr[1], tau), bow_y(&fr[2], tau));
    }
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    return 0;
}

int bow_write_pluck(const char *prog, const bow_model *m, double x_rel, double amplitude,
                    double duration, const char *dir, failure *e)
{
    atomic_file af;
    FILE *f = atomic_open_file(&af, prog, dir, "pluck.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "t_s\tbridge_force_N\n");
    long n = lround(duration / m->in.dt);
    for (long k = 0; k <= n; k++)
        fprintf(f, "%.7g\t%.6g\n", k * m->in.dt,
                bow_pluck_bridge(m, x_rel * m->in.L, amplitude, k * m->in.dt));
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    return 0;
}

/* The convergence study's instrument and stroke: modes to f_max, the stroke up to duration. */
static void conv_setup(const bow_instrument *in0, const gesture *g0, const bow_conv_params *cp,
                       bow_instrument *in, gesture *g)
{
    *in = *in0;
    in->f_max = cp->f_max;
    *g = *g0;
    g->duration = cp->duration;
}

int bow_convergence_check(const bow_instrument *in0, const gesture *g0, const bow_conv_params *cp,
                          char *err, size_t errlen)
{
    bow_instrument in;
    gesture g;
    conv_setup(in0, g0, cp, &in, &g);
    return bow_model_check(&in, &g, err, errlen);
}

/* convergence.tsv and conv_traj.tsv from the study's L levels. */
static int conv_write(const char *prog, const bow_convergence *c, size_t L, double dt_out,
                      const char *dir, failure *e)
{
    atomic_file af;
    FILE *f = atomic_open_file(&af, prog, dir, "convergence.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "dt_s\tmax_error_rel\tnewton_per_step\tseconds\n");
    for (size_t l = 0; l < L; l++)
        fprintf(f, "%.6g\t%.6g\t%.4f\t%.4f\n", c->h[l], c->err[l], c->newton[l], c->seconds[l]);
    if (atomic_commit_file(&af, prog, e))
        return e->status;
    f = atomic_open_file(&af, prog, dir, "conv_traj.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "t_s\tcvode_bdf_N");
    for (size_t l = 0; l < L; l++)
        fprintf(f, "\tfixed dt = %g us", c->h[l] * 1e6);
    fprintf(f, "\n");
    for (size_t k = 0; k < c->n; k++) {
        fprintf(f, "%.7g\t%.8g", k * dt_out, c->ref[k]);
        for (size_t l = 0; l < L; l++)
            fprintf(f, "\t%.8g", k < c->nfixed[l] ? c->fixed[l][k] : NAN);
        fprintf(f, "\n");
    }
    return atomic_commit_file(&af, prog, e);
}

int bow_convergence_study(const char *prog, const bow_instrument *in0, const gesture *g0,
                          const bow_conv_params *cp, const char *dir, double *order,
                          double *pairwise, double *dt_range, failure *e)
{
    bow_instrument in;
    gesture g;
    conv_setup(in0, g0, cp, &in, &g);
    bow_model m;
    char err[600];
    if (bow_model_init(&m, &in, &g, err, sizeof err) != 0)
        return failure_input(e, prog, "convergence study: %s", err);
    size_t L = (size_t)lround(cp->levels);
    double dts[8];
    for (size_t l = 0; l < L; l++)
        dts[l] = cp->dt_max / pow(2.0, l);
    bow_convergence c;
    int rc = bow_convergence_run(&m, cp->rtol, cp->atol, cp->dt_out, cp->duration, dts, L, &c, err,
                                 sizeof err);
    if (rc != 0) {
        bow_model_free(&m);
        return failure_set(e, 1, "%s: %s", prog, err);
    }
    rc = conv_write(prog, &c, L, cp->dt_out, dir, e);
    if (rc == 0) {
        *order = measure_loglog_slope(c.h, c.err, L);
        measure_pairwise_slopes(c.h, c.err, L, pairwise);
        dt_range[0] = c.h[0], dt_range[1] = c.h[L - 1];
    }
    bow_convergence_free(&c);
    bow_model_free(&m);
    return rc;
}
