/* one_step.h: the test problem y' = lambda y (complex lambda, as a real system y = (re, im)) and
 * the check that one step of a method multiplies y by its R(h lambda), for the unit tests. */
#ifndef IVPLAB_TESTS_ONE_STEP_H
#define IVPLAB_TESTS_ONE_STEP_H
#include "method/method.h"
#include <complex.h>
#include <math.h>

typedef struct { double complex lambda; } scalar_problem;

static int scalar_rhs(double t, const double *y, double *f, void *params)
{
    (void)t;
    double complex l = ((scalar_problem *)params)->lambda, v = (y[0] + I * y[1]) * l;
    f[0] = creal(v);
    f[1] = cimag(v);
    return 0;
}

static int scalar_jac(double t, const double *y, double *J, void *params)
{
    (void)t; (void)y;
    double complex l = ((scalar_problem *)params)->lambda;
    J[0] = creal(l); J[1] = -cimag(l);
    J[2] = cimag(l); J[3] = creal(l);
    return 0;
}

/* The worst relative difference between one step of h = 0.1 from y = 0.7 - 0.4j and R(z) y, over
 * the six z (a failed step counts as infinite). */
static double one_step_vs_R(const method *m)
{
    const double complex zs[] = {-0.5, 0.3 + 1.1 * I, -2.0 + 0.5 * I, 2.5 * I, -0.01 - 0.2 * I, -3.0 - 1.0 * I};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        double h = 0.1;
        scalar_problem sp = {zs[i] / h};
        ivp p = {.dim = 2, .rhs = scalar_rhs, .jac = scalar_jac, .params = &sp, .linear = true};
        workspace *w = workspace_alloc(2);
        double y[2] = {0.7, -0.4};
        double complex expect = method_R(m, zs[i]) * (0.7 - 0.4 * I);
        int rc = method_step(m, &p, 0.0, h, y, w);
        double err = rc ? INFINITY : cabs(y[0] + I * y[1] - expect) / fmax(1.0, cabs(expect));
        worst = fmax(worst, err);
        workspace_free(w);
    }
    return worst;
}

#endif
