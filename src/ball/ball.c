/* ball.c: the adaptive run of the ball on a damped oscillator (CVODE, the contact found as
 * roots) and the settings file both ball lessons read; the model itself, its impacts from samples
 * and the rhythm comparisons are in ball_model.c. */
#include "ball/ball.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/gsl_pairs.h"
#include "base/util.h"
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ball_settings_load(const char *program, ball_settings *s, failure *e)
{
    char why[400];
    ball_params p;
    ball_params_bind(s, &p);
    if (params_load(p.all, params_path("ball.ini"), false, why, sizeof why) != 0)
        return failure_input(e, program, "%s", why);
    if (s->keep_ms > s->lose_ms)
        return failure_input(
            e, program, "ball.ini: keep_ms = %g exceeds lose_ms = %g; accepted: keep_ms <= lose_ms",
            s->keep_ms, s->lose_ms);
    return 0;
}


/* ---- the adaptive run ---- */

typedef struct {
    const ball *b;
    const ball_adaptive_opts *o;
    ball_adaptive_result *r;
    bool on;                /* the contact force is on */
    double t_on, v2_on, u2_on;  /* ball's time, velocity and height when it turned on */
    double e_min;           /* running minimum of the energy, J */
    bool struck;            /* the first contact has begun */
    double *h[3];           /* internal steps of each kind, s */
    size_t nh[3], caph[3];
    const char *capped;     /* the cap that stopped the run ("steps", "impacts"), or NULL */
    double t_capped;        /* where, s */
} adaptive_ctx;

/* Whether the run has reached one of o's caps (then noted in c). */
static bool at_cap(adaptive_ctx *c, double t)
{
    long steps = (long)(c->nh[0] + c->nh[1] + c->nh[2]), impacts = (long)c->r->impacts.n;
    c->capped = c->o->max_steps > 0 && steps >= c->o->max_steps       ? "steps"
              : c->o->max_impacts > 0 && impacts >= c->o->max_impacts ? "impacts"
                                                                      : NULL;
    c->t_capped = t;
    return c->capped != NULL;
}

/* Roots: the gap delta = u1 - u2 (contact on/off by geometry) and 1 + lambda delta' (the
 * loss term switching the force off while the surfaces still overlap). */
static int contact_roots(double t, const double *y, double *g, void *params)
{
    (void)t;
    const ball *b = params;
    g[0] = y[0] - y[2];
    g[1] = 1.0 + b->lambda * (y[1] - y[3]);
    return 0;
}

/* The energy at (t, y), its running minimum and largest rise over it; returns the energy. */
static double watch_energy(adaptive_ctx *c, double t, const double *y)
{
    double e = ball_energy(t, y, (void *)c->b);
    if (e < c->e_min)
        c->e_min = e;
    if (e - c->e_min > c->r->energy_rise) {
        c->r->energy_rise = e - c->e_min;
        c->r->energy_rise_t = t;
    }
    return e;
}

static int on_event(double t, const double *y, const int *dir, void *ctx)
{
    adaptive_ctx *c = ctx;
    const ball *b = c->b;
    /* The sign of each root function just after the event: a crossing's direction, else its value.
     */
    double gap = dir[0] ? dir[0] : y[0] - y[2];
    double loss = dir[1] ? dir[1] : 1.0 + b->lambda * (y[1] - y[3]);
    bool on = gap > 0.0 && loss > 0.0;
    watch_energy(c, t, y);
    if (on && !c->on) {
        c->struck = true;
        c->t_on = t;
        c->v2_on = y[3];
        c->u2_on = y[2];
    } else if (!on && c->on) {
        /* m2 u2'' = -m2 g + f_c, so over the contact J = m2 (v2_off - v2_on) + m2 g (t_off - t_on),
         * and integral (t - t_on) f_c dt = m2 [(t_off - t_on) v2_off - (u2_off - u2_on)] + m2 g
         * (t_off - t_on)^2 / 2: both exact consequences of the ODE, evaluated at the two roots. */
        double dt = t - c->t_on, m2 = b->m2;
        ball_impact *e = ball_impacts_push(&c->r->impacts);
        e->start = c->t_on;
        e->end = t;
        e->v_in = c->v2_on;
        e->v_out = y[3];
        e->impulse = m2 * (y[3] - c->v2_on) + m2 * b->g * dt;
        double moment = m2 * (dt * y[3] - (y[2] - c->u2_on)) + 0.5 * m2 * b->g * dt * dt;
        e->centre = c->t_on + moment / e->impulse;
    }
    c->on = on;
    return at_cap(c, t) ? 1 : 0;
}

