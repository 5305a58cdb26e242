/* Lesson 7, "Solving it: adaptive steps find the impacts" and "Between impacts": a ball dropped
 * on a damped oscillator, solved by CVODE with root functions on the contact, so that each
 * impact's start and end are found to the solver's accuracy. Between impacts m1 is the free
 * oscillator, restruck by an impulse J = integral f_c dt: its ringing after the first impact is
 * -J/(m1 omega1) e^{-sigma0 t} sin(omega1 t), and its spectrum peaks at f0.
 * Claims, one run: the impacts start at the free-fall time and come faster as the ball loses
 * height; the ringing follows the impulse formula; the spectrum peaks at f1; the energy does not
 * rise; with --method all, which adaptive solver (explicit or implicit) pays here. One program:
 * the lecture's two slides read the same solution, so main solves once and states each claim.
 * Try it: --h0 0.05 (lower drop, softer and faster bounces), --lambda 0 (no contact loss). */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "io/numfmt.h"
#include "ball/ball.h"
#include "analysis/spectrum.h"
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
enum { MAX_SOLVERS = 16 };      /* adaptive solvers --method all can compare */

#define DROP_ROWS_SHOWN 8   /* impact rows printed for people without --all */
#define DROP_IMPACTS 10000L /* impacts a run may find (the default run: 189) */

/* What the run keeps while CVODE solves: the samples at the output times, and every step. */
typedef struct {
    const ball *b;
    double *tout;               /* the output times, s: the audio grid and the dense window */
    const unsigned char *tag;   /* per output time: TAG_AUDIO and/or TAG_DENSE */
    double *audio;              /* u1 at the audio rate, m */
    size_t naudio;
    double *dense_t, *dense_u1, *dense_fc;  /* the dense window: s, m, N */
    size_t ndense;
    plot_stream *steps;         /* the internal steps, a row each (t s, h s, u2 mm, u1 um,
                                   energy J), decimated as they come (steps.tsv's rows) */
    progress *meter;            /* ticked a step */
} drop_ctx;

/* What the lesson measures after the run: the first impact's ringing and the spectrum. */
typedef struct ringing {
    double J1;              /* the first impulse (the ball's momentum balance), N s */
    double J_trap;          /* the same by the trapezoid rule over the dense samples, N s */
    double tc;              /* the first impulse's centre, s */
    double amp;             /* amplitude J1 / (m1 omega1) of the ringing after it, m */
    double fit_err;         /* largest distance of u1 from the impulse formula after contact, m */
} ringing;

typedef struct peak {
    double f, mag;          /* the spectrum's peak: Hz, and its magnitude */
    size_t n, nfft;         /* samples, and the zero-padded FFT length */
} peak;

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

static int step(double t, double h, const double *y, double energy, void *ctx)
{
    drop_ctx *c = ctx;
    const double row[5] = {t, h, 1e3 * y[2], 1e6 * y[0], energy};
    plot_stream_push(c->steps, row);    /* u2 in mm, u1 in um */
    budget_tick(c->meter, 1.0);
    return 0;
}

static void drop_ctx_free(drop_ctx *c)
{
    plot_stream_free(c->steps), free(c->audio);
    free(c->dense_t), free(c->dense_u1), free(c->dense_fc);
    free(c->tout), free((void *)c->tag);
    *c = (drop_ctx){0};
}

/* The adaptive solvers, split from ball_adaptive_methods() ("cvode-bdf|cvode-adams|gsl-..."),
 * into names pointing into buf; how many. */
static int solver_names(char *buf, size_t len, const char *names[MAX_SOLVERS])
{
    int n = 0;
    snprintf(buf, len, "%s", ball_adaptive_methods());
    for (char *save = NULL, *m = strtok_r(buf, "|", &save); m && n < MAX_SOLVERS;
         m = strtok_r(NULL, "|", &save))
        names[n++] = m;
    return n;
}

