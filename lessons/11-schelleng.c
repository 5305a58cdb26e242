/* Lesson 11, "Schelleng diagrams": which oscillation a bowed cello string settles into, over
 * the plane of bow-bridge distance x_b/L and bowing force f_b (van Walstijn et al., Acta
 * Acustica 2026, section 3.2). Each cell is one stroke of the bowed-string model (bow.h):
 * accelerate from rest, hold 0.1 m/s, (decelerate); its steady part is classified by regime.h
 * and measured (mean, RMS, f0, spectral centroid). sweep/plane.h sweeps the plane over
 * sweep/sweep.h: cells in forked workers, appended to a TSV as they finish (an interrupted sweep
 * resumes), --shard K/N over machines. Every unclassified cell names its reason; Figure 10's
 * boundary lines are read off the sweep and their slopes printed against Schelleng's; --keep
 * DIR keeps each cell's window so that the sweep can be classified again without simulating.
 *
 * Try it: bin/schelleng --cell 0.075,2.15 (the Figure 6 point), then --full. */
#include "lesson.h"
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/plot.h"
#include "io/table.h"
#include "models/bow.h"
#include "measure/regime.h"
#include "measure/resample.h"
#include "measure/schelleng_stroke.h"
#include "sweep/plane.h"
#include "sweep/sweep.h"
#include "base/util.h"
#include "sweep/workers.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "schelleng"
#define NGALLERY PLANE_NGALLERY
#define PLOT_RATE 20000.0   /* Hz: rate of the waveforms written for the figures */

/* ---- parameters ---------------------------------------------------------------------- */

static bow_instrument inst;
static param_spec inst_spec[BOW_NKEYS + 1];
static plane_params pp;
static const char *params_name = NULL;  /* --params: instrument overrides */

static int parse_set(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    return params_set(inst_spec, text, why, whylen);
}

