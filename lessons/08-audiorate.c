/* Lesson 8, "Fixed steps at an audio rate": the ball on the damped oscillator once more, now
 * with a value every sample, h = 1/fs fixed. Each run's impact start times (found from its
 * samples) against the adaptive reference show whether it keeps the rhythm; what each method
 * does to the 400 Hz oscillator alone is read from its R(z) (pitch error in cents, T60 ratio,
 * or "grows"). Every run is written as a WAV of u1 with one gain, to compare by ear.
 * One program with one claim, the lecture's slide: which method at which rate keeps the rhythm
 * (judged on the lecture's 2 impacts and on every impact the reference is sure of), with the
 * pitch and T60 it gives the oscillator beside it.
 * Try it: --method rk4 --fs 11025, or --method all --fs 44100 for every method in the table. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "base/util.h"
#include "drive/solve.h"
#include "io/atomic.h"
#include "io/params.h"
#include "io/plot.h"
#include "io/table.h"
#include "io/wav.h"
#include "analysis/measure.h"
#include "method/method.h"
#include "method/set.h"
#include "ball/ball.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "audiorate"
#define MAX_RUNS (6 + METHOD_MAX)
/* The lecture's slide judges the rhythm on the drop and the first rebound: 2 impacts. */
#define LECTURE_IMPACTS 2

typedef struct {
    const method *m;
    double fs;              /* sampling rate, Hz */
} run_spec;

/* The adaptive reference (ball/ball), and what the runs are judged with. */
typedef struct reference {
    ball_reference r;           /* the reference, its check, its horizon and first contact */
    size_t upto;                /* impacts a rhythm is judged on */
    double gain;                /* the WAVs' gain, 1/m: the reference peaks at wav_peak */
} reference;

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
    "  1. The lecture judged the rhythm on 2 impacts, this program on every impact its reference"
    " is\n"
    "     sure of (4): RK4 at 44.1 kHz keeps the first and drifts by the second. Judge it on 6:"
    " does\n"
    "     96 kHz keep it? Why does no rate keep every impact within 0.1 ms for long (the drop is\n"
    "     chaotic: a timing error grows at every bounce)?\n"
    "     check: bin/audiorate --method rk4 --fs 96000 --rhythm-impacts 6"
    " | grep -A1 'RK4, 96 kHz'\n"
    "  2. Backward Euler at 44.1 kHz shortens the ringing: measure its T60 against the"
    " oscillator's\n"
    "     1.5 s.\n"
    "     check: bin/audiorate --method backward-euler --fs 44100\n";


/* The runs: the lecture's six (and each tableau file at the audio rate), or every method at fs,
 * or one. */
static size_t lesson_runs(const ball_settings *s, const method_set *methods,
                          const char *method_name, double fs, run_spec *runs)
{
    size_t nruns = 0;
    if (strcmp(method_name, "lecture") == 0) {
        const run_spec six[] = {
            {&method_rk4, s->fs_audio}, {&method_rk4, s->fs_mid}, {&method_rk4, s->fs_low},
            {&method_trapezoid, s->fs_audio}, {&method_backward_euler, s->fs_audio},
            {&method_euler, s->fs_audio},
        };
        nruns = sizeof six / sizeof six[0];
        memcpy(runs, six, sizeof six);
        for (int i = 0; methods->all[i] && nruns < MAX_RUNS; i++)
            if (methods->all[i]->file)
                runs[nruns++] = (run_spec){methods->all[i], s->fs_audio};
    } else if (strcmp(method_name, "all") == 0) {
        for (int i = 0; methods->all[i] && nruns < MAX_RUNS; i++)
            runs[nruns++] = (run_spec){methods->all[i], fs};
    } else {
        runs[nruns++] = (run_spec){method_set_find(methods, method_name), fs};
    }
    return nruns;
}

