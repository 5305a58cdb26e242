/* Lesson 7, "Solving it: adaptive steps find the impacts" and "Between impacts": a ball dropped
 * on a damped oscillator, solved by CVODE with root functions on the contact, so that each
 * impact's start and end are found to the solver's accuracy. Between impacts m1 is the free
 * oscillator, restruck by an impulse J = integral f_c dt: its ringing after the first impact is
 * -J/(m1 omega1) e^{-sigma0 t} sin(omega1 t), and its spectrum peaks at f0.
 * Try it: --h0 0.05 (lower drop, softer and faster bounces), --lambda 0 (no contact loss). */
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "models/ball.h"
#include "measure/spectrum.h"
#include "base/util.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "drop"

enum { FLIGHTS_SHOWN = 5 };     /* how the lesson summarises the rhythm */
/* The figures' files: printing every value cost more than the solve (bench row 2). steps.tsv:
 * the extremes of h and u1 in each 1/2000 of the run; spectrum.tsv: of the level in each 1/1500
 * of log f; first_impact.tsv: every 5th dense sample (the fit and the impulse use them all). */
enum { STEP_BUCKETS = 2000, SPEC_BUCKETS = 1500, FIRST_EVERY = 5 };

typedef struct {
    const ball *b;
    const unsigned char *tag;   /* per output time: TAG_AUDIO and/or TAG_DENSE */
    double *audio;              /* u1 at the audio rate, m */
    size_t naudio;
    double *dense_t, *dense_u1, *dense_fc;  /* the dense window: s, m, N */
    size_t ndense;
    double (*steps)[5];         /* one row per internal step: t s, h s, u2 mm, u1 um, energy J (written after
                                   the solve, so CVODE's solve time is the solve's alone) */
    size_t nsteps, capsteps;
} drop_ctx;

static int sample(long k, double t, const double *y, void *ctx)
{
    drop_ctx *c = ctx;
    if (c->tag[k] & BALL_TAG_AUDIO)
        c->audio[c->naudio++] = y[0];
    if (c->tag[k] & BALL_TAG_DENSE) {
        c->dense_t[c->ndense] = t;
        c->dense_u1[c->ndense] = y[0];
        c->dense_fc[c->ndense] = ball_contact_force(c->b, y);
        c->ndense++;
    }
    return 0;
}

static int step(double t, double h, const double *y, void *ctx)
{
    drop_ctx *c = ctx;
    c->steps = xgrow(c->steps, &c->capsteps, c->nsteps + 1, sizeof *c->steps);
    double *row = c->steps[c->nsteps++];
    row[0] = t;
    row[1] = h;
    row[2] = 1e3 * y[2];    /* mm */
    row[3] = 1e6 * y[0];    /* um */
    row[4] = ball_energy(t, y, (void *)c->b);
    budget_tick(1.0);
    return 0;
}

/* --method all: every adaptive solver on the same drop, side by side: steps, F and Jacobian
 * evaluations, wall time, impacts, and how many leading impacts agree with the run's (CVODE BDF)
 * within a third of its first contact. Written to solvers.tsv and printed. */