/* CVODE's steps: at least T / max-step, and about 5e4 a second of bouncing at f0 = 400 Hz
 * (1.07e5 in the default 2 s, measured), more for a faster m1, whose ringing it follows
 * (measured a second: 3.7e5 at 4 kHz, 1.4e6 at 20 kHz; (f0/400)^0.9 gives 4e5, 1.7e6); each
 * kept in memory as its h (8 B, ball.c); steps.tsv holds the steps of smallest and largest h
 * and u1 in each of STEP_BUCKETS spans, chosen as they come. The estimate goes into bg (main
 * checks it); returns the steps of one run. */
static double estimate_work(budget *bg, const ball_settings *s, double runs)
{
    double n_audio = s->T * s->fs_audio;
    double n_dense = (s->window_before + s->window_after) * s->dense_rate;
    double per_run = s->T / s->max_step + 5e4 * s->T * pow(fmax(1.0, s->f0 / 400.0), 0.9);
    bg->work = runs * per_run;
    bg->bytes_out = (4.0 * STEP_BUCKETS + 2.0) * 70.0 + n_audio * 2.0 + n_dense * 60.0
                    + n_audio * 20.0;
    bg->bytes_mem = (n_audio + n_dense) * 8.0 * 5.0 + per_run * 8.0;   /* the steps' h */
    return per_run;
}

/* The drop from y0, solved by the adaptive method with root functions on the contact: u1 at the
 * audio rate, the dense window around the first contact, and every step into c. 0, or 1 with
 * the reason in e (c and r hold what they hold: main frees them). */
static int solve_drop(const ball *b, const ball_settings *s, const double y0[4], const char *method,
                      const long caps[2], budget *bg, drop_ctx *c, ball_adaptive_result *r,
                      failure *e)
{
    /* m1 rests until the ball arrives, so the first contact is at the free-fall time exactly. */
    double t_fall = sqrt(2.0 * s->h0 / s->g), *tout;
    unsigned char *tag;
    size_t nout = ball_output_times(s->T, s->fs_audio, t_fall - s->window_before,
                                    t_fall + s->window_after, s->dense_rate, &tout, &tag);
    *c = (drop_ctx){.b = b, .tout = tout, .tag = tag, .audio = xcalloc(nout, sizeof(double)),
                    .dense_t = xcalloc(nout, sizeof(double)),
                    .dense_u1 = xcalloc(nout, sizeof(double)),
                    .dense_fc = xcalloc(nout, sizeof(double)), .meter = &bg->meter};
    const size_t keys[] = {1, 3};      /* h and u1: the step panel and u1's envelope */
    c->steps = plot_stream_new(5, 0, keys, 2, STEP_BUCKETS, s->T);   /* a run's steps end at T */
    ball_adaptive_opts ao = {.T = s->T, .rtol = s->rtol, .atol = s->atol, .max_step = s->max_step,
                             .tout = tout, .nout = nout, .sink = sample, .on_step = step, .ctx = c,
                             .method = method, .max_steps = caps[0], .max_impacts = caps[1]};
    char err[600];
    int status = ball_solve_adaptive(b, y0, &ao, r, err, sizeof err);
    budget_finish(&bg->meter);
    if (status == 0)
        return 0;
    bool capped = strstr(err, "the cap of the run") && !bg->allow_long;
    return failure_set(e, 1, PROG ": %s%s", err, capped
            ? "; --allow-long raises it (to 1e6 impacts and 4 times the estimated steps)" : "");
}

/* steps.tsv: h and u1 at every step (decimated to the extremes of each span): the step panel.
 * 0, or the failure's status with e. */
static int write_steps(const char *out, drop_ctx *c, failure *e)
{
    atomic_file a;
    FILE *f = atomic_open_file(&a, PROG, out, "steps.tsv", e);
    if (!f)
        return e->status;
    const char *const fmt[] = {"%.12g", "%.6g", "%.9g", "%.9g", "%.12g"};
    plot_stream_write(f, "t_s\th_s\tu2_mm\tu1_um\tenergy_J", c->steps, fmt);
    plot_stream_free(c->steps);
    c->steps = NULL;
    return atomic_commit_file(&a, PROG, e);
}

