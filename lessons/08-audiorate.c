/* Lesson 8, "Fixed steps at an audio rate": the ball on the damped oscillator once more, now
 * with a value every sample, h = 1/fs fixed. Each run's impact start times (found from its
 * samples) against the adaptive reference show whether it keeps the rhythm; what each method
 * does to the 400 Hz oscillator alone is read from its R(z) (pitch error in cents, T60 ratio,
 * or "grows"). Every run is written as a WAV of u1 with one gain, to compare by ear.
 * Try it: --method rk4 --fs 11025, or --method all --fs 44100 for every method in the table. */
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "measure/measure.h"
#include "method/method.h"
#include "method/tableau.h"
#include "models/ball.h"
#include "drive/solve.h"
#include "base/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "audiorate"
#define MAX_RUNS (6 + METHOD_MAX)

typedef struct {
    const method *m;
    double fs;              /* sampling rate, Hz */
} run_spec;

typedef struct {
    ball_detector det;      /* impacts from the samples */
    double *u1;             /* u1 per sample, m */
    size_t n;
    bool uv;                /* the run's state is positions first (ball_ivp_uv) */
} run_ctx;

static int sample(long k, double t, const double *x, void *ctx)
{
    run_ctx *c = ctx;
    double yy[4];
    const double *y = x;
    if (c->uv) {
        ball_from_uv(x, yy);
        y = yy;
    }
    ball_detector_sample(&c->det, t, y);
    c->u1[k] = y[0];
    c->n = (size_t)k + 1;
    budget_tick(1.0);
    return 0;
}

typedef struct {
    double *u1;
    size_t n;
} ref_ctx;

static int ref_sample(long k, double t, const double *y, void *ctx)
{
    (void)t;
    ref_ctx *c = ctx;
    c->u1[k] = y[0];
    c->n = (size_t)k + 1;
    budget_tick(1.0);
    return 0;
}

