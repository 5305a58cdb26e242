/* Lesson 10, "The bowed string": a stiff, nonlinear IVP from current research, the thermal
 * elasto-plastic friction model of van Walstijn et al. (Acta Acustica 2026). One stroke of
 * the bow on a cello G string, solved by a structure-using fixed-step scheme (default) or by
 * CVODE BDF; the bridge force as TSV and as a 48 kHz WAV, and what the run shows: the
 * fundamental, slips per period, peak contact temperature, the bristle bound (18), the energy
 * balance (64) and the speed against real time. Without --quick it also writes the data of
 * the article's Figures 4, 7, 8d and the Q-factors. */
#include "lesson.h"
#include "base/budget.h"
#include "base/cli.h"
#include "models/gesture.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "measure/bow_figures.h"
#include "measure/bow_record.h"
#include "measure/measure.h"
#include "models/bow.h"
#include "measure/regime.h"
#include "measure/resample.h"
#include "measure/stroke.h"
#include "sweep/bow_fig7.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "bow"
#define WAV_RATE 48000      /* Hz: the sound file's rate */

/* ---- parameters: the instrument (cello-g.ini), the stroke, the figures -------------- */

typedef struct stroke_params {
    double accel, v_hold, t_hold, decel, f_b, x_b_rel;   /* see stroke-fig6.ini */
    double article_peak_c;  /* the article's peak contact temperature for this stroke, degC */
} stroke_params;

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

