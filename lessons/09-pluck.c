/* Lesson 9, "The plucked string": string-pluck-v1. The modal series is the exact answer
 * (--reference writes the deliverable WAV, --field the HDF5 field, --listen a copy for the ear);
 * --solve turns the PDE into y' = F(y) twice, as the truncated modal (Galerkin) system, where
 * only the time stepping errs, and as finite differences in space (3- and 5-point stencils),
 * where space errs too, steps both with every method of the table and with CVODE, and scores
 * every solution against the reference as the challenge does (E_wave, E_spec).
 * With no mode flag it does both, with a modest sweep (what `make run` executes). The runs,
 * their stability and the order study are string/string_run; the scoring is score. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "base/util.h"
#include "io/atomic.h"
#include "io/h5.h"
#include "io/params.h"
#include "io/plot.h"
#include "io/table.h"
#include "io/wav.h"
#include "analysis/measure.h"
#include "string/partials.h"
#include "string/score.h"
#include "string/string_sweep.h"
#include "method/method.h"
#include "method/set.h"
#include "string/string.h"
#include "string/string_run.h"
#include <float.h>
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
    /* --wav, --field, --listen, --challenge */
    const char *wav_path, *field_path, *listen_path, *chal_flag;
    cli_common common;          /* --tsv, --out */
    budget bg;                  /* the estimate and its cap */
    progress *meter;            /* &bg.meter: what the runs tick */
    plot_opts plot;             /* --plot, --show */
    method_arg marg;            /* --method */
    method_set methods;         /* the built-in methods and each tableau file */
    bool do_partials;           /* --partials */
    double sub;                 /* --substeps of --partials */
    partials_cfg pc;            /* --partials-max-hz, --partials-level (and the rate) */
    double fit;                 /* --partials-samples */
    double grid_N;              /* --partials-N: the grids of the figure */
    const char *listen_ref;     /* --listen-reference (--partials --listen): the reference's */
} settings;

static bool want(const char *filter, const char *name) { return string_sweep_wants(filter, name); }

/* A run scored (string_sweep): its row of the table. */
static void run_done(string_sweep *w, string_run *r, void *ctx)
{
    (void)w;
    table *t = ctx;
    /* a run not made: "-" where a measurement would be */
    bool made = strcmp(r->status, "not_run") != 0;
    table_cell(t, "%s", r->space);
    table_cell(t, "%ld", r->size);
    table_cell(t, "%s", r->method);
    table_cell(t, "%ld", r->substeps);
    table_cell_or(t, made, "%.4e", r->E_wave, "-");
    table_cell_or(t, made, "%.4e", r->E_spec, "-");
    table_cell_or(t, made, "%.3f", r->seconds, "-");
    table_cell_or(t, made, "%.0f", (double)r->nfev, "-");
    table_cell(t, "%s", r->status);
}

/* ---- the order study: CVODE's BDF against its order cap ---- */

/* The order study (string_sweep_order_study: cvode-order.tsv) and, unless --tsv, its table.
 * 0, or the failure's status with e. */
static int order_study(const settings *st, const string_sweep *w, const string_mode *modes, int M,
                       failure *e)
{
    char err[300];
    string_study_row rows[2][8];
    int nrows[2];
    double w_top, a_top;
    long N = (long)st->run.study_N, steps = (long)st->run.study_steps;
    double T = st->run.study_T;
    int rc = string_sweep_order_study(w, &st->ch.string, N, modes, M, T, steps, rows, nrows,
                                      &w_top, &a_top, err, sizeof err, e);
    if (rc < 0)
        return failure_input(e, "pluck", "--cvode-study-N %g: %s", st->run.study_N, err);
    if (rc > 0)
        return rc;
    if (!st->tsv)
        string_sweep_print_study(w, T, st->run.study_steps, N, rows, nrows, M, w_top, a_top);
    return 0;
}

/* The tolerance study (string_sweep_rtol_study: cvode-rtol.tsv) and, unless --tsv, its table.
 * 0, or the failure's status with e. */
static int rtol_study(const settings *st, const string_sweep *w, failure *e)
{
    char err[300];
    string_rtol_row rows[STRING_RTOL_ROWS];
    double lr, li;
    long N = (long)st->run.rtol_N;
    int rc = string_sweep_rtol_study(w, &st->ch.string, N, st->run.rtol_start, st->run.rtol_time,
                                     rows, &lr, &li, err, sizeof err, e);
    if (rc < 0)
        return failure_input(e, "pluck", "--cvode-rtol-N %g: %s", st->run.rtol_N, err);
    if (rc > 0)
        return rc;
    if (!st->tsv)
        string_sweep_print_rtol(w, N, rows, lr, li);
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. RK4 on the Galerkin string (M = 200) blows up at one step a sample (m = 1). "
    "Which mode sets\n"
    "     its limit, and how many substeps m bring E_wave below 1e-3?\n"
    "     check: bin/pluck --solve --space modal --method rk4\n"
    "  2. Score a solution yourself: the WAVs of exercise 1's runs and the reference are "
    "in OUT/wav/;\n"
    "     score the m = 2 run against the reference and compare with the table's E_wave.\n"
    "     check: bin/score build/data/pluck/wav/reference.wav "
    "build/data/pluck/wav/modal-200-rk4-m2.wav\n";

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
    st->common = (cli_common){.tsv = false, .out = "build/data/pluck"};
    budget_init(&st->bg, "pluck", "unknown-steps", 5e10,
                "--duration * --fs, --modes, --substeps-max, --N-max, "
                "--fd-fixed-N-max, --cvode-N-max, --cvode-rtol-time and -N and the field's size "
                "(one unknown of the state advanced one step)");
    st->meter = &st->bg.meter;
    st->space = st->method = "all";
    /* Adams with fixed-point iteration: the cheapest CVODE on the string (README) */
    st->lmm = "adams";
    st->nls = "fixedpoint";
    method_set_init(&st->methods);
    st->marg = (method_arg){.set = &st->methods, .name = &st->method, .also = "all|cvode|exact"};
    st->sub = 1;
    /* --partials: its defaults (the rate, the samples and the meter: check_partials) */
    st->pc = (partials_cfg){.sub = 1, .f_max = 8000.0, .level = 1e-3};
    st->fit = 1200;
    st->grid_N = 130;
    st->listen_ref = "build/sound/pluck-partials-reference-listen.wav";
}