static int on_step(double t, double h, const double *y, void *ctx)
{
    adaptive_ctx *c = ctx;
    double e = watch_energy(c, t, y);
    int kind = c->on ? BALL_CONTACT : c->struck ? BALL_RING : BALL_FALL;
    c->h[kind] = xgrow(c->h[kind], &c->caph[kind], c->nh[kind] + 1, sizeof *c->h[kind]);
    c->h[kind][c->nh[kind]++] = h;
    if (at_cap(c, t))
        return 1;
    return c->o->on_step ? c->o->on_step(t, h, y, e, c->o->ctx) : 0;
}

static int on_sample(long k, double t, const double *y, void *ctx)
{
    adaptive_ctx *c = ctx;
    return c->o->sink ? c->o->sink(k, t, y, c->o->ctx) : 0;
}

const char *ball_adaptive_methods(void)
{
    static char buf[200];
    if (!buf[0]) {      /* CVODE's two, then each GSL pair as gsl-NAME */
        size_t n = (size_t)snprintf(buf, sizeof buf, "cvode-bdf|cvode-adams|gsl-");
        for (const char *c = gsl_pair_names(); *c && n + 5 < sizeof buf; c++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, *c == '|' ? "|gsl-" : "%c", *c);
    }
    return buf;
}

int ball_solve_adaptive(const ball *b, const double y0[4], const ball_adaptive_opts *o,
                        ball_adaptive_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    ivp p = ball_ivp((ball *)b);
    double y[4];
    memcpy(y, y0, sizeof y);
    r->energy0 = ball_energy(0.0, y, (void *)b);
    adaptive_ctx c;
    memset(&c, 0, sizeof c);
    c.b = b;
    c.o = o;
    c.r = r;
    c.on = c.struck = ball_contact_force(b, y) > 0.0;
    c.v2_on = y[3];
    c.u2_on = y[2];
    c.e_min = r->energy0;
    cvode_opts co = cvode_defaults();
    co.lmm = CVODE_BDF;
    co.solver = CVODE_DENSE;
    co.rtol = o->rtol;
    co.atol = o->atol;
    co.max_step = o->max_step;
    co.tout = o->tout;
    co.nout = o->nout;
    co.sink = on_sample;
    co.ctx = &c;
    co.nroots = 2;
    co.roots = contact_roots;
    co.on_event = on_event;
    co.on_step = on_step;
    co.stats_at_end = true;     /* no sink here or in o reads them */
    const char *m = o->method ? o->method : "cvode-bdf";
    int rc;
    if (strncmp(m, "gsl-", 4) == 0) {
        rc = gsl_pair_solve(m + 4, &p, 0.0, y, o->T, &co, &r->stats, err, errlen);
    } else {
        co.lmm = strcmp(m, "cvode-adams") == 0 ? CVODE_ADAMS : CVODE_BDF;
        rc = cvode_solve(&p, 0.0, y, o->T, &co, &r->stats, err, errlen);
    }
    if (c.capped) {
        snprintf(err, errlen, "%s stopped at t = %.6g s of %g s: %ld %s, the cap of the run", m,
                 c.t_capped, o->T, c.capped[0] == 's' ? o->max_steps : o->max_impacts, c.capped);
        rc = -1;
    }
    r->energy_final = ball_energy(o->T, y, (void *)b);
    for (int k = 0; k < 3; k++) {
        r->h_count[k] = (long)c.nh[k];
        r->h_median[k] = NAN;
        if (c.nh[k])   /* quickselect, not a sort: 10^5 steps */
            r->h_median[k] = gsl_stats_median(c.h[k], 1, c.nh[k]);
        free(c.h[k]);
    }
    return rc;
}