/* What the table says, before it. */
static void print_intro(const ball_settings *s, const reference *R)
{
    const ball_impacts *im = &R->r.run.impacts;
    size_t hz = R->r.horizon;
    printf("ball drop at fixed steps h = 1/fs over %g s;\n", s->T);
    printf("reference: CVODE BDF (rtol %g, atol %g), %zu impacts.\n", s->rtol, s->atol, im->n);
    printf("The reference agrees with CVODE at rtol %g, atol %g within %g ms for its first %zu "
           "impacts\n", s->rtol * s->check_tol, s->atol * s->check_tol, s->keep_ms, hz);
    printf("(to t = %.3f s); later they part by up to %.1f ms: the ringing m1 multiplies a timing "
           "error at\n", hz ? im->v[hz - 1].start : 0.0, 1e3 * R->r.later_diff);
    printf("every bounce (chaos).\n");
    printf("Its first contact lasts %.4f ms; the ball leaves it with restitution %.4f "
           "(-v_out / v_in).\n", 1e3 * R->r.contact, R->r.e);
    printf("rhythm, judged on the first %zu impacts%s, and rhythm_2, on the\n", R->upto,
           s->rhythm_impacts > 0 ? "" : " (those the reference is sure of)");
    printf("lecture's %d: keeps = each start within %g ms of the reference's; loses = one missing "
           "or off\n", LECTURE_IMPACTS, s->keep_ms);
    printf("by more than %g ms; else drifts. impact_error_ms: the largest of those errors.\n",
           s->lose_ms);
    printf("heard_at_impact: the first of them shifted by more than a listener hears, %g ms or "
           "%g %% of the\n", s->hear_abs_ms, 100.0 * s->hear_rel);
    printf("interval before it (Friberg and Sundberg, J. Acoust. Soc. Am. 98, 1995), or none.\n");
    printf("Pitch and T60: what one step of h does to the %g Hz oscillator alone, from the "
           "method's R(z).\n", s->f0);
    printf("restitution: of the run's first impact; contact_samples: samples of h in the "
           "reference's first\n");
    printf("contact (--wide or --tsv for those columns).\n\n");
    if (im->n < R->upto)
        printf("Note: the reference has %zu impacts before T = %g s, fewer than the %zu a rhythm "
               "is judged on: rhythm n/a.\n\n", im->n, s->T, R->upto);
    else if (R->upto > hz)
        printf("Note: the rhythm is judged on %zu impacts, beyond the %zu the reference is sure "
               "of.\n\n", R->upto, hz);
}

/* One run as the tables show it. */
typedef struct run_view {
    const method *m;
    double fs;                  /* Hz */
    const ball_fixed_run *fr;   /* the run */
    osc_fidelity fid;           /* what one step of h does to the oscillator alone */
    ball_rhythm rh;             /* its impacts against the reference's */
    const char *verdict;        /* keeps, drifts, loses, n/a or - (refused) */
    const char *status;         /* ok, blowup, refused, failed */
    size_t judged, heard;       /* impacts judged; the first a listener hears shifted (0: none) */
    double ref_contact;         /* the reference's first contact, s (NAN: none) */
    double t60;                 /* the oscillator's T60, s */
    ball_rhythm rh2;            /* rh and verdict on the lecture's LECTURE_IMPACTS */
    const char *verdict2;
} run_view;

/* Its cells, from the method's name on (runs.tsv puts its row and label first); a refused run
 * has "-" where its impacts would be. */
static void run_cells(table *t, const run_view *v)
{
    const ball_fixed_run *fr = v->fr;
    const ball_impacts *im = &fr->impacts;
    bool refused = fr->refused;
    bool na = v->m->needs_uv;   /* leapfrog's R(z) is for the undamped oscillator only */
    const char *no_R = na ? "n/a" : "grows";
    const char *no_run = refused ? "-" : "none";
    table_cell(t, "%s", v->m->name);
    table_cell(t, "%g", v->fs);
    table_cell_or(t, !na && !v->fid.grows, "%+.3f", v->fid.cents, no_R);
    table_cell_or(t, !na && !v->fid.grows, "%.4f", v->fid.t60_ratio, no_R);
    table_cell_or(t, !refused, "%.0f", (double)im->n, "-");
    table_cell_or(t, !refused && im->n, "%.6f", im->n ? im->v[0].start : 0.0, no_run);
    table_cell_or(t, !refused && fr->status == SOLVE_BLOWUP, "%.6f", fr->res.t, no_run);
    table_cell_or(t, !na && !v->fid.grows, "%.4f", v->fid.t60_ratio * v->t60, no_R);
    table_cell_or(t, !refused && v->rh.compared, "%.4f", 1e3 * v->rh.max_error, no_run);
    table_cell(t, "%s", refused ? "-" : v->verdict);
    double e = im->n ? ball_restitution(&im->v[0]) : NAN;
    table_cell_or(t, !refused && isfinite(e), "%.4f", e, no_run);
    table_cell_or(t, isfinite(v->ref_contact), "%.1f", v->ref_contact * v->fs, "none");
    table_cell(t, "%s", v->status);
    table_cell(t, "%zu", refused ? 0 : v->judged);
    table_cell_or(t, !refused && v->judged && v->heard, "%.0f", (double)v->heard,
                  refused || !v->judged ? "-" : "none");
    table_cell(t, "%s", refused ? "-" : v->verdict2);
    table_cell_or(t, !refused && v->rh2.compared, "%.4f", 1e3 * v->rh2.max_error, no_run);
}

