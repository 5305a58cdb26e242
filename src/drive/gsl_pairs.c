#include "drive/gsl_pairs.h"
#include "base/util.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const gsl_odeiv2_step_type *const *type;
} pairs[] = {
    {"rk2", &gsl_odeiv2_step_rk2},
    {"rkf45", &gsl_odeiv2_step_rkf45},
    {"rkck", &gsl_odeiv2_step_rkck},
    {"rk8pd", &gsl_odeiv2_step_rk8pd},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

const char *gsl_pair_names(void)
{
    return "rk2|rkf45|rkck|rk8pd";
}

const char *gsl_pair_choices(void)
{
    return "gsl-rk2|gsl-rkf45|gsl-rkck|gsl-rk8pd";
}

static const gsl_odeiv2_step_type *find(const char *name)
{
    for (size_t i = 0; i < NPAIRS; i++)
        if (strcmp(pairs[i].name, name) == 0)
            return *pairs[i].type;
    return NULL;
}

bool gsl_pair_known(const char *name)
{
    return find(name) != NULL;
}

typedef struct {
    const ivp *p;
    long nfev;
    int failed;             /* F could not be evaluated */
} fctx;

static int rhs(double t, const double y[], double f[], void *params)
{
    fctx *c = params;
    c->nfev++;
    if (c->p->rhs(t, y, f, c->p->params)) {
        c->failed = 1;
        return GSL_EBADFUNC;
    }
    return GSL_SUCCESS;
}

/* The sign of each root function at (t, y) into s (+1 or -1; 0 counts as its previous sign). */
static void signs(const cvode_opts *o, const ivp *p, double t, const double *y, double *g, int *s, const int *prev,
                  cvode_stats *st)
{
    o->roots(t, y, g, p->params);
    st->ngev++;
    for (int i = 0; i < o->nroots; i++)
        s[i] = g[i] > 0 ? 1 : g[i] < 0 ? -1 : (prev ? prev[i] : 1);
}

/* The outputs in (ta, tb] of a step from (ta, ya) to (tb, yb), by cubic Hermite interpolation on the
 * two states and their slopes (two F evaluations, only for a step that holds an output): GSL's
 * pairs give no dense output, and cutting every step at an output would hide how far they step. */
static int emit(const cvode_opts *o, const ivp *p, gsl_odeiv2_system *sys, double ta, const double *ya, double tb,
                const double *yb, size_t *next, long *k, long *since, double *fa, double *fb, double *yi)
{
    if (!(*next < o->nout && o->tout[*next] <= tb))
        return 0;
    size_t n = p->dim;
    double hh = tb - ta;
    if (sys->function(ta, ya, fa, sys->params) != GSL_SUCCESS || sys->function(tb, yb, fb, sys->params) != GSL_SUCCESS)
        return -1;
    for (; *next < o->nout && o->tout[*next] <= tb; (*next)++) {
        double th = hh > 0 ? (o->tout[*next] - ta) / hh : 1.0, t2 = th * th, t3 = t2 * th;
        double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + th, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
        for (size_t i = 0; i < n; i++)
            yi[i] = h00 * ya[i] + h10 * hh * fa[i] + h01 * yb[i] + h11 * hh * fb[i];
        if (o->sink && o->sink((*k)++, o->tout[*next], th >= 1.0 ? yb : yi, o->ctx))
            return -1;
        *since = 0;
    }
    return 0;
}

/* One run's state: the stepper, its scratch vectors and the root functions' signs. */
typedef struct {
    const char *name;
    const ivp *p;
    const cvode_opts *o;
    cvode_stats *st;
    fctx fc;
    gsl_odeiv2_system sys;
    gsl_odeiv2_step *s;
    gsl_odeiv2_control *c;
    gsl_odeiv2_evolve *e;
    int nr;                 /* root functions watched */
    double *y0, *yt, *ye, *yerr, *f0, *f1, *g;   /* n each (g: nr) */
    int *sg, *sn, *dir;     /* signs before, signs now, directions of an event (nr each) */
    size_t next;            /* next output */
    long k_sample, since_output, max_steps;
} run;

static void run_free(run *r)
{
    if (r->e)
        gsl_odeiv2_evolve_free(r->e);
    if (r->c)
        gsl_odeiv2_control_free(r->c);
    if (r->s)
        gsl_odeiv2_step_free(r->s);
    double *d[] = {r->y0, r->yt, r->ye, r->yerr, r->f0, r->f1, r->g};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    free(r->sg);
    free(r->sn);
    free(r->dir);
}

static int run_init(run *r, const char *name, const gsl_odeiv2_step_type *type, const ivp *p, const cvode_opts *o,
                    cvode_stats *st)
{
    size_t n = p->dim;
    memset(r, 0, sizeof *r);
    r->name = name, r->p = p, r->o = o, r->st = st;
    r->fc = (fctx){p, 0, 0};
    r->sys = (gsl_odeiv2_system){rhs, NULL, n, &r->fc};
    r->s = gsl_odeiv2_step_alloc(type, n);
    r->c = gsl_odeiv2_control_y_new(o->atol, o->rtol);
    r->e = gsl_odeiv2_evolve_alloc(n);
    r->nr = o->nroots > 0 && o->roots ? o->nroots : 0;
    size_t nr = r->nr ? (size_t)r->nr : 1;
    double **d[] = {&r->y0, &r->yt, &r->ye, &r->yerr, &r->f0, &r->f1};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        *d[i] = xcalloc(n, sizeof(double));
    r->g = xcalloc(nr, sizeof(double));
    r->sg = xcalloc(nr, sizeof(int));
    r->sn = xcalloc(nr, sizeof(int));
    r->dir = xcalloc(nr, sizeof(int));
    r->max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
    return r->s && r->c && r->e ? 0 : -1;
}

static bool signs_changed(const run *r)
{
    for (int i = 0; i < r->nr; i++)
        if (r->sn[i] != r->sg[i])
            return true;
    return false;
}

/* A sign changed over the step from (tp, y0) to (*t, y): bisect on re-taken steps from (tp, y0)
 * for the earliest time some sign has changed, restart the run just past it and report the event.
 * 0, -1 with err (F failed), or 1 when a sink stopped the run. */
static int locate_event(run *r, double tp, double *t, double *y, char *err, size_t errlen)
{
    size_t n = r->p->dim;
    double lo = tp, hi = *t;
    memcpy(r->ye, y, n * sizeof(double));
    int it = 0;
    for (; it < 200 && hi - lo > 1e-13 * fmax(1.0, fabs(hi)); it++) {
        double mid = 0.5 * (lo + hi);
        memcpy(r->yt, r->y0, n * sizeof(double));
        gsl_odeiv2_step_reset(r->s);
        if (gsl_odeiv2_step_apply(r->s, tp, mid - tp, r->yt, r->yerr, NULL, NULL, &r->sys) != GSL_SUCCESS ||
            r->fc.failed) {
            snprintf(err, errlen, "gsl-%s failed at t = %.9g s locating an event: F could not be evaluated", r->name,
                     mid);
            return -1;
        }
        signs(r->o, r->p, mid, r->yt, r->g, r->sn, r->sg, r->st);
        if (signs_changed(r)) {
            hi = mid;
            memcpy(r->ye, r->yt, n * sizeof(double));
        } else {
            lo = mid;
        }
    }
    if (it == 200) {       /* never from a finite bracket: 1e-13 is ~450 doubles, ~100 halvings at most */
        snprintf(err, errlen, "gsl-%s gave up locating an event in [%.9g, %.9g] s after 200 halvings", r->name, lo,
                 hi);
        return -1;
    }
    *t = hi;
    memcpy(y, r->ye, n * sizeof(double));
    signs(r->o, r->p, *t, y, r->g, r->sn, r->sg, r->st);
    for (int i = 0; i < r->nr; i++) {
        r->dir[i] = r->sn[i] != r->sg[i] ? r->sn[i] : 0;
        r->sg[i] = r->sn[i];
    }
    r->st->last_h = *t - tp;
    r->st->nevents++;
    gsl_odeiv2_step_reset(r->s);
    gsl_odeiv2_evolve_reset(r->e);
    if (emit(r->o, r->p, &r->sys, tp, r->y0, *t, y, &r->next, &r->k_sample, &r->since_output, r->f0, r->f1, r->yt))
        return 1;
    r->st->nfev = r->fc.nfev;
    return r->o->on_event && r->o->on_event(*t, y, r->dir, r->o->ctx) ? 1 : 0;
}

/* One accepted step from *t (with its event, if a root function changed sign), its outputs and
 * its sink. 0, -1 with err, or 1 when a sink stopped the run. */
static int one_step(run *r, double *t, double t1, double *h, double *y, char *err, size_t errlen)
{
    const cvode_opts *o = r->o;
    if (o->max_step > 0 && *h > o->max_step)
        *h = o->max_step;
    double tp = *t;
    memcpy(r->y0, y, r->p->dim * sizeof(double));
    size_t failed0 = r->e->failed_steps;
    int rc = gsl_odeiv2_evolve_apply(r->e, r->c, r->s, &r->sys, t, t1, h, y);
    r->st->netf += (long)(r->e->failed_steps - failed0);
    if (rc != GSL_SUCCESS || r->fc.failed) {
        snprintf(err, errlen, "gsl-%s failed at t = %.9g s: %s", r->name, tp,
                 r->fc.failed ? "F could not be evaluated" : gsl_strerror(rc));
        return -1;
    }
    if (++r->since_output > r->max_steps) {
        snprintf(err, errlen, "gsl-%s failed at t = %.9g s: more than %ld steps before the next output (the "
                              "problem may be stiff: an implicit solver takes far fewer); try a looser tolerance",
                 r->name, *t, r->max_steps);
        return -1;
    }
    r->st->steps++;
    r->st->last_h = *t - tp;
    if (r->nr) {
        signs(o, r->p, *t, y, r->g, r->sn, r->sg, r->st);
        if (signs_changed(r))
            return locate_event(r, tp, t, y, err, errlen);
    }
    if (emit(o, r->p, &r->sys, tp, r->y0, *t, y, &r->next, &r->k_sample, &r->since_output, r->f0, r->f1, r->yt))
        return 1;
    r->st->nfev = r->fc.nfev;
    return o->on_step && o->on_step(*t, r->st->last_h, y, o->ctx) ? 1 : 0;
}

int gsl_pair_solve(const char *name, const ivp *p, double t0, double *y, double t1, const cvode_opts *o,
                   cvode_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    double wall0 = wall_seconds();
    const gsl_odeiv2_step_type *type = find(name);
    if (!type) {
        snprintf(err, errlen, "gsl-%s: no such pair; accepted: %s", name, gsl_pair_names());
        return -1;
    }
    run r;
    int rc = run_init(&r, name, type, p, o, st);
    gsl_error_handler_t *old = gsl_set_error_handler_off();     /* report, do not abort */
    double t = t0, h = o->init_step > 0 ? o->init_step : 1e-6 * fmax(t1 - t0, 1e-300);
    if (rc != 0)
        snprintf(err, errlen, "gsl-%s: could not allocate the stepper", name);
    for (; rc == 0 && r.next < o->nout && o->tout[r.next] <= t0; r.next++)     /* outputs at the start */
        rc = o->sink && o->sink(r.k_sample++, o->tout[r.next], y, o->ctx) ? 1 : 0;
    if (rc == 0 && r.nr)
        signs(o, p, t, y, r.g, r.sg, NULL, st);
    while (rc == 0 && t < t1)
        rc = one_step(&r, &t, t1, &h, y, err, errlen);
    if (rc > 0)
        snprintf(err, errlen, "gsl-%s: stopped by a sink at t = %.9g s", name, t);
    gsl_set_error_handler(old);
    st->nfev = r.fc.nfev;
    st->seconds = wall_seconds() - wall0;
    run_free(&r);
    return rc == 0 ? 0 : -1;
}
