/* Leapfrog (Stormer-Verlet, kick-drift-kick) for y = (u, v) with u' = v, v' = a(t, u, v):
 *     v_half = v_k + h/2 a(t_k, u_k, v_k)           half kick
 *     u_k+1  = u_k + h v_half                        drift
 *     v_k+1  = v_half + h/2 a(t_k + h, u_k+1, v_k+1)  half kick
 * Order 2. On u'' = a(u) (the problem's second_order flag) the last kick is explicit, two F
 * evaluations a step, and the method is symplectic: it is the delta_tt recursion of class 10
 * written with a velocity. When a depends on v (a damped problem) the last kick is implicit in
 * v_k+1; this step predicts v_k+1 once with a(t_k + h, u_k+1, v_half) and corrects once, three
 * F evaluations a step. The prediction is off by O(h^2), so the local error stays O(h^3) and
 * the order 2; the damped method is no longer symplectic (nor is the damped flow).
 *
 * The problem must have an even dimension and F's first half must be v: the step checks that
 * on the F it evaluates anyway and refuses any other problem in words.
 *
 * Amplification: leapfrog's step on a second-order problem is a 2x2 matrix, not a scalar. On
 * the undamped oscillator u'' = lambda^2 u with z = h lambda (z = +-j omega h) its eigenvalues
 * are the roots of mu^2 - (2 + z^2) mu + 1 = 0, mu = 1 + z^2/2 +- z sqrt(1 + z^2/4), whose
 * product is 1. R(z) below is the root of larger modulus (on the stable segment, where both
 * have modulus 1, the one that follows e^z). So |R| <= 1 only on the imaginary segment
 * |Im z| <= 2: the class-10 condition omega0 k < 2. */
#include "method/method.h"
#include <math.h>
#include <stdio.h>

static double complex R(double complex z)
{
    double complex p = 1.0 + z * z / 2.0, q = z * csqrt(1.0 + z * z / 4.0);
    double complex up = p + q, down = p - q;
    /* equal moduli (within round-off): the branch that is e^z to second order near 0 */
    if (fabs(cabs(up) - cabs(down)) <= 1e-14 * fmax(1.0, cabs(up)))
        return up;
    return cabs(up) > cabs(down) ? up : down;
}

static int step(const ivp *p, double t, double h, double *y, workspace *w)
{
    const size_t n = p->dim / 2;
    if (p->dim % 2 != 0 || n == 0) {
        snprintf(w->error, sizeof w->error,
                 "leapfrog needs y = (u, v) halves, but the problem has odd dimension %zu", p->dim);
        return -1;
    }
    double *f = w->k[0], *x = w->tmp;
    int rc = ivp_eval(p, t, y, f, w);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (fabs(f[i] - y[n + i]) > 1e-12 * fmax(1.0, fabs(y[n + i]))) {
            snprintf(w->error, sizeof w->error,
                     "leapfrog needs u' = v (F's first half equal to y's second half), but F_%zu = %.6g "
                     "while v_%zu = %.6g at t = %.6g s",
                     i, f[i], i, y[n + i], t);
            return -1;
        }
    for (size_t i = 0; i < n; i++) {
        double vh = y[n + i] + 0.5 * h * f[n + i];
        x[i] = y[i] + h * vh;
        x[n + i] = vh;
    }
    /* x = (u_k+1, v_half): the explicit last kick, or the prediction on a damped problem */
    if ((rc = ivp_eval(p, t + h, x, f, w)))
        return rc;
    if (!p->second_order) {
        double *xc = w->tmp2;
        for (size_t i = 0; i < n; i++) {
            xc[i] = x[i];
            xc[n + i] = x[n + i] + 0.5 * h * f[n + i];
        }
        if ((rc = ivp_eval(p, t + h, xc, f, w)))
            return rc;
    }
    for (size_t i = 0; i < n; i++) {
        y[i] = x[i];
        y[n + i] = x[n + i] + 0.5 * h * f[n + i];
    }
    return 0;
}

const method method_leapfrog = {"leapfrog", "leapfrog", 2, 2, false, R, step, NULL, true};