/* What the runs leave for the files and the words after the table. */
typedef struct outcome {
    table tf, tab;              /* runs.tsv, the printed table */
    FILE *frh;                  /* rhythm.tsv */
    double *errs;               /* impact start errors, ms, errs[run * nerr + impact] (NAN: none) */
    size_t nerr;                /* the reference's impacts */
    char notes[MAX_RUNS][400];  /* a run's failure, in words ("" when none) */
    char verdicts[MAX_RUNS * 320]; /* the rhythm in words, two lines a run */
    bool differ;                /* a verdict on LECTURE_IMPACTS differs from that on all judged */
    int exit_status;
    progress *meter;            /* ticked a sample of every run */
} outcome;

static const char *run_status(const ball_fixed_run *fr)
{
    if (fr->status == SOLVE_OK)
        return "ok";
    if (fr->status == SOLVE_BLOWUP)
        return "blowup";
    return fr->refused ? "refused" : "failed";
}

/* The rhythm's verdict on the first upto impacts: "-" for a refused run, "n/a" when the
 * reference has fewer impacts than that. */
static const char *rhythm_verdict(const ball_settings *s, const ball_fixed_run *fr,
                                  const ball_rhythm *rh, size_t ref_impacts, size_t upto)
{
    if (fr->refused)
        return "-";
    if (ref_impacts < upto)
        return "n/a";
    return ball_rhythm_verdict(rh, 1e-3 * s->keep_ms, 1e-3 * s->lose_ms);
}

/* What a run shows: what one step of h does to the oscillator alone, and its impacts against
 * the reference's, on every judged impact and on the lecture's two. A run that blew up is
 * judged on the impacts it had before. */
static run_view view_run(const ball_settings *s, const ball *b, const reference *R,
                         const run_spec *rs, const ball_fixed_run *fr)
{
    const ball_impacts *ri = &R->r.run.impacts;
    run_view v = {
        .m = rs->m,
        .fs = rs->fs,
        .fr = fr,
        .fid = measure_oscillator_fidelity(rs->m, b->omega0, b->sigma0, 1.0 / rs->fs),
        .rh = ball_rhythm_compare(ri, &fr->impacts, R->upto),
        .rh2 = ball_rhythm_compare(ri, &fr->impacts, LECTURE_IMPACTS),
        .status = run_status(fr),
        .judged = R->upto < ri->n ? R->upto : ri->n,
        .heard = ball_rhythm_heard(ri, &fr->impacts, R->upto, 1e-3 * s->hear_abs_ms, s->hear_rel),
        .ref_contact = R->r.contact,
        .t60 = s->t60,
    };
    v.verdict = rhythm_verdict(s, fr, &v.rh, ri->n, R->upto);
    v.verdict2 = rhythm_verdict(s, fr, &v.rh2, ri->n, LECTURE_IMPACTS);
    return v;
}

/* The sound of a run: one gain for every run; samples past full scale (a blow-up) are clipped.
 * 0, or the failure's status with e. */
static int write_run_sound(const reference *R, const run_spec *rs, ball_fixed_run *fr,
                           long n, const char *sound, failure *e)
{
    for (size_t k = 0; k < fr->n; k++)
        fr->u1[k] = fmax(-1.0 / R->gain, fmin(1.0 / R->gain, fr->u1[k]));
    char name[128], wav[4096];
    snprintf(name, sizeof name, "audiorate-%s-%g.wav", rs->m->name, rs->fs);
    path_join(wav, sizeof wav, sound, name);
    mkdir_p(sound);
    return wav_write_file(PROG, wav, fr->u1, (size_t)n + 1, (int)rs->fs, R->gain, NULL, e);
}