/* What is dropped on what, and how it is solved. */
static void print_setup(const ball_settings *s, const ball *b, const char *method, bool lecture_f0)
{
    printf("ball on a damped oscillator: m1 = %g kg, m2 = %g kg, h0 = %g m,\n", s->m1, s->m2,
           s->h0);
    printf("kc = %g N/m^1.5, lambda = %g s/m\n", s->kc, s->lambda);
    printf("m1 rings at f0 = %g Hz with T60 = %g s: K = %.6g N/m, R = %.6g kg/s, sigma0/omega0 = "
           "%.5f\n", s->f0, s->t60, b->K, b->R, b->sigma0 / b->omega0);
    printf("%s, rtol %g, atol %g, max step %g s, roots on delta and 1 + lambda delta', "
           "T = %g s\n\n", method, s->rtol, s->atol, s->max_step, s->T);
    if (lecture_f0)     /* ball.ini holds the lecture's f0 and T60 */
        printf("(The lecture says sigma0/omega0 is \"about 0.002\" for f0 = 400 Hz, T60 = 1.5 s;\n"
               " those give 6 ln 10 / (T60 2 pi f0) = %.5f: the source's rounding is off,\n"
               " the oscillator strongly underdamped either way.)\n\n", b->sigma0 / b->omega0);
}

/* The impacts: on stdout (people see the first few and the count; --all, --tsv: every row) and
 * in impacts.tsv. 0, or the failure's status with e. */
static int show_impacts(const ball_impacts *im, const char *out, bool tsv, bool all_rows,
                        failure *e)
{
    atomic_file a;
    FILE *fi = atomic_open_file(&a, PROG, out, "impacts.tsv", e);
    if (!fi)
        return e->status;
    table tab, tf;
    table_begin(&tab, stdout, tsv, "impact", "start_s", "end_s", "duration_ms", "impulse_Ns", NULL);
    table_begin(&tf, fi, true, "impact", "start_s", "end_s", "duration_ms", "impulse_Ns", NULL);
    size_t shown = tsv || all_rows ? im->n : (im->n < DROP_ROWS_SHOWN ? im->n : DROP_ROWS_SHOWN);
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
    if (atomic_commit_file(&a, PROG, e) != 0)
        return e->status;
    if (shown < im->n)
        printf("... %zu impacts in all (--all prints every row; all are in %s/impacts.tsv)\n",
               im->n, out);
    return 0;
}

/* Between impacts: u1 after the first impact against the impulse formula
 * -J/(m1 omega1) e^(-sigma0 t) sin(omega1 t), from the end of the first contact to the end of the
 * dense window (or the second impact), written to first_impact.tsv; and the impulse once more by
 * the trapezoid rule over the dense samples (the lecture's way). 0, or the failure's status
 * with e. */
