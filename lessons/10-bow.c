/* Lesson 10, "The bowed string": a stiff, nonlinear IVP from current research, the thermal
 * elasto-plastic friction model of van Walstijn et al. (Acta Acustica 2026). One stroke of
 * the bow on a cello G string, solved by a structure-using fixed-step scheme (default) or by
 * CVODE BDF; the bridge force as TSV and as a 48 kHz WAV, and what the run shows: the
 * fundamental, slips per period, peak contact temperature, the bristle bound (18), the energy
 * balance (64) and the speed against real time. Without --quick it also writes the data of
 * the article's Figures 4, 7, 8d and the Q-factors. */
#include "base/budget.h"
#include "base/cli.h"
#include "models/gesture.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "measure/measure.h"
#include "models/bow.h"
#include "measure/regime.h"
#include "measure/resample.h"
#include "measure/stroke.h"
#include "base/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM "bow"
#define WAV_RATE 48000      /* Hz: the sound file's rate */

/* ---- parameters: the instrument (cello-g.ini), the stroke, the figures -------------- */

typedef struct stroke_params {
    double accel, v_hold, t_hold, decel, f_b, x_b_rel;   /* see stroke-fig6.ini */
    double article_peak_c;  /* the article's peak contact temperature for this stroke, degC */
} stroke_params;

typedef struct figure_params {
    double fig4_F_b, fig4_mu_s, fig4_mu_d, fig4_b_tau, fig4_c_tau, fig4_y_a, fig4_xi;
    double fig4_tau_g[3], fig4_v_max;
    double fig7_accel, fig7_x_b_rel, fig7_f_b, fig7_duration, fig7_mu_d[3], fig7_b_scale[3];
    double pluck_x_rel, pluck_amplitude, pluck_duration;
    double qref_sigma0, qref_sigma2;    /* the 2024/2025 loss model sigma = s0 + s2 beta^2 */
} figure_params;

static param_spec inst_spec[BOW_NKEYS + 1];

static int parse_set(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    return params_set(inst_spec, text, why, whylen);
}

static int parse_params_file(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    return params_load_named(inst_spec, text, why, whylen);
}

static int parse_track(const char *text, void *dest, char *why, size_t whylen)
{
    return gesture_track_parse(text, dest, why, whylen);
}

/* ---- one run, sampled at every step ------------------------------------------------- */

typedef struct record {
    const bow_model *m;
    size_t n, cap;
    double *t, *bridge_u, *bridge_w, *v_mean, *z_mean, *tau_mean, *tau_max, *friction, *v_b;
    double z_absmax;        /* largest |z_j| seen, m */
    double tau_min;         /* smallest tau_j seen, K */
    double H0;              /* energy at t = 0, J */
    double residual;        /* largest |H - H0 - int (P - Q)|, J */
} record;

static void record_init(record *r, const bow_model *m, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->cap = cap;
    double **c[] = {&r->t, &r->bridge_u, &r->bridge_w, &r->v_mean, &r->z_mean, &r->tau_mean, &r->tau_max,
                    &r->friction, &r->v_b};
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
        *c[k] = xcalloc(cap, sizeof(double));
    r->tau_min = INFINITY;
}

static void record_free(record *r)
{
    double *c[] = {r->t, r->bridge_u, r->bridge_w, r->v_mean, r->z_mean, r->tau_mean, r->tau_max, r->friction, r->v_b};
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
        free(c[k]);
    memset(r, 0, sizeof *r);
}

static double bow_tick = 1.0;   /* work units a recorded sample (CVODE's weight, see main) */

static int record_sink(double t, const double *x, void *ctx)
{
    record *r = ctx;
    if (r->n == r->cap)
        return 1;
    budget_tick(bow_tick);
    bow_obs o;
    bow_observe(r->m, t, x, &o);
    if (r->n == 0)
        r->H0 = o.H;
    size_t k = r->n++;
    r->t[k] = t, r->bridge_u[k] = o.bridge_u, r->bridge_w[k] = o.bridge_w, r->v_mean[k] = o.v_mean;
    r->z_mean[k] = o.z_mean, r->tau_mean[k] = o.tau_mean, r->tau_max[k] = o.tau_max;
    r->friction[k] = o.friction / o.f_b, r->v_b[k] = o.v_b;
    r->z_absmax = fmax(r->z_absmax, o.z_absmax);
    r->tau_min = fmin(r->tau_min, o.tau_min);
    r->residual = fmax(r->residual, fabs(o.H - r->H0 - (o.e_in - o.e_out)));
    return 0;
}

/* Slips in samples k0..k1-1 of a run (regime.h's count for a whole stroke); *first gets the
 * time of the first, s (-1 when none). */
