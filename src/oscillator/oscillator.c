#include "oscillator/oscillator.h"
#include <math.h>

static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t;
    const oscillator *o = params;
    f[0] = y[1];
    f[1] = -o->omega0 * o->omega0 * y[0] - 2.0 * o->sigma0 * y[1];
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t; (void)y;
    const oscillator *o = params;
    J[0] = 0.0;                        J[1] = 1.0;
    J[2] = -o->omega0 * o->omega0;     J[3] = -2.0 * o->sigma0;
    return 0;
}

double oscillator_energy(double t, const double *y, void *params)
{
    (void)t;
    const oscillator *o = params;
    return 0.5 * y[1] * y[1] + 0.5 * o->omega0 * o->omega0 * y[0] * y[0];
}

ivp oscillator_ivp(oscillator *o)
{
    ivp p = {.dim = 2, .rhs = rhs, .jac = jac, .energy = oscillator_energy, .params = o, .linear = true};
    return p;
}

void oscillator_exact(const oscillator *o, const double y0[2], double t, double y[2])
{
    /* u = e^{-sigma t} [u0 C(t) + (v0 + sigma u0) S(t)], v = e^{-sigma t} [v0 C(t) - (w0^2 u0 + sigma v0) S(t)],
     * with C = cos(w1 t), S = sin(w1 t)/w1 (underdamped), their hyperbolic twins (overdamped),
     * or C = 1, S = t (critical). */
    double s = o->sigma0, w0 = o->omega0, u0 = y0[0], v0 = y0[1];
    double d = w0 * w0 - s * s, C, S, e = exp(-s * t);
    if (d > 0) {
        double w1 = sqrt(d);
        C = cos(w1 * t);
        S = sin(w1 * t) / w1;
    } else if (d < 0) {
        /* e^{-sigma t} cosh(mu t) as (e^{(mu - sigma) t} + e^{-(mu + sigma) t}) / 2: no overflow
         * of cosh for strongly overdamped modes; the envelope is folded in, so e = 1. */
        double mu = sqrt(-d), slow = exp((mu - s) * t), fast = exp(-(mu + s) * t);
        C = 0.5 * (slow + fast);
        S = 0.5 * (slow - fast) / mu;
        e = 1.0;
    } else {
        C = 1.0;
        S = t;
    }
    y[0] = e * (u0 * C + (v0 + s * u0) * S);
    y[1] = e * (v0 * C - (w0 * w0 * u0 + s * v0) * S);
}

void oscillator_roots(double ratio, double complex *sp, double complex *sm)
{
    double complex d = csqrt(ratio * ratio - 1.0 + 0.0 * I);
    *sp = -ratio + d;
    *sm = -ratio - d;
}

void oscillator_eigenvalues(const oscillator *o, double complex lam[2])
{
    double d = o->omega0 * o->omega0 - o->sigma0 * o->sigma0;
    double complex r = d >= 0 ? I * sqrt(d) : sqrt(-d);
    lam[0] = -o->sigma0 + r;
    lam[1] = -o->sigma0 - r;
}
