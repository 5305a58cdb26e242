/* bow_record.c: a bow stroke recorded at every step, and what is read off it (bow_record.h). */
#include "bow/bow_record.h"
#include "base/budget.h"
#include "base/util.h"
#include "analysis/regime.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void bow_record_init(bow_record *r, const bow_model *m, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->cap = cap;
    double **c[] = {&r->t,        &r->bridge_u, &r->bridge_w, &r->v_mean, &r->z_mean,
                    &r->tau_mean, &r->tau_max,  &r->friction, &r->v_b};
    size_t nc = sizeof c / sizeof c[0];
    /* one block, written sample by sample as the run goes: in 2 MB pages where the kernel has
     * them (base/util.h), 8 page faults instead of 3500 for the default 1 s stroke */
    double *block = xmalloc_large(nc * (cap ? cap : 1), sizeof(double));
    for (size_t k = 0; k < nc; k++)
        *c[k] = block + k * cap;
    r->tau_min = INFINITY;
    r->tick = 1.0;
}

void bow_record_free(bow_record *r)
{
    free(r->t);     /* the block all the arrays are carved from */
    memset(r, 0, sizeof *r);
}

int bow_record_sink(double t, const double *x, void *ctx)
{
    bow_record *r = ctx;
    if (r->n == r->cap)
        return 1;
    budget_tick(r->meter, r->tick);
    bow_obs o;
    bow_observe_state(r->m, t, x, &o);
    if (r->n == 0)
        r->H0 = o.H;
    size_t k = r->n++;
    r->t[k] = t, r->bridge_u[k] = o.bridge_u, r->bridge_w[k] = o.bridge_w, r->v_mean[k] = o.v_mean;
    r->z_mean[k] = o.z_mean, r->tau_mean[k] = o.tau_mean, r->tau_max[k] = o.tau_max;
    r->friction[k] = o.friction / o.f_b, r->v_b[k] = o.v_b;
    r->z_absmax = fmax(r->z_absmax, o.z_absmax);
    r->tau_min = fmin(r->tau_min, o.tau_min);
    r->residual = fmax(r->residual, fabs(o.H - r->H0 - (o.e_in - o.e_out)));
    return 0;
}

long bow_record_slips(const bow_record *r, size_t k0, size_t k1, double *first)
{
    regime_opts o = regime_defaults();
    long k;
    long n = regime_count_slips(&o, r->v_mean + k0, r->v_b + k0, k1 - k0, &k);
    *first = k >= 0 ? r->t[k0 + k] : -1;
    return n;
}

double bow_record_first_drop(const bow_record *r, double dt, double t_slip, double *fall)
{
    size_t ks = (size_t)lround(t_slip / dt), kb = (size_t)lround(2e-3 / dt),
           ka = (size_t)lround(3e-3 / dt);
    double hi = -INFINITY, lo = INFINITY;
    size_t khi = ks, klo = ks;
    for (size_t k = ks > kb ? ks - kb : 0; k <= ks && k < r->n; k++)
        if (r->bridge_u[k] > hi)
            hi = r->bridge_u[k], khi = k;
    for (size_t k = ks; k <= ks + ka && k < r->n; k++)
        if (r->bridge_u[k] < lo)
            lo = r->bridge_u[k], klo = k;
    size_t kd = (size_t)lround(2e-5 / dt);
    *fall = 0;
    for (size_t k = khi; k + kd <= klo && k + kd < r->n; k++)
        *fall = fmax(*fall, (r->bridge_u[k] - r->bridge_u[k + kd]) / (kd * dt));
    return hi - lo;
}
