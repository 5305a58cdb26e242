/* Trapezoid: y_{k+1} = y_k + h/2 [F(t_k, y_k) + F(t_k + h, y_{k+1})], solved by Newton.
 * Order 2, A-stable, |R| = 1 on the imaginary axis (the bilinear transform). As a tableau it is
 * the 2-stage Lobatto IIIA method: an explicit first stage (F at y_k) and a diagonally implicit
 * second one with weight 1/2 (method/rk.c: constant part y_k + h/2 F(t_k, y_k), then Newton). */
#include "method/method.h"

static const double a[] = {0.0, 0.0,
                           0.5, 0.5};
static const double b[] = {0.5, 0.5}, c[] = {0.0, 1.0};
static const rk_tableau tableau = {.stages = 2, .a = a, .b = b, .c = c};

/* R(z) in closed form, the lecture's formula (the tableau's R: tests/test_methods.c); the step
 * is the shared Runge-Kutta step from the tableau (rk.c) */
static double complex R(const method *m, double complex z)
{
    (void)m;
    return (1.0 + z / 2.0) / (1.0 - z / 2.0);
}

const method method_trapezoid = {.name = "trapezoid",
                                 .label = "trapezoid",
                                 .order = 2,
                                 .stages = 2,
                                 .implicit = true,
                                 .R = R,
                                 .step = rk_method_step,
                                 .tableau = &tableau};
