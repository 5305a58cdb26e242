/* Lesson 11, "Schelleng diagrams": which oscillation a bowed cello string settles into, over
 * the plane of bow-bridge distance x_b/L and bowing force f_b (van Walstijn et al., Acta
 * Acustica 2026, section 3.2). Each cell is one stroke of the bowed-string model (bow.h):
 * accelerate from rest, hold 0.1 m/s, (decelerate); its steady part is classified by regime.h
 * and measured (mean, RMS, f0, spectral centroid). bow/plane.h sweeps the plane over
 * study/sweep.h: cells in forked workers, appended to a TSV as they finish (an interrupted sweep
 * resumes), --shard K/N over machines. Every unclassified cell names its reason; Figure 10's
 * boundary lines are read off the sweep and their slopes printed against Schelleng's; --keep
 * DIR keeps each cell's window so that the sweep can be classified again without simulating.
 *
 * It stays one program whose main lists its claims, in the lecture's order (the plane's regimes,
 * Figure 10's boundaries, Figure 9's gallery, Figure 11's examples): every claim is read off the
 * same sweep of the same instrument, the boundaries and the examples from its results file, so
 * splitting them would make each program redo or reload that sweep.
 *
 * Try it: bin/schelleng --cell 0.075,2.15 (the Figure 6 point), then --full. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/plot.h"
#include "io/table.h"
#include "bow/bow.h"
#include "analysis/regime.h"
#include "analysis/resample.h"
#include "bow/schelleng_stroke.h"
#include "bow/plane.h"
#include "study/sweep.h"
#include "base/util.h"
#include "study/workers.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "schelleng"
#define NGALLERY PLANE_NGALLERY
#define PLOT_RATE 20000.0   /* Hz: rate of the waveforms written for the figures */

/* ---- parameters ---------------------------------------------------------------------- */

/* What main reads before the flags and hands down: the instrument (cello-g.ini, then --set and
 * --params through inst_spec) and the plane's grid, stroke and gallery (schelleng.ini, then the
 * flags through keys). Its specs point into it: it stays in main's frame. */
typedef struct lesson_setup {
    bow_instrument inst;
    param_spec inst_spec[BOW_NKEYS + 1];
    plane_params pp;
    plane_keys keys;
    const char *params_name;    /* --params: instrument overrides (NULL: none) */
} lesson_setup;

static int parse_set(const char *text, void *dest, char *why, size_t whylen)
{
    lesson_setup *ls = dest;
    return params_set(ls->inst_spec, text, why, whylen);
}

