/* Backward Euler: the right-rectangle rule, y_{k+1} = y_k + h F(t_k + h, y_{k+1}),
 * solved for y_{k+1} by Newton. Order 1, L-stable. As a tableau: the one stage [1 | 1],
 * an arrow from y_k+1 back to itself (a diagonally implicit stage, method/rk.c). */
#include "method/method.h"

static const double a[] = {1.0}, b[] = {1.0}, c[] = {1.0};
static const rk_tableau tableau = {.stages = 1, .a = a, .b = b, .c = c};

/* R(z) in closed form, the lecture's formula (the tableau's R: tests/test_methods.c); the step
 * is the shared Runge-Kutta step from the tableau (rk.c) */
static double complex R(const method *m, double complex z)
{
    (void)m;
    return 1.0 / (1.0 - z);
}

const method method_backward_euler = {.name = "backward-euler",
                                      .label = "backward Euler",
                                      .order = 1,
                                      .stages = 1,
                                      .implicit = true,
                                      .R = R,
                                      .step = rk_method_step,
                                      .tableau = &tableau};
