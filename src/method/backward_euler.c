/* Backward Euler: the right-rectangle rule, y_{k+1} = y_k + h F(t_k + h, y_{k+1}),
 * solved for y_{k+1} by Newton. Order 1, L-stable. */
#include "method.h"
#include "newton.h"

static double complex R(double complex z) { return 1.0 / (1.0 - z); }

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    /* G(x) = x - y_k - h F(t + h, x): constant part y_k, implicit weight h. */
    return newton_implicit_step(p, t + h, h, y, y, w);
}

const method method_backward_euler = {"backward-euler", "backward Euler", 1, 1, true, R, step, NULL, false};
