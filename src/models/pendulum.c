#include "models/pendulum.h"
#include <math.h>

static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t;
    const pendulum *p = params;
    f[0] = y[1];
    f[1] = -p->omega0 * p->omega0 * sin(y[0]);
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t;
    const pendulum *p = params;
    J[0] = 0.0;
    J[1] = 1.0;
    J[2] = -p->omega0 * p->omega0 * cos(y[0]);
    J[3] = 0.0;
    return 0;
}

double pendulum_energy(double t, const double *y, void *params)
{
    (void)t;
    const pendulum *p = params;
    return 0.5 * y[1] * y[1] + p->omega0 * p->omega0 * (1.0 - cos(y[0]));
}

ivp pendulum_ivp(pendulum *p)
{
    ivp q = {.dim = 2, .rhs = rhs, .jac = jac, .energy = pendulum_energy, .params = p,
             .linear = false, .second_order = true};
    return q;
}
