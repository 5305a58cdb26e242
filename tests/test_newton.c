/* test_newton.c: the implicit steps' Newton iteration converges quadratically on a nonlinear
 * problem, with an analytic Jacobian and with finite differences, and factors once when linear. */
#include "check.h"
#include "method.h"
#include "newton.h"
#include "models/oscillator.h"
#include "solve.h"

/* A nonlinear pendulum-like system: theta'' = -omega^2 sin(theta) - c theta'^3. */
static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t; (void)params;
    f[0] = y[1];
    f[1] = -25.0 * sin(y[0]) - 0.5 * y[1] * y[1] * y[1];
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t; (void)params;
    J[0] = 0.0; J[1] = 1.0;
    J[2] = -25.0 * cos(y[0]); J[3] = -1.5 * y[1] * y[1];
    return 0;
}

static void quadratic(const char *what, ivp p)
{
    workspace *w = workspace_alloc(2);
    newton_configure(w, 1e-15, 40);
    double y[2] = {2.5, 1.0};
    /* A large step, so that Newton needs several iterations from the initial guess y_k. */
    int rc = method_backward_euler.step(&p, 0.0, 0.4, y, w);
    const newton_report *r = newton_last(w);
    check(rc == 0, "%s: backward Euler step converged in %d iterations", what, r->iterations);
    /* Quadratic: the update shrinks like the square of the one before, while above round-off. */
    double worst = 1e9;
    int used = 0;
    for (int i = 1; i + 1 < r->iterations; i++) {
        double a = r->update[i - 1], b = r->update[i], c = r->update[i + 1];
        if (c < 1e-12 || b >= 0.5 || a >= 0.5)
            continue;
        double rate = log(c / b) / log(b / a);
        if (rate < worst)
            worst = rate;
        used++;
    }
    check(used >= 1 && worst >= 1.8, "%s: convergence rate %.2f over %d triples of updates (quadratic is 2)",
          what, worst, used);
    workspace_free(w);
}

int main(void)
{
    ivp exact = {.dim = 2, .rhs = rhs, .jac = jac};
    ivp fd = {.dim = 2, .rhs = rhs};
    quadratic("analytic Jacobian", exact);
    quadratic("finite-difference Jacobian", fd);

    /* Linear problem: one factorization for a whole run of fixed h. */
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp p = oscillator_ivp(&osc);
    double y[2] = {1.0, 0.0};
    workspace *w = workspace_alloc(2);
    solve_opts o = {&method_trapezoid, 0.0, 0.01, 200, 0, 1, NULL, NULL};
    solve_result r;
    solve_fixed(&p, y, &o, w, &r);
    check(r.counts.nfactor == 1 && r.counts.njev == 1,
          "linear problem: %ld factorization(s) and %ld Jacobian(s) for 200 trapezoid steps", r.counts.nfactor,
          r.counts.njev);
    check(r.counts.nnewton == 200, "linear problem: one Newton iteration per step (%ld for 200 steps)",
          r.counts.nnewton);
    /* The same workspace on another linear problem with the same a refactors (no stale factors). */
    oscillator stiffer = {20.0 * M_PI, 0.2};
    ivp q = oscillator_ivp(&stiffer);
    double a[2] = {1.0, 0.0}, b[2] = {1.0, 0.0};
    method_trapezoid.step(&q, 0.0, 0.01, a, w);      /* a = h/2 = 0.005, as in the run above */
    workspace *fresh = workspace_alloc(2);
    method_trapezoid.step(&q, 0.0, 0.01, b, fresh);
    check(a[0] == b[0] && a[1] == b[1], "a workspace reused on another linear problem gives the fresh answer (%.17g vs %.17g)",
          a[1], b[1]);
    workspace_free(fresh);
    workspace_free(w);
    return check_done();
}
