/* ball_model.c: the ball on a damped oscillator, its contact, energy and Jacobian (the lecture's
 * F_drop and jac_drop), and the impacts of a fixed-step run found from its samples. Needs neither
 * GSL nor SUNDIALS: the browser's explorers (src/wasm/) build it as it is. */
#include "ball/ball_model.h"
#include "base/cli.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each group in the order its program's --help lists it; a row's help is the flag's. */
void ball_params_bind(ball_settings *s, ball_params *p)
{
    PARAMS_FILL(
        p->model, FLAG_REAL("m1", s->m1, "kg", 0, 1e6, CLI_OPEN_MIN, "oscillator mass"),
        FLAG_REAL("m2", s->m2, "kg", 0, 1e6, CLI_OPEN_MIN, "ball mass"),
        FLAG_REAL("h0", s->h0, "m", 0, 1e3, CLI_OPEN_MIN, "drop height of the ball, at rest"),
        FLAG_REAL("f0", s->f0, "Hz", 0, 2e4, CLI_OPEN_MIN, "pitch of the oscillator alone"),
        FLAG_REAL("t60", s->t60, "s", 0, 1e4, CLI_OPEN_MIN,
                  "60 dB decay time of the oscillator alone"),
        FLAG_REAL("kc", s->kc, "N/m^1.5", 0, 1e15, CLI_OPEN_MIN, "Hertz contact stiffness"),
        FLAG_REAL("lambda", s->lambda, "s/m", 0, 1e3, CLI_CLOSED, "contact loss"),
        FLAG_REAL("g", s->g, "m/s^2", 0, 1e3, CLI_OPEN_MIN, "gravity"),
        FLAG_REAL("T", s->T, "s", 0, 60, CLI_OPEN_MIN, "duration"));
    PARAMS_FILL(p->cvode,
        FLAG_REAL("rtol", s->rtol, "", 1e-14, 1e-2, CLI_CLOSED, "CVODE relative tolerance"),
        FLAG_REAL("atol", s->atol, "m, m/s", 1e-20, 1e-2, CLI_CLOSED, "CVODE absolute tolerance"),
        FLAG_REAL("max_step", s->max_step, "s", 0, 1, CLI_OPEN_MIN, "CVODE largest step",
            FLAG_SPELLED("max-step")));
    PARAMS_FILL(
        p->rhythm,
        FLAG_REAL("blowup", s->blowup, "m, m/s", 0, 1e300, CLI_OPEN_MIN,
                  "blow-up when max |y_i| exceeds this"),
        FLAG_REAL("keep_ms", s->keep_ms, "ms", 0, 1e3, CLI_OPEN_MIN,
                  "rhythm kept: every impact start within this of the reference",
                  FLAG_SPELLED("keep-ms")),
        FLAG_REAL("lose_ms", s->lose_ms, "ms", 0, 1e3, CLI_OPEN_MIN,
                  "rhythm lost: an impact start off by more than this, or missing",
                  FLAG_SPELLED("lose-ms")),
        FLAG_REAL(
            "rhythm_impacts", s->rhythm_impacts, "", 0, 1000, PARAM_WHOLE,
            "how many leading impacts a rhythm is judged on (0: every impact the reference is "
            "sure of)",
            FLAG_SPELLED("rhythm-impacts")),
        FLAG_REAL("hear_abs_ms", s->hear_abs_ms, "ms", 0, 1e3, CLI_OPEN_MIN,
                  "a listener hears an impact shifted by this (or by --hear-rel of the interval "
                  "before it, if larger)",
                  FLAG_SPELLED("hear-ms")),
        FLAG_REAL("hear_rel", s->hear_rel, "", 0, 1, CLI_OPEN_MIN,
                  "a listener hears an impact shifted by this fraction of the interval before it",
                  FLAG_SPELLED("hear-rel")));
    PARAMS_FILL(p->rest,
        FLAG_REAL("fs_audio", s->fs_audio, "Hz", 1000, 384000, CLI_CLOSED,
            "audio rate (reference samples, spectrum, WAV)"),
        FLAG_REAL("fs_mid", s->fs_mid, "Hz", 1000, 384000, CLI_CLOSED,
            "middle rate of the RK4 rhythm runs"),
        FLAG_REAL("fs_low", s->fs_low, "Hz", 1000, 384000, CLI_CLOSED,
            "lowest rate of the RK4 rhythm runs"),
        FLAG_REAL("dense_rate", s->dense_rate, "Hz", 1e3, 1e8, CLI_CLOSED,
            "sampling of the dense window around the first impact"),
        FLAG_REAL("window_before", s->window_before, "s", 0, 1, CLI_CLOSED,
            "dense window before the first impact"),
        FLAG_REAL("window_after", s->window_after, "s", 0, 1, CLI_OPEN_MIN,
            "dense window after the first impact"),
        FLAG_REAL("wav_peak", s->wav_peak, "", 0, 1, CLI_OPEN_MIN,
            "peak of the reference run in the WAVs (full scale 1)"),
        FLAG_REAL("check_tol", s->check_tol, "", 1e-6, 1, CLI_OPEN_MAX,
            "the reference is checked at rtol, atol times this"));
    PARAMS_FILL(p->all, FLAG_TABLE(p->model), FLAG_TABLE(p->cvode), FLAG_TABLE(p->rhythm),
                FLAG_TABLE(p->rest));
}

