/* RK4: the classical Runge-Kutta method, Simpson's rule with the midpoint sampled twice. Order 4. */
#include "method/method.h"

static const double a[] = {0.0, 0.0, 0.0, 0.0,
                           0.5, 0.0, 0.0, 0.0,
                           0.0, 0.5, 0.0, 0.0,
                           0.0, 0.0, 1.0, 0.0};
static const double b[] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
static const double c[] = {0.0, 0.5, 0.5, 1.0};
static const rk_tableau tableau = {4, a, b, c, NULL};

static double complex R(double complex z)
{
    return 1.0 + z * (1.0 + z / 2.0 * (1.0 + z / 3.0 * (1.0 + z / 4.0)));
}

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    return rk_step(&tableau, p, t, h, y, w);
}

const method method_rk4 = {"rk4", "RK4", 4, 4, false, R, step, &tableau, false};
