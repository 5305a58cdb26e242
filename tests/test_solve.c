/* test_solve.c: the fixed-step driver counts, samples and reports blow-ups with method and time. */
#include "check.h"
#include "method/method.h"
#include "oscillator/oscillator.h"
#include "drive/solve.h"
#include <string.h>

/* The first sample whose max |y| exceeds 1e6. */
static int first_over(long k, double t, const double *y, void *ctx)
{
    (void)t;
    long *first = ctx;
    if (*first < 0 && fmax(fabs(y[0]), fabs(y[1])) > 1e6)
        *first = k;
    return 0;
}

static int count_samples(long k, double t, const double *y, void *ctx)
{
    (void)k; (void)t; (void)y;
    (*(long *)ctx)++;
    return 0;
}

int main(void)
{
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp p = oscillator_ivp(&osc);

    double y[2] = {1.0, 0.0};
    long samples = 0;
    solve_opts o = {&method_rk4, 0.0, 0.01, 100, 0, 10, count_samples, &samples};
    solve_result r;
    solve_fixed(&p, y, &o, NULL, &r);
    check(r.status == SOLVE_OK && r.steps == 100 && fabs(r.t - 1.0) < 1e-15, "rk4: 100 steps reach t = 1 (t = %.17g)", r.t);
    check(r.counts.nfev == 400, "rk4: 4 F evaluations a step (%ld for 100 steps)", r.counts.nfev);
    check(samples == 11, "every 10th sample and the first go to the sink (%ld samples)", samples);

    /* Forward Euler at h = 0.5 on omega0 = 2 pi: |R| = 3.3 a step. */
    double y2[2] = {1.0, 0.0};
    solve_opts b = {&method_euler, 0.0, 0.5, 100, 1e6, 1, NULL, NULL};
    solve_fixed(&p, y2, &b, NULL, &r);
    check(r.status == SOLVE_BLOWUP, "forward Euler with h = 0.5 is reported as a blow-up: %s", r.message);
    double y4[2] = {1.0, 0.0};
    long first = -1;
    solve_result r4;
    solve_opts d = {&method_euler, 0.0, 0.5, 100, 0, 1, first_over, &first};
    solve_fixed(&p, y4, &d, NULL, &r4);
    char when[64];
    snprintf(when, sizeof when, "t = %g s", 0.5 * first);
    check(strstr(r.message, "euler") && strstr(r.message, when), "the report names the method and the time (%s)", when);
    check(r.steps == first, "the blow-up is caught at the step that crossed the bound (step %ld; unbounded run: %ld)",
          r.steps, first);

    /* No bound: a non-finite state is still caught. */
    double y3[2] = {1.0, 0.0};
    solve_opts c = {&method_euler, 0.0, 0.5, 100000, 0, 1, NULL, NULL};
    solve_fixed(&p, y3, &c, NULL, &r);
    check(r.status == SOLVE_BLOWUP && strstr(r.message, "no longer finite"),
          "without a bound, the step that overflows is caught: %s", r.message);

    /* To T = 1 by h = 0.3: three steps of 0.3 and a short one of 0.1, ending at T exactly; the
     * result is forward Euler's by hand. A multiple (T = 0.9) takes three whole steps. */
    double hl;
    long ns = solve_steps_to(1.0, 0.3, &hl);
    check(ns == 4 && fabs(hl - 0.1) < 1e-15, "T = 1, h = 0.3: %ld steps, the last %.17g s", ns, hl);
    ns = solve_steps_to(0.9, 0.3, &hl);
    check(ns == 3 && hl == 0.0, "T = 0.9, h = 0.3: %ld whole steps", ns);
    double y5[2] = {1.0, 0.0}, u = 1.0, v = 0.0, w0 = 2.0 * M_PI;
    samples = 0;
    solve_opts e = {&method_euler, 0.0, 0.3, 0, 0, 1, count_samples, &samples};
    solve_fixed_to(&p, y5, &e, 1.0, NULL, &r);
    for (int k = 0; k < 4; k++) {
        double hk = k < 3 ? 0.3 : 1.0 - 0.9, un = u + hk * v;
        v = v + hk * (-w0 * w0 * u - 2.0 * 0.2 * v);
        u = un;
    }
    check(r.steps == 4 && r.t == 1.0 && samples == 5, "solve_fixed_to: 4 steps end at t = %.17g, 5 samples", r.t);
    check(fabs(y5[0] - u) <= 1e-12 * fabs(u) && fabs(y5[1] - v) <= 1e-12 * fabs(v),
          "solve_fixed_to: the short last step is forward Euler's by hand (%.15g, %.15g)", y5[0], u);
    return check_done();
}
