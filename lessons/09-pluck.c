/* Lesson 9, "The plucked string": string-pluck-v1. The modal series is the exact answer
 * (--reference writes the deliverable WAV, --field the HDF5 field, --listen a copy for the ear);
 * --solve turns the PDE into y' = F(y) twice, as the truncated modal (Galerkin) system, where
 * only the time stepping errs, and as finite differences in space (3- and 5-point stencils),
 * where space errs too, steps both with every method of the table and with CVODE, and scores
 * every solution against the reference as the challenge does (E_wave, E_spec).
 * With no mode flag it does both, with a modest sweep (what `make run` executes). The runs,
 * their stability and the order study are models/string_run; the scoring is score. */
#include "base/budget.h"
#include "base/cli.h"
#include "base/util.h"
#include "io/atomic.h"
#include "io/h5.h"
#include "io/params.h"
#include "io/plot.h"
#include "io/table.h"
#include "io/wav.h"
#include "measure/measure.h"
#include "measure/score.h"
#include "measure/string_sweep.h"
#include "method/method.h"
#include "method/tableau.h"
#include "models/string.h"
#include "models/string_run.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the lesson is asked to do, after the flags. */
typedef struct settings {
    challenge ch;               /* the challenge, with the string as the flags left it */
    double fs;                  /* sample rate, Hz */
    double duration;            /* s */
    long n;                     /* samples */
    string_settings run;        /* the sweep's numbers (pluck.ini, then the flags) */
    const char *space, *method; /* sweep filters */
    const char *lmm;            /* CVODE's family: "bdf" or "adams" */
    const char *nls;            /* CVODE's nonlinear solver: "newton" or "fixedpoint" */
    const char *out;            /* data folder */
    bool tsv;
    bool do_ref, do_solve;      /* --reference, --solve */
    const char *wav_path, *field_path, *listen_path, *chal_flag; /* --wav, --field, --listen, --challenge */
    cli_common common;          /* --tsv, --out */
    budget bg;                  /* the estimate and its cap */
    plot_opts plot;             /* --plot, --show */
    method_arg marg;            /* --method */
} settings;

static bool want(const char *filter, const char *name) { return string_sweep_wants(filter, name); }

/* A run scored (string_sweep): its row of the table. */
static void run_done(string_sweep *w, string_run *r, void *ctx)
{
    (void)w;
    table *t = ctx;
    table_cell(t, "%s", r->space);
    table_cell(t, "%ld", r->size);
    table_cell(t, "%s", r->method);
    table_cell(t, "%ld", r->substeps);
    table_cell(t, "%.4e", r->E_wave);
    table_cell(t, "%.4e", r->E_spec);
    table_cell(t, "%.3f", r->seconds);
    table_cell(t, "%ld", r->nfev);
    table_cell(t, "%s", r->status);
}

/* ---- the order study: CVODE's BDF against its order cap ---- */