ball ball_from_settings(const ball_settings *s)
{
    ball b;
    b.m1 = s->m1;
    b.m2 = s->m2;
    b.kc = s->kc;
    b.lambda = s->lambda;
    b.g = s->g;
    b.omega0 = 2.0 * M_PI * s->f0;
    b.sigma0 = 6.0 * log(10.0) / s->t60;
    b.K = b.m1 * b.omega0 * b.omega0;
    b.R = 2.0 * b.m1 * b.sigma0;
    return b;
}

void ball_initial(const ball_settings *s, double y[4])
{
    y[0] = 0.0;
    y[1] = 0.0;
    y[2] = s->h0;
    y[3] = 0.0;
}

double ball_contact_force(const ball *b, const double *y)
{
    double d = y[0] - y[2], dd = y[1] - y[3];
    double loss = 1.0 + b->lambda * dd;
    if (d <= 0.0 || loss <= 0.0)
        return 0.0;
    return b->kc * d * sqrt(d) * loss;
}

static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t;
    const ball *b = params;
    double fc = ball_contact_force(b, y);
    f[0] = y[1];
    f[1] = (-b->K * y[0] - b->R * y[1] - fc) / b->m1;
    f[2] = y[3];
    f[3] = -b->g + fc / b->m2;
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t;
    const ball *b = params;
    double d = y[0] - y[2], dd = y[1] - y[3];
    double fd = 0.0, fdd = 0.0;     /* df_c/d delta, df_c/d delta' */
    if (d > 0.0 && 1.0 + b->lambda * dd > 0.0) {
        fd = 1.5 * b->kc * sqrt(d) * (1.0 + b->lambda * dd);
        fdd = b->lambda * b->kc * d * sqrt(d);
    }
    const double rows[16] = {
        0.0, 1.0, 0.0, 0.0,
        (-b->K - fd) / b->m1, (-b->R - fdd) / b->m1, fd / b->m1, fdd / b->m1,
        0.0, 0.0, 0.0, 1.0,
        fd / b->m2, fdd / b->m2, -fd / b->m2, -fdd / b->m2,
    };
    memcpy(J, rows, sizeof rows);
    return 0;
}

double ball_energy(double t, const double *y, void *params)
{
    (void)t;
    const ball *b = params;
    double d = y[0] - y[2];
    double e = 0.5 * b->m1 * y[1] * y[1] + 0.5 * b->K * y[0] * y[0] + 0.5 * b->m2 * y[3] * y[3] +
               b->m2 * b->g * y[2];
    if (d > 0.0)
        e += 0.4 * b->kc * d * d * sqrt(d);
    return e;
}

ivp ball_ivp(ball *b)
{
    ivp p = {.dim = 4, .rhs = rhs, .jac = jac, .energy = ball_energy, .params = b};
    return p;
}