static int parse_params_file(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    if (params_load_named(inst_spec, text, why, whylen) != 0)
        return -1;
    params_name = text;
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

static int one_cell(point cell, bool stand_in, bool tsv)
{
    regime_opts ro = regime_defaults();
    regime_result r;
    char err[600];
    double t0 = wall_seconds(), w0, w1;
    int st = stand_in ? schelleng_standin_cell(&inst, &pp.stroke, cell.x, cell.f, &ro, &r)
                      : schelleng_cell(&inst, &pp.stroke, cell.x, cell.f, &ro, &r, NULL, NULL, err, sizeof err);
    if (st != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    schelleng_window(&pp.stroke, &w0, &w1);
    if (!tsv)
        printf("%sstroke at x_b/L = %g, f_b = %g N: %g m/s^2 to %g m/s, analysed %.3f-%.3f s (%.2f s wall)\n%s: %s\n\n",
               stand_in ? "STAND-IN (synthetic, not the model): " : "", cell.x, cell.f, pp.stroke.accel,
               pp.stroke.v_hold, w0, w1, wall_seconds() - t0, regime_label(r.kind), r.why);
    table tab;
    table_begin(&tab, stdout, tsv, "x_b_over_L", "f_b_N", "regime", "slips_per_period", "flybacks_per_period", "f0_hz",
                "period_ratio", "regularity", "amplitude_ratio", "mean_N", "rms_N", "centroid_hz", "secondary_ratio",
                "reason", NULL);
    const double v[] = {r.slips_per_period, r.flybacks_per_period, r.f0_hz, r.period_ratio, r.regularity,
                        r.amplitude_ratio, r.mean_n, r.rms_n, r.centroid_hz, r.secondary_ratio};
    static const char *const fmt[] = {"%.3f", "%.3f", "%.3f", "%.4f", "%.4f", "%.3f", "%.4f", "%.4f", "%.1f", "%.3f"};
    table_cell(&tab, "%.4g", cell.x);
    table_cell(&tab, "%.4g", cell.f);
    table_cell(&tab, "%s", regime_name(r.kind));
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        table_cell(&tab, fmt[k], v[k]);
    table_cell(&tab, "%s", regime_reason_name(r.reason));
    return 0;
}

/* ---- Figure 10's boundaries ----------------------------------------------------------------- */

static int boundaries(const char *results, const plane_grid *g, bool tsv)
{
    table tab;
    if (!tsv)
        printf("\nFigure 10's boundaries read off the sweep, log10 f_b = a + slope log10(x_b/L):\n");
    table_begin(&tab, stdout, tsv, "boundary", "columns", "slope", "slope_se", "f_b_at_1_N", "schelleng_slope", NULL);
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
        printf("a boundary is fitted from %d or more columns with an edge ('-': fewer); its slope_se counts "
               "the fit's residuals and the grid's resolution\n", REGIME_FIT_MIN_COLUMNS);
    if (rc)
        perror(PROGRAM ": cannot write the boundaries file");
    return rc != 0;
}

/* ---- Figure 9 and Figure 11: waveforms ---------------------------------------------------- */

/* Ten strokes at gallery_x; writes gallery.tsv (t, the ten bridge forces) and returns the
 * number of failures (messages on stderr). */
static int gallery(const char *out, long jobs, table *tab)
{
    plane_wave g[NGALLERY];
    int failed = plane_gallery(PROGRAM, &inst, &pp.stroke, pp.gallery_x, pp.gallery_f, NGALLERY, jobs, PLOT_RATE, g);
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, out, "gallery.tsv");
    fprintf(f, "t_s");
    size_t n = 0;
    for (int k = 0; k < NGALLERY; k++) {
        fprintf(f, "\tf_b = %.2f N (%s)", pp.gallery_f[k], g[k].wave ? regime_label(g[k].r.kind) : "failed");
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
    atomic_commit_or_exit(&af, PROGRAM);
    for (int k = 0; k < NGALLERY; k++) {
        const regime_result *r = &g[k].r;
        if (g[k].wave) {
            table_cell(tab, "gallery");
            table_cell(tab, "%.4g", pp.gallery_x);
            table_cell(tab, "%.3g", pp.gallery_f[k]);
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
 * the regime, its source, the cell, and four periods of the bridge force. */
static void examples(const char *out, const char *results, bool stand_in, const plane_grid *g)
{
    long n = 0;
    plane_row *rows = stand_in ? xcalloc(1, sizeof *rows) : plane_load_rows(results, &n);
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, out, "examples.tsv");
    fprintf(f, "regime\tsource\tcell\tt_ms\tbridge_N\n");
    for (int k = 0; k < REGIME_COUNT; k++) {
        double *w;
        size_t nw;
        char where[96];
        failure why;
        const char *source = plane_example(PROGRAM, &inst, &pp.stroke, g, rows, n, k, PLOT_RATE, 4.0, &w, &nw, where,
                                           sizeof where, &why);
        exit_on(source ? 0 : why.status, &why);
        for (size_t i = 0; i < nw; i++)
            fprintf(f, "%s\t%s\t%s\t%.4f\t%.5g\n", regime_name((regime_kind)k), source, where, 1e3 * (double)i / PLOT_RATE,
                    w[i]);
        free(w);
    }
    free(rows);
    atomic_commit_or_exit(&af, PROGRAM);
}

/* ---- main ---------------------------------------------------------------------------------- */

/* One sweep of the plane: "sweep" (the instrument of the flags) or "fig13" (schelleng-fig13.ini). */
typedef struct plane_run {
    bow_instrument inst;    /* the instrument of its cells */
    plane_sweep ps;         /* the plane's sweep.h client */
    sweep s;                /* opened before anything is printed or computed */
    const char *results;    /* its results file */
} plane_run;

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
        fprintf(stderr, PROGRAM ": %s%ld cells failed; first: %s\n", strcmp(pr->ps.spec.label, "fig13") ? "" :
                "Figure 13 sweep: ", pr->ps.failed, pr->ps.first_error);
    return pr->ps.failed > 0;
}

/* fig13-params.tsv (key, value): the friction values the Figure 13 sweep ran with (its title's). */
static void write_fig13_params(const char *out, const bow_instrument *in)
{
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROGRAM, out, "fig13-params.tsv");
    fprintf(f, "key\tvalue\nmu_s\t%g\nmu_d\t%g\ny_a\t%g\ntau_g\t%g\nb_tau\t%g\n", in->mu_s, in->mu_d, in->y_a,
            in->tau_g, in->b_tau);
    atomic_commit_or_exit(&af, PROGRAM);
}

/* --merge PART...: the parts checked and merged, then the boundaries and figures of the whole
 * grid. */
static int merge_parts(bool merge, char *const *part, int nparts, const char *results, const cli_common *common,
                       plot_opts *plot)
{
    if (!merge)
        cli_fail(PROGRAM, "'%s' is not a flag; accepted: PART... only after --merge", part[0]);
    if (nparts == 0)
        cli_fail(PROGRAM, "--merge without parts; accepted: --merge PART... (the results-...-K-of-N.tsv files)");
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
        rc = boundaries(path, &g, common->tsv);
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

int main(int argc, char **argv)
{
    workers_guard();        /* before any work: workers end with this program */
    bow_param_table(&inst, inst_spec);
    char err[600];
    if (params_load(inst_spec, params_path("cello-g.ini"), false, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    plane_keys keys;
    plane_keys_bind(&pp, &keys);
    if (params_load(keys.all, params_path("schelleng.ini"), false, err, sizeof err) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1)
        jobs = 1;
    bool full = false, stand_in = false, merge = false;
    const char *what = "default", *results = NULL, *keep = NULL, *redo = NULL;
    sweep_shard sh = {1, 1};
    point cell = {0, 0, false};
    cli_common common = {false, "build/data/schelleng"};
    budget bg;
    budget_init(&bg, PROGRAM, "steps", 2e8, "--nx, --nf (cells; --full: 40 x 40), --t_hold, --v_hold / --accel (steps of dt a cell, "
                "each weighed by its cost, modes x contact points, over the default cello's 4.8 us)");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        FLAG_TABLE(keys.grid),
        FLAG_BOOL("full", full,
            "the article's full grid, n_full x n_full of schelleng.ini (40 x 40); sweep only"),
        FLAG_WHOLE("jobs", jobs, 1, 256, "worker processes (default: the online cores)"),
        FLAG_CUSTOM("shard", &sh, "", sweep_parse_shard,
            "K/N with integers 1 <= K <= N",
            "run only the K-th of N interleaved parts (cells c with c mod N = K - 1)"),
        FLAG_TEXT("results", results,
            "results TSV, appended as cells finish (default "
            "OUT/results[-PARAMS][-full][-K-of-N].tsv; the boundaries beside it, "
            "RESULTS-boundaries.tsv)"),
        FLAG_TEXT("keep", keep,
            "keep each cell's analysis window in this folder; a later run with the same folder "
            "classifies the kept windows instead of simulating (e.g. into another --results)"),
        FLAG_TEXT("redo_unclassified", redo,
            "run only the cells that this results file (of the same grid) has as unclassified, "
            "e.g. with a longer --t_hold into another --results"),
        FLAG_BOOL("merge", merge,
            "check the parts PART... of a --shard K/N sweep (one grid and model, every cell "
            "once, whole valid rows) and merge them into --results (default: the parts' name "
            "without -K-of-N), with the boundaries of the whole grid"),
        FLAG_CHOICE("what", what, "default|sweep|fig13|gallery|examples",
            "default: sweep, Figure 13 sweep, Figure 9 gallery, Figure 11 examples; or one of "
            "them"),
        FLAG_CUSTOM("cell", &cell, "", parse_point,
            "X,F with X = x_b/L in (0, 1) and F in (0, 100] N",
            "classify one stroke at x_b/L,f_b and print it (no files)"),
        FLAG_TABLE(keys.stroke),
        FLAG_CUSTOM("set", NULL, "", parse_set,
            "KEY=VALUE with a key of cello-g.ini and a value in its range",
            "override one instrument value, KEY=VALUE (keys of cello-g.ini)", .open = CLI_REPEAT),
        FLAG_CUSTOM("params", NULL, "", parse_params_file,
            "an .ini file with keys of cello-g.ini (" PARAMS_NAME_RULE ")",
            "read instrument values from another .ini over cello-g.ini (e.g. "
            "schelleng-fig13.ini)"),
        FLAG_BOOL("stand_in", stand_in,
            "TESTING ONLY: a synthetic stand-in instead of the model (rows marked stand-in)"),
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
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
    int first = cli_parse(&spec, argc, argv);
    long nx = lround(pp.nx), nf = lround(pp.nf);
    if (merge || first < argc)
        return merge_parts(merge, argv + first, argc - first, results, &common, &plot);
    if (full) {
        nx = nf = lround(pp.n_full);
        if (strcmp(what, "default") == 0)
            what = "sweep";
    }
    if (sh.n > 1 && strcmp(what, "default") == 0)
        what = "sweep";
    failure why;
    if (plane_check(PROGRAM, &pp, nx, nf, &inst, &why))
        return failure_print(&why);

    bool all = strcmp(what, "default") == 0;
    bool do_sweep = all || strcmp(what, "sweep") == 0, do_fig13 = all || strcmp(what, "fig13") == 0;
    plane_grid g;
    plane_grid_init(&g, (int)nx, (int)nf, pp.x_min, pp.x_max, pp.f_min, pp.f_max);
    char path_main[4096], path_fig13[4096];
    plane_results_name(path_main, sizeof path_main, common.out, params_name, full, stand_in, sh);
    snprintf(path_fig13, sizeof path_fig13, "%s/results-fig13%s.tsv", common.out, stand_in ? "-stand-in" : "");
    if (results)
        snprintf(path_main, sizeof path_main, "%s", results);
    plane_run run[2] = {{.inst = inst, .results = path_main}, {.inst = inst, .results = results && !all ? results : path_fig13}};

    /* Each sweep readied (the Figure 13 one on schelleng-fig13.ini over the instrument), then the
     * estimate: steps of dt of every cell this run simulates, the cells its results files hold
     * left out (a stand-in cell, synthesised and classified at the same rate, counts as one). */
    double t_cell = pp.stroke.v_hold / pp.stroke.accel + pp.stroke.t_hold, steps_cell = t_cell / inst.dt, swept = 0;
    if (do_fig13 && !cell.set && params_load(inst_spec, params_path("schelleng-fig13.ini"), true, err, sizeof err)) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    run[1].inst = inst, inst = run[0].inst;
    for (int k = 0; k < 2 && !cell.set; k++) {
        if (!(k ? do_fig13 : do_sweep))
            continue;
        run[k].ps = (plane_sweep){.inst = &run[k].inst, .stroke = &pp.stroke, .grid = g, .stand_in = stand_in,
                                  .keep = keep, .redo = redo};
        if (plane_sweep_init(&run[k].ps, PROGRAM, k ? "fig13" : "sweep", run[k].results, sh, jobs) != 0) {
            plane_sweep_free(&run[0].ps);   /* empty when it was this one */
            return 2;
        }
        swept += (double)sweep_pending(&run[k].ps.spec);
    }
    double waves = cell.set ? 0 : ((all && !stand_in) || strcmp(what, "gallery") == 0 ? NGALLERY : 0) +
                                  ((all || strcmp(what, "examples") == 0) && !stand_in ? REGIME_COUNT : 0);
    /* a step weighed by its cost (modes x contact points) over the default cello's; a stand-in
     * cell's synthesis counts as a default step */
    double weight = stand_in ? 1.0 : fmax(bow_step_weight(&run[0].inst), do_fig13 ? bow_step_weight(&run[1].inst) : 0.0);
    bg.work = ((cell.set ? 1 : 0) + swept + waves) * steps_cell * weight;
    bg.bytes_out = 260.0 * swept + (waves ? t_cell * PLOT_RATE * 12.0 * (NGALLERY + 1) : 0);
    bg.bytes_mem = (double)(jobs < NGALLERY ? jobs : NGALLERY) * steps_cell * 8.0 * 4.0 +
                   (waves ? NGALLERY * t_cell * PLOT_RATE * 8.0 : 0);
    budget_check_or_exit(&bg);
    if (cell.set)
        return one_cell(cell, stand_in, common.tsv);

    /* Every results file is opened, checked and locked before anything is printed or computed. */
    for (int k = 0; k < 2; k++) {
        int rc = (k ? do_fig13 : do_sweep) ? plane_sweep_open(&run[k].ps, &run[k].s) : 0;
        if (rc != 0) {
            if (k && do_sweep) {
                sweep_free(&run[0].s);
                plane_sweep_free(&run[0].ps);
            }
            return rc;
        }
    }

    if (!common.tsv)
        printf("%sSchelleng plane: x_b/L %g-%g (%d), f_b %g-%g N (%d), log-spaced; stroke %g m/s^2 to %g m/s, "
               "hold %g s, analysed from %g s into the hold; %ld workers\n\n",
               stand_in ? "STAND-IN CELLS (synthetic, for testing the machinery; not results): " : "", g.x_min,
               g.x_max, g.nx, g.f_min, g.f_max, g.nf, pp.stroke.accel, pp.stroke.v_hold, pp.stroke.t_hold,
               pp.stroke.settle, jobs);
    table tab, gtab;
    table_begin(&tab, stdout, common.tsv, "what", "regime", "cells", "of", NULL);
    int status = 0, rc;
    totals t = {0, 0, 0, 0, 0};
    for (int k = 0; k < 2; k++)
        if ((k ? do_fig13 : do_sweep) && (rc = run_plane(&run[k], &tab, k ? "fig13" : params_name ? params_name : "sweep",
                                                         &t)) != 0) {
            if (rc < 0)
                return 1;   /* a cell lost or a row not written: said on stderr */
            status = 1;
        }
    if (do_fig13)
        write_fig13_params(common.out, &run[1].inst);
    if (do_sweep && g.nx >= 2 && g.nf >= 2 && !redo && sh.n == 1)  /* a redo or a part is not the whole plane */
        status |= boundaries(path_main, &g, common.tsv);
    if ((all && !stand_in) || strcmp(what, "gallery") == 0) {
        if (!common.tsv)
            printf("\nFigure 9 gallery at x_b/L = %g:\n", pp.gallery_x);
        table_begin(&gtab, stdout, common.tsv, "what", "x_b_over_L", "f_b_N", "regime", "slips_per_period", "f0_hz",
                    "mean_N", "rms_N", "centroid_hz", NULL);
        if (gallery(common.out, jobs, &gtab) != 0)
            status = 1;
    }
    if (all || strcmp(what, "examples") == 0)
        examples(common.out, path_main, stand_in, &g);
    if (!common.tsv && t.cells > 0)
        printf("\nsweep: %ld cells (%ld already in the results, %ld computed) in %.1f s wall on %ld workers, "
               "%.2f s CPU per cell\n", t.cells, t.skipped, t.computed, t.wall, jobs, t.computed ? t.cpu / t.computed : 0.0);
    if (plot_render(&plot, PROGRAM, common.out, common.tsv) != 0)
        status = 1;
    return status;
}
