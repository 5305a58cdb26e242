/* test_cvode.c: the CVODE driver matches the exact oscillator to its tolerance, reports its
 * statistics, finds events by root functions, and explains a failure. */
#include "check.h"
#include "drive/cvode.h"
#include "oscillator/oscillator.h"
#include <string.h>

typedef struct { const oscillator *o; double worst; long n; } ctx;

static int sink(long k, double t, const double *y, void *c)
{
    (void)k;
    ctx *x = c;
    const double y0[2] = {1.0, 0.0};
    double ex[2];
    oscillator_exact(x->o, y0, t, ex);
    double e = fabs(y[0] - ex[0]);
    if (e > x->worst)
        x->worst = e;
    x->n++;
    return 0;
}

static int zero_of_u(double t, const double *y, double *g, void *params)
{
    (void)t; (void)params;
    g[0] = y[0];
    return 0;
}

static int on_event(double t, const double *y, const int *dir, void *c)
{
    (void)y; (void)dir;
    double *times = c;
    if (times[0] < 8)
        times[1 + (int)times[0]++] = t;
    return 0;
}

/* CVODE's error norm as the linked SUNDIALS sums it. make deps' build compiles the serial vector
 * so that its sums may run in several partial sums (src/tools/sundials.sh): then 1 followed by
 * 999 terms of 2^-54 keeps some of the small terms, which one running sum (Debian's build, and
 * the -O3 build before) rounds away one by one. Either way the norm is accurate on a random vector. */
static void wrms_norm_checks(void)
{
    enum { n = 1000 };
    double x[n], w[n];
    long double exact = 0;
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (double)(s >> 8) / (1 << 24) - 0.5;
        w[i] = 1.0 / (1e-6 * fabs(x[i]) + 1e-12);
        exact += (long double)(x[i] * w[i]) * (x[i] * w[i]);
    }
    double ex = (double)sqrtl(exact / n), got = cvode_wrms_norm(x, w, n);
    check(fabs(got - ex) <= 1e-14 * ex, "WRMS norm of a random vector of %d: %.17g, exact %.17g "
          "(relative %.1e <= 1e-14)", n, got, ex, fabs(got - ex) / ex);
    double seq = 0;
    for (int i = 0; i < n; i++) {
        x[i] = i ? ldexp(1.0, -27) : 1.0;
        w[i] = 1.0;
        seq += x[i] * x[i];
    }
    ex = sqrt((1.0 + (n - 1) * ldexp(1.0, -54)) / n);
    got = cvode_wrms_norm(x, w, n);
    double one_sum = sqrt(seq / n);
#ifdef IVPLAB_SUNDIALS_OWN
    check(fabs(got - ex) < fabs(one_sum - ex), "make deps' SUNDIALS sums the norm in partial sums: "
          "1 and 999 x 2^-54 give %.17g, exact %.17g, one running sum %.17g (if not: make deps "
          "rebuilds an older build)", got, ex, one_sum);
#else
    check(got == one_sum || fabs(got - ex) < fabs(one_sum - ex), "another SUNDIALS: its norm of 1 "
          "and 999 x 2^-54: %.17g (exact %.17g, one running sum %.17g)", got, ex, one_sum);
#endif
}

int main(void)
{
    wrms_norm_checks();
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp p = oscillator_ivp(&osc);
    const char *names[] = {"BDF", "Adams"};
    for (int lmm = 0; lmm < 2; lmm++)
        for (int k = 0; k < 2; k++) {
            double tol = k ? 1e-10 : 1e-6;
            double tout[201], y[2] = {1.0, 0.0};
            for (int i = 0; i <= 200; i++)
                tout[i] = 0.01 * i;
            ctx c = {&osc, 0, 0};
            cvode_opts o = cvode_defaults();
            o.lmm = lmm ? CVODE_ADAMS : CVODE_BDF;
            o.solver = lmm ? CVODE_FIXEDPOINT : CVODE_DENSE;
            o.rtol = tol;
            o.atol = tol * 1e-2;
            o.tout = tout;
            o.nout = 201;
            o.sink = sink;
            o.ctx = &c;
            cvode_stats st;
            char err[400];
            int rc = cvode_solve(&p, 0.0, y, 2.0, &o, &st, err, sizeof err);
            check(rc == 0 && c.n == 201, "%s rtol %g: ran and gave all 201 outputs (%s)", names[lmm], tol, rc ? err : "ok");
            /* Global error stays within a modest multiple of the tolerance. */
            check(c.worst < 100 * tol, "%s rtol %g: max error %.2e against the exact solution", names[lmm], tol, c.worst);
            check(st.steps > 10 && st.nfev >= st.steps, "%s rtol %g: statistics reported (%ld steps, %ld F, %ld Jacobians, "
                  "%ld error-test failures, %ld convergence failures)", names[lmm], tol, st.steps, st.nfev, st.njev,
                  st.netf, st.nncf);
        }

    /* Zero crossings of u: underdamped, u crosses 0 at t = (pi/2 + phi + k pi)/omega1. */
    double times[9] = {0}, y[2] = {1.0, 0.0};
    cvode_opts o = cvode_defaults();
    o.rtol = 1e-10;
    o.atol = 1e-12;
    o.nroots = 1;
    o.roots = zero_of_u;
    o.on_event = on_event;
    o.ctx = times;
    cvode_stats st;
    char err[400];
    cvode_solve(&p, 0.0, y, 1.0, &o, &st, err, sizeof err);
    double w1 = sqrt(osc.omega0 * osc.omega0 - osc.sigma0 * osc.sigma0);
    double first = (M_PI / 2 + atan(osc.sigma0 / w1)) / w1;
    double second = first + M_PI / w1;
    check(st.nevents == 2 && fabs(times[1] - first) < 1e-8 && fabs(times[2] - second) < 1e-8,
          "roots: %ld zero crossings in 1 s, at %.10f and %.10f s (exact %.10f and %.10f s)", st.nevents, times[1],
          times[2], first, second);

    /* The exact solution stays finite and right for a strongly overdamped oscillator
     * (cosh(mu t) alone would overflow long before e^{-sigma t} cosh(mu t) does). */
    oscillator over = {1.0, 1000.0};
    ivp po = oscillator_ivp(&over);
    double yo[2] = {1.0, 0.0}, exo[2];
    const double y0o[2] = {1.0, 0.0};
    cvode_opts oo = cvode_defaults();
    oo.rtol = 1e-10;
    oo.atol = 1e-14;
    cvode_solve(&po, 0.0, yo, 2000.0, &oo, &st, err, sizeof err);
    oscillator_exact(&over, y0o, 2000.0, exo);
    check(isfinite(exo[0]) && fabs(exo[0] - yo[0]) < 1e-6 * fabs(exo[0]),
          "overdamped (sigma0 = 1000 omega0): exact u(2000 s) = %.10g, CVODE %.10g", exo[0], yo[0]);

    /* A failure is explained in words with the time. */
    double yb[2] = {1.0, 0.0};
    cvode_opts f = cvode_defaults();
    f.max_steps = 5;
    f.rtol = 1e-12;
    f.atol = 1e-14;
    int rc = cvode_solve(&p, 0.0, yb, 10.0, &f, &st, err, sizeof err);
    check(rc != 0 && strstr(err, "cvode-bdf failed at t =") && strstr(err, "too many internal steps") && strstr(err, "try:"),
          "a failure names the method, the time, the reason and a suggestion: %s", err);
    return check_done();
}