/* The same problem with the state as positions, then velocities: x = (u1, u2, u1', u2') = P y. */
static const int uv_of[4] = {0, 2, 1, 3};   /* x_i = y_{uv_of[i]} */

void ball_to_uv(const double y[4], double x[4])
{
    for (int i = 0; i < 4; i++)
        x[i] = y[uv_of[i]];
}

void ball_from_uv(const double x[4], double y[4])
{
    for (int i = 0; i < 4; i++)
        y[uv_of[i]] = x[i];
}

static int rhs_uv(double t, const double *x, double *f, void *params)
{
    double y[4], g[4];
    ball_from_uv(x, y);
    int rc = rhs(t, y, g, params);
    ball_to_uv(g, f);
    return rc;
}

static double energy_uv(double t, const double *x, void *params)
{
    double y[4];
    ball_from_uv(x, y);
    return ball_energy(t, y, params);
}

ivp ball_ivp_uv(ball *b)
{
    ivp p = {.dim = 4, .rhs = rhs_uv, .energy = energy_uv, .params = b};
    return p;
}

double ball_omega1(const ball *b)
{
    return sqrt(b->omega0 * b->omega0 - b->sigma0 * b->sigma0);
}

double ball_impulse_response(const ball *b, double J, double t)
{
    double w1 = ball_omega1(b);
    return -J / (b->m1 * w1) * exp(-b->sigma0 * t) * sin(w1 * t);
}

void ball_impacts_free(ball_impacts *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

ball_impact *ball_impacts_push(ball_impacts *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        ball_impact *v = xcalloc(cap, sizeof *v);
        if (l->n)
            memcpy(v, l->v, l->n * sizeof *v);
        free(l->v);
        l->v = v;
        l->cap = cap;
    }
    ball_impact *e = &l->v[l->n++];
    e->start = e->end = e->impulse = e->centre = e->v_in = e->v_out = NAN;
    return e;
}

ball_impact_summary ball_impacts_summarise(const ball_impacts *im, double T)
{
    ball_impact_summary r = {.dur_min = INFINITY, .dur_max = 0.0,
                             .intervals = im->n >= 2 ? im->n - 1 : 0};
    for (size_t i = 0; i < im->n; i++) {
        double d = im->v[i].end - im->v[i].start;
        r.dur_min = fmin(r.dur_min, d);
        r.dur_max = fmax(r.dur_max, d);
        if (i >= 2 && im->v[i].start - im->v[i - 1].start < im->v[i - 1].start - im->v[i - 2].start)
            r.shorter++;
        int q = (int)(BALL_QUARTERS * im->v[i].start / T);
        r.per_quarter[q < BALL_QUARTERS ? q : BALL_QUARTERS - 1]++;
    }
    return r;
}

size_t ball_output_times(double T, double fs, double w0, double w1, double rate, double **tout,
                         unsigned char **tag)
{
    size_t na = (size_t)floor(T * fs + 1e-9) + 1;
    w0 = fmax(w0, 0.0);
    w1 = fmin(w1, T);
    size_t nd = w1 > w0 ? (size_t)floor((w1 - w0) * rate + 1e-9) + 1 : 0;
    *tout = xcalloc(na + nd, sizeof **tout);
    *tag = xcalloc(na + nd, 1);
    size_t i = 0, j = 0, n = 0;
    while (i < na || j < nd) {
        double ta = i < na ? (double)i / fs : INFINITY,
               td = j < nd ? w0 + (double)j / rate : INFINITY;
        (*tout)[n] = fmin(ta, td);
        (*tag)[n] =
            (unsigned char)((ta <= td ? BALL_TAG_AUDIO : 0) | (td <= ta ? BALL_TAG_DENSE : 0));
        if (ta <= td)
            i++;
        if (td <= ta)
            j++;
        n++;
    }
    return n;
}

double ball_restitution(const ball_impact *e)
{
    return -e->v_out / e->v_in;
}

/* ---- impacts from samples ---- */

void ball_detector_init(ball_detector *d, const ball *b, ball_impacts *out)
{
    memset(d, 0, sizeof *d);
    d->b = b;
    d->out = out;
}