static int parse_params_file(const char *text, void *dest, char *why, size_t whylen)
{
    lesson_setup *ls = dest;
    if (params_load_named(ls->inst_spec, text, why, whylen) != 0)
        return -1;
    ls->params_name = text;
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

/* ---- one cell ------------------------------------------------------------------------------ */

/* --cell: one stroke, its regime and its measures. 0, or 1 with e. */
static int one_cell(const lesson_setup *ls, point cell, bool stand_in, bool tsv, failure *e)
{
    const bow_instrument *inst = &ls->inst;
    const schelleng_stroke *stroke = &ls->pp.stroke;
    regime_opts ro = regime_defaults();
    regime_result r;
    char err[600];
    double t0 = wall_seconds(), w0, w1;
    int st = stand_in
        ? schelleng_standin_cell(inst, stroke, cell.x, cell.f, &ro, &r)
        : schelleng_cell(inst, stroke, cell.x, cell.f, &ro, &r, NULL, NULL, err, sizeof err);
    if (st != 0)
        return failure_set(e, 1, PROGRAM ": %s", err);
    schelleng_window(stroke, &w0, &w1);
    if (!tsv)
        printf("%sstroke at x_b/L = %g, f_b = %g N: %g m/s^2 to %g m/s, "
               "analysed %.3f-%.3f s (%.2f s wall)\n%s: %s\n\n",
               stand_in ? "STAND-IN (synthetic, not the model): " : "", cell.x, cell.f,
               stroke->accel, stroke->v_hold, w0, w1, wall_seconds() - t0,
               regime_label(r.kind), r.why);
    table tab;
    table_begin(&tab, stdout, tsv, "x_b_over_L", "f_b_N", "regime", "slips_per_period",
                "flybacks_per_period", "f0_hz", "period_ratio", "regularity", "amplitude_ratio",
                "mean_N", "rms_N", "centroid_hz", "secondary_ratio", "reason", NULL);
    const double v[] = {r.slips_per_period, r.flybacks_per_period, r.f0_hz, r.period_ratio,
                        r.regularity, r.amplitude_ratio, r.mean_n, r.rms_n, r.centroid_hz,
                        r.secondary_ratio};
    static const char *const fmt[] = {"%.3f", "%.3f", "%.3f", "%.4f", "%.4f",
                                      "%.3f", "%.4f", "%.4f", "%.1f", "%.3f"};
    table_cell(&tab, "%.4g", cell.x);
    table_cell(&tab, "%.4g", cell.f);
    table_cell(&tab, "%s", regime_name(r.kind));
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        table_cell(&tab, fmt[k], v[k]);
    table_cell(&tab, "%s", regime_reason_name(r.reason));
    return 0;
}

/* ---- Figure 10's boundaries ----------------------------------------------------------------- */

static int show_boundaries(const char *results, const plane_grid *g, bool tsv)
{
    table tab;
    if (!tsv)
        printf("\nFigure 10's boundaries read off the sweep, "
               "log10 f_b = a + slope log10(x_b/L):\n");
    table_begin(&tab, stdout, tsv, "boundary", "columns", "slope", "slope_se", "f_b_at_1_N",
                "schelleng_slope", NULL);
    regime_fit fit[REGIME_EDGE_COUNT];
    char path[4200];
    int rc = plane_boundaries(results, g, fit, path, sizeof path);
    for (int e = 0; e < REGIME_EDGE_COUNT; e++) {
        table_cell(&tab, "%s", regime_edge_name((regime_edge)e));
        bool fitted = isfinite(fit[e].slope);     /* REGIME_FIT_MIN_COLUMNS columns or more */
        table_cell(&tab, "%zu", fit[e].points);
        table_cell_or(&tab, fitted, "%.3f", fit[e].slope, tsv ? "nan" : "-");
        table_cell_or(&tab, fitted, "%.3f", fit[e].slope_se, tsv ? "nan" : "-");
        table_cell_or(&tab, fitted, "%.4g", pow(10, fit[e].intercept), tsv ? "nan" : "-");
        if (isnan(plane_schelleng_slope[e]))
            table_cell(&tab, "none");
        else
            table_cell(&tab, "%.0f", plane_schelleng_slope[e]);
    }
    if (!tsv)
        printf("a boundary is fitted from %d or more columns with an edge ('-': fewer); "
               "its slope_se counts the fit's residuals and the grid's resolution\n",
               REGIME_FIT_MIN_COLUMNS);
    if (rc)
        perror(PROGRAM ": cannot write the boundaries file");
    return rc != 0;
}

/* ---- Figure 9 and Figure 11: waveforms ---------------------------------------------------- */

/* gallery.tsv: t and the ten bridge forces (NaN past a stroke's end or for a failed one). */
static void write_gallery(FILE *f, const plane_params *pp, const plane_wave *g)
{
    fprintf(f, "t_s");
    size_t n = 0;
    for (int k = 0; k < NGALLERY; k++) {
        fprintf(f, "\tf_b = %.2f N (%s)", pp->gallery_f[k],
                g[k].wave ? regime_label(g[k].r.kind) : "failed");
        n = g[k].n > n ? g[k].n : n;
    }
    fprintf(f, "\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%.6f", (double)i / PLOT_RATE);
        for (int k = 0; k < NGALLERY; k++) {
            if (g[k].wave && i < g[k].n)
                fprintf(f, "\t%.5g", g[k].wave[i]);
            else
                fprintf(f, "\tNaN");
        }
        fprintf(f, "\n");
    }
}