/* The order study (string_sweep_order_study: cvode-order.tsv) and, unless --tsv, its table. */
static void order_study(const settings *st, const string_sweep *w, const string_mode *modes, int M)
{
    char err[300];
    string_study_row rows[2][8];
    int nrows[2];
    double w_top, a_top;
    if (string_sweep_order_study(w, &st->ch.string, (long)st->run.study_N, modes, M, st->run.study_T, (long)st->run.study_steps,
                                 rows, nrows, &w_top, &a_top, err, sizeof err) != 0)
        cli_fail("pluck", "--cvode-study-N %g: %s", st->run.study_N, err);
    if (!st->tsv)
        string_sweep_print_study(w, st->run.study_T, st->run.study_steps, (long)st->run.study_N, rows, nrows, M, w_top,
                                 a_top);
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. RK4 on the Galerkin string (M = 200) blows up at one step a sample (m = 1). Which mode sets\n"
    "     its limit, and how many substeps m bring E_wave below 1e-3?\n"
    "     check: bin/pluck --solve --space modal --method rk4\n"
    "  2. Score a solution yourself: the WAVs of the runs are in OUT/wav/; score the m = 2 run\n"
    "     against the reference and compare with the table's E_wave.\n"
    "     check: bin/score build/sound/pluck-reference.wav build/data/pluck/wav/modal-200-rk4-m2.wav\n";

/* ---- the settings: the challenge, pluck.ini, the flags ---- */

/* The challenge first (its values are the flags' defaults), then the lesson's settings. */
static void load_settings(settings *st, int argc, char **argv)
{
    char err[600];
    const char *challenge_file = cli_peek("pluck", argc, argv, "challenge");
    if (!challenge_file)
        challenge_file = challenge_path();
    if (challenge_load(challenge_file, &st->ch, err, sizeof err) != 0)
        cli_fail("pluck", "--challenge %s: %s", challenge_file, err);
    st->fs = st->ch.sample_rate;
    st->duration = (double)st->ch.num_samples / st->fs;
    if (string_settings_load(&st->run, params_path("pluck.ini"), err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);
    st->wav_path = "build/sound/pluck-reference.wav";
    st->chal_flag = challenge_file;
    st->common = (cli_common){false, "build/data/pluck"};
    budget_init(&st->bg, "pluck", "unknown-steps", 5e10, "--duration * --fs, --modes, --substeps-max, --N-max, "
                "--fd-fixed-N-max, --cvode-N-max and the field's size (one unknown of the state advanced one step)");
    st->space = st->method = "all";
    st->lmm = "adams";          /* with fixed-point iteration: the cheapest CVODE on the string (README) */
    st->nls = "fixedpoint";
    st->marg = (method_arg){&st->method, "all|cvode|exact", ""};
}

static void parse_flags(settings *st, int argc, char **argv)
{
    string_params *s = &st->ch.string;
    const double big = 1e6;
    const cli_opt opts[] = {
        {"reference", CLI_FLAG, &st->do_ref, "", "write the exact answer (the modal series) as the deliverable WAV", 0, 0, 0, NULL, NULL, NULL},
        {"solve", CLI_FLAG, &st->do_solve, "", "solve the string as an IVP and score each solution", 0, 0, 0, NULL, NULL, NULL},
        {"wav", CLI_STRING, &st->wav_path, "", "where the reference WAV goes: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"field", CLI_STRING, &st->field_path, "", "also write the displacement field (HDF5) here: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"listen", CLI_STRING, &st->listen_path, "", "also write a copy for the ear (playback gain and limiter) here: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"challenge", CLI_STRING, &st->chal_flag, "", "the challenge file (parameters, format, signal scale)", 0, 0, 0, NULL, NULL, NULL},
        {"L", CLI_DOUBLE, &s->L, "m", "string length", 0, CHALLENGE_L_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"c", CLI_DOUBLE, &s->c, "m/s", "wave speed", 0, CHALLENGE_C_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"sigma0", CLI_DOUBLE, &s->sigma0, "1/s", "frequency-independent loss rate", 0, CHALLENGE_SIGMA0_MAX, 0, NULL, NULL, NULL},
        {"kappa", CLI_DOUBLE, &s->kappa, "m^2/s", "Kelvin-Voigt viscosity", 0, CHALLENGE_KAPPA_MAX, 0, NULL, NULL, NULL},
        {"pluck-height", CLI_DOUBLE, &s->height, "m", "pluck height u0(xp) (at most L/10: a linear model)", 0, CHALLENGE_HEIGHT_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"xp", CLI_DOUBLE, &s->xp, "m", "pluck centre (w < xp < L - w)", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"w", CLI_DOUBLE, &s->w, "m", "half-width of the finger load (L/w not an integer)", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"xm", CLI_DOUBLE, &s->xm, "m", "pickup position (0 < xm < L)", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"fs", CLI_DOUBLE, &st->fs, "Hz", "sample rate (a whole number)", CHALLENGE_FS_MIN, CHALLENGE_FS_MAX, 0, NULL, NULL, NULL},
        {"duration", CLI_DOUBLE, &st->duration, "s", "length of the signal", 0, CHALLENGE_DURATION_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"tol", CLI_DOUBLE, &st->run.tol, "", "series tolerance in units of s_ref (omitted terms sum below it)", 1e-16, 1e-3, 0, NULL, NULL, NULL},
        {"space", CLI_CHOICE, &st->space, "", "which discretisation --solve runs", 0, 0, 0, "all|modal|fd3|fd5", NULL, NULL},
        METHOD_ARG_OPT(st->marg, "which time stepping --solve runs (a tableau file: on the modal system)"),
        METHOD_ADD_OPT,
        {"modes", CLI_DOUBLE, &st->run.modes, "", "Galerkin size M (modes)", 1, 20000, 0, NULL, NULL, NULL},
        {"substeps-min", CLI_DOUBLE, &st->run.sub_min, "", "smallest m (h = 1/(fs m)) of the modal sweep", 1, 1 << 20, 0, NULL, NULL, NULL},
        {"substeps-max", CLI_DOUBLE, &st->run.sub_max, "", "largest m of the modal sweep (doubling)", 1, 1 << 20, 0, NULL, NULL, NULL},
        {"N-min", CLI_DOUBLE, &st->run.N_min, "", "smallest N (intervals) of the FD sweep", 6, big, 0, NULL, NULL, NULL},
        {"N-max", CLI_DOUBLE, &st->run.N_max, "", "largest N of the FD sweep (doubling)", 6, big, 0, NULL, NULL, NULL},
        {"fd-substeps", CLI_DOUBLE, &st->run.fd_sub, "", "m of the fixed-step FD runs", 1, 1 << 20, 0, NULL, NULL, NULL},
        {"fd-fixed-N-max", CLI_DOUBLE, &st->run.fd_fixed_N_max, "", "largest N of the fixed-step FD runs", 6, big, 0, NULL, NULL, NULL},
        {"cvode-rtol", CLI_DOUBLE, &st->run.rtol, "", "CVODE relative tolerance", 1e-15, 1e-2, 0, NULL, NULL, NULL},
        {"cvode-N-max", CLI_DOUBLE, &st->run.cvode_N_max, "", "largest N of the CVODE FD runs", 6, big, 0, NULL, NULL, NULL},
        {"cvode-modal", CLI_DOUBLE, &st->run.cvode_modal, "", "1: CVODE on the Galerkin system too", 0, 1, 0, NULL, NULL, NULL},
        {"cvode-lmm", CLI_CHOICE, &st->lmm, "", "CVODE's multistep family", 0, 0, 0, "bdf|adams", NULL, NULL},
        {"cvode-nls", CLI_CHOICE, &st->nls, "", "CVODE's nonlinear solver: Newton on the band Jacobian, or fixed-point iteration (no Jacobian)", 0, 0, 0, "newton|fixedpoint", NULL, NULL},
        {"cvode-atol", CLI_DOUBLE, &st->run.atol, "m", "CVODE absolute tolerance", 1e-30, 1, 0, NULL, NULL, NULL},
        {"cvode-max-order", CLI_DOUBLE, &st->run.max_order, "", "CVODE's largest order q (BDF 1-5, Adams 1-12): BDF above 2 is not A-stable", 1, 12, 0, NULL, NULL, NULL},
        {"cvode-stab-lim", CLI_DOUBLE, &st->run.stab_lim, "", "1: CVODE's BDF stability-limit detection (lowers q when it sees instability)", 0, 1, 0, NULL, NULL, NULL},
        {"cvode-study-time", CLI_DOUBLE, &st->run.study_T, "s", "order study: simulated time of each CVODE run, q = 1..5 (0: no study)", 0, 60, 0, NULL, NULL, NULL},
        {"cvode-study-N", CLI_DOUBLE, &st->run.study_N, "", "order study: N of the 5-point grid (the Galerkin system has --modes)", 6, big, 0, NULL, NULL, NULL},
        {"cvode-study-steps", CLI_DOUBLE, &st->run.study_steps, "", "order study: internal steps allowed a run (cost is per simulated second)", 10, 1e9, 0, NULL, NULL, NULL},
        {"blowup", CLI_DOUBLE, &st->run.blowup, "", "blow-up when |y| exceeds this many times its initial size", 1, 1e300, CLI_OPEN_MIN, NULL, NULL, NULL},
        BUDGET_OPT(st->bg),
        CLI_COMMON_OPTS(st->common),
        PLOT_OPTS(st->plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {"pluck", "string-pluck-v1: the exact reference, and the string solved as an IVP, scored (neither --reference nor --solve: both, the default sweep and a listening copy).", NULL, 0,
                           opts, exercises};
    cli_parse(&spec, argc, argv);
}

/* What the flags cannot say alone: outputs writable, whole numbers, orders, the samples. */
static void check_settings(settings *st)
{
    char err[600];
    atomic_check_output("pluck", "wav", st->wav_path, true);
    if (st->field_path)
        atomic_check_output("pluck", "field", st->field_path, true);
    if (st->listen_path)
        atomic_check_output("pluck", "listen", st->listen_path, true);
    if (method_find(st->method) && tableau_file(method_find(st->method)) &&
        (strcmp(st->space, "fd3") == 0 || strcmp(st->space, "fd5") == 0))
        cli_fail("pluck", "--method %s (a tableau file) with --space %s; accepted: a tableau file on --space modal", st->method,
                 st->space);
    st->out = st->common.out;
    st->tsv = st->common.tsv;
    if (string_check(&st->ch.string, err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);
    double nd = st->duration * st->fs;
    st->n = lround(nd);
    if (fabs(nd - (double)st->n) > 1e-9 * nd || st->n < 2)
        cli_fail("pluck", "--duration %g at --fs %g is not a whole number of samples; accepted: duration * fs an integer >= 2",
                 st->duration, st->fs);
    if (string_settings_check(&st->run, st->fs, strcmp(st->lmm, "bdf") == 0, err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);
    if (!st->do_ref && !st->do_solve) {
        /* the default run (make run): the deliverable, a copy for the ear, the sweep */
        st->do_ref = st->do_solve = true;
        if (!st->listen_path)
            atomic_check_output("pluck", "listen", st->listen_path = "build/sound/pluck-reference-listen.wav", true);
    }
    if (st->do_solve && st->n < st->ch.frame_length)
        cli_fail("pluck", "--duration %g gives %ld samples, fewer than one E_spec frame (%d samples); accepted: "
                 "duration * fs >= %d", st->duration, st->n, st->ch.frame_length, st->ch.frame_length);
}

/* The work before it starts: the reference (nm modes over n samples at most), the field, and the
 * sweep (models/string_run; not counted: the CVODE order study, --cvode-study-time). */
static void check_budget(settings *st, int nm)
{
    double n = (double)st->n, work = (double)nm * n, wavs = 1.0, mem = 4.0 * n * 8.0;
    double field = st->field_path ? (double)st->ch.field_nx * st->ch.field_nt : 0.0;
    work += field * nm, mem += field * 4.0;
    if (st->do_solve) {
        string_sweep_plan p = {n, st->duration, fmin(st->run.modes, nm), st->run.sub_min, st->run.sub_max, st->run.N_min, st->run.N_max,
                               st->run.fd_sub, st->run.fd_fixed_N_max, st->run.cvode_N_max, 0, 0, want(st->space, "modal"),
                               want(st->space, "fd3"), want(st->space, "fd5"), want(st->method, "cvode")};
        for (int i = 0; method_all[i]; i++)
            if (want(st->method, method_all[i]->name))
                p.nmeth++, p.nimpl += method_all[i]->implicit;
        string_sweep_estimate(&p, &work, &wavs, &mem);
    }
    st->bg.work = work;
    st->bg.bytes_out = wavs * n * 4.0 + (st->listen_path ? n * 4.0 : 0.0) + field * 4.0;
    st->bg.bytes_mem = mem + (double)nm * 64.0;
    budget_check(&st->bg);
}

/* ---- the reference and what is made from it ---- */

/* The deliverable (always written: --solve scores against the very bytes written, decoded, in
 * *refw) from the nm modes of the series, and what it took; the signal in ref. */
static void write_reference(const settings *st, const string_mode *modes, int nm, double t0, double *ref,
                            wav_data *refw)
{
    string_sum_info info;
    double tol_abs = st->run.tol * st->ch.signal_scale;
    string_pickup_signal(modes, nm, st->fs, st->n, tol_abs, ref, &info);
    double ref_seconds = wall_seconds() - t0;
    double peak = max_abs(ref, (size_t)st->n) / st->ch.signal_scale;
    char ref_tmp[4096];
    const char *ref_file = st->wav_path;
    if (!st->do_ref) {
        path_join(ref_tmp, sizeof ref_tmp, st->out, "wav/reference.wav");
        ref_file = ref_tmp;
    }
    wav_write_or_exit("pluck", ref_file, ref, (size_t)st->n, (int)st->fs, 1.0 / st->ch.signal_scale,
                      st->do_solve ? refw : NULL);
    if (st->tsv && !st->do_solve) {
        table rt;
        table_begin(&rt, stdout, true, "modes", "overdamped", "mode_samples", "seconds", "peak_sample", "file", NULL);
        table_cell(&rt, "%d", nm);
        table_cell(&rt, "%d", info.overdamped);
        table_cell(&rt, "%ld", info.mode_samples);
        table_cell(&rt, "%.4f", ref_seconds);
        table_cell(&rt, "%.6f", peak);
        table_cell(&rt, "%s", ref_file);
    }
    if (!st->tsv)
        printf("string-pluck-v1 reference: modal series, %d modes (tolerance %g s_ref = %.3g m/s), %d overdamped,\n"
               "%ld mode-samples (not %ld: a mode stops once its envelope is below its share of the tolerance),\n"
               "%.4f s; peak sample %.4f; written to %s\n",
               nm, st->run.tol, tol_abs, info.overdamped, info.mode_samples, (long)nm * st->n, ref_seconds, peak, ref_file);
}

/* --listen: the playback gain and the limiter (score_listening_copy). */
static void write_listen(const settings *st, const double *ref)
{
    double g = pow(10.0, st->ch.playback_gain_db / 20.0) / st->ch.signal_scale;
    double cut_db, limited_s;
    double *lc = score_listening_copy(ref, st->n, g, st->run.ceiling, st->run.release, st->fs, &cut_db, &limited_s);
    wav_write_or_exit("pluck", st->listen_path, lc, (size_t)st->n, (int)st->fs, 1.0, NULL);
    if (!st->tsv)
        printf("listening copy (%+g dB, limiter at %g): %s, peak %.3f; the limiter cut up to %.1f dB during %.3f s "
               "(not the deliverable)\n", st->ch.playback_gain_db, st->run.ceiling, st->listen_path,
               max_abs(lc, (size_t)st->n), cut_db, limited_s);
    free(lc);
}

/* --field: u(x, t) on the challenge's grid from the series, as HDF5. 0, or 1 said on stderr. */
static int write_field(const settings *st, const string_mode *modes, int nm)
{
    char err[600];
    h5_attr at[] = {{"challenge_id", st->ch.id}, {"solution_id", "ivplab-modal-series"},
                    {"quantity", "transverse displacement"}, {"units", "m"}, {NULL, NULL}};
    double tf = wall_seconds();
    if (string_field_write(st->field_path, &st->ch.string, modes, nm, (size_t)st->ch.field_nx, (size_t)st->ch.field_nt,
                           st->ch.field_t_stop, at, err, sizeof err) != 0) {
        fprintf(stderr, "pluck: %s\n", err);
        return 1;
    }
    if (!st->tsv)
        printf("field u(x, t): %ld x %ld (float32, gzip) in %.3f s: %s\n", st->ch.field_nt, st->ch.field_nx,
               wall_seconds() - tf, st->field_path);
    return 0;
}

/* ---- the sweep ---- */

/* The reference's spectrogram, every run scored (string_sweep), the order study, the 20 ms
 * figure's data and the summary. The exit status: 1 when the only run failed. */
static int run_sweep(const settings *st, const string_mode *modes, int nm, const wav_data *refw)
{
    atomic_file a;
    FILE *f = atomic_open_or_exit(&a, "pluck", st->out, "spectrogram.tsv");
    score_spectrogram_tsv(f, refw->x, (size_t)st->n, st->ch.frame_length, st->ch.hop, st->fs, 8000.0);
    atomic_commit_or_exit(&a, "pluck");
    table tab;
    string_sweep w = {
        .cfg = {st->fs, st->n, st->run.tol * st->ch.signal_scale, st->run.blowup, strcmp(st->lmm, "adams") == 0,
                strcmp(st->nls, "fixedpoint") == 0, st->run.rtol,
                st->run.atol, (int)st->run.max_order, st->run.stab_lim == 1},
        .program = "pluck", .out = st->out, .ch = &st->ch, .ref = refw, .space = st->space, .method = st->method,
        .duration = st->duration, .sub_min = (long)st->run.sub_min, .sub_max = (long)st->run.sub_max, .N_min = (long)st->run.N_min,
        .N_max = (long)st->run.N_max, .fd_sub = (long)st->run.fd_sub, .fd_fixed_N_max = (long)st->run.fd_fixed_N_max,
        .cvode_N_max = (long)st->run.cvode_N_max, .cvode_modal = st->run.cvode_modal == 1, .done = run_done, .ctx = &tab};
    string_sweep_init(&w);
    if (!st->tsv)
        printf("\nscored against the reference as the challenge does (E_wave, E_spec of the float32 WAVs):\n");
    table_begin(&tab, stdout, st->tsv, "space", "size", "method", "substeps", "E_wave", "E_spec", "seconds", "nfev",
                "status", NULL);
    int M = (int)st->run.modes < nm ? (int)st->run.modes : nm;
    if (want(st->space, "modal"))
        string_sweep_modal(&w, modes, M);
    if (!st->tsv && (want(st->space, "fd3") || want(st->space, "fd5")))
        string_sweep_note(&w, "finite differences: u0 is sampled at the grid points from its closed form (the pluck "
                          "point need not be on the grid); the pickup xm = 54 L/65 is a grid point when 65 divides N, "
                          "else cubic Lagrange interpolation of v from the 4 nearest points\n");
    char err[600];
    if (string_sweep_grids(&w, &st->ch.string, modes, nm, err, sizeof err) != 0)
        cli_fail("pluck", "--N-min %g: %s", st->run.N_min, err);
    if (want(st->method, "cvode") && st->run.study_T > 0 && strcmp(st->lmm, "bdf") == 0)
        order_study(st, &w, modes, M);
    string_sweep_first20ms(&w, refw->x);
    if (!st->tsv && w.nlen)
        printf("\nstability and failures:\n%s", w.notes);
    if (!st->tsv)
        string_sweep_print_best(&w);
    int status = 0;
    if (w.nrun == 1 && !string_run_ok(&w.runs[0])) {
        fprintf(stderr, "pluck: %s\n", w.runs[0].message);
        status = 1;
    }
    string_sweep_free(&w);
    return status;
}

int main(int argc, char **argv)
{
    settings st;
    memset(&st, 0, sizeof st);
    load_settings(&st, argc, argv);
    parse_flags(&st, argc, argv);
    check_settings(&st);

    /* ---- the reference ---- */
    double t0 = wall_seconds();
    string_mode *modes;
    int nm = string_reference_modes(&st.ch.string, 1.0 / st.fs, st.run.tol * st.ch.signal_scale, 2000000, &modes);
    if (nm < 0) {
        fprintf(stderr, "pluck: the modal series needs more than 2000000 modes for --tol %g at these parameters\n", st.run.tol);
        return 1;
    }
    check_budget(&st, nm);
    double *ref = xcalloc((size_t)st.n, sizeof(double));
    wav_data refw = {0};
    write_reference(&st, modes, nm, t0, ref, &refw);
    if (st.listen_path)
        write_listen(&st, ref);
    int status = st.field_path ? write_field(&st, modes, nm) : 0;
    if (status == 0 && !st.do_solve && (st.plot.plot || st.plot.show))
        fprintf(stderr, "pluck: --plot: --reference alone writes no figure data (--solve does)\n");
    char err[600];
    if (status == 0 && st.do_solve && score_check_format(&refw, &st.ch, err, sizeof err) != 0) {
        fprintf(stderr, "pluck: the reference: %s\n", err);
        status = 1;
    }
    if (status == 0 && st.do_solve) {
        status = run_sweep(&st, modes, nm, &refw);
        budget_finish();
        if (plot_render(&st.plot, "pluck", st.common.out, st.common.tsv) != 0)
            status = 1;
    }
    wav_data_free(&refw);
    free(ref);
    free(modes);
    return status;
}