static long count_slips(const record *r, size_t k0, size_t k1, double *first)
{
    regime_opts o = regime_defaults();
    long k;
    long n = regime_count_slips(&o, r->v_mean + k0, r->v_b + k0, k1 - k0, &k);
    *first = k >= 0 ? r->t[k0 + k] : -1;
    return n;
}

/* The data of Figure 6 (stroke.tsv every 8th step, zoom.tsv the last nz steps) and the
 * steady-state mapping (28) at this load for Figure 6g (steady.tsv); track: the velocity is a
 * --velocity track (no quasi-static line (89) then). */
static void write_stroke_data(const record *r, const bow_model *m, const stroke_params *sp, bool track, size_t nz,
                              const char *dir)
{
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "stroke.tsv");
    fprintf(f, "t_s\tv_b_m_per_s\tbridge_force_N\tquasi_static_N\tv_mean_m_per_s\tz_mean_um\ttemp_mean_c\t"
               "temp_max_c\tf_over_fb\ttorsional_bridge_N\n");
    double t_up = sp->v_hold / sp->accel;
    for (size_t k = 0; k < r->n; k += 8) {
        double t = r->t[k];
        double qs = !track && t <= t_up ? m->in.T * r->v_b[k] * t / (2.0 * m->g.position) : NAN;   /* (89) */
        fprintf(f, "%.7g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", t, r->v_b[k], r->bridge_u[k], qs,
                r->v_mean[k], r->z_mean[k] * 1e6, r->tau_mean[k] + m->in.ambient_c, r->tau_max[k] + m->in.ambient_c,
                r->friction[k], r->bridge_w[k]);
    }
    atomic_commit_or_exit(&af, PROGRAM);
    /* three periods at the end, every step */
    f = atomic_open_or_exit(&af, PROGRAM, dir, "zoom.tsv");
    fprintf(f, "t_ms\tbridge_force_N\tv_mean_m_per_s\tf_over_fb\ttemp_mean_c\tz_mean_um\n");
    for (size_t k = r->n > nz ? r->n - nz : 0; k < r->n; k++)
        fprintf(f, "%.7g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", r->t[k] * 1e3, r->bridge_u[k], r->v_mean[k], r->friction[k],
                r->tau_mean[k] + m->in.ambient_c, r->z_mean[k] * 1e6);
    atomic_commit_or_exit(&af, PROGRAM);
    /* the steady-state mapping (28) at this load, for Figure 6g */
    f = atomic_open_or_exit(&af, PROGRAM, dir, "steady.tsv");
    fprintf(f, "v_m_per_s\ttemp_c\tmu_ss\n");
    double F_b = sp->f_b / m->in.W_b;
    for (int k = 0; k <= 200; k++) {
        double v = 2.0 * k / 200.0, tau;
        bow_tau_of_v(&m->fr, v, F_b, &tau);
        fprintf(f, "%.6g\t%.6g\t%.6g\n", v, tau + m->in.ambient_c, bow_mu_ss(&m->fr, tau));
    }
    atomic_commit_or_exit(&af, PROGRAM);
}

/* ---- the extra figures ------------------------------------------------------------------ */

static void write_modes(const bow_model *m, const figure_params *fp, const char *dir)
{
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "modes.tsv");
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
            double b = (i + 1) * M_PI / m->in.L, sig = fp->qref_sigma0 + fp->qref_sigma2 * b * b;
            fprintf(f, "\t%.6g\n", 2 * M_PI * m->fu[i] / (2 * sig));
        } else
            fprintf(f, "\tNaN\n");
    }
    atomic_commit_or_exit(&af, PROGRAM);
}

/* Figure 4: mu_ss(v), tau(v) by Appendix B's Newton solve, and y(tau), for three tau_g. */
static void write_fig4(const bow_instrument *in, const figure_params *fp, const char *dir)
{
    bow_friction fr[3];
    for (int c = 0; c < 3; c++) {
        fr[c] = bow_friction_of(in);
        fr[c].mu_s = fp->fig4_mu_s, fr[c].mu_d = fp->fig4_mu_d, fr[c].b_tau = fp->fig4_b_tau;
        fr[c].c_tau = fp->fig4_c_tau, fr[c].y_a = fp->fig4_y_a, fr[c].xi = fp->fig4_xi;
        fr[c].tau_g = fp->fig4_tau_g[c];
    }
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "fig4_v.tsv");
    fprintf(f, "v_m_per_s\tmu_ss_%g\tmu_ss_%g\tmu_ss_%g\ttemp_c_%g\ttemp_c_%g\ttemp_c_%g\tmu_str_%g\tmu_str_%g\tmu_str_%g\n",
            fp->fig4_tau_g[0], fp->fig4_tau_g[1], fp->fig4_tau_g[2], fp->fig4_tau_g[0], fp->fig4_tau_g[1],
            fp->fig4_tau_g[2], fp->fig4_tau_g[0], fp->fig4_tau_g[1], fp->fig4_tau_g[2]);
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
    atomic_commit_or_exit(&af, PROGRAM);
    f = atomic_open_or_exit(&af, PROGRAM, dir, "fig4_y.tsv");
    fprintf(f, "temp_c\ty_%g\ty_%g\ty_%g\n", fp->fig4_tau_g[0], fp->fig4_tau_g[1], fp->fig4_tau_g[2]);
    for (int k = 0; k <= 300; k++) {
        double tau = 100.0 * k / 300.0;
        fprintf(f, "%.6g\t%.6g\t%.6g\t%.6g\n", tau + in->ambient_c, bow_y(&fr[0], tau), bow_y(&fr[1], tau),
                bow_y(&fr[2], tau));
    }
    atomic_commit_or_exit(&af, PROGRAM);
}