/* --fs: a whole number of samples per second (a WAV's rate is an integer). */
static int parse_rate(const char *text, void *dest, char *why, size_t whylen)
{
    double v;
    const char *bad = cli_number(text, &v) != 0 ? "not a finite number"
                      : v != floor(v)            ? "not a whole number"
                      : v < 1000 || v > 384000   ? "out of range"
                                                 : NULL;
    if (bad) {
        snprintf(why, whylen, "%s", bad);
        return -1;
    }
    *(double *)dest = v;
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Judge the rhythm on the first 4 impacts instead of 2: does RK4 at 44.1 kHz still keep it?\n"
    "     Try 96 kHz too. Why does no rate keep every impact within 0.1 ms for long (the drop is\n"
    "     chaotic: a timing error grows at every bounce)?\n"
    "     check: bin/audiorate --method rk4 --fs 44100 --rhythm-impacts 4\n"
    "  2. Backward Euler at 44.1 kHz shortens the ringing: measure its T60 against the oscillator's\n"
    "     1.5 s.\n"
    "     check: bin/audiorate --method backward-euler --fs 44100\n";

int main(int argc, char **argv)
{
    ball_settings s;
    param_spec spec[BALL_NPARAMS + 1];
    ball_settings_load(PROG, &s, spec);
    cli_common common = {false, "build/data/audiorate"};
    plot_opts plot = {false, false, NULL};
    const char *sound = "build/sound", *method_name = "lecture";
    double fs = 0.0;
    long rhythm_impacts = lround(s.rhythm_impacts);
    char fs_help[200];
    method_arg marg = {&method_name, "lecture|all", ""};
    budget bg;
    budget_init(&bg, PROG, "steps", 1e8, "--T, --fs and --method (T fs steps a run; the CVODE references)");
    snprintf(fs_help, sizeof fs_help, "sampling rate of a --method run, h = 1/fs (default %g Hz)", s.fs_audio);
    const cli_opt opts[] = {
        METHOD_ARG_OPT(marg, "lecture: the six runs of the lecture (and each --add-method at 44.1 kHz); all: every "
                             "method at --fs; else one method, or a tableau file"),
        METHOD_ADD_OPT,
        {"fs", CLI_CUSTOM, &fs, "Hz", fs_help, 0, 0, 0, NULL, parse_rate, "a whole number of Hz in [1000, 384000]"},
        BALL_MODEL_OPTS(s),
        {"blowup", CLI_DOUBLE, &s.blowup, "m, m/s", "blow-up when max |y_i| exceeds this", 0, 1e300, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"keep-ms", CLI_DOUBLE, &s.keep_ms, "ms", "rhythm kept: every impact start within this of the reference", 0, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"lose-ms", CLI_DOUBLE, &s.lose_ms, "ms", "rhythm lost: an impact start off by more than this, or missing", 0, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"rhythm-impacts", CLI_LONG, &rhythm_impacts, "", "how many leading impacts a rhythm is judged on (0: every impact the reference is sure of)", 0, 1000, 0, NULL, NULL, NULL},
        {"hear-ms", CLI_DOUBLE, &s.hear_abs_ms, "ms", "a listener hears an impact shifted by this (or by --hear-rel of the interval before it, if larger)", 0, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"hear-rel", CLI_DOUBLE, &s.hear_rel, "", "a listener hears an impact shifted by this fraction of the interval before it", 0, 1, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"sound", CLI_STRING, &sound, "", "folder for the WAVs of u1 (audiorate-METHOD-FS.wav)", 0, 0, 0, NULL, NULL, NULL},
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec cs = {PROG, "The ball drop at fixed steps h = 1/fs: rhythm of the impacts, pitch and T60, sound.",
                         NULL, 0, opts, exercises};
    cli_parse(&cs, argc, argv);
    atomic_check_folder(PROG, "sound", sound);
    s.rhythm_impacts = (double)rhythm_impacts;
    if (s.f0 * 2.0 * M_PI <= 6.0 * log(10.0) / s.t60)
        cli_fail(PROG, "--f0 %g with --t60 %g is not underdamped; accepted: 2 pi f0 > 6 ln 10 / t60", s.f0, s.t60);
    if (s.keep_ms > s.lose_ms)
        cli_fail(PROG, "--keep-ms %g exceeds --lose-ms %g; accepted: keep <= lose", s.keep_ms, s.lose_ms);
    bool lecture = strcmp(method_name, "lecture") == 0;
    if (lecture && fs != 0.0)
        cli_fail(PROG, "--fs %g needs --method; accepted: --fs with --method all or a method name", fs);
    if (fs == 0.0)
        fs = s.fs_audio;

    /* The runs: the lecture's six, or every method at fs, or one. */
    run_spec runs[MAX_RUNS];
    size_t nruns = 0;
    if (lecture) {
        const run_spec six[] = {{&method_rk4, s.fs_audio}, {&method_rk4, s.fs_mid}, {&method_rk4, s.fs_low},
                                {&method_trapezoid, s.fs_audio}, {&method_backward_euler, s.fs_audio},
                                {&method_euler, s.fs_audio}};
        nruns = sizeof six / sizeof six[0];
        memcpy(runs, six, sizeof six);
        for (int i = 0; method_all[i] && nruns < MAX_RUNS; i++)
            if (tableau_file(method_all[i]))
                runs[nruns++] = (run_spec){method_all[i], s.fs_audio};
    } else if (strcmp(method_name, "all") == 0) {
        for (int i = 0; method_all[i] && nruns < MAX_RUNS; i++)
            runs[nruns++] = (run_spec){method_all[i], fs};
    } else {
        runs[nruns++] = (run_spec){method_find(method_name), fs};
    }

    /* T fs steps a run (u1 kept at every step, a WAV each), and two CVODE references (as in bin/drop:
     * T / max_step and about 5e4 steps a second of bouncing) */
    bg.work = 2.0 * (s.T / s.max_step + 5e4 * s.T);
    for (size_t r = 0; r < nruns; r++) {
        bg.work += s.T * runs[r].fs;
        bg.bytes_out += s.T * runs[r].fs * 2.0;
        bg.bytes_mem = fmax(bg.bytes_mem, s.T * runs[r].fs * 8.0 * 2.0);
    }
    bg.bytes_mem += s.T * s.fs_audio * 8.0 * 2.0;
    budget_check(&bg);

    ball b = ball_from_settings(&s);
    ivp p = ball_ivp(&b), p_uv = ball_ivp_uv(&b);
    double y0[4];
    ball_initial(&s, y0);

    /* The adaptive reference: its impacts, and its u1 at the audio rate for the WAV gain. */
    size_t nref = (size_t)floor(s.T * s.fs_audio + 1e-9) + 1;
    double *tref = xcalloc(nref, sizeof(double));
    for (size_t k = 0; k < nref; k++)
        tref[k] = (double)k / s.fs_audio;
    ref_ctx rc = {xcalloc(nref, sizeof(double)), 0};
    ball_adaptive_opts ao = {s.T, s.rtol, s.atol, s.max_step, tref, nref, ref_sample, NULL, &rc, NULL};
    ball_adaptive_result ref;
    char err[600];
    if (ball_solve_adaptive(&b, y0, &ao, &ref, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": the adaptive reference failed: %s\n", err);
        return 1;
    }
    double ref_peak = max_abs(rc.u1, rc.n);
    double gain = ref_peak > 0.0 ? s.wav_peak / ref_peak : 1.0;    /* 1 1/m when m1 never moves */
    /* How far the reference itself can be trusted: against a run at tolerances check_tol times tighter. */
    ball_adaptive_opts tight = {s.T, s.rtol * s.check_tol, s.atol * s.check_tol, s.max_step, NULL, 0, NULL, NULL, NULL, NULL};
    ball_adaptive_result ref2;
    if (ball_solve_adaptive(&b, y0, &tight, &ref2, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": the check of the adaptive reference failed: %s\n", err);
        return 1;
    }
    size_t horizon = ball_impacts_agree(&ref.impacts, &ref2.impacts, 1e-3 * s.keep_ms);
    double later_diff = 0.0;    /* largest disagreement of the two references after the horizon, s */
    for (size_t i = horizon; i < ref.impacts.n && i < ref2.impacts.n; i++)
        later_diff = fmax(later_diff, fabs(ref.impacts.v[i].start - ref2.impacts.v[i].start));
    size_t upto = s.rhythm_impacts > 0 ? (size_t)s.rhythm_impacts : horizon;
    /* The reference's first contact: how many samples of a run it spans, and its restitution. */
    double ref_contact = ref.impacts.n ? ref.impacts.v[0].end - ref.impacts.v[0].start : NAN;
    double ref_e = ref.impacts.n ? ball_restitution(&ref.impacts.v[0]) : NAN;

    atomic_file a_rh, a_runs;
    FILE *frh = atomic_open_or_exit(&a_rh, PROG, common.out, "rhythm.tsv");
    FILE *fru = atomic_open_or_exit(&a_runs, PROG, common.out, "runs.tsv");
    fprintf(frh, "row\tlabel\tmethod\tstart_s\n");
    for (size_t i = 0; i < ref.impacts.n; i++)
        fprintf(frh, "0\treference (CVODE)\treference\t%.9f\n", ref.impacts.v[i].start);
    table tf, tab;
    const char *cols[] = {"method", "fs", "pitch_cents", "t60_ratio", "impacts", "first_impact_s", "blowup_s",
                          "t60_s", "impact_error_ms", "rhythm", "restitution", "contact_samples", "status",
                          "judged_impacts", "heard_at_impact"};
    table_begin(&tf, fru, true, "row", "label", cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7],
                cols[8], cols[9], cols[10], cols[11], cols[12], cols[13], cols[14], NULL);
    if (!common.tsv) {
        printf("ball drop at fixed steps h = 1/fs over %g s; reference: CVODE BDF (rtol %g, atol %g), %zu impacts.\n"
               "The reference agrees with CVODE at rtol %g, atol %g within %g ms for its first %zu impacts (to "
               "t = %.3f s);\nlater they part by up to %.1f ms: the ringing m1 multiplies a timing error at every "
               "bounce (chaos).\n",
               s.T, s.rtol, s.atol, ref.impacts.n, s.rtol * s.check_tol, s.atol * s.check_tol, s.keep_ms, horizon,
               horizon ? ref.impacts.v[horizon - 1].start : 0.0, 1e3 * later_diff);
        printf("Its first contact lasts %.4f ms; the ball leaves it with restitution %.4f (-v_out / v_in).\n",
               1e3 * ref_contact, ref_e);
        printf("Rhythm, judged on the first %zu impacts%s: keeps = each start within %g ms of the reference's; loses =\n"
               "one missing or off by more than %g ms; else drifts. impact_error_ms: the largest of those errors.\n"
               "heard_at_impact: the first of them shifted by more than a listener hears, %g ms or %g %% of the\n"
               "interval before it (Friberg and Sundberg, J. Acoust. Soc. Am. 98, 1995), or none.\n"
               "Pitch and T60: what one step of h does to the %g Hz oscillator alone, from the method's R(z).\n"
               "restitution: of the run's first impact; contact_samples: samples of h in the reference's first contact.\n\n",
               upto, s.rhythm_impacts > 0 ? "" : " (those the reference is sure of)", s.keep_ms, s.lose_ms,
               s.hear_abs_ms, 100.0 * s.hear_rel, s.f0);
        if (ref.impacts.n < upto)
            printf("Note: the reference has %zu impacts before T = %g s, fewer than the %zu a rhythm is judged on: "
                   "rhythm n/a.\n\n", ref.impacts.n, s.T, upto);
        else if (upto > horizon)
            printf("Note: the rhythm is judged on %zu impacts, beyond the %zu the reference is sure of.\n\n", upto,
                   horizon);
    }
    table_begin(&tab, stdout, common.tsv, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7],
                cols[8], cols[9], cols[10], cols[11], cols[12], cols[13], cols[14], NULL);
    /* Every impact's start-time error against its index, per run (the chaos: it grows at every
     * bounce), beside what a listener hears at that impact: one column a run, filled in below. */
    size_t nerr = ref.impacts.n;
    double *errs = xcalloc(nerr * (nruns ? nruns : 1), sizeof(double));
    for (size_t i = 0; i < nerr * nruns; i++)
        errs[i] = NAN;

    int exit_status = 0;
    char notes[MAX_RUNS][400], verdicts[MAX_RUNS * 256] = "";
    for (size_t r = 0; r < nruns; r++) {
        const method *m = runs[r].m;
        double h = 1.0 / runs[r].fs;
        long n = lround(s.T * runs[r].fs);
        notes[r][0] = '\0';
        /* leapfrog steps positions, then velocities: the same ball with its state in that order */
        run_ctx c = {{0}, xcalloc((size_t)n + 1, sizeof(double)), 0, m->needs_uv};
        ball_impacts im = {0, 0, NULL};
        ball_detector_init(&c.det, &b, &im);
        double y[4];
        if (c.uv)
            ball_to_uv(y0, y);
        else
            memcpy(y, y0, sizeof y);
        workspace *w = workspace_alloc(p.dim);
        solve_opts so = {m, 0.0, h, n, s.blowup, 1, sample, &c};
        solve_result res;
        solve_status st = solve_fixed(c.uv ? &p_uv : &p, y, &so, w, &res);
        workspace_free(w);
        bool refused = st == SOLVE_FAILED && res.steps == 0;
        const char *status = st == SOLVE_OK ? "ok" : st == SOLVE_BLOWUP ? "blowup" : refused ? "refused" : "failed";
        if (st != SOLVE_OK) {
            snprintf(notes[r], sizeof notes[r], "%s", res.message);
            if (nruns == 1)
                exit_status = 1;
        }
        osc_fidelity fid = measure_oscillator_fidelity(m, b.omega0, b.sigma0, h);
        /* A run that blew up is judged on the impacts it had before. */
        ball_rhythm rh = ball_rhythm_compare(&ref.impacts, &im, upto);
        size_t judged = upto < ref.impacts.n ? upto : ref.impacts.n;
        size_t heard = ball_rhythm_heard(&ref.impacts, &im, upto, 1e-3 * s.hear_abs_ms, s.hear_rel);
        for (size_t i = 0; i < nerr && i < im.n; i++)
            errs[r * nerr + i] = 1e3 * fabs(im.v[i].start - ref.impacts.v[i].start);
        const char *verdict = refused ? "-" : ref.impacts.n < upto ? "n/a"
                                            : ball_rhythm_verdict(&rh, 1e-3 * s.keep_ms, 1e-3 * s.lose_ms);
        char label[80];
        snprintf(label, sizeof label, "%s, %g kHz", m->label, runs[r].fs / 1000.0);
        table *ts[2] = {&tf, &tab};
        for (int j = 0; j < 2; j++) {
            table *t = ts[j];
            if (j == 0) {
                table_cell(t, "%zu", r + 1);
                table_cell(t, "%s", label);
            }
            table_cell(t, "%s", m->name);
            table_cell(t, "%g", runs[r].fs);
            if (m->needs_uv) {      /* its R(z) is for the undamped oscillator only */
                table_cell(t, "n/a");
                table_cell(t, "n/a");
            } else if (fid.grows) {
                table_cell(t, "grows");
                table_cell(t, "grows");
            } else {
                table_cell(t, "%+.3f", fid.cents);
                table_cell(t, "%.4f", fid.t60_ratio);
            }
            if (refused) {
                for (int k = 0; k < 3; k++)
                    table_cell(t, "-");
            } else {
                table_cell(t, "%zu", im.n);
                if (im.n)
                    table_cell(t, "%.6f", im.v[0].start);
                else
                    table_cell(t, "none");
                if (st == SOLVE_BLOWUP)
                    table_cell(t, "%.6f", res.t);
                else
                    table_cell(t, "none");
            }
            if (m->needs_uv || fid.grows)
                table_cell(t, "%s", m->needs_uv ? "n/a" : "grows");
            else
                table_cell(t, "%.4f", fid.t60_ratio * s.t60);
            if (refused) {
                for (int k = 0; k < 3; k++)
                    table_cell(t, "-");
            } else {
                if (rh.compared)
                    table_cell(t, "%.4f", 1e3 * rh.max_error);
                else
                    table_cell(t, "none");
                table_cell(t, "%s", verdict);
                if (im.n && isfinite(ball_restitution(&im.v[0])))
                    table_cell(t, "%.4f", ball_restitution(&im.v[0]));
                else
                    table_cell(t, "none");
            }
            if (isfinite(ref_contact))
                table_cell(t, "%.1f", ref_contact * runs[r].fs);
            else
                table_cell(t, "none");
            table_cell(t, "%s", status);
            table_cell(t, "%zu", refused ? 0 : judged);
            if (refused || !judged)
                table_cell(t, "-");
            else if (heard)
                table_cell(t, "%zu", heard);
            else
                table_cell(t, "none");
        }
        if (!refused && judged) {
            /* the verdict in words, and on how many impacts it was judged */
            char why[160];
            if (!heard)
                snprintf(why, sizeof why, "a listener hears no change (every shift below what one hears)");
            else if (heard > rh.compared)
                snprintf(why, sizeof why, "a listener hears it: impact %zu never comes (the run has %zu)", heard, im.n);
            else
                snprintf(why, sizeof why, "a listener hears it from impact %zu on (%.3g ms off there, %.3g ms heard)",
                         heard, 1e3 * fabs(im.v[heard - 1].start - ref.impacts.v[heard - 1].start),
                         1e3 * ball_audible_shift(&ref.impacts, heard - 1, 1e-3 * s.hear_abs_ms, s.hear_rel));
            size_t n0 = strlen(verdicts);
            snprintf(verdicts + n0, sizeof verdicts - n0, "  %s: %s, judged on %zu impacts, off by up to %.3g ms; %s\n",
                     label, verdict, judged, 1e3 * rh.max_error, why);
        }
        for (size_t i = 0; i < im.n; i++)
            fprintf(frh, "%zu\t%s\t%s\t%.9f\n", r + 1, label, m->name, im.v[i].start);
        /* The sound: one gain for every run; samples past full scale (a blow-up) are clipped. */
        if (!refused) {
            for (size_t k = 0; k < c.n; k++)
                c.u1[k] = fmax(-1.0 / gain, fmin(1.0 / gain, c.u1[k]));
            char name[128], wav[4096];
            snprintf(name, sizeof name, "audiorate-%s-%g.wav", m->name, runs[r].fs);
            path_join(wav, sizeof wav, sound, name);
            mkdir_p(sound);
            wav_write_or_exit(PROG, wav, c.u1, (size_t)n + 1, (int)runs[r].fs, gain, NULL);
        }
        ball_impacts_free(&im);
        free(c.u1);
    }
    atomic_file a_err;
    FILE *fer = atomic_open_or_exit(&a_err, PROG, common.out, "impact_errors.tsv");
    fprintf(fer, "impact\treference_start_s\theard_ms");
    for (size_t r = 0; r < nruns; r++)
        fprintf(fer, "\t%s, %g kHz", runs[r].m->label, runs[r].fs / 1000.0);
    fputc('\n', fer);
    for (size_t i = 0; i < nerr; i++) {
        fprintf(fer, "%zu\t%.9f\t%.6g", i + 1, ref.impacts.v[i].start,
                1e3 * ball_audible_shift(&ref.impacts, i, 1e-3 * s.hear_abs_ms, s.hear_rel));
        for (size_t r = 0; r < nruns; r++)
            fprintf(fer, isnan(errs[r * nerr + i]) ? "\t" : "\t%.6g", errs[r * nerr + i]);
        fputc('\n', fer);
    }
    free(errs);
    atomic_file a_sum;
    FILE *fsum = atomic_open_or_exit(&a_sum, PROG, common.out, "summary.tsv");
    fprintf(fsum, "key\tvalue\nreference_impacts\t%zu\ncheck_impacts\t%zu\nhorizon_impacts\t%zu\nhorizon_t_s\t%.9g\n"
                  "later_diff_ms\t%.6g\nrhythm_impacts\t%zu\nwav_gain_per_m\t%.6g\nT_s\t%g\n"
                  "reference_contact_ms\t%.6g\nreference_restitution\t%.6g\nhear_abs_ms\t%g\nhear_rel\t%g\n",
            ref.impacts.n, ref2.impacts.n, horizon, horizon ? ref.impacts.v[horizon - 1].start : 0.0, 1e3 * later_diff,
            upto, gain, s.T, 1e3 * ref_contact, ref_e, s.hear_abs_ms, s.hear_rel);
    atomic_commit_or_exit(&a_err, PROG);
    atomic_commit_or_exit(&a_rh, PROG);
    atomic_commit_or_exit(&a_runs, PROG);
    atomic_commit_or_exit(&a_sum, PROG);
    if (!common.tsv && verdicts[0])
        printf("\nThe rhythm, in words (a listener hears an impact shifted by %g ms, or %g %% of the interval before it):\n%s",
               s.hear_abs_ms, 100.0 * s.hear_rel, verdicts);
    bool first_note = true;
    for (size_t r = 0; r < nruns; r++) {
        if (!notes[r][0])
            continue;
        if (exit_status || common.tsv)
            fprintf(stderr, PROG ": %s\n", notes[r]);
        else
            printf("%s%s\n", first_note ? "\n" : "", notes[r]);
        first_note = false;
    }
    if (!common.tsv && ref_peak > 0.0)
        printf("\nWAVs of u1 (gain %.4g 1/m: the reference peaks at %g of full scale) in %s/\n", gain, s.wav_peak, sound);
    else if (!common.tsv)
        printf("\nWAVs of u1 (gain 1 1/m: m1 does not move in the reference) in %s/\n", sound);
    ball_impacts_free(&ref.impacts);
    ball_impacts_free(&ref2.impacts);
    free(rc.u1);
    free(tref);
    budget_finish();
    if (plot_render(&plot, PROG, common.out, common.tsv) != 0)
        exit_status = 1;
    return exit_status;
}
