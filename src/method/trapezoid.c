/* Trapezoid: y_{k+1} = y_k + h/2 [F(t_k, y_k) + F(t_k + h, y_{k+1})], solved by Newton.
 * Order 2, A-stable, |R| = 1 on the imaginary axis (the bilinear transform). As a tableau it is
 * the 2-stage Lobatto IIIA method: an explicit first stage (F at y_k) and a diagonally implicit
 * second one with weight 1/2 (method/rk.c: constant part y_k + h/2 F(t_k, y_k), then Newton). */
#include "method/method.h"

static const double a[] = {0.0, 0.0,
                           0.5, 0.5};
static const double b[] = {0.5, 0.5}, c[] = {0.0, 1.0};
static const rk_tableau tableau = {2, a, b, c, NULL};

static double complex R(double complex z) { return (1.0 + z / 2.0) / (1.0 - z / 2.0); }

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    return rk_step(&tableau, p, t, h, y, w);
}

const method method_trapezoid = {"trapezoid", "trapezoid", 2, 2, true, R, step, &tableau, false};