typedef struct fixed_ctx {
    ball_detector det;      /* impacts from the samples */
    ball_fixed_run *r;      /* u1 and the count go here */
    bool uv;                /* the state is positions first (ball_ivp_uv) */
    progress *meter;        /* ticked a sample */
} fixed_ctx;

static int fixed_sample(long k, double t, const double *x, void *ctx)
{
    fixed_ctx *c = ctx;
    double yy[4];
    const double *y = x;
    if (c->uv) {
        ball_from_uv(x, yy);
        y = yy;
    }
    ball_detector_sample(&c->det, t, y);
    c->r->u1[k] = y[0];
    c->r->n = (size_t)k + 1;
    budget_tick(c->meter, 1.0);
    return 0;
}

void ball_solve_fixed(ball *b, const double y0[4], const method *m, double h, long n, double bound,
                      progress *meter, ball_fixed_run *r)
{
    memset(r, 0, sizeof *r);
    r->u1 = xcalloc((size_t)n + 1, sizeof(double));
    fixed_ctx c = {{0}, r, m->needs_uv, meter};
    ball_detector_init(&c.det, b, &r->impacts);
    double y[4];
    if (c.uv)
        ball_to_uv(y0, y);
    else
        memcpy(y, y0, sizeof y);
    ivp p = c.uv ? ball_ivp_uv(b) : ball_ivp(b);
    solve_opts so = {.m = m, .t0 = 0.0, .h = h, .n = n, .bound = bound, .every = 1,
                     .sink = fixed_sample, .ctx = &c};
    r->status = solve_fixed(&p, y, &so, NULL, &r->res);
    r->refused = r->status == SOLVE_FAILED && r->res.steps == 0;
}

void ball_fixed_run_free(ball_fixed_run *r)
{
    ball_impacts_free(&r->impacts);
    free(r->u1);
    r->u1 = NULL;
}

static int reference_sample(long k, double t, const double *y, void *ctx)
{
    (void)t;
    ball_reference *R = ctx;
    R->u1[k] = y[0];
    R->n = (size_t)k + 1;
    budget_tick(R->meter, 1.0);
    return 0;
}

int ball_reference_run(ball *b, const ball_settings *s, const double y0[4], double fs, double tol,
                       progress *meter, ball_reference *R, char *err, size_t errlen)
{
    memset(R, 0, sizeof *R);
    R->meter = meter;
    size_t nref = (size_t)floor(s->T * fs + 1e-9) + 1;
    R->tout = xcalloc(nref, sizeof(double));
    for (size_t k = 0; k < nref; k++)
        R->tout[k] = (double)k / fs;
    R->u1 = xcalloc(nref, sizeof(double));
    ball_adaptive_opts ao = {.T = s->T, .rtol = s->rtol, .atol = s->atol, .max_step = s->max_step,
                             .tout = R->tout, .nout = nref, .sink = reference_sample, .ctx = R};
    char why[600];
    if (ball_solve_adaptive(b, y0, &ao, &R->run, why, sizeof why) != 0) {
        snprintf(err, errlen, "the adaptive reference failed: %s", why);
        return -1;
    }
    ball_adaptive_opts tight = {.T = s->T, .rtol = s->rtol * s->check_tol,
                                .atol = s->atol * s->check_tol, .max_step = s->max_step};
    if (ball_solve_adaptive(b, y0, &tight, &R->check, why, sizeof why) != 0) {
        snprintf(err, errlen, "the check of the adaptive reference failed: %s", why);
        return -1;
    }
    const ball_impacts *im = &R->run.impacts;
    R->horizon = ball_impacts_agree(im, &R->check.impacts, tol);
    R->later_diff = ball_impacts_max_diff(im, &R->check.impacts, R->horizon);
    R->contact = im->n ? im->v[0].end - im->v[0].start : NAN;
    R->e = im->n ? ball_restitution(&im->v[0]) : NAN;
    return 0;
}

void ball_reference_free(ball_reference *R)
{
    ball_impacts_free(&R->run.impacts);
    ball_impacts_free(&R->check.impacts);
    free(R->tout);
    free(R->u1);
    R->tout = R->u1 = NULL;
}