/* Run r: its rows, its impacts, its verdict in words and its WAV of u1. 0, or the failure's
 * status with e (a failed run is not one: its note says why). */
static int one_run(const ball_settings *s, ball *b, const double y0[4], const reference *R,
                   const run_spec *rs, size_t r, size_t nruns, const char *sound, outcome *o,
                   failure *e)
{
    const method *m = rs->m;
    long n = lround(s->T * rs->fs);
    const ball_impacts *ri = &R->r.run.impacts;
    ball_fixed_run fr;
    ball_solve_fixed(b, y0, m, 1.0 / rs->fs, n, s->blowup, o->meter, &fr);
    o->notes[r][0] = '\0';
    if (fr.status != SOLVE_OK) {
        snprintf(o->notes[r], sizeof o->notes[r], "%s", fr.res.message);
        if (nruns == 1)
            o->exit_status = 1;
    }
    run_view v = view_run(s, b, R, rs, &fr);
    o->differ = o->differ || strcmp(v.verdict, v.verdict2) != 0;
    for (size_t i = 0; i < o->nerr && i < fr.impacts.n; i++)
        o->errs[r * o->nerr + i] = 1e3 * fabs(fr.impacts.v[i].start - ri->v[i].start);
    char label[80];
    snprintf(label, sizeof label, "%s, %g kHz", m->label, rs->fs / 1000.0);
    table_cell(&o->tf, "%zu", r + 1);
    table_cell(&o->tf, "%s", label);
    run_cells(&o->tf, &v);
    run_cells(&o->tab, &v);
    if (!fr.refused && v.judged) {
        char why[160];
        ball_rhythm_words(why, sizeof why, ri, &fr.impacts, v.heard, v.rh.compared,
                          1e-3 * s->hear_abs_ms, s->hear_rel);
        size_t n0 = strlen(o->verdicts);
        snprintf(o->verdicts + n0, sizeof o->verdicts - n0,
                 "  %s: impacts 1-%d (lecture): %s (%.3g ms off); 1-%zu: %s (%.3g ms off)\n"
                 "      %s\n", label, LECTURE_IMPACTS, v.verdict2, 1e3 * v.rh2.max_error, v.judged,
                 v.verdict, 1e3 * v.rh.max_error, why);
    }
    for (size_t i = 0; i < fr.impacts.n; i++)
        fprintf(o->frh, "%zu\t%s\t%s\t%.9f\n", r + 1, label, m->name, fr.impacts.v[i].start);
    int status = fr.refused ? 0 : write_run_sound(R, rs, &fr, n, sound, e);
    ball_fixed_run_free(&fr);
    return status;
}

/* impact_errors.tsv: every impact's start-time error against its index, per run (the chaos: it
 * grows at every bounce), beside what a listener hears at that impact. 0, or the failure's status
 * with e. */
static int write_errors(const ball_settings *s, const reference *R, const run_spec *runs,
                        size_t nruns, const outcome *o, const char *out, atomic_file *a,
                        failure *e)
{
    FILE *fer = atomic_open_file(a, PROG, out, "impact_errors.tsv", e);
    if (!fer)
        return e->status;
    fprintf(fer, "impact\treference_start_s\theard_ms");
    for (size_t r = 0; r < nruns; r++)
        fprintf(fer, "\t%s, %g kHz", runs[r].m->label, runs[r].fs / 1000.0);
    fputc('\n', fer);
    for (size_t i = 0; i < o->nerr; i++) {
        double heard = ball_audible_shift(&R->r.run.impacts, i, 1e-3 * s->hear_abs_ms, s->hear_rel);
        fprintf(fer, "%zu\t%.9f\t%.6g", i + 1, R->r.run.impacts.v[i].start, 1e3 * heard);
        for (size_t r = 0; r < nruns; r++) {
            double err = o->errs[r * o->nerr + i];
            fprintf(fer, isnan(err) ? "\t" : "\t%.6g", err);
        }
        fputc('\n', fer);
    }
    return 0;
}

/* summary.tsv: the reference's figures, key and value (counts as "%.0f"). 0, or the failure's
 * status with e. */