/* Ten strokes at gallery_x; writes gallery.tsv (t, the ten bridge forces). The number of
 * failed strokes (messages on stderr), or -1 with e when gallery.tsv cannot be written. */
static int gallery(const lesson_setup *ls, const char *out, long jobs, table *tab, failure *e)
{
    const plane_params *pp = &ls->pp;
    plane_wave g[NGALLERY];
    int failed = plane_gallery(PROGRAM, &ls->inst, &pp->stroke, pp->gallery_x, pp->gallery_f,
                               NGALLERY, jobs, PLOT_RATE, g);
    atomic_file af;
    FILE *f = atomic_open_file(&af, PROGRAM, out, "gallery.tsv", e);
    if (!f)
        failed = -1;
    else
        write_gallery(f, pp, g);
    if (f && atomic_commit_file(&af, PROGRAM, e) != 0)
        failed = -1;
    for (int k = 0; k < NGALLERY; k++) {
        const regime_result *r = &g[k].r;
        if (g[k].wave && failed >= 0) {
            table_cell(tab, "gallery");
            table_cell(tab, "%.4g", pp->gallery_x);
            table_cell(tab, "%.3g", pp->gallery_f[k]);
            table_cell(tab, "%s", regime_name(r->kind));
            table_cell(tab, "%.3f", r->slips_per_period);
            table_cell(tab, "%.2f", r->f0_hz);
            table_cell(tab, "%.3f", r->mean_n);
            table_cell(tab, "%.3f", r->rms_n);
            table_cell(tab, "%.1f", r->centroid_hz);
        }
        free(g[k].wave);
    }
    return failed;
}

/* Figure 11: one waveform per regime, simulated where the sweep found one (the cell nearest the
 * middle of that regime's cells in log coordinates), synthetic otherwise. examples.tsv holds
 * the regime, its source, the cell, and four periods of the bridge force. 0, or the failure's
 * status with e. */
static int write_examples(const lesson_setup *ls, const char *out, const char *results,
                          bool stand_in, const plane_grid *g, failure *e)
{
    long n = 0;
    plane_row *rows = stand_in ? xcalloc(1, sizeof *rows) : plane_load_rows(results, &n);
    atomic_file af;
    FILE *f = atomic_open_file(&af, PROGRAM, out, "examples.tsv", e);
    if (!f) {
        free(rows);
        return e->status;
    }
    fprintf(f, "regime\tsource\tcell\tt_ms\tbridge_N\n");
    for (int k = 0; k < REGIME_COUNT; k++) {
        double *w;
        size_t nw;
        char where[96];
        const char *source = plane_example(PROGRAM, &ls->inst, &ls->pp.stroke, g, rows, n, k,
                                           PLOT_RATE, 4.0, &w, &nw, where, sizeof where, e);
        if (!source) {
            atomic_abort(&af);
            free(rows);
            return e->status;
        }
        for (size_t i = 0; i < nw; i++)
            fprintf(f, "%s\t%s\t%s\t%.4f\t%.5g\n", regime_name((regime_kind)k), source, where,
                    1e3 * (double)i / PLOT_RATE, w[i]);
        free(w);
    }
    free(rows);
    return atomic_commit_file(&af, PROGRAM, e);
}

/* ---- merging the parts of a sharded sweep ------------------------------------------------ */

/* fig13-params.tsv (key, value): the friction values the Figure 13 sweep ran with (its title's).
 * 0, or the failure's status with e. */
static int write_fig13_params(const char *out, const bow_instrument *in, failure *e)
{
    const table_kv facts[] = {
        TABLE_KV("mu_s", "%g", in->mu_s), TABLE_KV("mu_d", "%g", in->mu_d),
        TABLE_KV("y_a", "%g", in->y_a), TABLE_KV("tau_g", "%g", in->tau_g),
        TABLE_KV("b_tau", "%g", in->b_tau),
    };
    atomic_file af;
    FILE *f = atomic_open_file(&af, PROGRAM, out, "fig13-params.tsv", e);
    if (!f)
        return e->status;
    table_write_kv(f, true, facts, sizeof facts / sizeof facts[0]);
    return atomic_commit_file(&af, PROGRAM, e);
}

