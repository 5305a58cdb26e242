#include "adaptive.h"
#include "util.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int adaptive_heun_euler(const ivp *p, double t0, double *y, double t1, const adaptive_opts *o,
                        adaptive_stats *st, char *err, size_t errlen)
{
    const size_t n = p->dim;
    const double span = t1 - t0;
    double h = o->h0 > 0 ? o->h0 : 1e-3 * span;
    const double hmin = o->hmin > 0 ? o->hmin : 1e-14 * span;
    const long max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
    const double safety = o->safety > 0 ? o->safety : 0.9;
    const double grow = o->grow_max > 0 ? o->grow_max : 5.0, shrink = o->shrink_min > 0 ? o->shrink_min : 0.2;
    double *k1 = xcalloc(n, sizeof *k1), *k2 = xcalloc(n, sizeof *k2), *yhat = xcalloc(n, sizeof *yhat);
    memset(st, 0, sizeof *st);
    st->hmin_used = INFINITY;
    double t = t0;
    int rc = 0;
    bool have_k1 = false;
    while (t < t1 && rc == 0) {
        if (st->accepted + st->rejected >= max_steps) {
            snprintf(err, errlen, "heun-euler stopped at t = %.6g s: %ld attempted steps, the limit; loosen rtol/atol",
                     t, max_steps);
            rc = -1;
            break;
        }
        if (h < hmin) {
            snprintf(err, errlen, "heun-euler failed at t = %.6g s: the step %.3g s fell below %.3g s; "
                     "the problem may be stiff or singular there", t, h, hmin);
            rc = -1;
            break;
        }
        bool last = t + h >= t1;
        double hs = last ? t1 - t : h;
        if (!have_k1) {
            st->nfev++;
            if (p->rhs(t, y, k1, p->params)) {
                snprintf(err, errlen, "heun-euler: F could not be evaluated at t = %.9g s", t);
                rc = -1;
                break;
            }
            have_k1 = true;
        }
        for (size_t i = 0; i < n; i++)
            yhat[i] = y[i] + hs * k1[i];                /* forward Euler: the second output */
        st->nfev++;
        if (p->rhs(t + hs, yhat, k2, p->params)) {
            snprintf(err, errlen, "heun-euler: F could not be evaluated at t = %.9g s", t + hs);
            rc = -1;
            break;
        }
        double e = 0.0;
        for (size_t i = 0; i < n; i++) {
            double ynew = y[i] + 0.5 * hs * (k1[i] + k2[i]);
            double est = 0.5 * hs * (k2[i] - k1[i]);    /* Heun - Euler */
            double sc = o->atol + o->rtol * fmax(fabs(y[i]), fabs(ynew));
            e = fmax(e, fabs(est) / sc);
        }
        if (!isfinite(e)) {
            snprintf(err, errlen, "heun-euler failed at t = %.6g s: the error estimate is not finite", t);
            rc = -1;
            break;
        }
        double factor = e > 0 ? safety * pow(e, -0.5) : grow;
        factor = fmin(grow, fmax(shrink, factor));
        if (e <= 1.0) {
            for (size_t i = 0; i < n; i++)
                y[i] += 0.5 * hs * (k1[i] + k2[i]);
            t = last ? t1 : t + hs;
            st->accepted++;
            st->hmin_used = fmin(st->hmin_used, hs);
            st->hmax_used = fmax(st->hmax_used, hs);
            have_k1 = false;
            if (o->on_step && o->on_step(t, hs, y, o->ctx))
                break;
            if (!last)
                h = hs * factor;
        } else {
            st->rejected++;
            h = hs * fmin(factor, 1.0);
        }
    }
    free(k1);
    free(k2);
    free(yhat);
    return rc;
}

typedef struct {
    const ivp *p;
    long nfev;
} gsl_ctx;

static int gsl_rhs(double t, const double y[], double f[], void *params)
{
    gsl_ctx *c = params;
    c->nfev++;
    return c->p->rhs(t, y, f, c->p->params) ? GSL_EBADFUNC : GSL_SUCCESS;
}

int adaptive_gsl_rkf45(const ivp *p, double t0, double *y, double t1, const adaptive_opts *o,
                       adaptive_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    gsl_ctx c = {p, 0};
    gsl_odeiv2_system sys = {gsl_rhs, NULL, p->dim, &c};
    double h0 = o->h0 > 0 ? o->h0 : 1e-3 * (t1 - t0);
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rkf45, h0, o->atol, o->rtol);
    if (!d) {
        snprintf(err, errlen, "gsl rkf45: could not allocate the driver");
        return -1;
    }
    gsl_odeiv2_driver_set_nmax(d, o->max_steps > 0 ? (unsigned long)o->max_steps : 10000000UL);
    double t = t0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();     /* report, do not abort */
    int s = gsl_odeiv2_driver_apply(d, &t, t1, y);
    gsl_set_error_handler(old);
    st->nfev = c.nfev;
    gsl_odeiv2_driver_free(d);
    if (s != GSL_SUCCESS) {
        snprintf(err, errlen, "gsl rkf45 failed at t = %.6g s: %s", t, gsl_strerror(s));
        return -1;
    }
    return 0;
}