/* Figure 7: the nine first-slip transients. Returns the number that slipped. */
static int write_fig7(const bow_instrument *in0, const figure_params *fp, const char *dir, double *t_slip,
                      double *drop, double *fall)
{
    double zmax[9], taumin[9];
    size_t n = 0;
    double *cols[9] = {0};
    double *tcol = NULL;
    int slipped = 0;
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++) {
            bow_instrument in = *in0;
            in.mu_d = fp->fig7_mu_d[d];
            in.b_tau = in0->b_tau * fp->fig7_b_scale[b];
            double v_end = fp->fig7_accel * fp->fig7_duration;
            gesture g = gesture_stroke(fp->fig7_accel, v_end, 0.0, 0.0, fp->fig7_f_b, fp->fig7_x_b_rel * in.L);
            g.duration = fp->fig7_duration;
            bow_model m;
            char err[300];
            if (bow_model_init(&m, &in, &g, err, sizeof err) != 0)
                cli_fail(PROGRAM, "figure 7: %s", err);
            record r;
            size_t cap = (size_t)lround(g.duration / in.dt) + 2;
            record_init(&r, &m, cap);
            double *x = xcalloc(m.at.dim, sizeof(double));
            bow_run_opts o = {BOW_FIXED, in.dt, 0, 0, in.dt, g.duration, record_sink, &r};
            bow_run_result res;
            if (bow_run(&m, &o, x, &res) != 0) {
                fprintf(stderr, PROGRAM ": figure 7 (mu_d %g, b_tau %g): %s\n", in.mu_d, in.b_tau, res.message);
                exit(1);
            }
            int c = 3 * b + d;
            zmax[c] = r.z_absmax / (in.mu_s / in.sigma0);
            taumin[c] = r.tau_min;
            count_slips(&r, 0, r.n, &t_slip[c]);
            slipped += t_slip[c] > 0;
            /* the force drop of the first slip: the largest force in the 2 ms before it less
             * the smallest in the 3 ms after */
            drop[c] = 0;
            if (t_slip[c] > 0) {
                size_t ks = (size_t)lround(t_slip[c] / in.dt), kb = (size_t)lround(2e-3 / in.dt),
                       ka = (size_t)lround(3e-3 / in.dt);
                double hi = -INFINITY, lo = INFINITY;
                size_t khi = ks, klo = ks;
                for (size_t k = ks > kb ? ks - kb : 0; k <= ks && k < r.n; k++)
                    if (r.bridge_u[k] > hi)
                        hi = r.bridge_u[k], khi = k;
                for (size_t k = ks; k <= ks + ka && k < r.n; k++)
                    if (r.bridge_u[k] < lo)
                        lo = r.bridge_u[k], klo = k;
                drop[c] = hi - lo;
                /* how fast: the steepest fall of the force (20 us differences, the measured
                 * signal's spacing in Figure 1b) between the maximum and the minimum */
                size_t kd = (size_t)lround(2e-5 / in.dt);
                fall[c] = 0;
                for (size_t k = khi; k + kd <= klo && k + kd < r.n; k++)
                    fall[c] = fmax(fall[c], (r.bridge_u[k] - r.bridge_u[k + kd]) / (kd * in.dt));
            }
            n = r.n / 4;
            cols[c] = xcalloc(n, sizeof(double));
            if (!tcol)
                tcol = xcalloc(n, sizeof(double));
            for (size_t k = 0; k < n; k++)
                cols[c][k] = r.bridge_u[4 * k], tcol[k] = r.t[4 * k];
            free(x);
            record_free(&r);
            bow_model_free(&m);
        }
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "fig7.tsv");
    fprintf(f, "t_s");
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++)
            fprintf(f, "\tb_tau_x%g_mu_d_%g", fp->fig7_b_scale[b], fp->fig7_mu_d[d]);
    fprintf(f, "\n");
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "%.7g", tcol[k]);
        for (int c = 0; c < 9; c++)
            fprintf(f, "\t%.6g", cols[c][k]);
        fprintf(f, "\n");
    }
    atomic_commit_or_exit(&af, PROGRAM);
    f = atomic_open_or_exit(&af, PROGRAM, dir, "fig7_drops.tsv");
    fprintf(f, "b_tau_scale\tmu_d\tfirst_slip_s\tforce_drop_N\tsteepest_fall_N_per_ms\tz_max_over_bound\ttau_min_k\n");
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++)
            fprintf(f, "%g\t%g\t%.5f\t%.4f\t%.3f\t%.4f\t%.3e\n", fp->fig7_b_scale[b], fp->fig7_mu_d[d],
                    t_slip[3 * b + d], drop[3 * b + d], fall[3 * b + d] * 1e-3, zmax[3 * b + d], taumin[3 * b + d]);
    atomic_commit_or_exit(&af, PROGRAM);
    for (int c = 0; c < 9; c++)
        free(cols[c]);
    free(tcol);
    return slipped;
}

