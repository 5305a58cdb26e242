/* rk.c: the Runge-Kutta step, read from a Butcher tableau: what a method with a tableau steps by
 * (rk_method_step) and what a tableau file's method takes as its R(z) (rk_method_R).
 * Stage i samples F at t + c_i h, Y_i = y + h sum_j a_ij k_j; the step adds h sum_i b_i k_i.
 * An explicit stage (a_ii = 0) evaluates F once. A diagonally implicit stage (a_ii != 0) solves
 * Y_i = C_i + h a_ii F(t + c_i h, Y_i), C_i = y + h sum_{j<i} a_ij k_j, with the project's Newton
 * (newton.h), and takes k_i = (Y_i - C_i) / (h a_ii): F at the solution without evaluating it again
 * (what backward Euler and the trapezoid have always done). A fully implicit tableau (an entry
 * above the diagonal: Radau IIA, Gauss-Legendre) couples its stages: all s are solved together,
 * s n unknowns by simplified Newton (newton_coupled_stages). */
#include "method/method.h"
#include "method/newton.h"
#include "method/tableau.h"
#include <stdio.h>
#include <string.h>

int rk_stages(const rk_tableau *tab, const ivp *p, double t, double h, const double *y,
              workspace *w, bool k0_known)
{
    const size_t n = p->dim;
    const int s = tab->stages;
    if (s > IVP_MAX_STAGES) {
        snprintf(w->error, sizeof w->error, "tableau has %d stages, at most %d supported", s,
                 IVP_MAX_STAGES);
        return -1;
    }
    if (tableau_coupled(tab))
        return newton_coupled_stages(p, t, h, s, tab->a, tab->c, y, w);
    for (int i = k0_known ? 1 : 0; i < s; i++) {
        const double *arow = tab->a + i * s, aii = arow[i], ti = t + tab->c[i] * h;
        double *C = w->tmp2, *Y = w->tmp;
        int rc;
        if (i == 0 && aii == 0.0) {
            rc = ivp_eval(p, ti, y, w->k[0], w); /* an explicit first stage samples y itself */
        } else {
            for (size_t q = 0; q < n; q++) {
                double acc = 0.0;
                for (int j = 0; j < i; j++)
                    acc += arow[j] * w->k[j][q];
                C[q] = y[q] + h * acc;
            }
            if (aii == 0.0) {
                rc = ivp_eval(p, ti, C, w->k[i], w);
            } else {
                const double ha = h * aii, inv = 1.0 / ha;
                memcpy(Y, y, n * sizeof *Y);        /* Newton starts from y_k */
                rc = newton_implicit_step(p, ti, ha, C, Y, w);
                if (rc == 0)
                    for (size_t q = 0; q < n; q++)
                        w->k[i][q] = (Y[q] - C[q]) * inv;
            }
        }
        if (rc)
            return rc;
    }
    return 0;
}

int rk_step(const rk_tableau *tab, const ivp *p, double t, double h, double *y, workspace *w)
{
    int rc = rk_stages(tab, p, t, h, y, w, false);
    if (rc)
        return rc;
    for (size_t q = 0; q < p->dim; q++) {
        double acc = 0.0;
        for (int i = 0; i < tab->stages; i++)
            acc += tab->b[i] * w->k[i][q];
        y[q] += h * acc;
    }
    return 0;
}

int rk_method_step(const method *m, const ivp *p, double t, double h, double *y, workspace *w)
{
    return rk_step(m->tableau, p, t, h, y, w);
}

double complex rk_method_R(const method *m, double complex z)
{
    return tableau_R(m->tableau, m->tableau->b, z);
}