static int write_summary(const ball_settings *s, const reference *R, const char *out,
                         atomic_file *a, failure *e)
{
    const ball_impacts *im = &R->r.run.impacts;
    size_t hz = R->r.horizon;
    const table_kv facts[] = {
        TABLE_KV("reference_impacts", "%.0f", (double)im->n),
        TABLE_KV("check_impacts", "%.0f", (double)R->r.check.impacts.n),
        TABLE_KV("horizon_impacts", "%.0f", (double)hz),
        TABLE_KV("horizon_t_s", "%.9g", hz ? im->v[hz - 1].start : 0.0),
        TABLE_KV("later_diff_ms", "%.6g", 1e3 * R->r.later_diff),
        TABLE_KV("rhythm_impacts", "%.0f", (double)R->upto),
        TABLE_KV("wav_gain_per_m", "%.6g", R->gain),
        TABLE_KV("T_s", "%g", s->T),
        TABLE_KV("reference_contact_ms", "%.6g", 1e3 * R->r.contact),
        TABLE_KV("reference_restitution", "%.6g", R->r.e),
        TABLE_KV("hear_abs_ms", "%g", s->hear_abs_ms),
        TABLE_KV("hear_rel", "%g", s->hear_rel),
        TABLE_KV("f0_hz", "%.6g", s->f0),
        TABLE_KV("lecture_impacts", "%.0f", (double)LECTURE_IMPACTS),
    };
    FILE *f = atomic_open_file(a, PROG, out, "summary.tsv", e);
    if (!f)
        return e->status;
    table_write_kv(f, true, facts, sizeof facts / sizeof facts[0]);
    return 0;
}

/* The failures in words, after the table (on stderr when it is the only run, or --tsv). */
static void print_after(const ball_settings *s, const reference *R, const outcome *o,
                        size_t nruns, bool tsv, const char *sound)
{
    if (!tsv && o->verdicts[0])
        printf("\nThe rhythm, in words (a listener hears an impact shifted by %g ms, or %g %% of "
               "the interval\nbefore it):\n%s", s->hear_abs_ms, 100.0 * s->hear_rel, o->verdicts);
    if (!tsv && o->differ)
        printf("Why 2 and %zu impacts differ: a timing error grows at every bounce (the drop is "
               "chaotic), so a\nrun within %g ms of the reference at impact 2 can be far off by "
               "impact %zu.\n", R->upto, s->keep_ms, R->upto);
    bool first_note = true;
    for (size_t r = 0; r < nruns; r++) {
        if (!o->notes[r][0])
            continue;
        if (o->exit_status || tsv)
            fprintf(stderr, PROG ": %s\n", o->notes[r]);
        else
            printf("%s%s\n", first_note ? "\n" : "", o->notes[r]);
        first_note = false;
    }
    if (!tsv && max_abs(R->r.u1, R->r.n) > 0.0)
        printf("\nWAVs of u1 (gain %.4g 1/m: the reference peaks at %g of full scale) in %s/\n",
               R->gain, s->wav_peak, sound);
    else if (!tsv)
        printf("\nWAVs of u1 (gain 1 1/m: m1 does not move in the reference) in %s/\n", sound);
}

/* The flags beside the ball's settings. */
typedef struct flags {
    cli_common common;          /* --tsv, --out */
    plot_opts plot;             /* --plot, --show */
    const char *sound;          /* folder of the WAVs */
    const char *method_name;    /* lecture, all, or one method */
    double fs;                  /* --fs, Hz (0: not given) */
    bool wide;                  /* --wide: every column in the human table */
    budget bg;                  /* the estimate and its cap */
} flags;

/* The flags: a refusal of one ends the program (the flag parser's); 0, or the status of a
 * refused --sound with e. */