static int solver_table(const ball *b, const double y0[4], const ball_settings *s, const ball_adaptive_result *ref,
                        const char *out, bool tsv, long max_steps, long max_impacts)
{
    char list[240];
    snprintf(list, sizeof list, "%s", ball_adaptive_methods());
    double agree_tol = ref->impacts.n ? (ref->impacts.v[0].end - ref->impacts.v[0].start) / 3.0 : 1e-4;
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, PROG, out, "solvers.tsv");
    table tf, tab;
    table_begin(&tf, f, true, "method", "steps", "nfev", "njev", "rejected", "seconds", "impacts", "agree", NULL);
    if (!tsv)
        printf("\nEvery adaptive solver on the same drop (rtol %g, atol %g, max step %g s):\n"
               "agree = leading impacts within %.3g ms (a third of a contact) of CVODE BDF's;\n"
               "rejected steps in solvers.tsv.\n",
               s->rtol, s->atol, s->max_step, 1e3 * agree_tol);
    if (!tsv)       /* with --tsv stdout keeps the one table of impacts; this one is in solvers.tsv */
        table_begin(&tab, stdout, false, "method", "steps", "nfev", "njev", "+rejected", "seconds", "impacts",
                    "agree", NULL);     /* rejected steps: in solvers.tsv (100 columns) */
    long best_cost = LONG_MAX;
    double best_s = INFINITY;
    char cheapest[32] = "", fastest[32] = "";
    for (char *save = NULL, *m = strtok_r(list, "|", &save); m; m = strtok_r(NULL, "|", &save)) {
        ball_adaptive_opts o = {s->T, s->rtol, s->atol, s->max_step, NULL, 0, NULL, NULL, NULL, m, max_steps,
                                max_impacts};
        ball_adaptive_result r;
        char err[600];
        if (ball_solve_adaptive(b, y0, &o, &r, err, sizeof err) != 0) {
            ball_impacts_free(&r.impacts);
            atomic_abort(&af);
            fprintf(stderr, PROG ": %s\n", err);
            return 1;
        }
        table *ts[2] = {&tf, &tab};
        for (int j = 0; j < (tsv ? 1 : 2); j++) {
            table_cell(ts[j], "%s", m);
            table_cell(ts[j], "%ld", r.stats.steps);
            table_cell(ts[j], "%ld", r.stats.nfev);
            table_cell(ts[j], "%ld", r.stats.njev);
            table_cell(ts[j], "%ld", r.stats.netf);
            table_cell(ts[j], "%.3f", r.stats.seconds);
            table_cell(ts[j], "%zu", r.impacts.n);
            table_cell(ts[j], "%zu", ball_impacts_agree(&ref->impacts, &r.impacts, agree_tol));
        }
        if (r.stats.nfev + r.stats.njev * 4 < best_cost) {      /* a Jacobian of the 4 unknowns as 4 F */
            best_cost = r.stats.nfev + r.stats.njev * 4;
            snprintf(cheapest, sizeof cheapest, "%s", m);
        }
        if (r.stats.seconds < best_s) {
            best_s = r.stats.seconds;
            snprintf(fastest, sizeof fastest, "%s", m);
        }
        ball_impacts_free(&r.impacts);
    }
    atomic_commit_or_exit(&af, PROG);
    if (!tsv)
        printf("Fewest evaluations (F, and a Jacobian as 4 F): %s; shortest wall time: %s.\n"
               "Adaptive explicit or implicit?\n%s\n", cheapest, fastest,
               strncmp(fastest, "gsl-", 4) == 0
                   ? "Explicit here: the drop is not stiff enough for an implicit solver's Newton iterations to pay."
                   : "Implicit here: its Newton iterations pay for themselves in longer steps.");
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Drop the ball from twice the height: how many impacts are there in 2 s, and when does the\n"
    "     first one start?\n"
    "     check: bin/drop --h0 0.3 | grep 'impacts. The first starts'\n"
    "  2. Tighten CVODE's tolerance a hundredfold: how far do the later impact times move? (The drop\n"
    "     is chaotic.) The start times at rtol 1e-8 and 1e-10, side by side:\n"
    "     check: paste <(bin/drop --tsv | cut -f1,2) <(bin/drop --rtol 1e-10 --tsv | cut -f2) | head -12\n";

#define DROP_ROWS_SHOWN 8   /* impact rows printed for people without --all */
#define DROP_IMPACTS 10000L /* impacts a run may find (the default run: 189) */

