/* RK4: the classical Runge-Kutta method, Simpson's rule with the midpoint sampled twice. Order 4.
 */
#include "method/method.h"

static const double a[] = {0.0, 0.0, 0.0, 0.0,
                           0.5, 0.0, 0.0, 0.0,
                           0.0, 0.5, 0.0, 0.0,
                           0.0, 0.0, 1.0, 0.0};
static const double b[] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
static const double c[] = {0.0, 0.5, 0.5, 1.0};
static const rk_tableau tableau = {.stages = 4, .a = a, .b = b, .c = c};

/* R(z) in closed form, the lecture's formula (the tableau's R: tests/test_methods.c); the step
 * is the shared Runge-Kutta step from the tableau (rk.c) */
static double complex R(const method *m, double complex z)
{
    (void)m;
    return 1.0 + z * (1.0 + z / 2.0 * (1.0 + z / 3.0 * (1.0 + z / 4.0)));
}

const method method_rk4 = {.name = "rk4",
                           .label = "RK4",
                           .order = 4,
                           .stages = 4,
                           .implicit = false,
                           .R = R,
                           .step = rk_method_step,
                           .tableau = &tableau};
