/* Heun: the trapezoid rule with y_{k+1} predicted by a forward Euler step. Order 2. */
#include "method/method.h"

static const double a[] = {0.0, 0.0,
                           1.0, 0.0};
/* bhat: forward Euler from the same first sample, the lecture's Heun-Euler pair (adaptive.c) */
static const double b[] = {0.5, 0.5}, c[] = {0.0, 1.0}, bhat[] = {1.0, 0.0};
static const rk_tableau tableau = {2, a, b, c, bhat};

static double complex R(double complex z) { return 1.0 + z + z * z / 2.0; }

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    return rk_step(&tableau, p, t, h, y, w);
}

const method method_heun = {"heun", "Heun", 2, 2, false, R, step, &tableau, false};