int main(int argc, char **argv)
{
    ball_settings s;
    ball_params ball_keys;
    ball_settings_load(PROG, &s);
    ball_params_bind(&s, &ball_keys);
    cli_common common = {false, "build/data/drop"};
    plot_opts plot = {false, false, NULL};
    bool all_rows = false;
    const char *sound = "build/sound", *method = "cvode-bdf";
    char choices[240];
    snprintf(choices, sizeof choices, "%s|all", ball_adaptive_methods());
    budget bg;
    budget_init(&bg, PROG, "steps", 1e7, "--T / --max-step, and --T and --f0 (about 5e4 CVODE steps a second of "
                "bouncing at 400 Hz, times (f0 / 400 Hz)^0.9 above; a run stops at 1e4 impacts, 1e6 with --allow-long)");
    const cli_opt opts[] = {
        FLAG_CHOICE("method", method, choices,
            "adaptive solver of the run (all: the run with CVODE BDF, then every solver side by "
            "side)"),
        FLAG_TABLE(ball_keys.model),
        FLAG_TABLE(ball_keys.cvode),
        FLAG_TEXT("sound", sound, "folder for the WAV of u1 (drop.wav)"),
        BUDGET_OPT(bg),
        FLAG_BOOL("all", all_rows, "print every impact row (default: the first 8 and the count)"),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec cs = {
        .program = PROG,
        .summary = "Drop a ball on a damped oscillator; CVODE finds every impact by root "
            "functions.",
        .opts = opts,
        .epilogue = exercises,
    };
    const ball_settings ini = s;
    cli_parse(&cs, argc, argv);
    atomic_check_folder(PROG, "sound", sound);
    if (s.f0 * 2.0 * M_PI <= 6.0 * log(10.0) / s.t60)
        cli_fail(PROG, "--f0 %g with --t60 %g is not underdamped; accepted: 2 pi f0 > 6 ln 10 / t60", s.f0, s.t60);

    /* CVODE's steps: at least T / max-step, and about 5e4 a second of bouncing at f0 = 400 Hz
     * (1.07e5 in the default 2 s, measured), more for a faster m1, whose ringing it follows
     * (measured a second: 3.7e5 at 4 kHz, 1.4e6 at 20 kHz; (f0/400)^0.9 gives 4e5, 1.7e6); each
     * kept in memory (40 B here, 8 B in ball.c); steps.tsv holds the steps of smallest and largest
     * h and u1 in each of STEP_BUCKETS spans. A run stops, exit 1, at the step cap (the budget's
     * share of a run, or 4 times the estimate with --allow-long: memory stays below the cap) and
     * at DROP_IMPACTS impacts (a stiff contact chatters: 7727 impacts in 4 s at --kc 1e13). */
    double n_audio = s.T * s.fs_audio, n_dense = (s.window_before + s.window_after) * s.dense_rate;
    double runs = 1.0;      /* --method all: the run, then every solver once more */
    if (strcmp(method, "all") == 0)
        for (const char *c = ball_adaptive_methods(); *c; c++)
            runs += *c == '|' || c == ball_adaptive_methods();
    double per_run = s.T / s.max_step + 5e4 * s.T * pow(fmax(1.0, s.f0 / 400.0), 0.9);
    bg.work = runs * per_run;
    bg.bytes_out = (4.0 * STEP_BUCKETS + 2.0) * 70.0 + n_audio * 2.0 + n_dense * 60.0 + n_audio * 20.0;
    bg.bytes_mem = (n_audio + n_dense) * 8.0 * 5.0 + per_run * 48.0;  /* the steps, kept */
    budget_check(&bg);
    long max_steps = (long)(bg.allow_long ? 4.0 * per_run + 1e6 : bg.cap / runs);
    long max_impacts = bg.allow_long ? 100 * DROP_IMPACTS : DROP_IMPACTS;

    ball b = ball_from_settings(&s);
    double y0[4];
    ball_initial(&s, y0);
    /* m1 rests until the ball arrives, so the first contact is at the free-fall time exactly. */
    double t_fall = sqrt(2.0 * s.h0 / s.g);
    double *tout;
    unsigned char *tag;
    size_t nout = ball_output_times(s.T, s.fs_audio, t_fall - s.window_before, t_fall + s.window_after, s.dense_rate,
                               &tout, &tag);
    drop_ctx c = {&b, tag, xcalloc(nout, sizeof(double)), 0, xcalloc(nout, sizeof(double)),
                  xcalloc(nout, sizeof(double)), xcalloc(nout, sizeof(double)), 0, NULL, 0, 0};

    bool all = strcmp(method, "all") == 0;
    const char *run_method = all ? "cvode-bdf" : method;
    ball_adaptive_opts ao = {s.T, s.rtol, s.atol, s.max_step, tout, nout, sample, step, &c, run_method, max_steps,
                             max_impacts};
    ball_adaptive_result r;
    char err[600];
    if (ball_solve_adaptive(&b, y0, &ao, &r, err, sizeof err) != 0) {
        budget_finish();
        fprintf(stderr, PROG ": %s%s\n", err, strstr(err, "the cap of the run") && !bg.allow_long
                ? "; --allow-long raises it (to 1e6 impacts and 4 times the estimated steps)" : "");
        ball_impacts_free(&r.impacts);
        free(c.steps), free(c.audio), free(c.dense_t), free(c.dense_u1), free(c.dense_fc), free(tout), free(tag);
        return 1;
    }
    budget_finish();
    atomic_file a_steps;
    FILE *fst = atomic_open_or_exit(&a_steps, PROG, common.out, "steps.tsv");
    const size_t keys[] = {1, 3};      /* h and u1: the step panel and u1's envelope */
    const char *const fmt[] = {"%.12g", "%.6g", "%.9g", "%.9g", "%.12g"};
    plot_write_decimated(fst, "t_s\th_s\tu2_mm\tu1_um\tenergy_J", c.nsteps ? &c.steps[0][0] : NULL, c.nsteps, 5, 0,
                         keys, 2, STEP_BUCKETS, fmt);
    atomic_commit_or_exit(&a_steps, PROG);
    free(c.steps);
    const ball_impacts *im = &r.impacts;

    /* The impact table: on stdout and in impacts.tsv. */
    atomic_file a_imp;
    FILE *fi = atomic_open_or_exit(&a_imp, PROG, common.out, "impacts.tsv");
    table tab, tf;
    if (!common.tsv)
        printf("ball on a damped oscillator: m1 = %g kg, m2 = %g kg, h0 = %g m,\nkc = %g N/m^1.5, lambda = %g s/m\n"
               "m1 rings at f0 = %g Hz with T60 = %g s: K = %.6g N/m, R = %.6g kg/s, sigma0/omega0 = %.5f\n"
               "%s, rtol %g, atol %g, max step %g s, roots on delta and 1 + lambda delta', T = %g s\n\n",
               s.m1, s.m2, s.h0, s.kc, s.lambda, s.f0, s.t60, b.K, b.R, b.sigma0 / b.omega0, run_method, s.rtol, s.atol,
               s.max_step, s.T);
    if (!common.tsv && s.f0 == ini.f0 && s.t60 == ini.t60)     /* ball.ini holds the lecture's f0 and T60 */
        printf("(The lecture says sigma0/omega0 is \"about 0.002\" for f0 = 400 Hz, T60 = 1.5 s;\n those give 6 ln 10 / "
               "(T60 2 pi f0) = %.5f: the source's rounding is off,\n the oscillator strongly underdamped either way.)\n\n",
               b.sigma0 / b.omega0);
    table_begin(&tab, stdout, common.tsv, "impact", "start_s", "end_s", "duration_ms", "impulse_Ns", NULL);
    table_begin(&tf, fi, true, "impact", "start_s", "end_s", "duration_ms", "impulse_Ns", NULL);
    /* People see the first few impacts and the count (--all: every row); --tsv and impacts.tsv hold all. */
    size_t shown = common.tsv || all_rows ? im->n : (im->n < DROP_ROWS_SHOWN ? im->n : DROP_ROWS_SHOWN);
    for (size_t i = 0; i < im->n; i++) {
        table *ts[2] = {&tab, &tf};
        for (int j = i < shown ? 0 : 1; j < 2; j++) {
            table_cell(ts[j], "%zu", i + 1);
            table_cell(ts[j], "%.9f", im->v[i].start);
            table_cell(ts[j], "%.9f", im->v[i].end);
            table_cell(ts[j], "%.5f", 1e3 * (im->v[i].end - im->v[i].start));
            table_cell(ts[j], "%.6e", im->v[i].impulse);
        }
    }
    atomic_commit_or_exit(&a_imp, PROG);
    if (shown < im->n)
        printf("... %zu impacts in all (--all prints every row; all are in %s/impacts.tsv)\n", im->n, common.out);

    /* What the impacts say: first time, durations, whether they come faster, impacts in each
     * quarter of the run (they come faster as the ball loses height). */
    const ball_impact_summary ims = ball_impacts_summarise(im, s.T);

    /* Between impacts: the ringing after the first impact against the impulse formula, from the
     * end of the first contact to the end of the window (or the second impact). */
    double J1 = im->n ? im->v[0].impulse : NAN, tc = im->n ? im->v[0].centre : NAN;
    double amp = fabs(J1) / (b.m1 * ball_omega1(&b)), fit_err = 0.0;
    double fit_end = im->n >= 2 ? im->v[1].start : INFINITY;
    atomic_file a_first;
    FILE *ff = atomic_open_or_exit(&a_first, PROG, common.out, "first_impact.tsv");
    fprintf(ff, "t_after_ms\tu1_um\tformula_um\tenvelope_um\tfc_N\n");
    for (size_t i = 0; i < c.ndense; i++) {
        double te = c.dense_t[i] - tc;
        double f = te > 0 ? ball_impulse_response(&b, J1, te) : NAN;
        double env = te > 0 ? amp * exp(-b.sigma0 * te) : NAN;
        if (i % FIRST_EVERY == 0)
            fprintf(ff, "%.6f\t%.9g\t%.9g\t%.9g\t%.9g\n", 1e3 * te, 1e6 * c.dense_u1[i], 1e6 * f, 1e6 * env,
                    c.dense_fc[i]);
        if (im->n && c.dense_t[i] > im->v[0].end && c.dense_t[i] < fit_end)
            fit_err = fmax(fit_err, fabs(c.dense_u1[i] - f));
    }
    atomic_commit_or_exit(&a_first, PROG);
    /* The impulse once more, by the trapezoid rule over the dense samples (the lecture's way). */
    double J_trap = 0.0;
    for (size_t i = 1; i < c.ndense; i++)
        J_trap += 0.5 * (c.dense_fc[i] + c.dense_fc[i - 1]) * (c.dense_t[i] - c.dense_t[i - 1]);

    /* The spectrum of u1 over the whole run, at the audio rate, Hann window, zero-padded to a
     * 2-3-5-smooth length: 88201 samples (2 s and t = 0) are 193 x 457, where GSL's FFT is slow. */
    spectrum sp;
    double f_peak = NAN, mag_peak = 0.0;
    if (spectrum_hann_padded(c.audio, c.naudio, spectrum_fast_length(c.naudio), s.fs_audio, &sp) != 0) {
        fprintf(stderr, PROG ": the FFT of %zu samples failed\n", c.naudio);
        return 1;
    }
    spectrum_peak(&sp, 0.0, 0.5 * s.fs_audio, &f_peak, &mag_peak);
    atomic_file a_sp;
    FILE *fsp = atomic_open_or_exit(&a_sp, PROG, common.out, "spectrum.tsv");
    spectrum_write_tsv(fsp, &sp, mag_peak, SPEC_BUCKETS);
    atomic_commit_or_exit(&a_sp, PROG);
    size_t sp_n = sp.n, sp_nfft = sp.nfft;
    spectrum_free(&sp);

    /* The sound of u1, peak at wav_peak of full scale. */
    char wav[4096];
    double peak = max_abs(c.audio, c.naudio);
    path_join(wav, sizeof wav, sound, "drop.wav");
    mkdir_p(sound);
    wav_write_or_exit(PROG, wav, c.audio, c.naudio, (int)lround(s.fs_audio), peak > 0 ? s.wav_peak / peak : 1.0, NULL);

    const cvode_stats *st = &r.stats;
    double f1 = ball_omega1(&b) / (2.0 * M_PI);
    double rise_rel = r.energy_rise / r.energy0;
    /* Every fact the lesson states, for tests and pipes. */
    atomic_file a_sum;
    FILE *fs = atomic_open_or_exit(&a_sum, PROG, common.out, "summary.tsv");
    fprintf(fs, "key\tvalue\nsigma0_over_omega0\t%.9g\n", b.sigma0 / b.omega0);
    fprintf(fs, "impacts\t%zu\nfree_fall_s\t%.12g\nfirst_start_s\t%.12g\nfirst_end_s\t%.12g\nfirst_duration_ms\t%.9g\n"
                "first_impulse_Ns\t%.9g\nfirst_impulse_trapezoid_Ns\t%.9g\nfirst_centre_s\t%.12g\nfirst_restitution\t%.9g\n"
                "duration_min_ms\t%.9g\nduration_max_ms\t%.9g\nintervals\t%zu\nintervals_shorter\t%zu\n"
                "first_flight_s\t%.9g\nperiod_ms\t%.9g\nformula_error_rel\t%.6g\nspectrum_peak_Hz\t%.6f\nspectrum_samples\t%zu\nspectrum_fft_length\t%zu\nf1_Hz\t%.6f\n"
                "energy0_J\t%.12g\nenergy_final_J\t%.12g\nenergy_rise_rel\t%.6g\nenergy_rise_t_s\t%.9g\n"
                "steps\t%ld\nnfev\t%ld\nnjev\t%ld\nnsetups\t%ld\nnetf\t%ld\nnniters\t%ld\nnncf\t%ld\nngev\t%ld\n"
                "nevents\t%ld\nsolve_s\t%.6g\nh_fall_s\t%.6g\nh_contact_s\t%.6g\nh_ring_s\t%.6g\n",
            im->n, t_fall, im->n ? im->v[0].start : NAN, im->n ? im->v[0].end : NAN,
            im->n ? 1e3 * (im->v[0].end - im->v[0].start) : NAN, J1, J_trap, tc,
            im->n ? ball_restitution(&im->v[0]) : NAN, 1e3 * ims.dur_min, 1e3 * ims.dur_max,
            ims.intervals, ims.shorter, im->n >= 2 ? im->v[1].start - im->v[0].start : NAN, 1e3 / f1,
            amp > 0 ? fit_err / amp : NAN, f_peak, sp_n, sp_nfft, f1, r.energy0, r.energy_final, rise_rel, r.energy_rise_t,
            st->steps, st->nfev, st->njev, st->nsetups, st->netf, st->nniters, st->nncf, st->ngev, st->nevents,
            st->seconds, r.h_median[BALL_FALL], r.h_median[BALL_CONTACT], r.h_median[BALL_RING]);
    for (int q = 0; q < BALL_QUARTERS; q++)
        fprintf(fs, "impacts_quarter%d\t%zu\n", q + 1, ims.per_quarter[q]);
    atomic_commit_or_exit(&a_sum, PROG);

    if (!common.tsv && im->n == 0)
        printf("\nNo impact before T = %g s: the ball reaches m1 at the free-fall time %.6f s.\n", s.T, t_fall);
    if (!common.tsv && im->n > 0) {
        const ball_impact *e = &im->v[0];
        printf("\n%zu impacts. The first starts at %.9f s (free fall sqrt(2 h0/g) = %.9f s)\nand lasts %.4f ms; "
               "contacts last %.4f to %.4f ms.\n"
               "Impacts in each quarter of the run:", im->n, e->start, t_fall, 1e3 * (e->end - e->start),
               1e3 * ims.dur_min, 1e3 * ims.dur_max);
        for (int q = 0; q < BALL_QUARTERS; q++)
            printf(" %zu", ims.per_quarter[q]);
        bool rising = true;
        for (int q = 1; q < BALL_QUARTERS; q++)
            rising = rising && ims.per_quarter[q] > ims.per_quarter[q - 1];
        printf("%s\n", rising ? ": they come faster as the ball loses height." : " (not rising in every quarter).");
        if (im->n >= 2) {
            printf("First flights:");
            for (size_t i = 1; i < im->n && i <= FLIGHTS_SHOWN; i++)
                printf(" %.4f", im->v[i].start - im->v[i - 1].start);
            printf(" s\n(later the ringing m1 jostles the order: %zu of %zu flights are shorter than the one "
                   "before).\n",
                   ims.shorter, ims.intervals - 1);
        }
        printf("Time scales: flights of %.2f s and less, one period of m1 %.4f ms, one contact %.4f ms.\n",
               im->n >= 2 ? im->v[1].start - e->start : NAN, 1e3 / f1, 1e3 * (e->end - e->start));
        printf("Between impacts: first impulse J = %.6e N s (momentum of the ball;\ntrapezoid over %.0f MHz "
               "samples: %.6e N s), the ball leaving with restitution %.4f;\nu1 after it follows "
               "-J/(m1 omega1) e^(-sigma0 t) sin(omega1 t)\nwithin %.3f %% of its amplitude %.3f um.\n",
               J1, s.dense_rate / 1e6, J_trap, ball_restitution(e), 100.0 * fit_err / amp, 1e6 * amp);
    }
    if (!common.tsv) {
        printf("Spectrum of u1 over %g s (Hann window, %zu samples zero-padded to %zu):\npeak at %.3f Hz (f1 = %.3f Hz, "
               "f0 = %g Hz).\n", s.T, sp_n, sp_nfft, f_peak, f1, s.f0);
        printf("Energy (kinetic + spring + gravity + contact): %.6e J at 0, %.6e J at %g s;\nlargest increase "
               "%.2e of the initial energy (at t = %.6f s).\n",
               r.energy0, r.energy_final, s.T, rise_rel, r.energy_rise_t);
        if (strncmp(run_method, "gsl-", 4) == 0)
            printf("\nGSL %s (explicit pair, contact roots by bisection): %ld steps, %ld F evaluations,\n%ld rejected "
                   "steps, %ld root evaluations, %ld events, %.3f s.\n",
                   run_method + 4, st->steps, st->nfev, st->netf, st->ngev, st->nevents, st->seconds);
        else
            printf("\nCVODE %s (%s, dense, analytic Jacobian): %ld steps, %ld F evaluations,\n%ld Jacobians, %ld "
                   "linear setups, %ld Newton iterations, %ld convergence failures,\n%ld error-test failures, %ld root "
                   "evaluations, %ld events, %.3f s.\n",
                   cvode_version(), strcmp(run_method, "cvode-adams") == 0 ? "Adams" : "BDF", st->steps, st->nfev,
                   st->njev, st->nsetups, st->nniters, st->nncf, st->netf, st->ngev, st->nevents, st->seconds);
        printf("Median step: %.3g s in free fall (max step %g s), %.3g s ringing between contacts,\n%.3g s in a "
               "contact.\n",
               r.h_median[BALL_FALL], s.max_step, r.h_median[BALL_RING], r.h_median[BALL_CONTACT]);
        printf("Data: %s/ (steps, impacts, first_impact, spectrum, summary)\nSound: %s\n", common.out, wav);
    }
    if (all && solver_table(&b, y0, &s, &r, common.out, common.tsv, max_steps, max_impacts) != 0)
        return 1;
    ball_impacts_free(&r.impacts);
    free(c.audio);
    free(c.dense_t);
    free(c.dense_u1);
    free(c.dense_fc);
    free(tout);
    free(tag);
    return plot_render(&plot, "drop", common.out, common.tsv);
}
