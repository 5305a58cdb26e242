/* rk.c: the explicit Runge-Kutta step, read from a Butcher tableau.
 * Stage i samples F at t + c_i h, y + h sum_j a_ij k_j; the step adds h sum_i b_i k_i. */
#include "method.h"
#include <stdio.h>

int rk_explicit_step(const rk_tableau *tab, const ivp *p, double t, double h, double *y, workspace *w)
{
    const size_t n = p->dim;
    const int s = tab->stages;
    if (s > IVP_MAX_STAGES) {
        snprintf(w->error, sizeof w->error, "tableau has %d stages, at most %d supported", s, IVP_MAX_STAGES);
        return -1;
    }
    for (int i = 0; i < s; i++) {
        const double *arg = y;
        if (i > 0) {
            for (size_t q = 0; q < n; q++) {
                double acc = 0.0;
                for (int j = 0; j < i; j++)
                    acc += tab->a[i * s + j] * w->k[j][q];
                w->tmp[q] = y[q] + h * acc;
            }
            arg = w->tmp;
        }
        int rc = ivp_eval(p, t + tab->c[i] * h, arg, w->k[i], w);
        if (rc)
            return rc;
    }
    for (size_t q = 0; q < n; q++) {
        double acc = 0.0;
        for (int i = 0; i < s; i++)
            acc += tab->b[i] * w->k[i][q];
        y[q] += h * acc;
    }
    return 0;
}