/* Figure 8d: the string alone from a triangular shape, released at rest (the exact modal
 * answer of bow_pluck_bridge, no stepping). */
static void write_pluck(const bow_model *m, const figure_params *fp, const char *dir)
{
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "pluck.tsv");
    fprintf(f, "t_s\tbridge_force_N\n");
    long n = lround(fp->pluck_duration / m->in.dt);
    for (long k = 0; k <= n; k++)
        fprintf(f, "%.7g\t%.6g\n", k * m->in.dt, bow_pluck_bridge(m, fp->pluck_x_rel * m->in.L, fp->pluck_amplitude,
                                                                   k * m->in.dt));
    atomic_commit_or_exit(&af, PROGRAM);
}

/* The fixed-step scheme against the CVODE BDF reference on the first slips: a reduced mode
 * set (conv_f_max), the Figure 6 stroke up to conv_duration, the transverse bridge force
 * compared every conv_dt_out. Writes convergence.tsv and conv_traj.tsv; returns the
 * least-squares order over the dt values. */
typedef struct conv_params {
    double f_max, duration, dt_out, rtol, atol, dt_max;   /* see bow-figures.ini */
    double levels;                                        /* how many halvings of dt_max */
} conv_params;

static double convergence(const bow_instrument *in0, const gesture *g0, const conv_params *cp, const char *dir)
{
    bow_instrument in = *in0;
    in.f_max = cp->f_max;
    gesture g = *g0;
    g.duration = cp->duration;
    bow_model m;
    char err[600];
    if (bow_model_init(&m, &in, &g, err, sizeof err) != 0)
        cli_fail(PROGRAM, "convergence study: %s", err);
    size_t L = (size_t)lround(cp->levels);
    double dts[8];
    for (size_t l = 0; l < L; l++)
        dts[l] = cp->dt_max / pow(2.0, l);
    bow_convergence c;
    if (bow_convergence_run(&m, cp->rtol, cp->atol, cp->dt_out, cp->duration, dts, L, &c, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        exit(1);
    }
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "convergence.tsv");
    fprintf(f, "dt_s\tmax_error_rel\tnewton_per_step\tseconds\n");
    for (size_t l = 0; l < L; l++)
        fprintf(f, "%.6g\t%.6g\t%.4f\t%.4f\n", c.h[l], c.err[l], c.newton[l], c.seconds[l]);
    atomic_commit_or_exit(&af, PROGRAM);
    f = atomic_open_or_exit(&af, PROGRAM, dir, "conv_traj.tsv");
    fprintf(f, "t_s\tcvode_bdf_N");
    for (size_t l = 0; l < L; l++)
        fprintf(f, "\tfixed dt = %g us", c.h[l] * 1e6);
    fprintf(f, "\n");
    for (size_t k = 0; k < c.n; k++) {
        fprintf(f, "%.7g\t%.8g", k * cp->dt_out, c.ref[k]);
        for (size_t l = 0; l < L; l++)
            fprintf(f, "\t%.8g", k < c.nfixed[l] ? c.fixed[l][k] : NAN);
        fprintf(f, "\n");
    }
    atomic_commit_or_exit(&af, PROGRAM);
    double order = measure_loglog_slope(c.h, c.err, L);
    bow_convergence_free(&c);
    bow_model_free(&m);
    return order;
}

