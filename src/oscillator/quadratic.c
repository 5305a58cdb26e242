#include "oscillator/quadratic.h"

static int rhs(double t, const double *x, double *dx, void *params)
{
    (void)t;
    const quadratic *q = params;
    for (size_t i = 0; i < q->dim; i++)
        dx[i] = -q->a[i] * x[i];
    return 0;
}

static int jac(double t, const double *x, double *J, void *params)
{
    (void)t;
    (void)x;
    const quadratic *q = params;
    for (size_t i = 0; i < q->dim; i++)
        for (size_t j = 0; j < q->dim; j++)
            J[i * q->dim + j] = i == j ? -q->a[i] : 0.0;
    return 0;
}

double quadratic_value(double t, const double *x, void *params)
{
    (void)t;
    const quadratic *q = params;
    double f = 0.0;
    for (size_t i = 0; i < q->dim; i++)
        f += 0.5 * q->a[i] * x[i] * x[i];
    return f;
}

ivp quadratic_flow(quadratic *q)
{
    ivp p = {.dim = q->dim, .rhs = rhs, .jac = jac, .energy = quadratic_value, .params = q, .linear = true};
    return p;
}