static int measure_ringing(const ball *b, const ball_impacts *im, const drop_ctx *c,
                           const char *out, ringing *gp, failure *e)
{
    ringing g = {.J1 = im->n ? im->v[0].impulse : NAN, .tc = im->n ? im->v[0].centre : NAN};
    g.amp = fabs(g.J1) / (b->m1 * ball_omega1(b));
    double fit_end = im->n >= 2 ? im->v[1].start : INFINITY;
    atomic_file a;
    FILE *f = atomic_open_file(&a, PROG, out, "first_impact.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "t_after_ms\tu1_um\tformula_um\tenvelope_um\tfc_N\n");
    const char *const fmt[] = {"%.6f", "%.9g", "%.9g", "%.9g", "%.9g"};
    for (size_t i = 0; i < c->ndense; i++) {
        double te = c->dense_t[i] - g.tc;
        double formula = te > 0 ? ball_impulse_response(b, g.J1, te) : NAN;
        double env = te > 0 ? g.amp * exp(-b->sigma0 * te) : NAN;
        if (i % FIRST_EVERY == 0) {
            const double cells[] = {1e3 * te, 1e6 * c->dense_u1[i], 1e6 * formula, 1e6 * env,
                                    c->dense_fc[i]};
            numfmt_row(f, cells, 5, fmt);
        }
        if (im->n && c->dense_t[i] > im->v[0].end && c->dense_t[i] < fit_end)
            g.fit_err = fmax(g.fit_err, fabs(c->dense_u1[i] - formula));
    }
    if (atomic_commit_file(&a, PROG, e) != 0)
        return e->status;
    for (size_t i = 1; i < c->ndense; i++) {
        double dt = c->dense_t[i] - c->dense_t[i - 1];
        g.J_trap += 0.5 * (c->dense_fc[i] + c->dense_fc[i - 1]) * dt;
    }
    *gp = g;
    return 0;
}

/* The spectrum of u1 over the whole run, at the audio rate, Hann window, zero-padded to a
 * 2-3-5-smooth length: 88201 samples (2 s and t = 0) are 193 x 457, where GSL's FFT is slow.
 * Its peak, and spectrum.tsv. 0, or the failure's status with e. */
static int measure_spectrum(const drop_ctx *c, double fs, const char *out, peak *pk, failure *e)
{
    spectrum sp;
    *pk = (peak){.f = NAN};
    if (spectrum_hann_padded(c->audio, c->naudio, spectrum_fast_length(c->naudio), fs, &sp) != 0)
        return failure_set(e, 1, PROG ": the FFT of %zu samples failed", c->naudio);
    spectrum_peak(&sp, 0.0, 0.5 * fs, &pk->f, &pk->mag);
    pk->n = sp.n;
    pk->nfft = sp.nfft;
    atomic_file a;
    FILE *f = atomic_open_file(&a, PROG, out, "spectrum.tsv", e);
    int status = f ? 0 : e->status;
    if (f) {
        spectrum_write_tsv(f, &sp, pk->mag, SPEC_BUCKETS);
        status = atomic_commit_file(&a, PROG, e);
    }
    spectrum_free(&sp);
    return status;
}

/* The sound of u1, peak at wav_peak of full scale, to wav. 0, or the failure's status with e. */
static int write_sound(const drop_ctx *c, const ball_settings *s, const char *sound, char *wav,
                       size_t len, failure *e)
{
    double top = max_abs(c->audio, c->naudio);
    path_join(wav, len, sound, "drop.wav");
    mkdir_p(sound);
    return wav_write_file(PROG, wav, c->audio, c->naudio, (int)lround(s->fs_audio),
                          top > 0 ? s->wav_peak / top : 1.0, NULL, e);
}

/* summary.tsv: every fact the lesson states, for tests and pipes (counts as "%.0f"). 0, or the
 * failure's status with e. */
static int write_summary(const char *out, const ball *b, const ball_adaptive_result *r,
                         double t_fall, const ringing *g, const peak *pk, double T, failure *why)
{
    const ball_impacts *im = &r->impacts;
    const ball_impact *e = im->v;     /* the first impact (read only when there is one) */
    const ball_impact_summary ims = ball_impacts_summarise(im, T);
    const cvode_stats *st = &r->stats;
    const table_kv facts[] = {
        TABLE_KV("sigma0_over_omega0", "%.9g", b->sigma0 / b->omega0),
        TABLE_KV("impacts", "%.0f", (double)im->n),
        TABLE_KV("free_fall_s", "%.12g", t_fall),
        TABLE_KV("first_start_s", "%.12g", im->n ? e->start : NAN),
        TABLE_KV("first_end_s", "%.12g", im->n ? e->end : NAN),
        TABLE_KV("first_duration_ms", "%.9g", im->n ? 1e3 * (e->end - e->start) : NAN),
        TABLE_KV("first_impulse_Ns", "%.9g", g->J1),
        TABLE_KV("first_impulse_trapezoid_Ns", "%.9g", g->J_trap),
        TABLE_KV("first_centre_s", "%.12g", g->tc),
        TABLE_KV("first_restitution", "%.9g", im->n ? ball_restitution(e) : NAN),
        TABLE_KV("duration_min_ms", "%.9g", 1e3 * ims.dur_min),
        TABLE_KV("duration_max_ms", "%.9g", 1e3 * ims.dur_max),
        TABLE_KV("intervals", "%.0f", (double)ims.intervals),
        TABLE_KV("intervals_shorter", "%.0f", (double)ims.shorter),
        TABLE_KV("first_flight_s", "%.9g", im->n >= 2 ? im->v[1].start - im->v[0].start : NAN),
        TABLE_KV("period_ms", "%.9g", 1e3 / (ball_omega1(b) / (2.0 * M_PI))),
        TABLE_KV("formula_error_rel", "%.6g", g->amp > 0 ? g->fit_err / g->amp : NAN),
        TABLE_KV("spectrum_peak_Hz", "%.6f", pk->f),
        TABLE_KV("spectrum_samples", "%.0f", (double)pk->n),
        TABLE_KV("spectrum_fft_length", "%.0f", (double)pk->nfft),
        TABLE_KV("f1_Hz", "%.6f", ball_omega1(b) / (2.0 * M_PI)),
        TABLE_KV("energy0_J", "%.12g", r->energy0),
        TABLE_KV("energy_final_J", "%.12g", r->energy_final),
        TABLE_KV("energy_rise_rel", "%.6g", r->energy_rise / r->energy0),
        TABLE_KV("energy_rise_t_s", "%.9g", r->energy_rise_t),
        TABLE_KV("steps", "%.0f", (double)st->steps),
        TABLE_KV("nfev", "%.0f", (double)st->nfev),
        TABLE_KV("njev", "%.0f", (double)st->njev),
        TABLE_KV("nsetups", "%.0f", (double)st->nsetups),
        TABLE_KV("netf", "%.0f", (double)st->netf),
        TABLE_KV("nniters", "%.0f", (double)st->nniters),
        TABLE_KV("nncf", "%.0f", (double)st->nncf),
        TABLE_KV("ngev", "%.0f", (double)st->ngev),
        TABLE_KV("nevents", "%.0f", (double)st->nevents),
        TABLE_KV("solve_s", "%.6g", st->seconds),
        TABLE_KV("h_fall_s", "%.6g", r->h_median[BALL_FALL]),
        TABLE_KV("h_contact_s", "%.6g", r->h_median[BALL_CONTACT]),
        TABLE_KV("h_ring_s", "%.6g", r->h_median[BALL_RING]),
    };
    char qkey[BALL_QUARTERS][24];
    table_kv quarters[BALL_QUARTERS];
    for (int q = 0; q < BALL_QUARTERS; q++) {
        snprintf(qkey[q], sizeof qkey[q], "impacts_quarter%d", q + 1);
        quarters[q] = (table_kv)TABLE_KV(qkey[q], "%.0f", (double)ims.per_quarter[q]);
    }
    atomic_file a;
    FILE *f = atomic_open_file(&a, PROG, out, "summary.tsv", why);
    if (!f)
        return why->status;
    table_write_kv(f, true, facts, sizeof facts / sizeof facts[0]);
    table_write_kv(f, false, quarters, BALL_QUARTERS);
    return atomic_commit_file(&a, PROG, why);
}

/* The rhythm: how many impacts, the first at the free-fall time, faster as the ball loses height;
 * the three time scales; and between impacts, the impulse formula. */
static void print_rhythm(const ball *b, const ball_impacts *im, double T, double t_fall,
                         const ringing *g, double dense_rate)
{
    if (im->n == 0) {
        printf("\nNo impact before T = %g s: the ball reaches m1 at the free-fall time %.6f s.\n",
               T, t_fall);
        return;
    }
    const ball_impact *e = &im->v[0];
    const ball_impact_summary ims = ball_impacts_summarise(im, T);
    printf("\n%zu impacts. The first starts at %.9f s (free fall sqrt(2 h0/g) = %.9f s)\n", im->n,
           e->start, t_fall);
    printf("and lasts %.4f ms; contacts last %.4f to %.4f ms.\n", 1e3 * (e->end - e->start),
           1e3 * ims.dur_min, 1e3 * ims.dur_max);
    printf("Impacts in each quarter of the run:");
    bool rising = true;
    for (int q = 0; q < BALL_QUARTERS; q++) {
        printf(" %zu", ims.per_quarter[q]);
        rising = rising && (q == 0 || ims.per_quarter[q] > ims.per_quarter[q - 1]);
    }
    printf("%s\n", rising ? ": they come faster as the ball loses height."
                          : " (not rising in every quarter).");
    if (im->n >= 2) {
        printf("First flights:");
        for (size_t i = 1; i < im->n && i <= FLIGHTS_SHOWN; i++)
            printf(" %.4f", im->v[i].start - im->v[i - 1].start);
        printf(" s\n(later the ringing m1 jostles the order: %zu of %zu flights are shorter than "
               "the one before).\n", ims.shorter, ims.intervals - 1);
    }
    printf("Time scales: flights of %.2f s and less, one period of m1 %.4f ms, one contact "
           "%.4f ms.\n",
           im->n >= 2 ? im->v[1].start - e->start : NAN, 1e3 / (ball_omega1(b) / (2.0 * M_PI)),
           1e3 * (e->end - e->start));
    printf("Between impacts: first impulse J = %.6e N s (momentum of the ball;\n", g->J1);
    printf("trapezoid over %.0f MHz samples: %.6e N s), the ball leaving with restitution %.4f;\n",
           dense_rate / 1e6, g->J_trap, ball_restitution(e));
    printf("u1 after it follows -J/(m1 omega1) e^(-sigma0 t) sin(omega1 t)\n");
    printf("within %.3f %% of its amplitude %.3f um.\n", 100.0 * g->fit_err / g->amp, 1e6 * g->amp);
}

/* The check of the answer: the spectrum peaks at m1's pitch, the energy does not rise; and what
 * the solver did. */
static void print_check(const ball_settings *s, const ball *b, const ball_adaptive_result *r,
                        const peak *pk, const char *method)
{
    const cvode_stats *st = &r->stats;
    printf("Spectrum of u1 over %g s (Hann window, %zu samples zero-padded to %zu):\n", s->T, pk->n,
           pk->nfft);
    printf("peak at %.3f Hz (f1 = %.3f Hz, f0 = %g Hz).\n", pk->f, ball_omega1(b) / (2.0 * M_PI),
           s->f0);
    printf("Energy (kinetic + spring + gravity + contact): %.6e J at 0, %.6e J at %g s;\n",
           r->energy0, r->energy_final, s->T);
    printf("largest increase %.2e of the initial energy (at t = %.6f s).\n",
           r->energy_rise / r->energy0, r->energy_rise_t);
    if (strncmp(method, "gsl-", 4) == 0) {
        printf("\nGSL %s (explicit pair, contact roots by bisection): %ld steps, "
               "%ld F evaluations,\n",
               method + 4, st->steps, st->nfev);
        printf("%ld rejected steps, %ld root evaluations, %ld events, %.3f s.\n", st->netf,
               st->ngev, st->nevents, st->seconds);
    } else {
        printf("\nCVODE %s (%s, dense, analytic Jacobian): %ld steps, %ld F evaluations,\n",
               cvode_version(), strcmp(method, "cvode-adams") == 0 ? "Adams" : "BDF", st->steps,
               st->nfev);
        printf("%ld Jacobians, %ld linear setups, %ld Newton iterations, %ld convergence "
               "failures,\n", st->njev, st->nsetups, st->nniters, st->nncf);
        printf("%ld error-test failures, %ld root evaluations, %ld events, %.3f s.\n", st->netf,
               st->ngev, st->nevents, st->seconds);
    }
    printf("Median step: %.3g s in free fall (max step %g s), %.3g s ringing between contacts,\n",
           r->h_median[BALL_FALL], s->max_step, r->h_median[BALL_RING]);
    printf("%.3g s in a contact.\n", r->h_median[BALL_CONTACT]);
}

/* --method all: every adaptive solver on the same drop, side by side: steps, F and Jacobian
 * evaluations, wall time, impacts, and how many leading impacts agree with the run's (CVODE BDF)
 * within a third of its first contact. Written to solvers.tsv and printed. 0, or the failure's
 * status with e. */
static int solver_table(const ball *b, const double y0[4], const ball_settings *s,
                        const ball_adaptive_result *ref, const char *const *names, int nsolvers,
                        const char *out, bool tsv, const long caps[2], failure *e)
{
    const ball_impacts *ri = &ref->impacts;
    double agree_tol = ri->n ? (ri->v[0].end - ri->v[0].start) / 3.0 : 1e-4;
    atomic_file af;
    FILE *f = atomic_open_file(&af, PROG, out, "solvers.tsv", e);
    if (!f)
        return e->status;
    table tf, tab;
    table_begin(&tf, f, true, "method", "steps", "nfev", "njev", "rejected", "seconds", "impacts",
                "agree", NULL);
    if (!tsv) {     /* with --tsv stdout keeps the one table of impacts; this one: solvers.tsv */
        printf("\nEvery adaptive solver on the same drop (rtol %g, atol %g, max step %g s):\n"
               "agree = leading impacts within %.3g ms (a third of a contact) of CVODE BDF's;\n"
               "rejected steps in solvers.tsv.\n", s->rtol, s->atol, s->max_step, 1e3 * agree_tol);
        /* rejected steps: in solvers.tsv (the table fits 100 columns) */
        table_begin(&tab, stdout, false, "method", "steps", "nfev", "njev", "+rejected", "seconds",
                    "impacts", "agree", NULL);
    }
    long best_cost = LONG_MAX;
    double best_s = INFINITY;
    const char *cheapest = "", *fastest = "";
    for (int i = 0; i < nsolvers; i++) {
        ball_adaptive_opts o = {.T = s->T, .rtol = s->rtol, .atol = s->atol,
                                .max_step = s->max_step, .method = names[i],
                                .max_steps = caps[0], .max_impacts = caps[1]};
        ball_adaptive_result r;
        char err[600];
        if (ball_solve_adaptive(b, y0, &o, &r, err, sizeof err) != 0) {
            ball_impacts_free(&r.impacts);
            atomic_abort(&af);
            return failure_set(e, 1, PROG ": %s", err);
        }
        table *ts[2] = {&tf, &tab};
        for (int j = 0; j < (tsv ? 1 : 2); j++) {
            table_cell(ts[j], "%s", names[i]);
            table_cell(ts[j], "%ld", r.stats.steps);
            table_cell(ts[j], "%ld", r.stats.nfev);
            table_cell(ts[j], "%ld", r.stats.njev);
            table_cell(ts[j], "%ld", r.stats.netf);
            table_cell(ts[j], "%.3f", r.stats.seconds);
            table_cell(ts[j], "%zu", r.impacts.n);
            table_cell(ts[j], "%zu", ball_impacts_agree(ri, &r.impacts, agree_tol));
        }
        long cost = r.stats.nfev + r.stats.njev * 4;    /* a Jacobian of the 4 unknowns as 4 F */
        if (cost < best_cost)
            best_cost = cost, cheapest = names[i];
        if (r.stats.seconds < best_s)
            best_s = r.stats.seconds, fastest = names[i];
        ball_impacts_free(&r.impacts);
    }
    if (atomic_commit_file(&af, PROG, e) != 0)
        return e->status;
    if (!tsv)
        printf("Fewest evaluations (F, and a Jacobian as 4 F): %s; shortest wall time: %s.\n"
               "Adaptive explicit or implicit?\n%s\n", cheapest, fastest,
               strncmp(fastest, "gsl-", 4) == 0
                   ? "Explicit here: the drop is not stiff enough for an implicit solver's Newton "
                     "iterations to pay."
                   : "Implicit here: its Newton iterations pay for themselves in longer steps.");
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Drop the ball from twice the height: how many impacts are there in 2 s, and when does"
    " the\n"
    "     first one start?\n"
    "     check: bin/drop --h0 0.3 | grep 'impacts. The first starts'\n"
    "  2. Tighten CVODE's tolerance a hundredfold: how far do the later impact times move? (The"
    " drop\n"
    "     is chaotic.) The start times at rtol 1e-8 and 1e-10, side by side:\n"
    "     check: paste <(bin/drop --tsv | cut -f1,2) <(bin/drop --rtol 1e-10 --tsv | cut -f2)"
    " | head -12\n";


int main(int argc, char **argv)
{
    ball_settings s;
    ball_params ball_keys;
    failure why = {0};
    if (ball_settings_load(PROG, &s, &why))
        return failure_print(&why);
    ball_params_bind(&s, &ball_keys);
    cli_common common = {false, "build/data/drop"};
    plot_opts plot = {false, false, NULL};
    bool all_rows = false;
    const char *sound = "build/sound", *method = "cvode-bdf";
    char choices[240];
    snprintf(choices, sizeof choices, "%s|all", ball_adaptive_methods());
    budget bg;
    budget_init(&bg, PROG, "steps", 1e7, "--T / --max-step, and --T and --f0 (about 5e4 CVODE "
                "steps a second of bouncing at 400 Hz, times (f0 / 400 Hz)^0.9 above; a run stops "
                "at 1e4 impacts, 1e6 with --allow-long)");
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
    if (atomic_check_folder(PROG, "sound", sound, &why) != 0)
        return failure_print(&why);
    if (s.f0 * 2.0 * M_PI <= 6.0 * log(10.0) / s.t60)
        cli_fail(PROG, "--f0 %g with --t60 %g is not underdamped; accepted: 2 pi f0 > 6 ln 10 / "
                 "t60", s.f0, s.t60);

    /* The work before it starts: the run, and with --method all every solver once more. A run
     * stops, exit 1, at the step cap (the budget's share of a run, or 4 times the estimate with
     * --allow-long: memory stays below the cap) and at DROP_IMPACTS impacts (a stiff contact
     * chatters: 7727 impacts in 4 s at --kc 1e13). */
    char buf[240];
    const char *names[MAX_SOLVERS];
    bool all = strcmp(method, "all") == 0;
    int nsolvers = all ? solver_names(buf, sizeof buf, names) : 0;
    double runs = 1.0 + nsolvers;
    double per_run = estimate_work(&bg, &s, runs);
    if (budget_check(&bg, &why) != 0)
        return failure_print(&why);
    const long caps[2] = {(long)(bg.allow_long ? 4.0 * per_run + 1e6 : bg.cap / runs),
                          bg.allow_long ? 100 * DROP_IMPACTS : DROP_IMPACTS};

    /* The model, and the drop solved by adaptive steps that find every impact. On a failure
     * (why), main goes to its one way out, which frees what the run holds. */
    ball b = ball_from_settings(&s);
    double y0[4];
    ball_initial(&s, y0);
    const char *run_method = all ? "cvode-bdf" : method;
    drop_ctx c = {0};
    ball_adaptive_result r = {0};
    if (solve_drop(&b, &s, y0, run_method, caps, &bg, &c, &r, &why) != 0
        || write_steps(common.out, &c, &why) != 0)
        goto out;

    /* The impacts: when they start, how long they last. */
    if (!common.tsv)
        print_setup(&s, &b, run_method, s.f0 == ini.f0 && s.t60 == ini.t60);
    if (show_impacts(&r.impacts, common.out, common.tsv, all_rows, &why) != 0)
        goto out;

    /* Between impacts m1 rings as the free oscillator, restruck by an impulse; its spectrum
     * peaks at f0; the sound. */
    ringing g = {0};
    peak pk = {0};
    char wav[4096];
    double t_fall = sqrt(2.0 * s.h0 / s.g);
    if (measure_ringing(&b, &r.impacts, &c, common.out, &g, &why) != 0
        || measure_spectrum(&c, s.fs_audio, common.out, &pk, &why) != 0
        || write_sound(&c, &s, sound, wav, sizeof wav, &why) != 0
        || write_summary(common.out, &b, &r, t_fall, &g, &pk, s.T, &why) != 0)
        goto out;

    /* The claims: the rhythm, the ringing, the spectrum and the energy; the solver's work. */
    if (!common.tsv) {
        print_rhythm(&b, &r.impacts, s.T, t_fall, &g, s.dense_rate);
        print_check(&s, &b, &r, &pk, run_method);
        printf("Data: %s/ (steps, impacts, first_impact, spectrum, summary)\nSound: %s\n",
               common.out, wav);
    }
    /* Adaptive explicit or implicit: every solver on the same drop. */
    if (all)
        solver_table(&b, y0, &s, &r, names, nsolvers, common.out, common.tsv, caps, &why);
out:
    ball_impacts_free(&r.impacts);
    drop_ctx_free(&c);
    if (why.status != 0)
        return failure_print(&why);
    return plot_render(&plot, "drop", common.out, common.tsv);
}