static int parse_flags(int argc, char **argv, ball_settings *sp, flags *f, method_set *methods,
                       failure *e)
{
    ball_settings s = *sp;
    ball_params keys;
    ball_params_bind(&s, &keys);
    *f = (flags){.common = {.out = "build/data/audiorate"}, .sound = "build/sound",
                 .method_name = "lecture"};
    char fs_help[200];
    method_arg marg = {.set = methods, .name = &f->method_name, .also = "lecture|all"};
    budget_init(&f->bg, PROG, "steps", 1e8,
                "--T, --fs and --method (T fs steps a run; the CVODE references)");
    snprintf(fs_help, sizeof fs_help, "sampling rate of a --method run, h = 1/fs (default %g Hz)",
             s.fs_audio);
    const cli_opt opts[] = {
        METHOD_ARG_OPT(marg, "lecture: the six runs of the lecture (and each --add-method at "
                             "44.1 kHz); all: every method at --fs; else one method, or a "
                             "tableau file"),
        METHOD_ADD_OPT(*methods),
        FLAG_CUSTOM("fs", &f->fs, "Hz", parse_rate,
            "a whole number of Hz in [1000, 384000]",
            fs_help),
        FLAG_TABLE(keys.model),
        FLAG_TABLE(keys.rhythm),
        FLAG_TEXT("sound", f->sound, "folder for the WAVs of u1 (audiorate-METHOD-FS.wav)"),
        CLI_WIDE_OPT(f->wide),
        BUDGET_OPT(f->bg),
        CLI_COMMON_OPTS(f->common),
        PLOT_OPTS(f->plot),
        FLAG_END,
    };
    const cli_spec cs = {
        .program = PROG,
        .summary = "The ball drop at fixed steps h = 1/fs: rhythm of the impacts, pitch and T60, "
            "sound.",
        .opts = opts,
        .epilogue = exercises,
    };
    cli_parse(&cs, argc, argv);
    if (atomic_check_folder(PROG, "sound", f->sound, e) != 0)
        return e->status;
    if (s.f0 * 2.0 * M_PI <= 6.0 * log(10.0) / s.t60)
        cli_fail(PROG, "--f0 %g with --t60 %g is not underdamped; "
                 "accepted: 2 pi f0 > 6 ln 10 / t60", s.f0, s.t60);
    if (s.keep_ms > s.lose_ms)
        cli_fail(PROG, "--keep-ms %g exceeds --lose-ms %g; accepted: keep <= lose", s.keep_ms,
                 s.lose_ms);
    if (strcmp(f->method_name, "lecture") == 0 && f->fs != 0.0)
        cli_fail(PROG, "--fs %g needs --method; accepted: --fs with --method all or a method name",
                 f->fs);
    if (f->fs == 0.0)
        f->fs = s.fs_audio;
    *sp = s;
    return 0;
}

/* The work before it starts: T fs steps a run (u1 kept at every step, a WAV each), and two CVODE
 * references (as in bin/drop: T / max_step and about 5e4 steps a second of bouncing); main
 * checks it. */
static void estimate_work(budget *bg, const ball_settings *s, const run_spec *runs, size_t nruns)
{
    bg->work = 2.0 * (s->T / s->max_step + 5e4 * s->T);
    for (size_t r = 0; r < nruns; r++) {
        bg->work += s->T * runs[r].fs;
        bg->bytes_out += s->T * runs[r].fs * 2.0;
        bg->bytes_mem = fmax(bg->bytes_mem, s->T * runs[r].fs * 8.0 * 2.0);
    }
    bg->bytes_mem += s->T * s->fs_audio * 8.0 * 2.0;
}

/* The adaptive reference: its u1 at the audio rate for the WAVs' gain, its check for the
 * horizon. 0, or 1 with the reason in e. */
static int make_reference(ball *b, const ball_settings *s, const double y0[4], progress *meter,
                          reference *R, failure *e)
{
    char err[800];
    if (ball_reference_run(b, s, y0, s->fs_audio, 1e-3 * s->keep_ms, meter, &R->r, err,
                           sizeof err) != 0)
        return failure_set(e, 1, PROG ": %s", err);
    double ref_peak = max_abs(R->r.u1, R->r.n);
    R->gain = ref_peak > 0.0 ? s->wav_peak / ref_peak : 1.0;    /* 1 1/m when m1 never moves */
    R->upto = s->rhythm_impacts > 0 ? (size_t)s->rhythm_impacts : R->r.horizon;
    return 0;
}

/* The table's columns, in runs.tsv (after its row and label) and on stdout. The human table fits
 * 100 columns: the '+' columns are in the TSV and --wide only. */
#define RUN_COLUMNS                                                                              \
    "method", "fs", "pitch_cents", "+t60_ratio", "+impacts", "+first_impact_s", "+blowup_s",     \
        "t60_s", "+impact_error_ms", "rhythm", "+restitution", "+contact_samples", "+status",    \
        "+judged_impacts", "+heard_at_impact", "rhythm_2", "+impact_error_2_ms"

