/* test_coupled.c: the coupled-stage solve of a fully implicit Runge-Kutta step (Radau IIA, Gauss)
 * solves the stage equations, counts what it does (one Jacobian and one LU a step, F s times an
 * iteration), factors once over a linear run of fixed h and again when h changes, converges
 * linearly as simplified Newton does, refuses a system above its dense cap and says why when it
 * does not converge. */
#include "check.h"
#include "method/method.h"
#include "method/set.h"
#include "oscillator/oscillator.h"
#include "method/newton.h"
#include "drive/solve.h"
#include "base/util.h"
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Van der Pol, mu = 5: u'' = mu (1 - u^2) u' - u (nonlinear, mildly stiff) */
static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t; (void)params;
    f[0] = y[1];
    f[1] = 5.0 * (1.0 - y[0] * y[0]) * y[1] - y[0];
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t; (void)params;
    J[0] = 0.0;
    J[1] = 1.0;
    J[2] = -10.0 * y[0] * y[1] - 1.0;
    J[3] = 5.0 * (1.0 - y[0] * y[0]);
    return 0;
}

/* y' = -y elementwise, of any size: the cap's problem */
static int decay(double t, const double *y, double *f, void *params)
{
    (void)t;
    size_t n = *(const size_t *)params;
    for (size_t i = 0; i < n; i++)
        f[i] = -y[i];
    return 0;
}

/* Largest |F(t + c_i h, Y_i) - k_i| over the stages, Y_i = y + h sum_j a_ij k_j: how well the
 * stage equations hold after the solve (w->k holds the k_i). */
static double stage_defect(const rk_tableau *tb, const ivp *p, double t, double h, const double *y, workspace *w)
{
    int s = tb->stages;
    double worst = 0.0, Y[2], f[2];
    for (int i = 0; i < s; i++) {
        for (int q = 0; q < 2; q++) {
            double acc = 0.0;
            for (int j = 0; j < s; j++)
                acc += tb->a[i * s + j] * w->k[j][q];
            Y[q] = y[q] + h * acc;
        }
        p->rhs(t + tb->c[i] * h, Y, f, p->params);
        for (int q = 0; q < 2; q++)
            worst = fmax(worst, fabs(f[q] - w->k[i][q]) / (1.0 + fabs(w->k[i][q])));
    }
    return worst;
}

static void nonlinear_step(const method *m, const char *what, ivp p)
{
    workspace *w = workspace_alloc(2);
    const double y0[2] = {2.5, 1.0}, h = 0.05;
    double y[2] = {y0[0], y0[1]};
    int rc = method_step(m, &p, 0.0, h, y, w);
    const newton_report *r = newton_last(w);
    int it = r ? r->iterations : 0;
    check(rc == 0 && it >= 2, "%s, %s: one step converged in %d simplified-Newton iterations", m->name, what, it);
    double defect = stage_defect(m->tableau, &p, 0.0, h, y0, w);
    check(defect <= 1e-10, "%s, %s: the %d stage equations hold to %.2e (relative)", m->name, what, m->stages, defect);
    long nfev_expected = (long)m->stages * it + (p.jac ? 0 : 2);
    check(w->counts.njev == 1 && w->counts.nfactor == 1 && w->counts.nnewton == it && w->counts.nfev == nfev_expected,
          "%s, %s: counts of one step: %ld Jacobian, %ld LU of the %zu x %zu system, %ld iterations, %ld F (expected "
          "%ld: %d stages an iteration%s)", m->name, what, w->counts.njev, w->counts.nfactor, 2 * (size_t)m->stages,
          2 * (size_t)m->stages, w->counts.nnewton, w->counts.nfev, nfev_expected, m->stages,
          p.jac ? "" : ", 2 for the difference Jacobian");
    /* simplified Newton (J frozen at the step's start): each update smaller than the one before,
     * by a rate well below 1 */
    bool shrinking = true;
    double rate = 0.0;
    for (int i = 1; i < it && r->update[i] > 1e-14; i++) {
        shrinking = shrinking && r->update[i] < r->update[i - 1];
        rate = fmax(rate, r->update[i] / r->update[i - 1]);
    }
    check(shrinking && rate < 0.5, "%s, %s: updates shrink at every iteration (worst ratio %.2e)", m->name, what, rate);
    workspace_free(w);
}

/* R(z) from the tableaux: the Pade approximants of e^z they are known to give, (2,3) for Radau IIA
 * (so R ~ -3/z: L-stable) and (2,2) for Gauss (so |R(iy)| = 1) */
