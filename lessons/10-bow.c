/* Lesson 10, "The bowed string": a stiff, nonlinear IVP from current research, the thermal
 * elasto-plastic friction model of van Walstijn et al. (Acta Acustica 2026). One stroke of
 * the bow on a cello G string, solved by a structure-using fixed-step scheme (default) or by
 * CVODE BDF; the bridge force as TSV and as a 48 kHz WAV, and what the run shows: the
 * fundamental, slips per period, peak contact temperature, the bristle bound (18), the energy
 * balance (64) and the speed against real time. Without --quick it also writes the data of
 * the article's Figures 4, 7, 8d and the Q-factors.
 *
 * One program whose main lists its steps and claims, not several: every claim is read off the
 * same stroke (the figures' data are cross-checked against its instrument before it runs, the
 * convergence study runs its gesture); split, each program would repeat the stroke and its flags.
 * main: load the parameters and flags, make the stroke and the bowed string, run it, measure
 * it, write the article's figures, then state the claims. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "bow/gesture.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "bow/bow_figures.h"
#include "bow/bow_record.h"
#include "analysis/measure.h"
#include "bow/bow.h"
#include "analysis/regime.h"
#include "analysis/resample.h"
#include "bow/stroke.h"
#include "bow/bow_fig7.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "bow"
#define WAV_RATE 48000      /* Hz: the sound file's rate */
/* CVODE's work a dt in fixed steps, measured: the CPU seconds of `bin/bow --quick --allow-long
 * --duration 0.1 --solver cvode` over 20000 dt, against those of the fixed scheme over the same
 * 0.1 s (five runs averaged) over its 20000 steps; median of 5 alternating rounds on the
 * bordered linear solver and the -O3 SUNDIALS: 218 (171-286; 10.6-14.0 s against 49-73 ms). */
#define CVODE_STEPS 220
#define TEXT_OF(x) #x               /* a macro's value as it is spelled, for the help text */
#define TEXT_OF_VALUE(x) TEXT_OF(x)

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

