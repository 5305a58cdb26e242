/* test_methods.c: every method of the table keeps its own promises: one step on y' = lambda y
 * multiplies by its R(h lambda), and its global order on the oscillator is what it says. */
#include "check.h"
#include "one_step.h"
#include "analysis/measure.h"
#include "method/method.h"
#include "method/set.h"
#include "oscillator/oscillator.h"
#include "drive/solve.h"
#include <complex.h>

static void one_step_is_R(const method *m)
{
    double worst = one_step_vs_R(m);
    check(worst <= 1e-13, "%s: one step on y' = lambda y equals R(h lambda) y (worst relative difference %.2e)",
          m->name, worst);
}

/* Leapfrog steps only y = (u, v) problems, so y' = lambda y cannot be given to it. Its R(z) is
 * the larger-modulus eigenvalue of its one-step matrix on the undamped oscillator, z = j omega h:
 * form that matrix from two steps on the unit vectors and compare its eigenvalues with R. */
static void one_step_is_R_uv(const method *m)
{
    const double thetas[] = {0.05, 0.7, 1.5, 1.99, 2.3, 3.0};   /* omega h, both sides of 2 */
    double worst = 0.0;
    for (size_t i = 0; i < sizeof thetas / sizeof thetas[0]; i++) {
        double h = 0.1;
        oscillator osc = {thetas[i] / h, 0.0};
        ivp p = oscillator_ivp(&osc);
        p.second_order = true;
        workspace *w = workspace_alloc(2);
        double c0[2] = {1.0, 0.0}, c1[2] = {0.0, 1.0};
        method_step(m, &p, 0.0, h, c0, w);
        method_step(m, &p, 0.0, h, c1, w);
        /* M = [c0 c1]; eigenvalues from trace and determinant */
        double tr = c0[0] + c1[1], det = c0[0] * c1[1] - c1[0] * c0[1];
        double complex d = csqrt(tr * tr / 4.0 - det + 0.0 * I);
        double complex e1 = tr / 2.0 + d, e2 = tr / 2.0 - d;
        double complex r = method_R(m, I * thetas[i]);
        double err = fmin(cabs(r - e1), cabs(r - e2)) / fmax(1.0, cabs(r));
        double big = fmax(cabs(e1), cabs(e2));
        err = fmax(err, fabs(cabs(r) - big) / fmax(1.0, big));
        if (err > worst)
            worst = err;
        workspace_free(w);
    }
    check(worst <= 1e-12,
          "%s: R(j omega h) is the larger eigenvalue of one step on the undamped oscillator (worst relative difference %.2e)",
          m->name, worst);
}

static void order_on_oscillator(const method *m)
{
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp p = oscillator_ivp(&osc);
    const double y0[2] = {1.0, 0.0}, T = 2.0;
    double ex[2], hs[5], errs[5];
    oscillator_exact(&osc, y0, T, ex);
    /* h = 2^-7 ... 2^-11: the asymptotic range for every method here, above round-off. */
    for (int i = 0; i < 5; i++) {
        hs[i] = ldexp(1.0, -(7 + i));
        double y[2] = {y0[0], y0[1]};
        solve_opts o = {m, 0.0, hs[i], lround(T / hs[i]), 0, 1, NULL, NULL};
        solve_result r;
        solve_fixed(&p, y, &o, NULL, &r);
        errs[i] = hypot(y[0] - ex[0], y[1] - ex[1]);
    }
    double s = measure_loglog_slope(hs, errs, 5);
    check(fabs(s - m->order) <= 0.1, "%s: measured global order %.3f on the oscillator (theory %d, errors %.2e ... %.2e)",
          m->name, s, m->order, errs[0], errs[4]);
}

/* The table entry and its tableau say the same: explicit exactly when A is strictly lower
 * triangular, the order the rooted-tree conditions give, and R(z) = 1 + z b^T (I - zA)^{-1} 1
 * equal to the entry's closed-form R at six z (backward Euler [1|1] and the trapezoid, Lobatto
 * IIIA, included). */
static void tableau_agrees(const method *m)
{
    const double complex zs[] = {-0.5, 0.3 + 1.1 * I, -2.0 + 0.5 * I, 2.5 * I, -0.01 - 0.2 * I, -3.0};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        double complex r = method_R(m, zs[i]);
        worst = fmax(worst, cabs(tableau_R(m->tableau, m->tableau->b, zs[i]) - r) / fmax(1.0, cabs(r)));
    }
    check(m->implicit == !tableau_explicit(m->tableau), "%s: implicit exactly when its tableau has a diagonal entry",
          m->name);
    check(tableau_order(m->tableau, m->tableau->b) == m->order, "%s: its order conditions give order %d (the table: %d)",
          m->name, tableau_order(m->tableau, m->tableau->b), m->order);
    check(worst <= 1e-13, "%s: R(z) from its tableau equals its own R at six z (worst relative difference %.2e)", m->name,
          worst);
}

int main(void)
{
    static method_set set;
    method_set_init(&set);
    for (int i = 0; set.all[i]; i++) {
        const method *m = set.all[i];
        check(m->name && m->label && m->R && m->step && m->order > 0 && m->stages > 0,
              "%s: table entry is complete", m->name);
        check(method_set_find(&set, m->name) == m, "%s: found by name", m->name);
        if (m->needs_uv) {
            check(!m->implicit && m->tableau == NULL,
                  "%s: explicit, a partitioned method with no single Butcher tableau", m->name);
            one_step_is_R_uv(m);
        } else {
            check(m->tableau != NULL, "%s: a Runge-Kutta method with its Butcher tableau", m->name);
            if (m->tableau)
                tableau_agrees(m);
            one_step_is_R(m);
        }
        order_on_oscillator(m);
    }
    check(method_set_find(&set, "nope") == NULL, "an unknown method name is not found");
    return check_done();
}
