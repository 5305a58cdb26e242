/* Trapezoid: y_{k+1} = y_k + h/2 [F(t_k, y_k) + F(t_k + h, y_{k+1})], solved by Newton.
 * Order 2, A-stable, |R| = 1 on the imaginary axis (the bilinear transform). */
#include "method.h"
#include "newton.h"

static double complex R(double complex z) { return (1.0 + z / 2.0) / (1.0 - z / 2.0); }

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    /* Constant part c = y_k + h/2 F(t_k, y_k), implicit weight h/2. */
    int rc = ivp_eval(p, t, y, w->k[0], w);
    if (rc)
        return rc;
    for (size_t i = 0; i < p->dim; i++)
        w->tmp2[i] = y[i] + 0.5 * h * w->k[0][i];
    return newton_implicit_step(p, t + h, 0.5 * h, w->tmp2, y, w);
}

const method method_trapezoid = {"trapezoid", "trapezoid", 2, 2, true, R, step, NULL, false};