/* A parameter set of lessons/params/: 0, or 2 with e (the file, line and reason). */
static int load_params_file(const param_spec *spec, const char *name, failure *e)
{
    char err[600];
    if (params_load(spec, params_path(name), false, err, sizeof err) != 0)
        return failure_set(e, 2, PROGRAM ": %s", err);
    return 0;
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

/* The stroke (stroke-fig6.ini) and the figures' values (bow-figures.ini). 0, or 2 with e. */
static int load_params(stroke_params *sp, bow_figure_params *fp, bow_conv_params *cp, failure *e)
{
    stroke_keys sk;
    stroke_keys_bind(sp, &sk);
    if (load_params_file(sk.all, "stroke-fig6.ini", e) != 0)
        return e->status;
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
    return load_params_file(fig_spec, "bow-figures.ini", e);
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
static void summary_table(const stroke_summary *ss, const bow_record *r, const bow_instrument *in,
                          double residual, double realtime, bool tsv)
{
    table tab;
    table_begin(&tab, stdout, tsv, "f0_hz", "slips_per_period", "regime", "peak_temp_c",
                "z_max_over_bound", "energy_residual", "realtime_factor", "ripples_per_period",
                "first_slip_s", "tau_min_k", "loop_f_v", "loop_tau_v", NULL);
    table_cell(&tab, "%.3f", ss->f0);
    table_cell(&tab, "%.3f", ss->slips_per_period);
    table_cell(&tab, "%s", regime_name(ss->regime.kind));
    table_cell(&tab, "%.2f", ss->peak_tau + in->ambient_c);
    table_cell(&tab, "%.4f", r->z_absmax / (in->mu_s / in->sigma0));
    table_cell(&tab, "%.3e", residual);
    /* CVODE runs far below real time: keep 3 significant digits */
    table_cell(&tab, "%.3g", realtime);
    table_cell(&tab, "%.2f", ss->ripples);
    table_cell(&tab, "%.5f", ss->first_slip);
    table_cell(&tab, "%.3e", r->tau_min);
    table_cell(&tab, "%s", stroke_loop_direction(ss->loop_f));
    table_cell(&tab, "%s", stroke_loop_direction(ss->loop_tau));
}

/* summary.tsv (key, value): what the figures' titles say of this run (bow-zoom's regime, place,
 * force and ripples), so that no title is typed. article: 1 when the stroke is Figure 6's. 0, or
 * the failure's status with e. */
static int write_summary(const char *dir, const stroke_summary *ss, const gesture *g,
                         double x_b_rel, bool article, failure *e)
{
    const table_kv facts[] = {
        TABLE_KV_TEXT("regime", regime_name(ss->regime.kind)),
        TABLE_KV_TEXT("regime_label", regime_label(ss->regime.kind)),
        TABLE_KV("f0_hz", "%.3f", ss->f0),
        TABLE_KV("slips_per_period", "%.3f", ss->slips_per_period),
        TABLE_KV("ripples_per_period", "%.1f", ss->ripples),
        TABLE_KV("x_b_over_L", "%g", x_b_rel),
        TABLE_KV("f_b_N", "%g", gesture_value(&g->force, g->duration)),
        TABLE_KV("article_figure6", "%.0f", article),
    };
    atomic_file af;
    FILE *f = atomic_open_file(&af, PROGRAM, dir, "summary.tsv", e);
    if (!f)
        return e->status;
    table_write_kv(f, true, facts, sizeof facts / sizeof facts[0]);
    return atomic_commit_file(&af, PROGRAM, e);
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
    "  2. Lower the force to 0.5 N there: below Schelleng's minimum force Helmholtz motion "
    "gives way.\n"
    "     Which regime, how many slips a period, and how much cooler is the contact than at 2 N\n"
    "     (peak_temp_c here and in exercise 1)?\n"
    "     check: bin/bow --quick --f_b 0.5 --x_b_rel 0.1\n";

/* ---- the steps of the lesson, in the order main takes them ------------------------------ */

/* What the flags choose beside the instrument (--set, --params) and the stroke (--accel ...). */
typedef struct settings {
    const char *solver, *wav_path;
    double rtol, atol, duration;
    bool quick, list;
    long jobs;
    gesture_track velocity, force;
    cli_common common;
    budget bg;
    plot_opts plot;
    bool article;   /* the stroke is stroke-fig6.ini's, unchanged: the article's Figure 6 */
} settings;

/* The instrument (cello-g.ini), the stroke (stroke-fig6.ini) and the figures (bow-figures.ini). */
static int load_lesson_params(bow_instrument *in, stroke_params *sp, bow_figure_params *fp,
                              bow_conv_params *cp, failure *e)
{
    memset(in, 0, sizeof *in);
    bow_param_table(in, inst_spec);
    if (load_params_file(inst_spec, "cello-g.ini", e) != 0)
        return e->status;
    return load_params(sp, fp, cp, e);
}

/* The flags over the defaults (a refusal ends the program: the flag parser's); the sound file's
 * path checked before any work: 0, or 2 with e. */
static int parse_flags(settings *s, stroke_params *sp, int argc, char **argv, failure *e)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *s = (settings){.solver = "fixed", .wav_path = "build/sound/bow.wav", .rtol = 1e-8,
                    .atol = 1e-12, .jobs = cores > 0 ? cores : 1,
                    .common = {false, "build/data/bow"}, .plot = {false, false, NULL}};
    budget_init(&s->bg, PROGRAM, "steps", 1.2e7, "--duration / dt (the stroke's length otherwise), "
                "each step weighed by its cost (modes x contact points, calibrated) over the "
                "default cello's 4.8 us; CVODE counts " TEXT_OF_VALUE(CVODE_STEPS)
                " steps a dt, its measured cost (its CPU a dt over the fixed scheme's a step, "
                "first 0.1 s: 218, 171-286)");
    stroke_keys sk;
    stroke_keys_bind(sp, &sk);
    const cli_opt opts[] = {
        FLAG_CUSTOM("set", NULL, "", parse_set,
            "KEY=VALUE with a key of cello-g.ini and a value in its range",
            "override one instrument value, KEY=VALUE (keys of cello-g.ini)", .open = CLI_REPEAT),
        FLAG_CUSTOM("params", NULL, "", parse_params_file,
            "an .ini file with keys of cello-g.ini (" PARAMS_NAME_RULE ")",
            "read instrument values from another .ini (any subset of the keys)"),
        FLAG_TABLE(sk.stroke),
        FLAG_CUSTOM("velocity", &s->velocity, "s:m/s", parse_track,
            "increasing times >= 0, as T:V pairs separated by commas",
            "bow velocity breakpoints instead of the stroke, T:V,T:V,..."),
        FLAG_CUSTOM("force", &s->force, "s:N", parse_track,
            "increasing times >= 0, as T:F pairs separated by commas, forces > 0",
            "bowing force breakpoints instead of the constant --f_b, T:F,T:F,..."),
        FLAG_REAL("duration", s->duration, "s", 0, 60, CLI_CLOSED,
            "simulated time (0: the end of the stroke)"),
        FLAG_CHOICE("solver", s->solver, "fixed|cvode",
            "fixed-step scheme at dt, or CVODE BDF (the reference)"),
        FLAG_REAL("rtol", s->rtol, "", 1e-14, 1e-2, CLI_CLOSED, "CVODE relative tolerance"),
        FLAG_REAL("atol", s->atol, "", 1e-20, 1e-3, CLI_CLOSED,
            "CVODE absolute tolerance (SI units of each state)"),
        FLAG_TEXT("wav", s->wav_path,
            "sound file of the bridge force, 48 kHz: " ATOMIC_ACCEPTS_DASH),
        FLAG_BOOL("list", s->list,
            "print every instrument value (the keys --set takes) with unit and range, and exit"),
        FLAG_WHOLE("jobs", s->jobs, 1, 256,
            "worker processes for the nine Figure 7 runs (default: the online cores)"),
        FLAG_BOOL("quick", s->quick,
            "the stroke only: skip the data of Figures 4, 7, 8d and the Q-factors"),
        BUDGET_OPT(s->bg),
        CLI_COMMON_OPTS(s->common),
        PLOT_OPTS(s->plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = PROGRAM,
        .summary = "One bow stroke on a cello G string (thermal elasto-plastic friction): bridge "
            "force, slips, temperature, energy balance.",
        .opts = opts,
        .epilogue = exercises,
    };
    const stroke_params sp_file = *sp;
    cli_parse(&spec, argc, argv);
    s->article = memcmp(sp, &sp_file, sizeof *sp) == 0 && s->velocity.n == 0 && s->force.n == 0;
    return atomic_check_output(PROGRAM, "wav", s->wav_path, true, e);
}

/* The bow's gesture: the stroke of the flags, or the --velocity / --force tracks, to --duration.
 * 0, or 2 with e (a stroke of no length). */
static int make_stroke(gesture *gp, const stroke_params *sp, const settings *s,
                       const bow_instrument *in, failure *e)
{
    gesture g = gesture_stroke(sp->accel, sp->v_hold, sp->t_hold, sp->decel, sp->f_b,
                               sp->x_b_rel * in->L);
    if (s->velocity.n > 0) {
        g.velocity = s->velocity;
        g.duration = s->velocity.time[s->velocity.n - 1];
    }
    if (s->force.n > 0)
        g.force = s->force;
    if (s->duration > 0)
        g.duration = s->duration;
    *gp = g;
    if (!(g.duration > 0))
        return failure_input(e, PROGRAM, "the stroke lasts %g s; accepted: --duration > 0 or a "
                             "velocity track that ends after 0 s", g.duration);
    return 0;
}

/* The string under the bow (modes, contact points); the figures' strokes cross-checked now,
 * before any work or file (not after the stroke). 0, or 2 with e (m freed). */
static int make_bowed_string(bow_model *m, const bow_instrument *in, const gesture *g,
                             const settings *s, const bow_figure_params *fp,
                             const bow_conv_params *cp, failure *e)
{
    char err[600];
    if (bow_model_init(m, in, g, err, sizeof err) != 0)
        return failure_input(e, PROGRAM, "%s", err);
    if (!s->quick && bow_fig7_check(in, fp, err, sizeof err) != 0)
        failure_input(e, PROGRAM, "Figure 7's strokes (at x_b/L = %g; --quick skips them): %s",
                      fp->fig7_x_b_rel, err);
    else if (!s->quick && bow_convergence_check(in, g, cp, err, sizeof err) != 0)
        failure_input(e, PROGRAM, "the convergence study (--quick skips it): %s", err);
    else
        return 0;
    bow_model_free(m);
    return e->status;
}

/* The stroke as run and measured: the record of every step, the sound, what it shows. */
typedef struct stroke_run {
    bow_solver solver;
    double weight;          /* budget ticks a step: its cost over the default cello's */
    bow_record r;
    double *x;              /* the final state */
    bow_run_result res;
    bow_obs last;           /* energy terms at the end */
    double fs;              /* the record's rate, 1/dt */
    double *wav;            /* the bridge force at WAV_RATE */
    size_t nw;
    stroke_summary ss;
    double residual;        /* energy residual over int |P| */
    size_t nz;              /* three periods, for zoom.tsv */
} stroke_run;

/* The work estimated before it starts: one sample a step of dt, every one recorded; CVODE's
 * work counted CVODE_STEPS steps a dt; a step weighed by its cost (modes x contact points)
 * over the default cello's, into s->bg (main checks it against the cap). */
static void estimate_work(stroke_run *st, settings *s, const bow_instrument *in,
                          const gesture *g)
{
    st->solver = strcmp(s->solver, "cvode") == 0 ? BOW_CVODE : BOW_FIXED;
    double samples = g->duration / in->dt;
    st->weight = (st->solver == BOW_CVODE ? (double)CVODE_STEPS : 1.0) * bow_step_weight(in);
    s->bg.work = samples * st->weight;
    s->bg.bytes_out = samples / 8.0 * 100.0 + g->duration * WAV_RATE * 4.0;
    s->bg.bytes_mem = samples * 8.0 * 16.0;
}

/* The stroke, every step recorded; 1 with the solver, time and reason in e if it fails. */
static int bow_the_string(stroke_run *st, bow_model *m, const bow_instrument *in,
                          const gesture *g, settings *s, failure *e)
{
    size_t cap = (size_t)lround(g->duration / in->dt) + 2;
    bow_record_init(&st->r, m, cap);
    st->r.tick = st->weight;
    st->r.meter = &s->bg.meter;
    st->x = xcalloc(m->at.dim, sizeof(double));
    bow_run_opts o = {.solver = st->solver, .h = in->dt, .rtol = s->rtol, .atol = s->atol,
                      .dt_out = in->dt, .t1 = g->duration, .sink = bow_record_sink,
                      .ctx = &st->r};
    if (bow_run(m, &o, st->x, &st->res) != 0)
        return failure_set(e, 1, PROGRAM ": %s", st->res.message);
    budget_finish(&s->bg.meter);
    bow_observe(m, g->duration, st->x, &st->last);
    st->fs = 1.0 / in->dt;
    return 0;
}

/* What the stroke shows: pitch, slips, regime, temperature, loops (bow/stroke.h), heard
 * at 48 kHz (resample.h's converter for sound); 1 with e if the resampling fails. */
static int measure_stroke(stroke_run *st, const bow_instrument *in, const gesture *g, failure *e)
{
    char err[600];
    const bow_record *r = &st->r;
    st->wav = resample(r->bridge_u, r->n, st->fs, WAV_RATE, RESAMPLE_SOUND, &st->nw, err,
                       sizeof err);
    if (!st->wav)
        return failure_set(e, 1, PROGRAM ": %s", err);
    stroke_trace tr = {.t = r->t, .v_b = r->v_b, .v_rel = r->v_mean, .bridge = r->bridge_u,
                       .friction = r->friction, .tau_mean = r->tau_mean, .tau_max = r->tau_max,
                       .n = r->n, .fs = st->fs, .sound = st->wav, .n_sound = st->nw,
                       .sound_rate = WAV_RATE};
    stroke_summarise(&tr, in, g, &st->ss);
    st->residual = st->last.e_abs > 0 ? r->residual / st->last.e_abs : 0.0;
    st->nz = st->ss.f0 > 0 ? (size_t)lround(3.0 * st->fs / st->ss.f0) : 0;
    return 0;
}

/* stroke.tsv and the rest of the stroke's data, summary.tsv, and the sound: band-limited to
 * 48 kHz, normalised to 0.9 of full scale. 0, or the failure's status with e. */
static int write_stroke_files(const stroke_run *st, const bow_model *m, const stroke_params *sp,
                              const gesture *g, const settings *s, failure *e)
{
    if (bow_write_stroke_data(PROGRAM, &st->r, m, sp->v_hold / sp->accel, sp->f_b,
                              s->velocity.n > 0, st->nz, s->common.out, e)
        || write_summary(s->common.out, &st->ss, g, sp->x_b_rel, s->article, e))
        return e->status;
    double peak = max_abs(st->wav, st->nw);
    return wav_write_file(PROGRAM, s->wav_path, st->wav, st->nw, WAV_RATE,
                          peak > 0 ? 0.9 / peak : 1.0, NULL, e);
}

/* What the article's figures measured: Figure 7's first slips, the convergence order. */
typedef struct figure_facts {
    int fig7_slipped;       /* first-slip transients that slipped; -1: not run (--quick) */
    double t_slip[9], drop[9], fall[9];
    double conv_order, pairwise[8], dt_range[2];
} figure_facts;

/* The data of the article's Figures 4, 7, 8d, the Q-factors and the convergence study; 0, or
 * the failure's status with e. */
static int write_article_figures(figure_facts *ff, const bow_model *m, const bow_instrument *in,
                                 const gesture *g, const bow_figure_params *fp,
                                 const bow_conv_params *cp, const settings *s, failure *e)
{
    const char *out = s->common.out;
    if (bow_write_modes(PROGRAM, m, fp->qref_sigma0, fp->qref_sigma2, out, e) ||
        bow_write_fig4(PROGRAM, in, fp, out, e) ||
        bow_write_pluck(PROGRAM, m, fp->pluck_x_rel, fp->pluck_amplitude, fp->pluck_duration,
                        out, e) ||
        bow_fig7_write(PROGRAM, in, fp, out, s->jobs, ff->t_slip, ff->drop, ff->fall,
                       &ff->fig7_slipped, e) ||
        bow_convergence_study(PROGRAM, in, g, cp, out, &ff->conv_order, ff->pairwise,
                              ff->dt_range, e))
        return e->status;
    return 0;
}

/* The instrument and the stroke, as run. */
static void show_setup(const bow_instrument *in, const bow_model *m, const stroke_params *sp,
                       const stroke_run *st, const gesture *g)
{
    printf("bowed cello G string: L = %g m, T = %g N, %d transverse + %d torsional modes "
           "(to %g Hz), N = %d points\n", in->L, in->T, m->Mu, m->Mw, in->f_max, m->N);
    printf("stroke: %g m/s^2 to %g m/s, hold %g s, f_b = %g N at x_b/L = %g; %s, dt = %g s, "
           "%g s simulated\n\n", sp->accel, sp->v_hold, sp->t_hold, sp->f_b, sp->x_b_rel,
           bow_solver_name(st->solver), in->dt, g->duration);
}

/* The solver's work: steps, splits, Newton iterations, wall and processor time. */
static void show_run_cost(const stroke_run *st, const gesture *g)
{
    const bow_run_result *res = &st->res;
    printf("%s: %ld steps (%ld split after a failed Newton solve), %.2f Newton iterations a "
           "step, %.3f s wall, %.3f s processor time (%.2f simulated seconds per processor "
           "second)\n", bow_solver_name(st->solver), res->steps, res->split,
           res->steps ? (double)res->newton / res->steps : 0.0, res->seconds, res->cpu_seconds,
           g->duration / res->cpu_seconds);
}

/* What the stroke shows: first slip, regime, Schelleng ripples, the hysteresis loops, the
 * contact temperature (against the article's when the stroke is Figure 6's). */
static void show_stroke_claims(const stroke_run *st, const stroke_params *sp,
                               const bow_instrument *in, const gesture *g, bool article)
{
    const stroke_summary *ss = &st->ss;
    printf("first slip at %.4f s; analysis window %.3f-%.3f s\n", ss->first_slip, ss->w0,
           g->duration);
    if (ss->v_window > 0)
        printf("regime: %s (%s)\n", regime_label(ss->regime.kind), ss->regime.why);
    printf("Schelleng ripples per period: %.1f (L/x_b = %.1f)\n", ss->ripples, 1.0 / sp->x_b_rel);
    printf("last three periods: the f/f_b - v loop runs %s (area %.3g m/s), the tau - v loop %s "
           "(%.3g K m/s)\n", stroke_loop_direction(ss->loop_f), ss->loop_f,
           stroke_loop_direction(ss->loop_tau), ss->loop_tau);
    printf("smallest contact temperature rise: %.3g K (never below ambient)\n", st->r.tau_min);
    if (article)    /* the article's stroke, unchanged */
        printf("peak contact temperature %.1f degC; the article's Figure 6 peaks at about %g "
               "degC: our thermal parameters (a_tau, b_tau, c_tau, tau_g) are reconstructed "
               "from a survey, the article's Table 1 being lost (lessons/params/cello-g.ini "
               "names each value's source); the gap is open\n",
               ss->peak_tau + in->ambient_c, sp->article_peak_c);
}

/* Figure 7: the first slip of each of the nine strokes (b_tau scale x mu_d). */
static void show_figure7(const figure_facts *ff, const bow_figure_params *fp)
{
    printf("Figure 7: %d of 9 first-slip transients slipped; first slip (s), its force drop "
           "(N), steepest fall:\n", ff->fig7_slipped);
    for (int b = 0; b < 3; b++) {
        printf("  b_tau x %-4g", fp->fig7_b_scale[b]);
        for (int d = 0; d < 3; d++)
            printf("  mu_d %-4g %.4f s %.2f N %.0f N/ms", fp->fig7_mu_d[d], ff->t_slip[3 * b + d],
                   ff->drop[3 * b + d], ff->fall[3 * b + d] * 1e-3);
        printf("\n");
    }
}

/* What a stroke holds: its recording, its state, its sound, and the model. */
static void free_stroke(stroke_run *st, bow_model *m)
{
    free(st->wav);
    free(st->x);
    bow_record_free(&st->r);
    bow_model_free(m);
}

int main(int argc, char **argv)
{
    /* 1. The instrument, the stroke and the figures' values, from lessons/params/, then the
     *    flags over them. */
    bow_instrument in;
    stroke_params sp;
    bow_figure_params fp;
    bow_conv_params cp;
    failure why = {0};
    if (load_lesson_params(&in, &sp, &fp, &cp, &why) != 0)
        return failure_print(&why);
    settings s;
    if (parse_flags(&s, &sp, argc, argv, &why) != 0)
        return failure_print(&why);
    if (s.list) {
        list_instrument(s.common.tsv);
        return 0;
    }
    if (strlen(s.common.out) == 0)
        cli_fail(PROGRAM, "--out '' is empty; accepted: a folder name");

    /* 2. The model: the bow's gesture and the bowed string, checked before any work. From here
     *    on a failure (why) goes to main's one way out, which frees the stroke and the model. */
    gesture g;
    bow_model m;
    if (make_stroke(&g, &sp, &s, &in, &why) != 0
        || make_bowed_string(&m, &in, &g, &s, &fp, &cp, &why) != 0)
        return failure_print(&why);
    stroke_run st = {0};
    estimate_work(&st, &s, &in, &g);
    if (budget_check(&s.bg, &why) != 0)
        goto out;

    /* 3. One stroke, solved by the fixed-step scheme (or CVODE BDF), every step recorded. */
    if (bow_the_string(&st, &m, &in, &g, &s, &why) != 0)
        goto out;
    /* 4. Measure it: pitch, slips a period, regime, temperature, energy balance; the sound. */
    if (measure_stroke(&st, &in, &g, &why) != 0
        || write_stroke_files(&st, &m, &sp, &g, &s, &why) != 0)
        goto out;
    /* 5. Without --quick: the article's Figures 4, 7, 8d, the Q-factors, the order. */
    figure_facts ff = {.fig7_slipped = -1, .conv_order = NAN};
    if (!s.quick && write_article_figures(&ff, &m, &in, &g, &fp, &cp, &s, &why) != 0)
        goto out;

    /* 6. The claims: the setup, the cost, what the stroke shows, the figures, the summary. */
    if (!s.common.tsv) {
        show_setup(&in, &m, &sp, &st, &g);
        show_run_cost(&st, &g);
        show_stroke_claims(&st, &sp, &in, &g, s.article);
        if (ff.fig7_slipped >= 0)
            show_figure7(&ff, &fp);
        if (!s.quick)
            print_order(&cp, ff.conv_order, ff.pairwise, ff.dt_range);
        printf("wrote %s/stroke.tsv, %s (%zu samples at %d Hz)\n\n", s.common.out, s.wav_path,
               st.nw, WAV_RATE);
    }
    summary_table(&st.ss, &st.r, &in, st.residual, g.duration / st.res.seconds, s.common.tsv);
out:
    free_stroke(&st, &m);
    if (why.status != 0)
        return failure_print(&why);
    return plot_render(&s.plot, PROGRAM, s.common.out, s.common.tsv);
}