/* --merge PART...: the parts checked and merged, then the boundaries and figures of the whole
 * grid. 0, the exit status (said on stderr), or 2 with e (no parts, or parts without --merge). */
static int merge_parts(bool merge, char *const *part, int nparts, const char *results,
                       const cli_common *common, plot_opts *plot, failure *e)
{
    if (!merge)
        return failure_input(e, PROGRAM, "'%s' is not a flag; accepted: PART... only after "
                             "--merge", part[0]);
    if (nparts == 0)
        return failure_input(e, PROGRAM, "--merge without parts; accepted: --merge PART... "
                             "(the results-...-K-of-N.tsv files)");
    plane_grid g;
    char path[4096];
    int rc = plane_merge(PROGRAM, part, nparts, results, &g, path, sizeof path);
    if (rc != 0)
        return rc;
    if (!common->tsv)
        printf("merged %d parts into %s (%d x %d cells)\n\n", nparts, path, g.nx, g.nf);
    table tab;
    table_begin(&tab, stdout, common->tsv, "what", "regime", "cells", "of", NULL);
    plane_summary_rows(&tab, "merged", path);
    if (g.nx >= 2 && g.nf >= 2)
        rc = show_boundaries(path, &g, common->tsv);
    if (plot_render(plot, PROGRAM, common->out, common->tsv) != 0)
        rc = 1;
    return rc;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Walk down the force at x_b/L = 0.1: at 2 N the string keeps Helmholtz motion; at 0.5 N,\n"
    "     below Schelleng's minimum force, which regime does the classifier find, with how many\n"
    "     slips a period?\n"
    "     check: bin/schelleng --cell 0.1,0.5\n";

/* The instrument (cello-g.ini) and the plane's grid and stroke (schelleng.ini), read before the
 * flags so that the flags override them. 0, or 1 with e. */
static int load_instrument_and_plane(lesson_setup *ls, failure *e)
{
    char err[600];
    *ls = (lesson_setup){.params_name = NULL};
    bow_param_table(&ls->inst, ls->inst_spec);
    plane_keys_bind(&ls->pp, &ls->keys);
    if (params_load(ls->inst_spec, params_path("cello-g.ini"), false, err, sizeof err) != 0 ||
        params_load(ls->keys.all, params_path("schelleng.ini"), false, err, sizeof err) != 0)
        return failure_set(e, 1, PROGRAM ": %s", err);
    return 0;
}

/* What the flags ask for (the instrument and the plane's keys are in the lesson_setup). */
typedef struct run_flags {
    long jobs;                              /* worker processes */
    bool full, stand_in, merge;
    const char *what, *results, *keep, *redo;
    sweep_shard sh;                         /* --shard K/N */
    point cell;                             /* --cell X,F */
    cli_common common;                      /* --tsv, --out */
    budget bg;                              /* the estimate and its cap */
    plot_opts plot;
} run_flags;

/* The flags parsed into fl and ls; returns the index of the first positional argument. */
static int read_flags(run_flags *fl, lesson_setup *ls, int argc, char **argv)
{
    *fl = (run_flags){.jobs = sysconf(_SC_NPROCESSORS_ONLN), .what = "default",
                      .sh = {1, 1}, .common = {false, "build/data/schelleng"}};
    if (fl->jobs < 1)
        fl->jobs = 1;
    budget_init(&fl->bg, PROGRAM, "steps", 2e8, "--nx, --nf (cells; --full: 40 x 40), --t_hold, "
                "--v_hold / --accel (steps of dt a cell, each weighed by its cost, modes x contact "
                "points, over the default cello's 4.8 us)");
    const cli_opt opts[] = {
        FLAG_TABLE(ls->keys.grid),
        FLAG_BOOL("full", fl->full,
            "the article's full grid, n_full x n_full of schelleng.ini (40 x 40); sweep only"),
        FLAG_WHOLE("jobs", fl->jobs, 1, 256, "worker processes (default: the online cores)"),
        FLAG_CUSTOM("shard", &fl->sh, "", sweep_parse_shard,
            "K/N with integers 1 <= K <= N",
            "run only the K-th of N interleaved parts (cells c with c mod N = K - 1)"),
        FLAG_TEXT("results", fl->results,
            "results TSV, appended as cells finish (default "
            "OUT/results[-PARAMS][-full][-K-of-N].tsv; the boundaries beside it, "
            "RESULTS-boundaries.tsv)"),
        FLAG_TEXT("keep", fl->keep,
            "keep each cell's analysis window in this folder; a later run with the same folder "
            "classifies the kept windows instead of simulating (e.g. into another --results)"),
        FLAG_TEXT("redo_unclassified", fl->redo,
            "run only the cells that this results file (of the same grid) has as unclassified, "
            "e.g. with a longer --t_hold into another --results"),
        FLAG_BOOL("merge", fl->merge,
            "check the parts PART... of a --shard K/N sweep (one grid and model, every cell "
            "once, whole valid rows) and merge them into --results (default: the parts' name "
            "without -K-of-N), with the boundaries of the whole grid"),
        FLAG_CHOICE("what", fl->what, "default|sweep|fig13|gallery|examples",
            "default: sweep, Figure 13 sweep, Figure 9 gallery, Figure 11 examples; or one of "
            "them"),
        FLAG_CUSTOM("cell", &fl->cell, "", parse_point,
            "X,F with X = x_b/L in (0, 1) and F in (0, 100] N",
            "classify one stroke at x_b/L,f_b and print it (no files)"),
        FLAG_TABLE(ls->keys.stroke),
        FLAG_CUSTOM("set", ls, "", parse_set,
            "KEY=VALUE with a key of cello-g.ini and a value in its range",
            "override one instrument value, KEY=VALUE (keys of cello-g.ini)", .open = CLI_REPEAT),
        FLAG_CUSTOM("params", ls, "", parse_params_file,
            "an .ini file with keys of cello-g.ini (" PARAMS_NAME_RULE ")",
            "read instrument values from another .ini over cello-g.ini (e.g. "
            "schelleng-fig13.ini)"),
        FLAG_BOOL("stand_in", fl->stand_in,
            "TESTING ONLY: a synthetic stand-in instead of the model (rows marked stand-in)"),
        BUDGET_OPT(fl->bg),
        CLI_COMMON_OPTS(fl->common),
        PLOT_OPTS(fl->plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = PROGRAM,
        .summary = "Schelleng diagrams: classify the steady oscillation of bowed strokes over "
            "x_b/L and f_b, in parallel.",
        .positional = "[--merge PART...]",
        .opts = opts,
        .epilogue = exercises,
    };
    return cli_parse(&spec, argc, argv);
}

/* What this run does: the grid, which of the four parts, and where their results go. */
typedef struct plan {
    bool all, do_sweep, do_fig13;   /* --what default: every part */
    bool gallery, examples;         /* Figure 9's gallery, Figure 11's examples */
    plane_grid g;
    char path_main[4096], path_fig13[4096];
} plan;

/* --full and --shard make a sweep-only run; the grid checked. 0, or 2 with e. */
static int choose_parts(run_flags *fl, const lesson_setup *ls, plan *p, failure *e)
{
    const plane_params *pp = &ls->pp;
    long nx = lround(pp->nx), nf = lround(pp->nf);
    if (fl->full) {
        nx = nf = lround(pp->n_full);
        if (strcmp(fl->what, "default") == 0)
            fl->what = "sweep";
    }
    if (fl->sh.n > 1 && strcmp(fl->what, "default") == 0)
        fl->what = "sweep";
    if (plane_check(PROGRAM, pp, nx, nf, &ls->inst, e))
        return e->status;
    p->all = strcmp(fl->what, "default") == 0;
    p->do_sweep = p->all || strcmp(fl->what, "sweep") == 0;
    p->do_fig13 = p->all || strcmp(fl->what, "fig13") == 0;
    p->gallery = (p->all && !fl->stand_in) || strcmp(fl->what, "gallery") == 0;
    p->examples = p->all || strcmp(fl->what, "examples") == 0;
    plane_grid_init(&p->g, (int)nx, (int)nf, pp->x_min, pp->x_max, pp->f_min, pp->f_max);
    plane_results_name(p->path_main, sizeof p->path_main, fl->common.out, ls->params_name,
                       fl->full, fl->stand_in, fl->sh);
    snprintf(p->path_fig13, sizeof p->path_fig13, "%s/results-fig13%s.tsv", fl->common.out,
             fl->stand_in ? "-stand-in" : "");
    if (fl->results)
        snprintf(p->path_main, sizeof p->path_main, "%s", fl->results);
    return 0;
}

/* One sweep of the plane: "sweep" (the instrument of the flags) or "fig13"
 * (schelleng-fig13.ini). */
typedef struct plane_run {
    bow_instrument inst;    /* the instrument of its cells */
    plane_sweep ps;         /* the plane's sweep.h client */
    sweep s;                /* opened before anything is printed or computed */
    const char *results;    /* its results file */
} plane_run;

/* Each sweep readied (the Figure 13 one on schelleng-fig13.ini over the instrument); *swept: the
 * cells they will simulate, those their results files hold left out. 0; 1 with e (the file
 * schelleng-fig13.ini); 2 (said on stderr: a results file refused). */
static int ready_sweeps(const run_flags *fl, lesson_setup *ls, const plan *p, plane_run run[2],
                        double *swept, failure *e)
{
    char err[600];
    run[0] = (plane_run){.inst = ls->inst, .results = p->path_main};
    run[1] = (plane_run){.inst = ls->inst,
                         .results = fl->results && !p->all ? fl->results : p->path_fig13};
    *swept = 0;
    if (p->do_fig13 && !fl->cell.set &&
        params_load(ls->inst_spec, params_path("schelleng-fig13.ini"), true, err, sizeof err))
        return failure_set(e, 1, PROGRAM ": %s", err);
    run[1].inst = ls->inst, ls->inst = run[0].inst;
    for (int k = 0; k < 2 && !fl->cell.set; k++) {
        if (!(k ? p->do_fig13 : p->do_sweep))
            continue;
        run[k].ps = (plane_sweep){.inst = &run[k].inst, .stroke = &ls->pp.stroke, .grid = p->g,
                                  .stand_in = fl->stand_in, .keep = fl->keep, .redo = fl->redo};
        if (plane_sweep_init(&run[k].ps, PROGRAM, k ? "fig13" : "sweep", run[k].results, fl->sh,
                             fl->jobs) != 0) {
            plane_sweep_free(&run[0].ps);   /* empty when it was this one */
            return 2;
        }
        *swept += (double)sweep_pending(&run[k].ps.spec);
    }
    return 0;
}

/* The estimate: steps of dt of every stroke this run simulates, each weighed by its cost (modes x
 * contact points) over the default cello's (a stand-in cell's synthesis counts as one default
 * step); into fl->bg, which main checks against the cap. */
static void estimate_work(run_flags *fl, const lesson_setup *ls, const plan *p,
                          const plane_run run[2], double swept)
{
    const schelleng_stroke *stroke = &ls->pp.stroke;
    double t_cell = stroke->v_hold / stroke->accel + stroke->t_hold;
    double steps_cell = t_cell / ls->inst.dt;
    bool examples = (p->all || strcmp(fl->what, "examples") == 0) && !fl->stand_in;
    double waves = fl->cell.set ? 0 : (p->gallery ? NGALLERY : 0) + (examples ? REGIME_COUNT : 0);
    double weight = fl->stand_in ? 1.0 : fmax(bow_step_weight(&run[0].inst),
                                              p->do_fig13 ? bow_step_weight(&run[1].inst) : 0.0);
    long held = fl->jobs < NGALLERY ? fl->jobs : NGALLERY;
    fl->bg.work = ((fl->cell.set ? 1 : 0) + swept + waves) * steps_cell * weight;
    fl->bg.bytes_out = 260.0 * swept + (waves ? t_cell * PLOT_RATE * 12.0 * (NGALLERY + 1) : 0);
    fl->bg.bytes_mem = (double)held * steps_cell * 8.0 * 4.0 +
                       (waves ? NGALLERY * t_cell * PLOT_RATE * 8.0 : 0);
}

/* Every results file opened, checked and locked before anything is printed or computed. */
static int open_results(const plan *p, plane_run run[2])
{
    for (int k = 0; k < 2; k++) {
        int rc = (k ? p->do_fig13 : p->do_sweep) ? plane_sweep_open(&run[k].ps, &run[k].s) : 0;
        if (rc != 0) {
            if (k && p->do_sweep) {
                sweep_free(&run[0].s);
                plane_sweep_free(&run[0].ps);
            }
            return rc;
        }
    }
    return 0;
}

static void describe_plane(const run_flags *fl, const schelleng_stroke *stroke,
                           const plane_grid *g)
{
    if (fl->common.tsv)
        return;
    printf("%sSchelleng plane: x_b/L %g-%g (%d), f_b %g-%g N (%d), log-spaced; "
           "stroke %g m/s^2 to %g m/s, hold %g s, analysed from %g s into the hold; "
           "%ld workers\n\n",
           fl->stand_in ? "STAND-IN CELLS (synthetic, for testing the machinery; not results): "
                        : "",
           g->x_min, g->x_max, g->nx, g->f_min, g->f_max, g->nf, stroke->accel,
           stroke->v_hold, stroke->t_hold, stroke->settle, fl->jobs);
}

typedef struct totals {
    long cells, skipped, computed;  /* over both sweeps, cells */
    double wall, cpu;               /* s */
} totals;

static int run_plane(plane_run *pr, table *tab, const char *what, totals *t)
{
    sweep_stats st;
    int rc = sweep_run(&pr->s, &st);
    plane_sweep_free(&pr->ps);
    if (rc != 0)
        return -1;
    t->wall += st.wall, t->cpu += pr->ps.cpu, t->computed += st.computed;
    t->cells += st.tasks, t->skipped += st.skipped;
    plane_summary_rows(tab, what, pr->results);
    if (pr->ps.failed)
        fprintf(stderr, PROGRAM ": %s%ld cells failed; first: %s\n",
                strcmp(pr->ps.spec.label, "fig13") ? "" : "Figure 13 sweep: ", pr->ps.failed,
                pr->ps.first_error);
    return pr->ps.failed > 0;
}

/* Both sweeps run, each cell classified; the cells of each regime counted. 0, 1 (cells failed)
 * or -1 (a cell lost or a row not written: said on stderr). params_name: --params (or NULL). */
static int classify_plane(const run_flags *fl, const char *params_name, const plan *p,
                          plane_run run[2], totals *t)
{
    table tab;
    table_begin(&tab, stdout, fl->common.tsv, "what", "regime", "cells", "of", NULL);
    int status = 0;
    for (int k = 0; k < 2; k++) {
        if (!(k ? p->do_fig13 : p->do_sweep))
            continue;
        const char *what = k ? "fig13" : params_name ? params_name : "sweep";
        int rc = run_plane(&run[k], &tab, what, t);
        if (rc < 0)
            return -1;
        status |= rc;
    }
    return status;
}

/* Figure 9: ten strokes up the force at gallery_x, each classified. 0, 1 if one failed, or -1
 * with e when gallery.tsv cannot be written. */
static int show_gallery(const run_flags *fl, const lesson_setup *ls, failure *e)
{
    table tab;
    if (!fl->common.tsv)
        printf("\nFigure 9 gallery at x_b/L = %g:\n", ls->pp.gallery_x);
    table_begin(&tab, stdout, fl->common.tsv, "what", "x_b_over_L", "f_b_N", "regime",
                "slips_per_period", "f0_hz", "mean_N", "rms_N", "centroid_hz", NULL);
    int failed = gallery(ls, fl->common.out, fl->jobs, &tab, e);
    return failed < 0 ? -1 : failed != 0;
}

static void show_sweep_time(const totals *t, long jobs)
{
    printf("\nsweep: %ld cells (%ld already in the results, %ld computed) in %.1f s wall on %ld "
           "workers, %.2f s CPU per cell\n", t->cells, t->skipped, t->computed, t->wall, jobs,
           t->computed ? t->cpu / t->computed : 0.0);
}

/* ---- main ---------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    workers_guard();        /* before any work: workers end with this program */
    /* 1. The instrument and the plane, then the flags over them; --merge PART... only joins the
     *    parts of a sharded sweep and reads Figure 10's boundaries off the whole. */
    lesson_setup ls;
    failure why = {0};
    if (load_instrument_and_plane(&ls, &why) != 0)
        return failure_print(&why);
    run_flags fl;
    int first = read_flags(&fl, &ls, argc, argv);
    if (fl.merge || first < argc) {
        int rc = merge_parts(fl.merge, argv + first, argc - first, fl.results, &fl.common,
                             &fl.plot, &why);
        return why.status ? failure_print(&why) : rc;
    }
    /* 2. What this run does: the grid, the parts asked for, where their results go. */
    plan p;
    if (choose_parts(&fl, &ls, &p, &why) != 0)
        return failure_print(&why);
    /* 3. The sweeps readied and the work estimated before any of it starts. */
    plane_run run[2];
    double swept;
    int rc = ready_sweeps(&fl, &ls, &p, run, &swept, &why);
    if (rc != 0)
        return why.status ? failure_print(&why) : rc;
    estimate_work(&fl, &ls, &p, run, swept);
    if (budget_check(&fl.bg, &why) != 0) {
        plane_sweep_free(&run[0].ps);
        plane_sweep_free(&run[1].ps);
        return failure_print(&why);
    }
    /* 4. --cell: one stroke, its regime and its measures. */
    if (fl.cell.set)
        return one_cell(&ls, fl.cell, fl.stand_in, fl.common.tsv, &why) ? failure_print(&why) : 0;
    if ((rc = open_results(&p, run)) != 0)
        return rc;

    /* 5. The Schelleng plane: every cell's regime, counted (and Figure 13's friction sweep). */
    describe_plane(&fl, &ls.pp.stroke, &p.g);
    totals t = {.cells = 0};
    int status = classify_plane(&fl, ls.params_name, &p, run, &t);
    if (status < 0)
        return 1;
    if (p.do_fig13 && write_fig13_params(fl.common.out, &run[1].inst, &why) != 0)
        return failure_print(&why);
    /* 6. Figure 10: the regimes' boundaries and their slopes against Schelleng's (whole plane). */
    if (p.do_sweep && p.g.nx >= 2 && p.g.nf >= 2 && !fl.redo && fl.sh.n == 1)
        status |= show_boundaries(p.path_main, &p.g, fl.common.tsv);
    /* 7. Figure 9: the gallery of waveforms up the force. */
    int gallery_failed = p.gallery ? show_gallery(&fl, &ls, &why) : 0;
    if (gallery_failed < 0)
        return failure_print(&why);
    status |= gallery_failed;
    /* 8. Figure 11: one waveform per regime. */
    if (p.examples && write_examples(&ls, fl.common.out, p.path_main, fl.stand_in, &p.g, &why))
        return failure_print(&why);
    if (!fl.common.tsv && t.cells > 0)
        show_sweep_time(&t, fl.jobs);
    if (plot_render(&fl.plot, PROGRAM, fl.common.out, fl.common.tsv) != 0)
        status = 1;
    return status;
}
