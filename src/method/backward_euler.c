/* Backward Euler: the right-rectangle rule, y_{k+1} = y_k + h F(t_k + h, y_{k+1}),
 * solved for y_{k+1} by Newton. Order 1, L-stable. As a tableau: the one stage [1 | 1],
 * an arrow from y_k+1 back to itself (a diagonally implicit stage, method/rk.c). */
#include "method/method.h"

static const double a[] = {1.0}, b[] = {1.0}, c[] = {1.0};
static const rk_tableau tableau = {1, a, b, c, NULL};

static double complex R(double complex z) { return 1.0 / (1.0 - z); }

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    return rk_step(&tableau, p, t, h, y, w);
}

const method method_backward_euler = {"backward-euler", "backward Euler", 1, 1, true, R, step, &tableau, false};
