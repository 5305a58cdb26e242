/* Forward Euler: the left-rectangle rule, y_{k+1} = y_k + h F(t_k, y_k). Order 1. */
#include "method/method.h"

static const double a[] = {0.0}, b[] = {1.0}, c[] = {0.0};
static const rk_tableau tableau = {1, a, b, c, NULL};

static double complex R(double complex z) { return 1.0 + z; }

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    return rk_step(&tableau, p, t, h, y, w);
}

const method method_euler = {"euler", "forward Euler", 1, 1, false, R, step, &tableau, false};
