/* Forward Euler: the left-rectangle rule, y_{k+1} = y_k + h F(t_k, y_k). Order 1. */
#include "method/method.h"

static const double a[] = {0.0}, b[] = {1.0}, c[] = {0.0};
static const rk_tableau tableau = {.stages = 1, .a = a, .b = b, .c = c};

/* R(z) in closed form, the lecture's formula (the tableau's R: tests/test_methods.c); the step
 * is the shared Runge-Kutta step from the tableau (rk.c) */
static double complex R(const method *m, double complex z)
{
    (void)m;
    return 1.0 + z;
}

const method method_euler = {.name = "euler",
                             .label = "forward Euler",
                             .order = 1,
                             .stages = 1,
                             .implicit = false,
                             .R = R,
                             .step = rk_method_step,
                             .tableau = &tableau};