static void pade(const method *radau, const method *gauss)
{
    double worst_r = 0.0, worst_g = 0.0, worst_axis = 0.0;
    for (int k = 0; k <= 90; k++) {
        double complex z = pow(10.0, -3.0 + 0.1 * k) * cexp(I * M_PI * (0.5 + 0.5 * (k % 7) / 6.0));
        double complex pr = (1.0 + 2.0 * z / 5.0 + z * z / 20.0) / (1.0 - 3.0 * z / 5.0 + 3.0 * z * z / 20.0 - z * z * z / 60.0);
        double complex pg = (1.0 + z / 2.0 + z * z / 12.0) / (1.0 - z / 2.0 + z * z / 12.0);
        worst_r = fmax(worst_r, cabs(method_R(radau, z) - pr));      /* absolute: 1 + z b^T (I - zA)^-1 1 loses */
        worst_g = fmax(worst_g, cabs(method_R(gauss, z) - pg));      /* relative digits as R -> 0 (|R| <= 1 here) */
        double y = pow(10.0, -3.0 + 0.1 * k);
        worst_axis = fmax(worst_axis, fmax(fabs(cabs(method_R(gauss, I * y)) - 1.0), fabs(cabs(method_R(gauss, -I * y)) - 1.0)));
    }
    check(worst_r <= 1e-14 && worst_g <= 1e-14, "R(z) of the tableaux is the (2,3) and (2,2) Pade approximant at 91 z in "
          "the left half-plane, |z| = 1e-3 ... 1e6 (worst %.1e, %.1e)", worst_r, worst_g);
    check(worst_axis <= 1e-12, "Gauss: |R(iy)| = 1 to %.1e for |y| = 1e-3 ... 1e6", worst_axis);
    double r6 = cabs(method_R(radau, -1e6));
    check(r6 < 1e-5 && fabs(1e6 * r6 - 3.0) < 1e-4 && fabs(cabs(method_R(gauss, -1e6)) - 1.0) < 1e-4,
          "Radau IIA L-stable, |R(-1e6)| = %.3e (-3/z), Gauss not: |R(-1e6)| = %.6f", r6, cabs(method_R(gauss, -1e6)));

}

int main(void)
{
    char err[400] = "";
    static method_set set;
    method_set_init(&set);
    const method *radau = method_set_load(&set, repo_file("lessons/methods/radau-iia3.tab"), err, sizeof err);
    const method *gauss = radau ? method_set_load(&set, repo_file("lessons/methods/gauss2.tab"), err, sizeof err) : NULL;
    check(radau && gauss && tableau_coupled(radau->tableau) && tableau_coupled(gauss->tableau),
          "Radau IIA and Gauss load as fully implicit (coupled) tableaux %s", err);
    if (!radau || !gauss)
        return check_done();
    pade(radau, gauss);
    ivp exact = {.dim = 2, .rhs = rhs, .jac = jac}, fd = {.dim = 2, .rhs = rhs};
    nonlinear_step(radau, "analytic Jacobian", exact);
    nonlinear_step(radau, "difference Jacobian", fd);
    nonlinear_step(gauss, "analytic Jacobian", exact);

    /* a linear run of fixed h: one Jacobian and one LU for all of it, one iteration a step */
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp lin = oscillator_ivp(&osc);
    workspace *w = workspace_alloc(2);
    double y[2] = {1.0, 0.0};
    solve_opts o = {radau, 0.0, 0.01, 100, 0, 1, NULL, NULL};
    solve_result res;
    solve_fixed(&lin, y, &o, w, &res);
    check(res.status == SOLVE_OK && res.counts.nfactor == 1 && res.counts.njev == 1 && res.counts.nnewton == 100 &&
              res.counts.nfev == 300,
          "linear, 100 Radau IIA steps: %ld LU, %ld Jacobian, %ld iterations, %ld F (expected 1, 1, 100, 300)",
          res.counts.nfactor, res.counts.njev, res.counts.nnewton, res.counts.nfev);
    double before = (double)w->counts.nfactor;
    method_step(radau, &lin, 1.0, 0.02, y, w);
    check((double)w->counts.nfactor == before + 1, "another h on the same workspace factors again (%g -> %ld)", before,
          w->counts.nfactor);
    workspace_free(w);

    /* Gauss on the undamped oscillator keeps the energy: |R(iy)| = 1 */
    oscillator free_osc = {2.0 * M_PI, 0.0};
    ivp und = oscillator_ivp(&free_osc);
    double u[2] = {1.0, 0.0}, e0 = oscillator_energy(0.0, u, &free_osc);
    solve_opts og = {gauss, 0.0, 0.05, 2000, 0, 1, NULL, NULL};
    solve_fixed(&und, u, &og, NULL, &res);
    double drift = fabs(oscillator_energy(100.0, u, &free_osc) / e0 - 1.0);
    check(res.status == SOLVE_OK && drift < 1e-12, "Gauss, 2000 steps of the undamped oscillator: energy kept to %.2e",
          drift);

    /* above the dense cap: refused with the numbers, before any allocation of the big matrix */
    size_t n = NEWTON_COUPLED_MAX / 3 + 1;
    ivp big = {.dim = n, .rhs = decay, .params = &n};
    workspace *wb = workspace_alloc(n);
    double *yb = xcalloc(n, sizeof(double));
    int rc = method_step(radau, &big, 0.0, 0.1, yb, wb);
    check(rc != 0 && strstr(wb->error, "cap of 1200"), "%zu unknowns, 3 stages: refused: %s", n, wb->error);
    free(yb);
    workspace_free(wb);

    /* not converged: the time, the iterations and the residual in words */
    workspace *wn = workspace_alloc(2);
    newton_configure(wn, 1e-15, 2);
    double z[2] = {2.5, 1.0};
    rc = method_step(radau, &exact, 0.25, 0.4, z, wn);
    check(rc != 0 && strstr(wn->error, "did not converge at t = 0.25 s after 2 iterations"), "not converged: %s",
          wn->error);
    workspace_free(wn);
    return check_done();
}