/* Where the runs go: rhythm.tsv (the reference's impacts first), runs.tsv, the printed table
 * (after the words that say how to read it), and the impact errors of nruns runs. NULL, or
 * the outcome with e. */
static outcome *start_outcome(const ball_settings *s, const reference *R, const flags *f,
                              size_t nruns, atomic_file *a_rh, atomic_file *a_runs, failure *e)
{
    FILE *frh = atomic_open_file(a_rh, PROG, f->common.out, "rhythm.tsv", e);
    FILE *fru = frh ? atomic_open_file(a_runs, PROG, f->common.out, "runs.tsv", e) : NULL;
    if (!fru)
        return NULL;
    outcome *o = xcalloc(1, sizeof *o);
    o->frh = frh;
    fprintf(o->frh, "row\tlabel\tmethod\tstart_s\n");
    for (size_t i = 0; i < R->r.run.impacts.n; i++)
        fprintf(o->frh, "0\treference (CVODE)\treference\t%.9f\n", R->r.run.impacts.v[i].start);
    table_begin(&o->tf, fru, true, "row", "label", RUN_COLUMNS, NULL);
    if (!f->common.tsv)
        print_intro(s, R);
    table_begin(&o->tab, stdout, table_mode(f->common.tsv, f->wide), RUN_COLUMNS, NULL);
    o->nerr = R->r.run.impacts.n;
    o->errs = xcalloc(o->nerr * (nruns ? nruns : 1), sizeof(double));
    for (size_t i = 0; i < o->nerr * nruns; i++)
        o->errs[i] = NAN;
    return o;
}

int main(int argc, char **argv)
{
    /* The ball's settings and the flags; the runs the lesson compares. */
    ball_settings s;
    failure why = {0};
    if (ball_settings_load(PROG, &s, &why))
        return failure_print(&why);
    flags f;
    method_set methods;         /* the built-in methods and each --add-method */
    method_set_init(&methods);
    if (parse_flags(argc, argv, &s, &f, &methods, &why) != 0)
        return failure_print(&why);
    run_spec runs[MAX_RUNS];
    size_t nruns = lesson_runs(&s, &methods, f.method_name, f.fs, runs);
    estimate_work(&f.bg, &s, runs, nruns);
    if (budget_check(&f.bg, &why) != 0)
        return failure_print(&why);

    /* The model, and the adaptive reference every run is judged against. On a failure (why),
     * main goes to its one way out, which closes the files and frees what the runs hold. */
    ball b = ball_from_settings(&s);
    double y0[4];
    ball_initial(&s, y0);
    reference R = {0};
    const char *out = f.common.out;
    atomic_file a_rh = {0}, a_runs = {0}, a_err = {0}, a_sum = {0};
    outcome *o = NULL;
    if (make_reference(&b, &s, y0, &f.bg.meter, &R, &why) != 0
        || !(o = start_outcome(&s, &R, &f, nruns, &a_rh, &a_runs, &why)))
        goto out;

    /* Each method at its fixed rate h = 1/fs: its rhythm, its pitch and T60, its sound. */
    o->meter = &f.bg.meter;
    for (size_t r = 0; r < nruns; r++)
        if (one_run(&s, &b, y0, &R, &runs[r], r, nruns, f.sound, o, &why) != 0)
            goto out;

    /* The figures' data, and the claim in words: which runs keep the rhythm. */
    if (write_errors(&s, &R, runs, nruns, o, out, &a_err, &why) != 0
        || write_summary(&s, &R, out, &a_sum, &why) != 0 || atomic_commit_file(&a_err, PROG, &why)
        || atomic_commit_file(&a_rh, PROG, &why) || atomic_commit_file(&a_runs, PROG, &why)
        || atomic_commit_file(&a_sum, PROG, &why))
        goto out;
    print_after(&s, &R, o, nruns, f.common.tsv, f.sound);
out:
    atomic_abort(&a_rh), atomic_abort(&a_runs), atomic_abort(&a_err), atomic_abort(&a_sum);
    int exit_status = why.status ? failure_print(&why) : o->exit_status;
    if (o)
        free(o->errs);
    free(o);
    ball_reference_free(&R.r);
    budget_finish(&f.bg.meter);
    if (!why.status && plot_render(&f.plot, PROG, out, f.common.tsv) != 0)
        exit_status = 1;
    return exit_status;
}