void ball_detector_sample(ball_detector *d, double t, const double *y)
{
    double gap = y[0] - y[2];
    bool on = ball_contact_force(d->b, y) > 0.0;
    if (d->started && on != d->on) {
        /* Where the gap crossed 0 between the two samples, else (the loss term switched) at this
         * sample. */
        double tc = t;
        if ((d->gap_prev <= 0.0) != (gap <= 0.0))
            tc = d->t_prev + (t - d->t_prev) * (-d->gap_prev) / (gap - d->gap_prev);
        if (on) {
            ball_impact *e = ball_impacts_push(d->out);
            e->start = tc;
            e->v_in = d->v2_prev; /* the force is off at the sample before: the velocity of the
                                     approach */
        } else if (d->out->n) {
            d->out->v[d->out->n - 1].end = tc;
            d->out->v[d->out->n - 1].v_out = y[3];
        }
    } else if (!d->started && on) {
        ball_impact *e = ball_impacts_push(d->out);
        e->start = t;
        e->v_in = y[3];
    }
    d->started = true;
    d->on = on;
    d->t_prev = t;
    d->gap_prev = gap;
    d->v2_prev = y[3];
}

ball_rhythm ball_rhythm_compare(const ball_impacts *ref, const ball_impacts *run, size_t upto)
{
    ball_rhythm r = {0, false, INFINITY};
    size_t want = upto < ref->n ? upto : ref->n;
    r.compared = want < run->n ? want : run->n;
    r.complete = run->n >= want;
    if (r.compared || want == 0)     /* nothing to miss when the reference has no impact */
        r.max_error = 0.0;
    for (size_t i = 0; i < r.compared; i++)
        r.max_error = fmax(r.max_error, fabs(run->v[i].start - ref->v[i].start));
    return r;
}

const char *ball_rhythm_verdict(const ball_rhythm *r, double keep_s, double lose_s)
{
    if (!r->complete || !(r->max_error <= lose_s))
        return "loses";
    return r->max_error <= keep_s ? "keeps" : "drifts";
}

double ball_audible_shift(const ball_impacts *ref, size_t i, double abs_s, double rel)
{
    double ioi = i > 0 && i < ref->n ? ref->v[i].start - ref->v[i - 1].start : 0.0;
    return fmax(abs_s, rel * ioi);
}

size_t ball_rhythm_heard(const ball_impacts *ref, const ball_impacts *run, size_t upto,
                         double abs_s, double rel)
{
    ball_rhythm r = ball_rhythm_compare(ref, run, upto);
    for (size_t i = 0; i < r.compared; i++)
        if (fabs(run->v[i].start - ref->v[i].start) > ball_audible_shift(ref, i, abs_s, rel))
            return i + 1;
    return r.complete ? 0 : r.compared + 1;    /* a missing impact is heard */
}

size_t ball_impacts_agree(const ball_impacts *a, const ball_impacts *b, double tol)
{
    size_t i = 0;
    while (i < a->n && i < b->n && fabs(a->v[i].start - b->v[i].start) <= tol)
        i++;
    return i;
}

double ball_impacts_max_diff(const ball_impacts *a, const ball_impacts *b, size_t from)
{
    double d = 0.0;
    for (size_t i = from; i < a->n && i < b->n; i++)
        d = fmax(d, fabs(a->v[i].start - b->v[i].start));
    return d;
}

void ball_rhythm_words(char *buf, size_t n, const ball_impacts *ref, const ball_impacts *run,
                       size_t heard, size_t compared, double abs_s, double rel)
{
    if (!heard)
        snprintf(buf, n, "a listener hears no change (every shift below what one hears)");
    else if (heard > compared)
        snprintf(buf, n, "a listener hears it: impact %zu never comes (the run has %zu)", heard,
                 run->n);
    else
        snprintf(buf, n,
                 "a listener hears it from impact %zu on (%.3g ms off there, %.3g ms heard)", heard,
                 1e3 * fabs(run->v[heard - 1].start - ref->v[heard - 1].start),
                 1e3 * ball_audible_shift(ref, heard - 1, abs_s, rel));
}
