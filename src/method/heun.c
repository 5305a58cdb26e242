/* Heun: the trapezoid rule with y_{k+1} predicted by a forward Euler step. Order 2. */
#include "method/method.h"

static const double a[] = {0.0, 0.0,
                           1.0, 0.0};
/* bhat: forward Euler from the same first sample, the lecture's Heun-Euler pair (adaptive.c) */
static const double b[] = {0.5, 0.5}, c[] = {0.0, 1.0}, bhat[] = {1.0, 0.0};
static const rk_tableau tableau = {.stages = 2, .a = a, .b = b, .c = c, .bhat = bhat};

/* R(z) in closed form, the lecture's formula (the tableau's R: tests/test_methods.c); the step
 * is the shared Runge-Kutta step from the tableau (rk.c) */
static double complex R(const method *m, double complex z)
{
    (void)m;
    return 1.0 + z + z * z / 2.0;
}

const method method_heun = {.name = "heun",
                            .label = "Heun",
                            .order = 2,
                            .stages = 2,
                            .implicit = false,
                            .R = R,
                            .step = rk_method_step,
                            .tableau = &tableau};