static void parse_flags(settings *st, int argc, char **argv)
{
    string_params *s = &st->ch.string;
    string_keys keys;
    string_keys_bind(&st->run, &keys);
    challenge_keys ck;
    challenge_keys_bind(s, &ck);
    const cli_opt opts[] = {
        FLAG_BOOL("reference", st->do_ref,
            "write the exact answer (the modal series) as the deliverable WAV"),
        FLAG_BOOL("solve", st->do_solve, "solve the string as an IVP and score each solution"),
        FLAG_TEXT("wav", st->wav_path, "where the reference WAV goes: " ATOMIC_ACCEPTS_DASH),
        FLAG_TEXT("field", st->field_path,
            "also write the displacement field (HDF5) here: " ATOMIC_ACCEPTS_DASH),
        FLAG_TEXT("listen", st->listen_path,
            "also write a copy for the ear (playback gain and limiter) here: "
            ATOMIC_ACCEPTS_DASH),
        FLAG_TEXT("challenge", st->chal_flag,
            "the challenge file (parameters, format, signal scale)"),
        FLAG_TABLE(ck.string),
        FLAG_REAL("fs", st->fs, "Hz", CHALLENGE_FS_MIN, CHALLENGE_FS_MAX, CLI_CLOSED,
            "sample rate (a whole number)"),
        FLAG_REAL("duration", st->duration, "s", 0, CHALLENGE_DURATION_MAX, CLI_OPEN_MIN,
            "length of the signal"),
        FLAG_TABLE(keys.tol),
        FLAG_CHOICE("space", st->space, "all|modal|fd3|fd5", "which discretisation --solve runs"),
        METHOD_ARG_OPT(st->marg,
            "which time stepping --solve runs (a tableau file: on the modal system)"),
        METHOD_ADD_OPT(st->methods),
        FLAG_TABLE(keys.sweep),
        FLAG_CHOICE("cvode-lmm", st->lmm, "bdf|adams", "CVODE's multistep family"),
        FLAG_CHOICE("cvode-nls", st->nls, "newton|fixedpoint",
            "CVODE's nonlinear solver: Newton on the band Jacobian, or fixed-point iteration "
            "(no Jacobian)"),
        FLAG_TABLE(keys.cvode),
        FLAG_BOOL("partials", st->do_partials,
            "what --method does to each partial: pitch and T60, predicted from R and measured"),
        FLAG_REAL("substeps", st->sub, "", 1, 1 << 20, CLI_CLOSED,
            "--partials: steps a sample, h = 1/(fs m)"),
        FLAG_REAL("partials-max-hz", st->pc.f_max, "Hz", 100, CHALLENGE_FS_MAX / 2, CLI_CLOSED,
            "--partials: the modes up to this exact frequency (at most fs/2)"),
        FLAG_REAL("partials-level", st->pc.level, "", PARTIALS_NODE, 1, CLI_CLOSED,
            "--partials: relative excitation at or above which a partial is measured"),
        FLAG_REAL("partials-samples", st->fit, "", 60, 6000, CLI_CLOSED,
            "--partials: samples the matrix pencil reads (more than 6 a mode)"),
        FLAG_REAL("partials-N", st->grid_N, "", 6, 20000, CLI_CLOSED,
            "--partials: intervals of the FD3 and FD5 grids of the figure"),
        FLAG_TEXT("listen-reference", st->listen_ref,
            "--partials --listen: the reference's copy, at the same gain: " ATOMIC_ACCEPTS_DASH),
        BUDGET_OPT(st->bg),
        CLI_COMMON_OPTS(st->common),
        PLOT_OPTS(st->plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "pluck",
        .summary = "string-pluck-v1: the exact reference, and the string solved as an IVP, "
            "scored (neither --reference nor --solve: both, the default sweep and a listening "
            "copy).",
        .opts = opts,
        .epilogue = exercises,
    };
    cli_parse(&spec, argc, argv);
}

/* ---- --partials: what the method does to each partial ---- */

/* The just-noticeable pitch difference the figure marks, cents: about 5 cents for a steady tone
 * in the middle of the range (psychoacoustic measurements give 3 to 10). */
#define JND_CENTS 5.0

/* What --partials cannot take: the other modes, a method with no R of the damped oscillator,
 * modes past the Nyquist frequency, one method for --listen. 0, or 2 with e (--listen-reference
 * refused). */
static int check_partials(settings *st, failure *e)
{
    if (st->do_ref || st->do_solve)
        cli_fail("pluck", "--partials with --%s; accepted: --partials alone",
                 st->do_ref ? "reference" : "solve");
    const method *m = method_set_find(&st->methods, st->method);
    if (strcmp(st->method, "all") != 0 && (!m || m->needs_uv))
        cli_fail("pluck", "--method %s with --partials; accepted: a fixed-step method whose R(z) "
                 "holds on the damped oscillator (not leapfrog, cvode or exact), a tableau file, "
                 "or all", st->method);
    if (st->pc.f_max > st->fs / 2)
        cli_fail("pluck", "--partials-max-hz %g above the Nyquist frequency of --fs %g; "
                 "accepted: at most %g", st->pc.f_max, st->fs, st->fs / 2);
    if (st->listen_path && !m)
        cli_fail("pluck", "--listen with --partials and --method %s; accepted: one method (a "
                 "name or a tableau file)", st->method);
    if (st->listen_path
        && atomic_check_output("pluck", "listen-reference", st->listen_ref, true, e) != 0)
        return e->status;
    st->out = st->common.out;
    st->tsv = st->common.tsv;
    st->pc.fs = st->fs;
    st->pc.sub = lround(st->sub);
    st->pc.n_fit = lround(st->fit);
    st->pc.meter = st->meter;
    return 0;
}

/* The methods --partials runs (leapfrog passed over: its R is for the undamped oscillator). */
static int partials_methods(const settings *st, const method **ms)
{
    int n = 0;
    for (int i = 0; st->methods.all[i]; i++)
        if (want(st->method, st->methods.all[i]->name) && !st->methods.all[i]->needs_uv)
            ms[n++] = st->methods.all[i];
    return n;
}

/* The columns of --partials' table (stdout) and data files. */
static void partials_table_begin(table *t, FILE *f, bool tsv)
{
    table_begin(t, f, tsv, "method", "mode", "f_exact_hz", "t60_exact_s", "excitation", "status",
                "cents_predicted", "cents_measured", "t60_ratio_predicted", "t60_ratio_measured",
                NULL);
}

/* One method's rows: to the table t (stdout) and to the data file's table d. */
static void partials_rows(table *t, table *d, const method *m, const partial_row *rows, int M)
{
    for (int k = 0; k < M; k++) {
        const partial_row *r = &rows[k];
        bool ms = strcmp(r->status, "measured") == 0;
        for (table *x = t; x; x = x == t ? d : NULL) {
            table_cell(x, "%s", m->name);
            table_cell(x, "%d", r->mode);
            table_cell(x, "%.3f", r->f_exact);
            table_cell(x, "%.4f", r->t60_exact);
            table_cell(x, "%.3e", r->excitation);
            table_cell(x, "%s", r->status);
            table_cell(x, "%.9g", r->pred.cents);
            table_cell_or(x, ms, "%.9g", r->cents_meas, "-");
            table_cell(x, "%.9g", r->pred.t60_ratio);
            table_cell_or(x, ms, "%.9g", r->t60_ratio_meas, "-");
        }
    }
}

/* The largest |cents measured - predicted| and |T60 ratio measured / predicted - 1| of the
 * measured rows, and their number. */
static int partials_agreement(const partial_row *rows, int M, double *dc, double *dr)
{
    int n = 0;
    *dc = *dr = 0.0;
    for (int k = 0; k < M; k++)
        if (strcmp(rows[k].status, "measured") == 0) {
            n++;
            *dc = fmax(*dc, fabs(rows[k].cents_meas - rows[k].pred.cents));
            *dr = fmax(*dr, fabs(rows[k].t60_ratio_meas / rows[k].pred.t60_ratio - 1.0));
        }
    return n;
}

/* The FD3 and FD5 grids of --partials-N under the method: partials-fd3-NAME.tsv, -fd5-. 0, or
 * the failure's status with e. */
static int partials_grids(const settings *st, const method *m, failure *e)
{
    char err[300], name[128];
    string_stencil sts[2] = {STRING_FD3, STRING_FD5};
    for (int g = 0; g < 2; g++) {
        string_fd fd;
        long N = lround(st->grid_N);
        if (string_fd_init(&fd, &st->ch.string, sts[g], N, false, err, sizeof err) != 0)
            return failure_input(e, "pluck", "--partials-N %g: %s", st->grid_N, err);
        snprintf(name, sizeof name, "partials-fd%d-%s.tsv", (int)sts[g], m->name);
        atomic_file a;
        FILE *f = atomic_open_file(&a, "pluck", st->out, name, e);
        if (!f)
            return e->status;
        fprintf(f, "mode\tf_exact_hz\tf_grid_hz\tcents_grid\tcents_total\tt60_ratio_grid\t"
                   "t60_ratio_total\n");
        partials_grid_tsv(f, &fd, m, 1.0 / (st->fs * st->sub), st->pc.f_max);
        if (atomic_commit_file(&a, "pluck", e) != 0)
            return e->status;
    }
    return 0;
}

/* What the flags cannot say alone: outputs writable, whole numbers, orders, the samples. A
 * refusal ends the program (the flag parser's); 0, or 2 with e (an output flag refused). */
static int check_settings(settings *st, failure *e)
{
    char err[600];
    if (atomic_check_output("pluck", "wav", st->wav_path, true, e)
        || (st->field_path && atomic_check_output("pluck", "field", st->field_path, true, e))
        || (st->listen_path && atomic_check_output("pluck", "listen", st->listen_path, true, e)))
        return e->status;
    const method *m = method_set_find(&st->methods, st->method);
    if (m && m->file &&
        (strcmp(st->space, "fd3") == 0 || strcmp(st->space, "fd5") == 0))
        cli_fail("pluck", "--method %s (a tableau file) with --space %s; "
                 "accepted: a tableau file on --space modal", st->method, st->space);
    st->out = st->common.out;
    st->tsv = st->common.tsv;
    if (string_check(&st->ch.string, err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);
    double nd = st->duration * st->fs;
    st->n = lround(nd);
    if (fabs(nd - (double)st->n) > 1e-9 * nd || st->n < 2)
        cli_fail("pluck", "--duration %g at --fs %g is not a whole number of samples; "
                 "accepted: duration * fs an integer >= 2", st->duration, st->fs);
    if (string_settings_check(&st->run, st->fs, strcmp(st->lmm, "bdf") == 0, err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);
    if (st->do_partials)
        return check_partials(st, e);
    if (!st->do_ref && !st->do_solve) {
        /* the default run (make run): the deliverable, a copy for the ear, the sweep */
        st->do_ref = st->do_solve = true;
        if (!st->listen_path) {
            st->listen_path = "build/sound/pluck-reference-listen.wav";
            if (atomic_check_output("pluck", "listen", st->listen_path, true, e))
                return e->status;
        }
    }
    /* --solve scores as the challenge does, at its rate and length: refused here, before any work
     * or file, not after the sweep (score_check_format would refuse the reference then) */
    if (st->do_solve && (st->fs != st->ch.sample_rate || st->n != st->ch.num_samples))
        cli_fail("pluck", "--fs %g --duration %g (%ld samples) with --solve (part of the default "
                 "run): solutions are scored as the challenge %s does, at %d Hz and %ld samples; "
                 "accepted: --fs %d --duration %g with --solve (any rate or length with "
                 "--reference alone)", st->fs, st->duration, st->n, st->chal_flag,
                 st->ch.sample_rate, st->ch.num_samples, st->ch.sample_rate,
                 (double)st->ch.num_samples / st->ch.sample_rate);
    return 0;
}

/* What --solve sweeps, for its estimate (string_sweep_estimate): the sizes, the spaces and the
 * methods the filters take, nm the reference's modes. */
static string_sweep_plan sweep_plan(const settings *st, int nm)
{
    string_sweep_plan p = {
        .n = (double)st->n, .duration = st->duration, .modes = fmin(st->run.modes, nm),
        .sub_min = st->run.sub_min, .sub_max = st->run.sub_max,
        .N_min = st->run.N_min, .N_max = st->run.N_max, .fd_sub = st->run.fd_sub,
        .fd_fixed_N_max = st->run.fd_fixed_N_max, .cvode_N_max = st->run.cvode_N_max,
        .modal = want(st->space, "modal"), .fd3 = want(st->space, "fd3"),
        .fd5 = want(st->space, "fd5"), .cvode = want(st->method, "cvode"),
    };
    for (int i = 0; st->methods.all[i]; i++)
        if (want(st->method, st->methods.all[i]->name))
            p.nmeth++, p.nimpl += st->methods.all[i]->implicit;
    return p;
}

/* The work before it starts: the reference (nm modes over n samples at most), the field, and the
 * sweep (string/string_run) and the tolerance study (--cvode-rtol-time; not counted: the CVODE
 * order study, --cvode-study-time, held by its step budget). 0, or 2 with e (above a cap). */
static int check_budget(settings *st, int nm, failure *e)
{
    double n = (double)st->n, work = (double)nm * n, wavs = 1.0, mem = 4.0 * n * 8.0;
    double spec_out = 0.0;
    double field = st->field_path ? (double)st->ch.field_nx * st->ch.field_nt : 0.0;
    work += field * nm, mem += field * 4.0;
    if (st->do_solve) {
        string_sweep_plan p = sweep_plan(st, nm);
        string_sweep_estimate(&p, &work, &wavs, &mem);
        if (want(st->method, "cvode") && st->run.rtol_time > 0) {
            /* the tolerance study: its runs at the sweep's CVODE rate (string_sweep_estimate), and
             * the exact pickup to its end */
            double N = st->run.rtol_N, T = st->run.rtol_time;
            work += STRING_RTOL_ROWS * 2.0 * (N - 1.0) * 2.7e5 * fmax(1.0, N / 130.0) * T +
                    (N - 1.0) * (st->run.rtol_start + T) * st->fs;
        }
        /* E_spec of each scored WAV and the reference's spectrogram (half an E_spec): held whole,
         * written up to 8 kHz, ~25 B a row */
        int M = st->ch.frame_length;
        double fr = (double)score_frames((size_t)st->n, M, st->ch.hop);
        budget spec;
        budget_init(&spec, "pluck", "FFT operations", SCORE_SPEC_CAP,
                    "challenge.json's E_spec frame_length M and hop "
                    "(frames x 2 M log2 M a scored run)");
        spec.work = (wavs + 0.5) * score_spec_work((size_t)st->n, M, st->ch.hop);
        spec.allow_long = st->bg.allow_long;
        if (budget_check(&spec, e) != 0)
            return e->status;
        mem += fr * (M / 2 + 1) * 8.0;
        spec_out = fr * (fmin(8000.0 * M / st->fs, M / 2) + 2.0) * 25.0;
    }
    st->bg.work = work;
    double listen = st->listen_path ? n * 4.0 : 0.0;
    st->bg.bytes_out = wavs * n * 4.0 + listen + field * 4.0 + spec_out;
    st->bg.bytes_mem = mem + (double)nm * 64.0;
    return budget_check(&st->bg, e);
}

/* ---- the reference and what is made from it ---- */

/* The deliverable (always written: --solve scores against the very bytes written, decoded, in
 * *refw) from the nm modes of the series, and what it took; the signal in ref. 0, or the
 * failure's status with e. */
static int write_reference(const settings *st, const string_mode *modes, int nm, double t0,
                           double *ref, wav_data *refw, failure *e)
{
    string_sum_info info;
    double tol_abs = st->run.tol * st->ch.signal_scale;
    string_pickup_signal(modes, nm, st->fs, st->n, tol_abs, ref, &info);
    double ref_seconds = wall_seconds() - t0;
    double peak = max_abs(ref, (size_t)st->n) / st->ch.signal_scale;
    if (!(peak <= FLT_MAX))     /* a sample is s / s_ref as float32: |s| / s_ref <= FLT_MAX */
        return failure_input(e, "pluck", "output.signal_scale = %g m/s makes the peak sample "
                             "%.3g, beyond float32's largest %.4g; accepted: signal_scale >= "
                             "max |s| / FLT_MAX = %.4g m/s / %.4g = %.3g m/s",
                             st->ch.signal_scale, peak, FLT_MAX, peak * st->ch.signal_scale,
                             FLT_MAX, peak * st->ch.signal_scale / FLT_MAX);
    char ref_tmp[4096];
    const char *ref_file = st->wav_path;
    if (!st->do_ref) {
        path_join(ref_tmp, sizeof ref_tmp, st->out, "wav/reference.wav");
        ref_file = ref_tmp;
    }
    if (wav_write_file("pluck", ref_file, ref, (size_t)st->n, (int)st->fs,
                       1.0 / st->ch.signal_scale, st->do_solve ? refw : NULL, e) != 0)
        return e->status;
    if (st->tsv && !st->do_solve) {
        table rt;
        table_begin(&rt, stdout, true, "modes", "overdamped", "mode_samples", "seconds",
                    "peak_sample", "file", NULL);
        table_cell(&rt, "%d", nm);
        table_cell(&rt, "%d", info.overdamped);
        table_cell(&rt, "%ld", info.mode_samples);
        table_cell(&rt, "%.3g", ref_seconds);
        table_cell(&rt, "%.6f", peak);
        table_cell(&rt, "%s", ref_file);
    }
    if (!st->tsv)
        printf("string-pluck-v1 reference: modal series, %d modes (tolerance %g s_ref = %.3g m/s), "
               "%d overdamped,\n%ld mode-samples (not %ld: a mode stops once its envelope is below "
               "its share of the tolerance),\n%.3g s; peak sample %.4f; written to %s\n",
               nm, st->run.tol, tol_abs, info.overdamped, info.mode_samples, (long)nm * st->n,
               ref_seconds, peak, ref_file);
    return 0;
}

/* --listen: the playback gain and the limiter (score_listening_copy). 0, or the failure's status
 * with e. */
static int write_listen(const settings *st, const double *ref, failure *e)
{
    double g = pow(10.0, st->ch.playback_gain_db / 20.0) / st->ch.signal_scale;
    double cut_db, limited_s;
    double *lc = score_listening_copy(ref, st->n, g, st->run.ceiling, st->run.release, st->fs,
                                      &cut_db, &limited_s);
    if (wav_write_file("pluck", st->listen_path, lc, (size_t)st->n, (int)st->fs, 1.0, NULL, e)) {
        free(lc);
        return e->status;
    }
    if (!st->tsv)
        printf("listening copy (%+g dB, limiter at %g): %s, peak %.3f; the limiter cut up to "
               "%.1f dB during %.3f s (not the deliverable)\n", st->ch.playback_gain_db,
               st->run.ceiling, st->listen_path, max_abs(lc, (size_t)st->n), cut_db, limited_s);
    free(lc);
    return 0;
}

/* --field: u(x, t) on the challenge's grid from the series, as HDF5. 0, or 1 with e. */
static int write_field(const settings *st, const string_mode *modes, int nm, failure *e)
{
    char err[600];
    h5_attr at[] = {{"challenge_id", st->ch.id}, {"solution_id", "ivplab-modal-series"},
                    {"quantity", "transverse displacement"}, {"units", "m"}, {NULL, NULL}};
    double tf = wall_seconds();
    size_t nx = (size_t)st->ch.field_nx, nt = (size_t)st->ch.field_nt;
    if (string_field_write(st->field_path, &st->ch.string, modes, nm, nx, nt, st->ch.field_t_stop,
                           at, err, sizeof err) != 0)
        return failure_set(e, 1, "pluck: %s", err);
    if (!st->tsv)
        printf("field u(x, t): %ld x %ld (float32, gzip) in %.3f s: %s\n", st->ch.field_nt,
               st->ch.field_nx, wall_seconds() - tf, st->field_path);
    return 0;
}

/* ---- the sweep ---- */

/* What every run of the sweep shares: the rate and length, the series tolerance, the blow-up
 * factor and CVODE's settings. */
static string_run_cfg run_cfg(const settings *st)
{
    return (string_run_cfg){
        .fs = st->fs, .n = st->n, .tol_abs = st->run.tol * st->ch.signal_scale,
        .blowup = st->run.blowup,
        .adams = strcmp(st->lmm, "adams") == 0, .fixedpoint = strcmp(st->nls, "fixedpoint") == 0,
        .rtol = st->run.rtol, .atol = st->run.atol, .max_order = (int)st->run.max_order,
        .stab_lim = st->run.stab_lim, .meter = st->meter,
    };
}

/* The finite-difference runs of the sweep and CVODE's order and tolerance studies. 0, or the
 * failure's status with e. */
static int sweep_grids_and_studies(const settings *st, string_sweep *w, const string_mode *modes,
                                   int nm, int M, failure *e)
{
    if (!st->tsv && (want(st->space, "fd3") || want(st->space, "fd5")))
        string_sweep_note(w, "finite differences: u0 is sampled at the grid points from its "
                          "closed form (the pluck point need not be on the grid); the pickup "
                          "xm = 54 L/65 is a grid point when 65 divides N, else cubic Lagrange "
                          "interpolation of v from the 4 nearest points\n");
    char err[600];
    int rc = string_sweep_grids(w, &st->ch.string, modes, nm, err, sizeof err, e);
    if (rc < 0)
        return failure_input(e, "pluck", "--N-min %g: %s", st->run.N_min, err);
    if (rc > 0)
        return rc;
    bool cvode = want(st->method, "cvode");
    if (cvode && st->run.study_T > 0 && strcmp(st->lmm, "bdf") == 0
        && (rc = order_study(st, w, modes, M, e)) != 0)
        return rc;
    if (cvode && st->run.rtol_time > 0)
        return rtol_study(st, w, e);
    return 0;
}

/* The reference's spectrogram, every run scored (string_sweep), the order study, the 20 ms
 * figure's data and the summary. 0; 1 when the only run failed (said on stderr); or the failure's
 * status with e. */
static int run_sweep(const settings *st, const string_mode *modes, int nm, const wav_data *refw,
                     failure *e)
{
    atomic_file a;
    FILE *f = atomic_open_file(&a, "pluck", st->out, "spectrogram.tsv", e);
    if (!f)
        return e->status;
    score_spectrogram_tsv(f, refw->x, (size_t)st->n, st->ch.frame_length, st->ch.hop, st->fs,
                          8000.0);
    if (atomic_commit_file(&a, "pluck", e) != 0)
        return e->status;
    table tab;
    string_sweep w = {
        .cfg = run_cfg(st),
        .program = "pluck", .out = st->out, .ch = &st->ch, .ref = refw,
        .space = st->space, .method = st->method, .methods = &st->methods,
        .duration = st->duration,
        .sub_min = (long)st->run.sub_min, .sub_max = (long)st->run.sub_max,
        .N_min = (long)st->run.N_min, .N_max = (long)st->run.N_max,
        .fd_sub = (long)st->run.fd_sub, .fd_fixed_N_max = (long)st->run.fd_fixed_N_max,
        .cvode_N_max = (long)st->run.cvode_N_max, .cvode_modal = st->run.cvode_modal,
        .done = run_done, .ctx = &tab,
    };
    string_sweep_init(&w);
    if (!st->tsv)
        printf("\nscored against the reference as the challenge does "
               "(E_wave, E_spec of the float32 WAVs):\n");
    table_begin(&tab, stdout, st->tsv, "space", "size", "method", "substeps", "E_wave", "E_spec",
                "seconds", "nfev", "status", NULL);
    int M = (int)st->run.modes < nm ? (int)st->run.modes : nm;
    int status = want(st->space, "modal") ? string_sweep_modal(&w, modes, M, e) : 0;
    if (status == 0)
        status = sweep_grids_and_studies(st, &w, modes, nm, M, e);
    if (status == 0)
        status = string_sweep_first20ms(&w, refw->x, e);
    if (status != 0) {
        string_sweep_free(&w);
        return status;
    }
    if (!st->tsv && w.nlen)
        printf("\nstability and failures:\n%s", w.notes);
    if (!st->tsv)
        string_sweep_print_best(&w);
    if (w.nrun == 1 && !string_run_ok(&w.runs[0])) {
        fprintf(stderr, "pluck: %s\n", w.runs[0].message);
        status = 1;
    }
    string_sweep_free(&w);
    return status;
}

/* One method: predicted, measured, its data files and (unless --tsv) what it shows. 0; -1 when
 * no partial could be measured (the method makes one grow); 1 when the run or the pencil failed
 * (said on stderr), or with e->status set when a file cannot be written (e). */
static int partials_one(const settings *st, const method *m, const string_mode *modes, int M,
                        table *t, failure *e)
{
    char err[600], name[128];
    partial_row *rows;
    int rc = partials_study(&st->pc, m, modes, M, &rows, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "pluck: --partials: %s\n", err);
        free(rows);
        return 1;
    }
    snprintf(name, sizeof name, "partials-%s.tsv", m->name);
    atomic_file a;
    table d;
    FILE *f = atomic_open_file(&a, "pluck", st->out, name, e);
    if (!f) {
        free(rows);
        return 1;
    }
    partials_table_begin(&d, f, true);
    if (!st->tsv) {
        printf("\n%s (%s), h = 1/(%g x %ld) s:\n", m->label, m->name, st->fs, st->pc.sub);
        partials_table_begin(t, stdout, false);
    }
    partials_rows(t, &d, m, rows, M);
    if (atomic_commit_file(&a, "pluck", e) != 0 || partials_grids(st, m, e) != 0) {
        free(rows);
        return 1;
    }
    double dc, dr;
    int nmeas = partials_agreement(rows, M, &dc, &dr);
    if (!st->tsv && rc > 0)
        printf("%s\n", err);
    if (!st->tsv && nmeas > 0)
        printf("%s: %d partials measured (excitation >= %g, resolved); measured against "
               "predicted: largest |cents difference| %.3g, largest |T60 ratio "
               "measured/predicted - 1| %.3g\n",
               m->name, nmeas, st->pc.level, dc, dr);
    else if (!st->tsv)
        printf("%s: no partial measured\n", m->name);
    free(rows);
    return nmeas > 0 ? 0 : -1;
}

/* The figure's words: the methods (partials-methods.txt), those with measured partials
 * (partials-measured.txt) and the run (partials-note.txt). 0, or the failure's status with e. */
static int partials_notes(const settings *st, const method **ms, const bool *measured, int nms,
                          int M, failure *e)
{
    atomic_file a;
    for (int pass = 0; pass < 2; pass++) {
        const char *name = pass ? "partials-measured.txt" : "partials-methods.txt";
        FILE *f = atomic_open_file(&a, "pluck", st->out, name, e);
        if (!f)
            return e->status;
        for (int i = 0, n = 0; i < nms; i++)
            if (!pass || measured[i])
                fprintf(f, "%s%s", n++ ? " " : "", ms[i]->name);
        fputc('\n', f);
        if (atomic_commit_file(&a, "pluck", e) != 0)
            return e->status;
    }
    FILE *f = atomic_open_file(&a, "pluck", st->out, "partials-note.txt", e);
    if (!f)
        return e->status;
    fprintf(f, "fs = %g Hz, %ld step(s) a sample, %d modes up to %g Hz; points: measured (matrix "
            "pencil, excitation >= %g); grids N = %ld\n%g\n", st->fs, st->pc.sub, M, st->pc.f_max,
            st->pc.level, lround(st->grid_N), JND_CENTS);
    return atomic_commit_file(&a, "pluck", e);
}

/* --listen with --partials: the method's run on the M modes and their exact sum (the reference
 * of the Galerkin system), both at the playback gain through the same limiter. 0, or the
 * failure's status with e. */
static int partials_listen(const settings *st, const method *m, const string_mode *modes, int M,
                           failure *e)
{
    double *x = xcalloc((size_t)st->n, sizeof(double));
    double *ref = xcalloc((size_t)st->n, sizeof(double));
    double tol = st->run.tol * st->ch.signal_scale;
    string_run_cfg rc = {.fs = st->fs, .n = st->n, .tol_abs = tol, .blowup = st->run.blowup,
                         .meter = st->meter};
    string_run r;
    string_run_start(&r, "modal", M, m->name, st->pc.sub);
    string_run_modal(&rc, modes, M, m, st->pc.sub, x, &r);
    if (!string_run_ok(&r)) {
        free(x);
        free(ref);
        return failure_set(e, 1, "pluck: --listen: %s on the Galerkin system: %s", m->name,
                           r.message);
    }
    string_sum_info info;
    string_pickup_signal(modes, M, st->fs, st->n, tol, ref, &info);
    double g = pow(10.0, st->ch.playback_gain_db / 20.0) / st->ch.signal_scale, cut[2], lim[2];
    double ceil = st->run.ceiling, rel = st->run.release;
    double *lx = score_listening_copy(x, st->n, g, ceil, rel, st->fs, &cut[0], &lim[0]);
    double *lr = score_listening_copy(ref, st->n, g, ceil, rel, st->fs, &cut[1], &lim[1]);
    int status = wav_write_file("pluck", st->listen_path, lx, (size_t)st->n, (int)st->fs, 1.0,
                                NULL, e);
    if (status == 0)
        status = wav_write_file("pluck", st->listen_ref, lr, (size_t)st->n, (int)st->fs, 1.0,
                                NULL, e);
    if (status == 0 && !st->tsv)
        printf("\nlistening copies (%+g dB, the same limiter at %g): %s: %s (limiter cut up to "
               "%.1f dB), the exact sum of the same %d modes: %s (%.1f dB)\n",
               st->ch.playback_gain_db, ceil, m->name, st->listen_path, cut[0], M, st->listen_ref,
               cut[1]);
    free(lx);
    free(lr);
    free(x);
    free(ref);
    return status;
}

/* --partials: every method of --method over the modes up to --partials-max-hz. The exit status:
 * 1 when a run failed (said on stderr), or the failure's status with e. */
static int run_partials(settings *st, failure *e)
{
    const method *ms[METHOD_MAX];
    int nms = partials_methods(st, ms);
    string_mode *modes;
    int M = partials_modes(&st->ch.string, st->pc.f_max, 20000, &modes);
    double nf = (double)st->pc.n_fit;
    st->bg.work = nms * (2.0 * M * nf * st->pc.sub + nf * nf * nf / 3.0) +
                  (st->listen_path ? 4.0 * M * (double)st->n * st->pc.sub : 0.0);
    st->bg.bytes_out = nms * M * 400.0 + (st->listen_path ? 8.0 * (double)st->n : 0.0);
    st->bg.bytes_mem = nf * nf * 8.0 + 4.0 * 8.0 * (double)st->n;
    if (3 * (2 * M) >= st->pc.n_fit)
        failure_input(e, "pluck", "--partials-samples %g for %d modes (up to %g Hz); accepted: "
                      "more than %d (6 per mode: the pencil's columns exceed its order)", st->fit,
                      M, st->pc.f_max, 6 * M);
    else
        budget_check(&st->bg, e);
    if (e->status != 0) {
        free(modes);
        return e->status;
    }
    if (!st->tsv)
        printf("what the method does to each partial: the %d modes of the Galerkin system up to "
               "%g Hz at fs = %g Hz, %ld step(s) a sample.\npredicted: R(h lambda_k), lambda_k = "
               "-sigma_k + j omega_k (sigma_k = sigma0 + kappa beta_k^2/2); measured: a matrix "
               "pencil (GSL SVD and eigenvalues) on the first %ld samples of the pickup signal of "
               "the method's run\n", M, st->pc.f_max, st->fs, st->pc.sub, st->pc.n_fit);
    table t;
    if (st->tsv)
        partials_table_begin(&t, stdout, true);
    int status = 0;
    bool measured[METHOD_MAX];
    for (int i = 0; i < nms && e->status == 0; i++) {
        int rc = partials_one(st, ms[i], modes, M, &t, e);
        measured[i] = rc == 0;
        status |= rc > 0;
    }
    if (e->status == 0)
        partials_notes(st, ms, measured, nms, M, e);
    if (e->status == 0 && status == 0 && st->listen_path)
        partials_listen(st, ms[0], modes, M, e);
    free(modes);
    if (e->status != 0)
        return e->status;
    budget_finish(st->meter);
    if (status == 0 && plot_render(&st->plot, "pluck", st->out, st->tsv) != 0)
        status = 1;
    return status;
}

int main(int argc, char **argv)
{
    settings st;
    memset(&st, 0, sizeof st);
    failure why = {0};
    load_settings(&st, argc, argv);
    parse_flags(&st, argc, argv);
    if (check_settings(&st, &why) != 0)
        return failure_print(&why);
    if (st.do_partials) {
        int status = run_partials(&st, &why);
        return why.status ? failure_print(&why) : status;
    }

    /* ---- the reference ---- */
    double t0 = wall_seconds();
    string_mode *modes;
    double tol_abs = st.run.tol * st.ch.signal_scale;
    int nm = string_reference_modes(&st.ch.string, 1.0 / st.fs, tol_abs, 2000000, &modes);
    if (nm < 0) {
        fprintf(stderr, "pluck: the modal series needs more than 2000000 modes for --tol %g at "
                "these parameters\n", st.run.tol);
        return 1;
    }
    /* On a failure (why), main goes to its one way out, which frees the series and the signal. */
    double *ref = NULL;
    wav_data refw = {0};
    int status = 0;
    if (check_budget(&st, nm, &why) != 0)
        goto out;
    ref = xmalloc_large((size_t)st.n, sizeof(double));     /* write_reference writes it all */
    if (write_reference(&st, modes, nm, t0, ref, &refw, &why) != 0
        || (st.listen_path && write_listen(&st, ref, &why) != 0)
        || (st.field_path && write_field(&st, modes, nm, &why) != 0))
        goto out;
    if (!st.do_solve && (st.plot.plot || st.plot.show))
        fprintf(stderr, "pluck: --plot: --reference alone writes no figure data (--solve does)\n");
    char err[600];
    if (st.do_solve && score_check_format(&refw, &st.ch, err, sizeof err) != 0) {
        fprintf(stderr, "pluck: the reference: %s\n", err);
        status = 1;
    }
    if (status == 0 && st.do_solve) {
        if ((status = run_sweep(&st, modes, nm, &refw, &why)) != 0 && why.status)
            goto out;
        budget_finish(st.meter);
        if (plot_render(&st.plot, "pluck", st.common.out, st.common.tsv) != 0)
            status = 1;
    }
out:
    wav_data_free(&refw);
    free(ref);
    free(modes);
    return why.status ? failure_print(&why) : status;
}
