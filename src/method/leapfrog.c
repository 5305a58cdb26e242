/* Leapfrog (Stormer-Verlet, kick-drift-kick) for y = (u, v) with u' = v, v' = a(t, u, v):
 *     v_half = v_k + h/2 a_k                          half kick
 *     u_k+1  = u_k + h v_half                         drift
 *     a_k+1  = a(t_k + h, u_k+1, v_half + h/2 a_k)    the one evaluation of F a step
 *     v_k+1  = v_half + h/2 a_k+1                     half kick
 * and a_k+1 is kept for the next step's first kick (first same as last), so a step costs one
 * evaluation of F, as the delta_tt recursion of class 10 (new sample from the last two, one
 * a a step); a run's first step costs two. On u'' = a(u) (no v in a) it is exactly Stormer-Verlet,
 * symplectic, order 2. On a damped problem a(u, v) is read at v_k+1 predicted with a_k, off by
 * O(h^2); the kick multiplies that by h, so the local error stays O(h^3) and the order 2 (no
 * longer symplectic, nor is the damped flow).
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
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double complex R(const method *m, double complex z)
{
    (void)m;
    double complex p = 1.0 + z * z / 2.0, q = z * csqrt(1.0 + z * z / 4.0);
    double complex up = p + q, down = p - q;
    /* equal moduli (within round-off): the branch that is e^z to second order near 0 */
    if (fabs(cabs(up) - cabs(down)) <= 1e-14 * fmax(1.0, cabs(up)))
        return up;
    return cabs(up) > cabs(down) ? up : down;
}

/* F evaluated at (t, y) into f, and checked for u' = v (F's first half is y's second). */
static int eval_uv(const ivp *p, double t, const double *y, double *f, workspace *w)
{
    const size_t n = p->dim / 2;
    int rc = ivp_eval(p, t, y, f, w);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (fabs(f[i] - y[n + i]) > 1e-12 * fmax(1.0, fabs(y[n + i]))) {
            snprintf(
                w->error, sizeof w->error,
                "leapfrog needs u' = v (F's first half equal to y's second half), but F_%zu = %.6g "
                "while v_%zu = %.6g at t = %.6g s",
                i, f[i], i, y[n + i], t);
            return -1;
        }
    return 0;
}

/* F at (t, y): the one kept from the last step when it stands for this problem, t and y (the
 * driver's t_k = t0 + k h may differ from the kept t_k-1 + h by round-off), else a new one. */
static int accel(const ivp *p, double t, const double *y, double *f, workspace *w)
{
    if (w->fsal_rhs == p->rhs && w->fsal_params == p->params &&
        fabs(w->fsal_t - t) <= 8.0 * DBL_EPSILON * fabs(t) &&
        memcmp(w->fsal_y, y, p->dim * sizeof *y) == 0) {
        memcpy(f, w->fsal_f, p->dim * sizeof *f);
        return 0;
    }
    return eval_uv(p, t, y, f, w);
}

static int step(const method *m, const ivp *p, double t, double h, double *y, workspace *w)
{
    (void)m;
    const size_t n = p->dim / 2;
    if (p->dim % 2 != 0 || n == 0) {
        snprintf(w->error, sizeof w->error,
                 "leapfrog needs y = (u, v) halves, but the problem has odd dimension %zu", p->dim);
        return -1;
    }
    double *f = w->k[0], *x = w->tmp;
    int rc = accel(p, t, y, f, w);
    if (rc)
        return rc;
    /* x = (u_k+1, v_k+1 predicted): half kick, drift, and the second half kick with a_k */
    for (size_t i = 0; i < n; i++) {
        double vh = y[n + i] + 0.5 * h * f[n + i];
        x[i] = y[i] + h * vh;
        x[n + i] = vh + 0.5 * h * f[n + i];
        y[n + i] = vh;
    }
    w->fsal_rhs = NULL;
    if ((rc = eval_uv(p, t + h, x, f, w)))
        return rc;
    for (size_t i = 0; i < n; i++) {
        y[i] = x[i];
        y[n + i] += 0.5 * h * f[n + i];
    }
    /* this a(t + h) is the next step's a_k: kept, so a step costs one evaluation of F */
    memcpy(w->fsal_y, y, p->dim * sizeof *y);
    memcpy(w->fsal_f, f, p->dim * sizeof *f);
    w->fsal_t = t + h;
    w->fsal_rhs = p->rhs;
    w->fsal_params = p->params;
    return 0;
}

const method method_leapfrog = {.name = "leapfrog",
                                .label = "leapfrog",
                                .order = 2,
                                .stages = 1,
                                .implicit = false,
                                .R = R,
                                .step = step,
                                .tableau = NULL,
                                .needs_uv = true};