/* A parameter set of lessons/params/, or exit 2 with the file, line and reason. */
static void load_or_exit(const param_spec *spec, const char *name)
{
    char err[600];
    if (params_load(spec, params_path(name), false, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        exit(2);
    }
}

/* The stroke (stroke-fig6.ini) and the figures' values (bow-figures.ini). */
static void load_params(stroke_params *sp, figure_params *fp, conv_params *cp)
{
    const param_spec stroke_spec[] = {
        {"accel", &sp->accel, "m/s^2", 0, 1000, CLI_OPEN_MIN, "bow acceleration from rest"},
        {"v_hold", &sp->v_hold, "m/s", 0, 10, CLI_OPEN_MIN, "bow velocity held after the ramp"},
        {"t_hold", &sp->t_hold, "s", 0, 60, 0, "length of the hold"},
        {"decel", &sp->decel, "m/s^2", 0, 1000, 0, "deceleration after the hold (0: none)"},
        {"f_b", &sp->f_b, "N", 0, 100, CLI_OPEN_MIN, "bowing force"},
        {"x_b_rel", &sp->x_b_rel, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, "bow-bridge distance over string length"},
        {"article_peak_c", &sp->article_peak_c, "degC", -100, 1000, 0, "the article's peak temperature for this stroke"},
        {NULL, NULL, NULL, 0, 0, 0, NULL},
    };
    load_or_exit(stroke_spec, "stroke-fig6.ini");
    const param_spec fig_spec[] = {
        {"fig4_F_b", &fp->fig4_F_b, "N/m", 0, 1e6, CLI_OPEN_MIN, ""},
        {"fig4_mu_s", &fp->fig4_mu_s, "", 0, 5, CLI_OPEN_MIN, ""},
        {"fig4_mu_d", &fp->fig4_mu_d, "", 0, 5, 0, ""},
        {"fig4_b_tau", &fp->fig4_b_tau, "", 0, 100, 0, ""},
        {"fig4_c_tau", &fp->fig4_c_tau, "", 0, 100, 0, ""},
        {"fig4_y_a", &fp->fig4_y_a, "", 0, 1, CLI_OPEN_MIN, ""},
        {"fig4_xi", &fp->fig4_xi, "", 1, 10, 0, ""},
        {"fig4_tau_g1", &fp->fig4_tau_g[0], "K", 0, 500, CLI_OPEN_MIN, ""},
        {"fig4_tau_g2", &fp->fig4_tau_g[1], "K", 0, 500, CLI_OPEN_MIN, ""},
        {"fig4_tau_g3", &fp->fig4_tau_g[2], "K", 0, 500, CLI_OPEN_MIN, ""},
        {"fig4_v_max", &fp->fig4_v_max, "m/s", 0, 100, CLI_OPEN_MIN, ""},
        {"fig7_accel", &fp->fig7_accel, "m/s^2", 0, 1000, CLI_OPEN_MIN, ""},
        {"fig7_x_b_rel", &fp->fig7_x_b_rel, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, ""},
        {"fig7_f_b", &fp->fig7_f_b, "N", 0, 100, CLI_OPEN_MIN, ""},
        {"fig7_duration", &fp->fig7_duration, "s", 0, 10, CLI_OPEN_MIN, ""},
        {"fig7_mu_d1", &fp->fig7_mu_d[0], "", 0, 5, 0, ""},
        {"fig7_mu_d2", &fp->fig7_mu_d[1], "", 0, 5, 0, ""},
        {"fig7_mu_d3", &fp->fig7_mu_d[2], "", 0, 5, 0, ""},
        {"fig7_b_scale1", &fp->fig7_b_scale[0], "", 0, 100, CLI_OPEN_MIN, ""},
        {"fig7_b_scale2", &fp->fig7_b_scale[1], "", 0, 100, CLI_OPEN_MIN, ""},
        {"fig7_b_scale3", &fp->fig7_b_scale[2], "", 0, 100, CLI_OPEN_MIN, ""},
        {"pluck_x_rel", &fp->pluck_x_rel, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, ""},
        {"pluck_amplitude", &fp->pluck_amplitude, "m", 0, 0.1, CLI_OPEN_MIN, ""},
        {"pluck_duration", &fp->pluck_duration, "s", 0, 10, CLI_OPEN_MIN, ""},
        {"qref_sigma0", &fp->qref_sigma0, "1/s", 0, 1e3, 0, ""},
        {"qref_sigma2", &fp->qref_sigma2, "m^2/s", 0, 1e3, 0, ""},
        {"conv_f_max", &cp->f_max, "Hz", 100, 1e5, 0, ""},
        {"conv_duration", &cp->duration, "s", 0, 10, CLI_OPEN_MIN, ""},
        {"conv_dt_out", &cp->dt_out, "s", 0, 1, CLI_OPEN_MIN, ""},
        {"conv_rtol", &cp->rtol, "", 1e-14, 1e-3, 0, ""},
        {"conv_atol", &cp->atol, "", 1e-20, 1e-3, 0, ""},
        {"conv_dt_max", &cp->dt_max, "s", 1e-8, 1e-3, 0, ""},
        {"conv_levels", &cp->levels, "", 2, 8, 0, ""},
        {NULL, NULL, NULL, 0, 0, 0, NULL},
    };
    load_or_exit(fig_spec, "bow-figures.ini");
}

/* --list: every instrument value with its unit and range. */
static void list_instrument(bool tsv)
{
    table t;
    table_begin(&t, stdout, tsv, "key", "value", "unit", "min", "max", "meaning", NULL);
    for (const param_spec *ps = inst_spec; ps->key; ps++) {
        table_cell(&t, "%s", ps->key);
        table_cell(&t, "%.10g", *ps->dest);
        table_cell(&t, "%s", ps->unit[0] ? ps->unit : "1");
        table_cell(&t, "%g", ps->min);
        table_cell(&t, "%g", ps->max);
        table_cell(&t, "%s", ps->help);
    }
}

/* The summary row: what the stroke shows (ss), its bounds (r), the energy residual over
 * int |P|, and simulated over wall time. */
static void summary_table(const stroke_summary *ss, const record *r, const bow_instrument *in, double residual,
                          double realtime, bool tsv)
{
    table tab;
    table_begin(&tab, stdout, tsv, "f0_hz", "slips_per_period", "regime", "peak_temp_c", "z_max_over_bound",
                "energy_residual", "realtime_factor", "ripples_per_period", "first_slip_s", "tau_min_k", "loop_f_v",
                "loop_tau_v", NULL);
    table_cell(&tab, "%.3f", ss->f0);
    table_cell(&tab, "%.3f", ss->slips_per_period);
    table_cell(&tab, "%s", regime_name(ss->regime.kind));
    table_cell(&tab, "%.2f", ss->peak_tau + in->ambient_c);
    table_cell(&tab, "%.4f", r->z_absmax / (in->mu_s / in->sigma0));
    table_cell(&tab, "%.3e", residual);
    table_cell(&tab, "%.3g", realtime);   /* CVODE runs far below real time: keep 3 significant digits */
    table_cell(&tab, "%.2f", ss->ripples);
    table_cell(&tab, "%.5f", ss->first_slip);
    table_cell(&tab, "%.3e", r->tau_min);
    table_cell(&tab, "%s", stroke_loop_direction(ss->loop_f));
    table_cell(&tab, "%s", stroke_loop_direction(ss->loop_tau));
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Move the bow from x_b/L = 0.075 to 0.1 at 2 N: does the string keep one slip a period\n"
    "     (Helmholtz motion)? At which pitch?\n"
    "     check: bin/bow --quick --f_b 2 --x_b_rel 0.1\n"
    "  2. Lower the force to 1 N there: below Schelleng's minimum force the slips multiply. How many\n"
    "     slips a period, and how much cooler is the contact than at 2 N?\n"
    "     check: bin/bow --quick --f_b 1 --x_b_rel 0.1\n";

int main(int argc, char **argv)
{
    bow_instrument in;
    memset(&in, 0, sizeof in);
    bow_param_table(&in, inst_spec);
    load_or_exit(inst_spec, "cello-g.ini");
    char err[600];
    stroke_params sp;
    figure_params fp;
    conv_params cp;
    load_params(&sp, &fp, &cp);

    const char *solver = "fixed", *wav_path = "build/sound/bow.wav";
    double rtol = 1e-8, atol = 1e-12, duration = 0.0;
    bool quick = false, list = false;
    gesture_track velocity = {0, {0}, {0}}, force = {0, {0}, {0}};
    cli_common common = {false, "build/data/bow"};
    budget bg;
    budget_init(&bg, PROGRAM, "steps", 1.2e7, "--duration / dt (the stroke's length otherwise); CVODE counts 800 steps a dt, "
                "its measured cost (README, row 4: 208 s for 0.1 s, 830 times the fixed-step scheme)");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        {"set", CLI_CUSTOM, NULL, "", "override one instrument value, KEY=VALUE (keys of cello-g.ini)", 0, 0, CLI_REPEAT, NULL,
         parse_set, "KEY=VALUE with a key of cello-g.ini and a value in its range"},
        {"params", CLI_CUSTOM, NULL, "", "read instrument values from another .ini (any subset of the keys)", 0, 0, 0,
         NULL, parse_params_file, "an .ini file with keys of cello-g.ini (" PARAMS_NAME_RULE ")"},
        {"accel", CLI_DOUBLE, &sp.accel, "m/s^2", "bow acceleration from rest", 0, 1000, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"v_hold", CLI_DOUBLE, &sp.v_hold, "m/s", "bow velocity held after the ramp", 0, 10, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"t_hold", CLI_DOUBLE, &sp.t_hold, "s", "length of the hold", 0, 60, 0, NULL, NULL, NULL},
        {"decel", CLI_DOUBLE, &sp.decel, "m/s^2", "deceleration after the hold (0: none)", 0, 1000, 0, NULL, NULL, NULL},
        {"f_b", CLI_DOUBLE, &sp.f_b, "N", "bowing force", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"x_b_rel", CLI_DOUBLE, &sp.x_b_rel, "", "bow-bridge distance over string length x_b/L", 0, 1,
         CLI_OPEN_MIN | CLI_OPEN_MAX, NULL, NULL, NULL},
        {"velocity", CLI_CUSTOM, &velocity, "s:m/s", "bow velocity breakpoints instead of the stroke, T:V,T:V,...", 0, 0,
         0, NULL, parse_track, "increasing times >= 0, as T:V pairs separated by commas"},
        {"force", CLI_CUSTOM, &force, "s:N", "bowing force breakpoints instead of the constant --f_b, T:F,T:F,...", 0, 0,
         0, NULL, parse_track, "increasing times >= 0, as T:F pairs separated by commas, forces > 0"},
        {"duration", CLI_DOUBLE, &duration, "s", "simulated time (0: the end of the stroke)", 0, 60, 0, NULL, NULL, NULL},
        {"solver", CLI_CHOICE, &solver, "", "fixed-step scheme at dt, or CVODE BDF (the reference)", 0, 0, 0,
         "fixed|cvode", NULL, NULL},
        {"rtol", CLI_DOUBLE, &rtol, "", "CVODE relative tolerance", 1e-14, 1e-2, 0, NULL, NULL, NULL},
        {"atol", CLI_DOUBLE, &atol, "", "CVODE absolute tolerance (SI units of each state)", 1e-20, 1e-3, 0, NULL, NULL, NULL},
        {"wav", CLI_STRING, &wav_path, "", "sound file of the bridge force, 48 kHz: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"list", CLI_FLAG, &list, "", "print every instrument value (the keys --set takes) with unit and range, and exit",
         0, 0, 0, NULL, NULL, NULL},
        {"quick", CLI_FLAG, &quick, "", "the stroke only: skip the data of Figures 4, 7, 8d and the Q-factors", 0, 0, 0,
         NULL, NULL, NULL},
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {PROGRAM,
                           "One bow stroke on a cello G string (thermal elasto-plastic friction): bridge force, "
                           "slips, temperature, energy balance.",
                           NULL, 0, opts, exercises};
    const stroke_params sp_file = sp;
    cli_parse(&spec, argc, argv);
    atomic_check_output(PROGRAM, "wav", wav_path, true);
    if (list) {
        list_instrument(common.tsv);
        return 0;
    }
    if (strlen(common.out) == 0)
        cli_fail(PROGRAM, "--out '' is empty; accepted: a folder name");

    gesture g = gesture_stroke(sp.accel, sp.v_hold, sp.t_hold, sp.decel, sp.f_b, sp.x_b_rel * in.L);
    if (velocity.n > 0) {
        g.velocity = velocity;
        g.duration = velocity.time[velocity.n - 1];
    }
    if (force.n > 0)
        g.force = force;
    if (duration > 0)
        g.duration = duration;
    if (!(g.duration > 0))
        cli_fail(PROGRAM, "the stroke lasts %g s; accepted: --duration > 0 or a velocity track that ends after 0 s",
                 g.duration);
    bow_model m;
    if (bow_model_init(&m, &in, &g, err, sizeof err) != 0)
        cli_fail(PROGRAM, "%s", err);
    bow_solver sv = strcmp(solver, "cvode") == 0 ? BOW_CVODE : BOW_FIXED;
    /* one sample a step of dt, every one recorded; CVODE's work counted 800 steps a dt */
    double samples = g.duration / in.dt, weight = sv == BOW_CVODE ? 800.0 : 1.0;
    bg.work = samples * weight;
    bg.bytes_out = samples / 8.0 * 100.0 + g.duration * WAV_RATE * 4.0;
    bg.bytes_mem = samples * 8.0 * 16.0;
    budget_check(&bg);
    bow_tick = weight;

    /* the stroke */
    size_t cap = (size_t)lround(g.duration / in.dt) + 2;
    record r;
    record_init(&r, &m, cap);
    double *x = xcalloc(m.at.dim, sizeof(double));
    bow_run_opts o = {sv, in.dt, rtol, atol, in.dt, g.duration, record_sink, &r};
    bow_run_result res;
    if (bow_run(&m, &o, x, &res) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", res.message);
        return 1;
    }
    budget_finish();
    bow_obs last;
    bow_observe(&m, g.duration, x, &last);
    double fs = 1.0 / in.dt;

    size_t nw;
    double *wav = resample(r.bridge_u, r.n, fs, WAV_RATE, &nw, err, sizeof err);
    if (!wav) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    stroke_trace tr = {r.t, r.v_b, r.v_mean, r.bridge_u, r.friction, r.tau_mean, r.tau_max, r.n, fs, wav, nw, WAV_RATE};
    stroke_summary ss;
    stroke_summarise(&tr, &in, &g, &ss);
    double residual = last.e_abs > 0 ? r.residual / last.e_abs : 0.0;
    size_t nz = ss.f0 > 0 ? (size_t)lround(3.0 * fs / ss.f0) : 0;   /* three periods, for zoom.tsv */

    write_stroke_data(&r, &m, &sp, velocity.n > 0, nz, common.out);
    /* the sound: band-limited to 48 kHz, normalised to 0.9 of full scale */
    double peak = max_abs(wav, nw);
    wav_write_or_exit(PROGRAM, wav_path, wav, nw, WAV_RATE, peak > 0 ? 0.9 / peak : 1.0, NULL);

    int fig7_slipped = -1;
    double conv_order = NAN;
    double t_slip[9], drop[9], fall[9];
    if (!quick) {
        write_modes(&m, &fp, common.out);
        write_fig4(&in, &fp, common.out);
        write_pluck(&m, &fp, common.out);
        fig7_slipped = write_fig7(&in, &fp, common.out, t_slip, drop, fall);
        conv_order = convergence(&in, &g, &cp, common.out);
    }

    if (!common.tsv) {
        printf("bowed cello G string: L = %g m, T = %g N, %d transverse + %d torsional modes (to %g Hz), N = %d points\n"
               "stroke: %g m/s^2 to %g m/s, hold %g s, f_b = %g N at x_b/L = %g; %s, dt = %g s, %g s simulated\n\n",
               in.L, in.T, m.Mu, m.Mw, in.f_max, m.N, sp.accel, sp.v_hold, sp.t_hold, sp.f_b, sp.x_b_rel,
               bow_solver_name(sv), in.dt, g.duration);
        printf("%s: %ld steps (%ld split after a failed Newton solve), %.2f Newton iterations a step, %.3f s wall, %.3f s processor time "
               "(%.2f simulated seconds per processor second)\n", bow_solver_name(sv), res.steps, res.split,
               res.steps ? (double)res.newton / res.steps : 0.0, res.seconds, res.cpu_seconds,
               g.duration / res.cpu_seconds);
        printf("first slip at %.4f s; analysis window %.3f-%.3f s\n", ss.first_slip, ss.w0, g.duration);
        if (ss.v_window > 0)
            printf("regime: %s (%s)\n", regime_label(ss.regime.kind), ss.regime.why);
        printf("Schelleng ripples per period: %.1f (L/x_b = %.1f)\n", ss.ripples, 1.0 / sp.x_b_rel);
        printf("last three periods: the f/f_b - v loop runs %s (area %.3g m/s), the tau - v loop %s (%.3g K m/s)\n",
               stroke_loop_direction(ss.loop_f), ss.loop_f, stroke_loop_direction(ss.loop_tau), ss.loop_tau);
        printf("smallest contact temperature rise: %.3g K (never below ambient)\n", r.tau_min);
        if (memcmp(&sp, &sp_file, sizeof sp) == 0)    /* the article's stroke, unchanged */
            printf("peak contact temperature %.1f degC; the article's Figure 6 peaks at about %g degC: our thermal "
                   "parameters (a_tau, b_tau, c_tau, tau_g) are reconstructed from a survey, the article's Table 1 "
                   "being lost (shared/spec/bowed-string-parameters.md); the gap is open\n",
                   ss.peak_tau + in.ambient_c, sp.article_peak_c);
        if (fig7_slipped >= 0) {
            printf("Figure 7: %d of 9 first-slip transients slipped; first slip (s), its force drop (N), steepest fall:\n",
                   fig7_slipped);
            for (int b = 0; b < 3; b++) {
                printf("  b_tau x %-4g", fp.fig7_b_scale[b]);
                for (int d = 0; d < 3; d++)
                    printf("  mu_d %-4g %.4f s %.2f N %.0f N/ms", fp.fig7_mu_d[d], t_slip[3 * b + d], drop[3 * b + d],
                           fall[3 * b + d] * 1e-3);
                printf("\n");
            }
        }
        if (!quick)
            printf("fixed-step scheme against CVODE BDF (to %g Hz, first %g s): measured order %.2f\n", cp.f_max,
                   cp.duration, conv_order);
        printf("wrote %s/stroke.tsv, %s (%zu samples at %d Hz)\n\n", common.out, wav_path, nw, WAV_RATE);
    }
    summary_table(&ss, &r, &in, residual, g.duration / res.seconds, common.tsv);
    free(wav);
    free(x);
    record_free(&r);
    bow_model_free(&m);
    return plot_render(&plot, PROGRAM, common.out, common.tsv);
}