/* A parameter set of lessons/params/, or exit 2 with the file, line and reason. */
static void load_or_exit(const param_spec *spec, const char *name)
{
    char err[600];
    if (params_load(spec, params_path(name), false, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        exit(2);
    }
}

/* stroke-fig6.ini's keys bound to sp: the stroke (this program's flags) and the article's peak. */
typedef struct stroke_keys {
    param_spec stroke[7], article[2], all[3];
} stroke_keys;

static void stroke_keys_bind(stroke_params *sp, stroke_keys *k)
{
    PARAMS_FILL(k->stroke,
        FLAG_REAL("accel", sp->accel, "m/s^2", 0, 1000, CLI_OPEN_MIN, "bow acceleration from rest"),
        FLAG_REAL("v_hold", sp->v_hold, "m/s", 0, 10, CLI_OPEN_MIN,
            "bow velocity held after the ramp"),
        FLAG_REAL("t_hold", sp->t_hold, "s", 0, 60, CLI_CLOSED, "length of the hold"),
        FLAG_REAL("decel", sp->decel, "m/s^2", 0, 1000, CLI_CLOSED,
            "deceleration after the hold (0: none)"),
        FLAG_REAL("f_b", sp->f_b, "N", 0, 100, CLI_OPEN_MIN, "bowing force"),
        FLAG_REAL("x_b_rel", sp->x_b_rel, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX,
            "bow-bridge distance over string length x_b/L"));
    PARAMS_FILL(k->article,
        FLAG_REAL("article_peak_c", sp->article_peak_c, "degC", -100, 1000, CLI_CLOSED,
            "the article's peak temperature for this stroke"));
    PARAMS_FILL(k->all, FLAG_TABLE(k->stroke), FLAG_TABLE(k->article));
}

/* The stroke (stroke-fig6.ini) and the figures' values (bow-figures.ini). */
static void load_params(stroke_params *sp, bow_figure_params *fp, bow_conv_params *cp)
{
    stroke_keys sk;
    stroke_keys_bind(sp, &sk);
    load_or_exit(sk.all, "stroke-fig6.ini");
    const param_spec fig_spec[] = {
        FLAG_REAL("fig4_F_b", fp->fig4_F_b, "N/m", 0, 1e6, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig4_mu_s", fp->fig4_mu_s, "", 0, 5, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig4_mu_d", fp->fig4_mu_d, "", 0, 5, CLI_CLOSED, ""),
        FLAG_REAL("fig4_b_tau", fp->fig4_b_tau, "", 0, 100, CLI_CLOSED, ""),
        FLAG_REAL("fig4_c_tau", fp->fig4_c_tau, "", 0, 100, CLI_CLOSED, ""),
        FLAG_REAL("fig4_y_a", fp->fig4_y_a, "", 0, 1, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig4_xi", fp->fig4_xi, "", 1, 10, CLI_CLOSED, ""),
        FLAG_REAL("fig4_tau_g1", fp->fig4_tau_g[0], "K", 0, 500, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig4_tau_g2", fp->fig4_tau_g[1], "K", 0, 500, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig4_tau_g3", fp->fig4_tau_g[2], "K", 0, 500, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig4_v_max", fp->fig4_v_max, "m/s", 0, 100, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig7_accel", fp->fig7_accel, "m/s^2", 0, 1000, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig7_x_b_rel", fp->fig7_x_b_rel, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, ""),
        FLAG_REAL("fig7_f_b", fp->fig7_f_b, "N", 0, 100, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig7_duration", fp->fig7_duration, "s", 0, 10, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig7_mu_d1", fp->fig7_mu_d[0], "", 0, 5, CLI_CLOSED, ""),
        FLAG_REAL("fig7_mu_d2", fp->fig7_mu_d[1], "", 0, 5, CLI_CLOSED, ""),
        FLAG_REAL("fig7_mu_d3", fp->fig7_mu_d[2], "", 0, 5, CLI_CLOSED, ""),
        FLAG_REAL("fig7_b_scale1", fp->fig7_b_scale[0], "", 0, 100, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig7_b_scale2", fp->fig7_b_scale[1], "", 0, 100, CLI_OPEN_MIN, ""),
        FLAG_REAL("fig7_b_scale3", fp->fig7_b_scale[2], "", 0, 100, CLI_OPEN_MIN, ""),
        FLAG_REAL("pluck_x_rel", fp->pluck_x_rel, "", 0, 1, CLI_OPEN_MIN | CLI_OPEN_MAX, ""),
        FLAG_REAL("pluck_amplitude", fp->pluck_amplitude, "m", 0, 0.1, CLI_OPEN_MIN, ""),
        FLAG_REAL("pluck_duration", fp->pluck_duration, "s", 0, 10, CLI_OPEN_MIN, ""),
        FLAG_REAL("qref_sigma0", fp->qref_sigma0, "1/s", 0, 1e3, CLI_CLOSED, ""),
        FLAG_REAL("qref_sigma2", fp->qref_sigma2, "m^2/s", 0, 1e3, CLI_CLOSED, ""),
        FLAG_REAL("conv_f_max", cp->f_max, "Hz", 100, 1e5, CLI_CLOSED, ""),
        FLAG_REAL("conv_duration", cp->duration, "s", 0, 10, CLI_OPEN_MIN, ""),
        FLAG_REAL("conv_dt_out", cp->dt_out, "s", 0, 1, CLI_OPEN_MIN, ""),
        FLAG_REAL("conv_rtol", cp->rtol, "", 1e-14, 1e-3, CLI_CLOSED, ""),
        FLAG_REAL("conv_atol", cp->atol, "", 1e-20, 1e-3, CLI_CLOSED, ""),
        FLAG_REAL("conv_dt_max", cp->dt_max, "s", 1e-8, 1e-3, CLI_CLOSED, ""),
        FLAG_REAL("conv_levels", cp->levels, "", 2, 8, CLI_CLOSED, ""),
        FLAG_END,
    };
    load_or_exit(fig_spec, "bow-figures.ini");
}

/* --list: every instrument value with its unit and range. */
static void list_instrument(bool tsv)
{
    table t;
    table_begin(&t, stdout, tsv, "key", "value", "unit", "min", "max", "meaning", NULL);
    for (const param_spec *ps = inst_spec; ps->name; ps++) {
        table_cell(&t, "%s", ps->name);
        table_cell(&t, "%.10g", *(double *)ps->dest);
        table_cell(&t, "%s", ps->unit[0] ? ps->unit : "1");
        table_cell(&t, "%g", ps->min);
        table_cell(&t, "%g", ps->max);
        table_cell(&t, "%s", ps->help);
    }
}

/* The summary row: what the stroke shows (ss), its bounds (r), the energy residual over
 * int |P|, and simulated over wall time. */
static void summary_table(const stroke_summary *ss, const bow_record *r, const bow_instrument *in, double residual,
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

/* summary.tsv (key, value): what the figures' titles say of this run (bow-zoom's regime, place,
 * force and ripples), so that no title is typed. article: 1 when the stroke is Figure 6's. */
static void write_summary(const char *dir, const stroke_summary *ss, const gesture *g, double x_b_rel,
                          bool article)
{
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, dir, "summary.tsv");
    fprintf(f, "key\tvalue\nregime\t%s\nregime_label\t%s\nf0_hz\t%.3f\nslips_per_period\t%.3f\n"
            "ripples_per_period\t%.1f\nx_b_over_L\t%g\nf_b_N\t%g\narticle_figure6\t%d\n",
            regime_name(ss->regime.kind), regime_label(ss->regime.kind), ss->f0, ss->slips_per_period,
            ss->ripples, x_b_rel, gesture_value(&g->force, g->duration), article);
    atomic_commit_or_exit(&af, PROGRAM);
}

/* The convergence study's order as measured, and why it is not a clean 2. */
static void print_order(const bow_conv_params *cp, double order, const double *pairwise,
                        const double *dt_range)
{
    printf("fixed-step scheme against CVODE BDF (to %g Hz, first %g s): measured order %.2f "
           "(least squares over dt = %g-%g us; between neighbours", cp->f_max, cp->duration, order,
           dt_range[0] * 1e6, dt_range[1] * 1e6);
    for (int l = 0; l + 1 < (int)lround(cp->levels); l++)
        printf(" %.2f", pairwise[l]);
    printf(")\n  the trapezoidal rule is second order where the right-hand side is smooth; the "
           "friction law (11) switches alpha off where v z changes sign, a kink in dz/dt at every "
           "slip and stick, and a step that straddles one errs by O(dt^2) with a constant set by "
           "where in the step the kink falls: the errors scatter about a dt^2 line\n");
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Move the bow from x_b/L = 0.075 to 0.1 at 2 N: does the string keep one slip a period\n"
    "     (Helmholtz motion)? At which pitch?\n"
    "     check: bin/bow --quick --f_b 2 --x_b_rel 0.1\n"
    "  2. Lower the force to 0.5 N there: below Schelleng's minimum force Helmholtz motion gives way.\n"
    "     Which regime, how many slips a period, and how much cooler is the contact than at 2 N\n"
    "     (peak_temp_c here and in exercise 1)?\n"
    "     check: bin/bow --quick --f_b 0.5 --x_b_rel 0.1\n";

int main(int argc, char **argv)
{
    bow_instrument in;
    memset(&in, 0, sizeof in);
    bow_param_table(&in, inst_spec);
    load_or_exit(inst_spec, "cello-g.ini");
    char err[600];
    stroke_params sp;
    bow_figure_params fp;
    bow_conv_params cp;
    load_params(&sp, &fp, &cp);

    const char *solver = "fixed", *wav_path = "build/sound/bow.wav";
    double rtol = 1e-8, atol = 1e-12, duration = 0.0;
    bool quick = false, list = false;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    gesture_track velocity = {0, {0}, {0}}, force = {0, {0}, {0}};
    cli_common common = {false, "build/data/bow"};
    budget bg;
    budget_init(&bg, PROGRAM, "steps", 1.2e7, "--duration / dt (the stroke's length otherwise), each step weighed by "
                "its cost (modes x contact points, calibrated) over the default cello's 4.8 us; CVODE counts "
                "800 steps a dt, its measured cost (README, row 4: 208 s for 0.1 s, 830 times the fixed-step scheme)");
    plot_opts plot = {false, false, NULL};
    stroke_keys sk;
    stroke_keys_bind(&sp, &sk);
    const cli_opt opts[] = {
        FLAG_CUSTOM("set", NULL, "", parse_set,
            "KEY=VALUE with a key of cello-g.ini and a value in its range",
            "override one instrument value, KEY=VALUE (keys of cello-g.ini)", .open = CLI_REPEAT),
        FLAG_CUSTOM("params", NULL, "", parse_params_file,
            "an .ini file with keys of cello-g.ini (" PARAMS_NAME_RULE ")",
            "read instrument values from another .ini (any subset of the keys)"),
        FLAG_TABLE(sk.stroke),
        FLAG_CUSTOM("velocity", &velocity, "s:m/s", parse_track,
            "increasing times >= 0, as T:V pairs separated by commas",
            "bow velocity breakpoints instead of the stroke, T:V,T:V,..."),
        FLAG_CUSTOM("force", &force, "s:N", parse_track,
            "increasing times >= 0, as T:F pairs separated by commas, forces > 0",
            "bowing force breakpoints instead of the constant --f_b, T:F,T:F,..."),
        FLAG_REAL("duration", duration, "s", 0, 60, CLI_CLOSED,
            "simulated time (0: the end of the stroke)"),
        FLAG_CHOICE("solver", solver, "fixed|cvode",
            "fixed-step scheme at dt, or CVODE BDF (the reference)"),
        FLAG_REAL("rtol", rtol, "", 1e-14, 1e-2, CLI_CLOSED, "CVODE relative tolerance"),
        FLAG_REAL("atol", atol, "", 1e-20, 1e-3, CLI_CLOSED,
            "CVODE absolute tolerance (SI units of each state)"),
        FLAG_TEXT("wav", wav_path, "sound file of the bridge force, 48 kHz: " ATOMIC_ACCEPTS_DASH),
        FLAG_BOOL("list", list,
            "print every instrument value (the keys --set takes) with unit and range, and exit"),
        FLAG_WHOLE("jobs", jobs, 1, 256,
            "worker processes for the nine Figure 7 runs (default: the online cores)"),
        FLAG_BOOL("quick", quick,
            "the stroke only: skip the data of Figures 4, 7, 8d and the Q-factors"),
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = PROGRAM,
        .summary = "One bow stroke on a cello G string (thermal elasto-plastic friction): bridge "
            "force, slips, temperature, energy balance.",
        .opts = opts,
        .epilogue = exercises,
    };
    const stroke_params sp_file = sp;
    cli_parse(&spec, argc, argv);
    atomic_check_output_or_exit(PROGRAM, "wav", wav_path, true);
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
    /* the figures' strokes cross-checked now, before any work or file (not after the stroke) */
    if (!quick && bow_fig7_check(&in, &fp, err, sizeof err) != 0)
        cli_fail(PROGRAM, "Figure 7's strokes (at x_b/L = %g; --quick skips them): %s", fp.fig7_x_b_rel, err);
    if (!quick && bow_convergence_check(&in, &g, &cp, err, sizeof err) != 0)
        cli_fail(PROGRAM, "the convergence study (--quick skips it): %s", err);
    bow_solver sv = strcmp(solver, "cvode") == 0 ? BOW_CVODE : BOW_FIXED;
    /* one sample a step of dt, every one recorded; CVODE's work counted 800 steps a dt; a step
     * weighed by its cost (modes x contact points) over the default cello's */
    double samples = g.duration / in.dt, weight = (sv == BOW_CVODE ? 800.0 : 1.0) * bow_step_weight(&in);
    bg.work = samples * weight;
    bg.bytes_out = samples / 8.0 * 100.0 + g.duration * WAV_RATE * 4.0;
    bg.bytes_mem = samples * 8.0 * 16.0;
    budget_check_or_exit(&bg);

    /* the stroke */
    size_t cap = (size_t)lround(g.duration / in.dt) + 2;
    bow_record r;
    bow_record_init(&r, &m, cap);
    r.tick = weight;
    r.meter = &bg.meter;
    double *x = xcalloc(m.at.dim, sizeof(double));
    bow_run_opts o = {sv, in.dt, rtol, atol, in.dt, g.duration, bow_record_sink, &r};
    bow_run_result res;
    if (bow_run(&m, &o, x, &res) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", res.message);
        return 1;
    }
    budget_finish(&bg.meter);
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

    failure why;
    if (bow_write_stroke_data(PROGRAM, &r, &m, sp.v_hold / sp.accel, sp.f_b, velocity.n > 0, nz, common.out, &why))
        return failure_print(&why);
    bool article = memcmp(&sp, &sp_file, sizeof sp) == 0 && velocity.n == 0 && force.n == 0;
    write_summary(common.out, &ss, &g, sp.x_b_rel, article);
    /* the sound: band-limited to 48 kHz, normalised to 0.9 of full scale */
    double peak = max_abs(wav, nw);
    wav_write_or_exit(PROGRAM, wav_path, wav, nw, WAV_RATE, peak > 0 ? 0.9 / peak : 1.0, NULL);

    int fig7_slipped = -1;
    double conv_order = NAN, pairwise[8], dt_range[2];
    double t_slip[9], drop[9], fall[9];
    if (!quick) {
        if (bow_write_modes(PROGRAM, &m, fp.qref_sigma0, fp.qref_sigma2, common.out, &why) ||
            bow_write_fig4(PROGRAM, &in, &fp, common.out, &why) ||
            bow_write_pluck(PROGRAM, &m, fp.pluck_x_rel, fp.pluck_amplitude, fp.pluck_duration, common.out, &why) ||
            bow_fig7_write(PROGRAM, &in, &fp, common.out, jobs, t_slip, drop, fall, &fig7_slipped, &why) ||
            bow_convergence_study(PROGRAM, &in, &g, &cp, common.out, &conv_order, pairwise, dt_range, &why))
            return failure_print(&why);
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
        if (article)    /* the article's stroke, unchanged */
            printf("peak contact temperature %.1f degC; the article's Figure 6 peaks at about %g degC: our thermal "
                   "parameters (a_tau, b_tau, c_tau, tau_g) are reconstructed from a survey, the article's Table 1 "
                   "being lost (lessons/params/cello-g.ini names each value's source); the gap is open\n",
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
            print_order(&cp, conv_order, pairwise, dt_range);
        printf("wrote %s/stroke.tsv, %s (%zu samples at %d Hz)\n\n", common.out, wav_path, nw, WAV_RATE);
    }
    summary_table(&ss, &r, &in, residual, g.duration / res.seconds, common.tsv);
    free(wav);
    free(x);
    bow_record_free(&r);
    bow_model_free(&m);
    return plot_render(&plot, PROGRAM, common.out, common.tsv);
}
