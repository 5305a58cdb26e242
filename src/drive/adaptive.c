#include "drive/adaptive.h"
#include "method/tableau.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First same as last: an explicit first stage, c_s = 1 and the last row of A equal to b, so the
 * last stage is F at the new y and the next step's first. */
static bool first_same_as_last(const rk_tableau *tab)
{
    const int s = tab->stages;
    bool fsal = tab->a[0] == 0.0 && tab->c[s - 1] == 1.0;
    for (int j = 0; j < s; j++)
        fsal = fsal && tab->a[(s - 1) * s + j] == tab->b[j];
    return fsal;
}

/* The step from y of hs with the stages in w: ynew = y + hs sum b_j k_j, and the largest scaled
 * error estimate |hs sum (b_j - bhat_j) k_j| / (atol + rtol max(|y|, |ynew|)). */
static double step_and_error(const rk_tableau *tab, const workspace *w, size_t n, const double *y, double hs,
                             const adaptive_opts *o, double *ynew)
{
    double e = 0.0;
    for (size_t i = 0; i < n; i++) {
        double acc = 0.0, est = 0.0;
        for (int j = 0; j < tab->stages; j++) {
            acc += tab->b[j] * w->k[j][i];
            est += (tab->b[j] - tab->bhat[j]) * w->k[j][i];
        }
        ynew[i] = y[i] + hs * acc;
        double sc = o->atol + o->rtol * fmax(fabs(y[i]), fabs(ynew[i]));
        e = fmax(e, fabs(hs * est) / sc);
    }
    return e;
}

/* The controller's settings, o's or the defaults where o leaves them 0. */
typedef struct controller {
    double h;               /* next step to try, s */
    double hmin;            /* smallest step allowed, s */
    long max_steps;         /* attempted steps allowed */
    double safety;          /* factor on the optimal step */
    double grow, shrink;    /* bounds of the step's change in one step */
    double expo;            /* -1 / (q + 1), q the lower order of the pair */
} controller;

static controller controller_for(const rk_tableau *tab, const adaptive_opts *o, double span)
{
    /* the estimate is of the lower order q of the two rows: err ~ h^(q+1) */
    const int q = (int)fmin(tableau_order(tab, tab->b), tableau_order(tab, tab->bhat));
    return (controller){
        .h = o->h0 > 0 ? o->h0 : 1e-3 * span,
        .hmin = o->hmin > 0 ? o->hmin : 1e-14 * span,
        .max_steps = o->max_steps > 0 ? o->max_steps : 10000000L,
        .safety = o->safety > 0 ? o->safety : 0.9,
        .grow = o->grow_max > 0 ? o->grow_max : 5.0,
        .shrink = o->shrink_min > 0 ? o->shrink_min : 0.2,
        .expo = -1.0 / (q + 1.0),
    };
}

/* Whether the step from t cannot be tried (too many attempts, too small a step): the reason in err. */
static bool cannot_try(const controller *c, const adaptive_stats *st, const char *name, double t, char *err,
                       size_t errlen)
{
    if (st->accepted + st->rejected >= c->max_steps) {
        snprintf(err, errlen, "%s stopped at t = %.6g s: %ld attempted steps, the limit; loosen rtol/atol", name, t,
                 c->max_steps);
        return true;
    }
    if (c->h < c->hmin) {
        snprintf(err, errlen, "%s failed at t = %.6g s: the step %.3g s fell below %.3g s; "
                 "the problem may be stiff or singular there", name, t, c->h, c->hmin);
        return true;
    }
    return false;
}

int adaptive_pair(const rk_tableau *tab, const char *name, const ivp *p, double t0, double *y, double t1,
                  const adaptive_opts *o, adaptive_stats *st, char *err, size_t errlen)
{
    const size_t n = p->dim;
    const int s = tab->stages;
    memset(st, 0, sizeof *st);
    st->hmin_used = INFINITY;
    if (!tab->bhat) {
        snprintf(err, errlen, "%s has no embedded weights b-hat (a second row of weights): not an adaptive pair", name);
        return -1;
    }
    /* an explicit first stage is F(t, y): kept after a rejection, and taken from the last stage
     * when that is F at the new y */
    const bool k0_explicit = tab->a[0] == 0.0, fsal = first_same_as_last(tab);
    controller c = controller_for(tab, o, t1 - t0);
    workspace *w = workspace_alloc(n);
    double *ynew = xcalloc(n, sizeof *ynew);
    double t = t0;
    int rc = 0;
    bool have_k0 = false;
    while (t < t1 && rc == 0) {
        if (cannot_try(&c, st, name, t, err, errlen)) {
            rc = -1;
            break;
        }
        bool last = t + c.h >= t1;
        double hs = last ? t1 - t : c.h;
        if (rk_stages(tab, p, t, hs, y, w, have_k0) != 0) {
            snprintf(err, errlen, "%s failed in the step from t = %.9g s: %s", name, t, w->error);
            rc = -1;
            break;
        }
        double e = step_and_error(tab, w, n, y, hs, o, ynew);
        if (!isfinite(e)) {
            snprintf(err, errlen, "%s failed at t = %.6g s: the error estimate is not finite", name, t);
            rc = -1;
            break;
        }
        double factor = e > 0 ? c.safety * pow(e, c.expo) : c.grow;
        factor = fmin(c.grow, fmax(c.shrink, factor));
        if (e <= 1.0) {
            memcpy(y, ynew, n * sizeof *y);
            t = last ? t1 : t + hs;
            st->accepted++;
            st->hmin_used = fmin(st->hmin_used, hs);
            st->hmax_used = fmax(st->hmax_used, hs);
            have_k0 = fsal;
            if (fsal)
                memcpy(w->k[0], w->k[s - 1], n * sizeof(double));
            if (o->on_step && o->on_step(t, hs, y, o->ctx))
                break;
            if (!last)
                c.h = hs * factor;
        } else {
            st->rejected++;
            have_k0 = k0_explicit;
            c.h = hs * fmin(factor, 1.0);
        }
    }
    st->nfev = w->counts.nfev;
    workspace_free(w);
    free(ynew);
    return rc;
}

int adaptive_heun_euler(const ivp *p, double t0, double *y, double t1, const adaptive_opts *o, adaptive_stats *st,
                        char *err, size_t errlen)
{
    return adaptive_pair(method_heun.tableau, "heun-euler", p, t0, y, t1, o, st, err, errlen);
}
