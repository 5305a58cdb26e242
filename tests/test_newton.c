/* test_newton.c: the implicit steps' Newton iteration converges quadratically on a nonlinear
 * problem, with an analytic Jacobian and with finite differences, and factors once when linear. */
#include "check.h"
#include "method/method.h"
#include "method/newton.h"
#include "oscillator/oscillator.h"
#include "string/string.h"
#include "drive/solve.h"
#include "base/util.h"
#include <stdlib.h>
#include <string.h>

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

/* A nonlinear chain y_i' = y_{i-1} - 2 y_i + y_{i+1} - y_i^3 (a band of half-width 1). */
static int chain(double t, const double *y, double *f, void *params)
{
    (void)t;
    size_t n = *(const size_t *)params;
    for (size_t i = 0; i < n; i++)
        f[i] = (i > 0 ? y[i - 1] : 0.0) - 2.0 * y[i] + (i + 1 < n ? y[i + 1] : 0.0) - y[i] * y[i] * y[i];
    return 0;
}

/* The band path against the dense one: the same implicit steps, the same answer. */
static void banded(const char *what, ivp p, const method *m, double h, int steps, double tol)
{
    ivp dense = p;
    dense.band = 0;
    double *yb = xcalloc(p.dim, sizeof(double)), *yd = xcalloc(p.dim, sizeof(double));
    for (size_t i = 0; i < p.dim; i++)
        yb[i] = yd[i] = sin(0.37 * (double)(i + 1)) * 0.8;
    workspace *wb = workspace_alloc(p.dim), *wd = workspace_alloc(p.dim);
    int rb = 0, rd = 0;
    for (int k = 0; k < steps && !rb && !rd; k++) {
        rb = method_step(m, &p, k * h, h, yb, wb);
        rd = method_step(m, &dense, k * h, h, yd, wd);
    }
    double diff = 0.0, size = max_abs(yd, p.dim);
    for (size_t i = 0; i < p.dim; i++)
        diff = fmax(diff, fabs(yb[i] - yd[i]));
    check(rb == 0 && rd == 0 && newton_is_banded(wb) && !newton_is_banded(wd) && diff <= tol * size,
          "%s, %s: band LU (half-width %zu) and dense LU agree after %d steps to %.2e (of %.3g)", what, m->name,
          p.band, steps, diff, size);
    workspace_free(wb);
    workspace_free(wd);
    free(yb);
    free(yd);
}

static void quadratic(const char *what, ivp p)
{
    workspace *w = workspace_alloc(2);
    newton_configure(w, 1e-15, 40);
    double y[2] = {2.5, 1.0};
    /* A large step, so that Newton needs several iterations from the initial guess y_k. */
    int rc = method_step(&method_backward_euler, &p, 0.0, 0.4, y, w);
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
    method_step(&method_trapezoid, &q, 0.0, 0.01, a, w);      /* a = h/2 = 0.005, as in the run above */
    workspace *fresh = workspace_alloc(2);
    method_step(&method_trapezoid, &q, 0.0, 0.01, b, fresh);
    check(a[0] == b[0] && a[1] == b[1], "a workspace reused on another linear problem gives the fresh answer (%.17g vs %.17g)",
          a[1], b[1]);
    workspace_free(fresh);
    workspace_free(w);

    /* The band path, chosen from the declared bandwidth: a nonlinear chain (differences in
     * groups) and the interleaved 5-point string (linear: unit differences, one iteration). */
    size_t n = 40;
    ivp ch = {.dim = n, .rhs = chain, .params = &n, .band = 1};
    banded("nonlinear chain", ch, &method_backward_euler, 0.05, 20, 1e-9);
    banded("nonlinear chain", ch, &method_trapezoid, 0.05, 20, 1e-9);
    /* challenge.json's string */
    string_params sp = {.L = 0.65, .c = 143.0, .sigma0 = 3.0, .kappa = 0.004, .height = 0.002, .xp = 0.1625,
                        .w = 0.006, .xm = 0.54};
    string_fd sfd;
    char why[200];
    string_fd_init(&sfd, &sp, STRING_FD5, 65, true, why, sizeof why);
    ivp sf = string_fd_ivp(&sfd);
    check(sf.band == 5, "interleaved 5-point string declares a band of half-width %zu", sf.band);
    banded("5-point string N = 65", sf, &method_backward_euler, 1.0 / 48000, 200, 1e-10);
    banded("5-point string N = 65", sf, &method_trapezoid, 1.0 / 48000, 200, 1e-10);
    workspace *ws = workspace_alloc(sf.dim);
    double *y5 = xcalloc(sf.dim, sizeof(double));
    string_fd_initial(&sfd, y5);
    solve_opts so = {&method_trapezoid, 0.0, 1.0 / 48000, 100, 0, 1, NULL, NULL};
    solve_fixed(&sf, y5, &so, ws, &r);
    check(r.counts.nfactor == 1 && r.counts.nnewton == 100 && r.counts.nfev <= 2 * 100 + 100 + 2 * 5 + 2,
          "banded linear string: %ld factorization, %ld Newton iterations, %ld F evaluations for 100 trapezoid steps",
          r.counts.nfactor, r.counts.nnewton, r.counts.nfev);
    string_fd plain;
    string_fd_init(&plain, &sp, STRING_FD5, 65, false, why, sizeof why);
    check(string_fd_ivp(&plain).band == 0, "the (u, v) layout declares no band (it would be N wide)");
    free(y5);
    workspace_free(ws);
    return check_done();
}
