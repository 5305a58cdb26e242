#include "drive/adaptive.h"
#include "method/tableau.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    /* the estimate is of the lower order q of the two rows: err ~ h^(q+1) */
    const int q = (int)fmin(tableau_order(tab, tab->b), tableau_order(tab, tab->bhat));
    const double expo = -1.0 / (q + 1.0);
    /* an explicit first stage is F(t, y): kept after a rejection, and taken from the last stage
     * when that is F at the new y (first same as last: the last row of A is b and c_s = 1) */
    const bool k0_explicit = tab->a[0] == 0.0;
    bool fsal = k0_explicit && tab->c[s - 1] == 1.0;
    for (int j = 0; j < s; j++)
        fsal = fsal && tab->a[(s - 1) * s + j] == tab->b[j];
    const double span = t1 - t0;
    double h = o->h0 > 0 ? o->h0 : 1e-3 * span;
    const double hmin = o->hmin > 0 ? o->hmin : 1e-14 * span;
    const long max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
    const double safety = o->safety > 0 ? o->safety : 0.9;
    const double grow = o->grow_max > 0 ? o->grow_max : 5.0, shrink = o->shrink_min > 0 ? o->shrink_min : 0.2;
    workspace *w = workspace_alloc(n);
    double *ynew = xcalloc(n, sizeof *ynew);
    double t = t0;
    int rc = 0;
    bool have_k0 = false;
    while (t < t1 && rc == 0) {
        if (st->accepted + st->rejected >= max_steps) {
            snprintf(err, errlen, "%s stopped at t = %.6g s: %ld attempted steps, the limit; loosen rtol/atol", name, t,
                     max_steps);
            rc = -1;
            break;
        }
        if (h < hmin) {
            snprintf(err, errlen, "%s failed at t = %.6g s: the step %.3g s fell below %.3g s; "
                     "the problem may be stiff or singular there", name, t, h, hmin);
            rc = -1;
            break;
        }
        bool last = t + h >= t1;
        double hs = last ? t1 - t : h;
        if (rk_stages(tab, p, t, hs, y, w, have_k0) != 0) {
            snprintf(err, errlen, "%s failed in the step from t = %.9g s: %s", name, t, w->error);
            rc = -1;
            break;
        }
        double e = 0.0;
        for (size_t i = 0; i < n; i++) {
            double acc = 0.0, est = 0.0;
            for (int j = 0; j < s; j++) {
                acc += tab->b[j] * w->k[j][i];
                est += (tab->b[j] - tab->bhat[j]) * w->k[j][i];
            }
            ynew[i] = y[i] + hs * acc;
            double sc = o->atol + o->rtol * fmax(fabs(y[i]), fabs(ynew[i]));
            e = fmax(e, fabs(hs * est) / sc);
        }
        if (!isfinite(e)) {
            snprintf(err, errlen, "%s failed at t = %.6g s: the error estimate is not finite", name, t);
            rc = -1;
            break;
        }
        double factor = e > 0 ? safety * pow(e, expo) : grow;
        factor = fmin(grow, fmax(shrink, factor));
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
                h = hs * factor;
        } else {
            st->rejected++;
            have_k0 = k0_explicit;
            h = hs * fmin(factor, 1.0);
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
