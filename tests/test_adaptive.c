/* test_adaptive.c: the Heun-Euler adaptive pair does what the lecture's table says: its error
 * estimate costs no extra F (two per accepted step; a rejected one reuses F(t, y)), its step count grows as tol^(-1/2)
 * (exponent 1/(p+1), p = 1), it meets the tolerance, it stops exactly at t1; and the GSL rkf45
 * peer reaches its tolerance too. */
#include "drive/adaptive.h"
#include "drive/gsl_pairs.h"
#include "check.h"
#include <string.h>
#include "oscillator/oscillator.h"

typedef struct { double t_last, hmin; } step_log;

static int on_step(double t, double h, const double *y, void *ctx)
{
    (void)y;
    step_log *l = ctx;
    l->t_last = t;
    if (h < l->hmin)
        l->hmin = h;
    return 0;
}

int main(void)
{
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp p = oscillator_ivp(&osc);
    const double y0[2] = {1.0, 0.0}, T = 5.0;
    double ex[2];
    oscillator_exact(&osc, y0, T, ex);
    long steps[2];
    const double tols[2] = {1e-4, 1e-6};
    for (int i = 0; i < 2; i++) {
        double y[2] = {y0[0], y0[1]};
        step_log log = {0, 1e9};
        adaptive_opts o = {.rtol = tols[i], .atol = tols[i], .on_step = on_step, .ctx = &log};
        adaptive_stats st;
        char err[300] = "";
        int rc = adaptive_heun_euler(&p, 0.0, y, T, &o, &st, err, sizeof err);
        double e = hypot(y[0] - ex[0], y[1] - ex[1]);
        check(rc == 0, "heun-euler at tol %g runs (%s)", tols[i], err);
        check(st.nfev == 2 * st.accepted + st.rejected,
              "heun-euler at tol %g: 2 F per accepted step, 1 per rejected one (F(t, y) is kept), none for the "
              "estimate (%ld F, %ld accepted + %ld rejected)",
              tols[i], st.nfev, st.accepted, st.rejected);
        check(log.t_last == T, "heun-euler at tol %g ends exactly at t1 = %g (%.17g)", tols[i], T, log.t_last);
        check(e < 1000 * tols[i] && e > tols[i] / 1000, "heun-euler at tol %g: global error %.3e within 1000x of tol",
              tols[i], e);
        steps[i] = st.accepted;
    }
    double ratio = (double)steps[1] / (double)steps[0];
    check(fabs(ratio - 10.0) < 1.0,
          "heun-euler: 100x tighter tolerance takes %.2fx the steps (exponent 1/2: 10x)", ratio);

    double y[2] = {y0[0], y0[1]};
    cvode_opts go = cvode_defaults();       /* GSL's rkf45, the peer, through gsl_pairs.h */
    go.rtol = go.atol = 1e-8;
    go.init_step = 1e-3 * T;
    cvode_stats gst;
    char err[300] = "";
    int rc = gsl_pair_solve("rkf45", &p, 0.0, y, T, &go, &gst, err, sizeof err);
    double e = hypot(y[0] - ex[0], y[1] - ex[1]);
    check(rc == 0 && e < 1e-6 && gst.nfev > 0 && gst.steps > 0,
          "gsl rkf45 at tol 1e-8: error %.3e, %ld F evaluations, %ld steps (%s)", e, gst.nfev, gst.steps, err);
    adaptive_stats st;

    /* a failure is reported in words with the time */
    adaptive_opts tight = {.rtol = 1e-14, .atol = 1e-14, .max_steps = 100};
    double z[2] = {y0[0], y0[1]};
    rc = adaptive_heun_euler(&p, 0.0, z, T, &tight, &st, err, sizeof err);
    check(rc == -1 && strstr(err, "heun-euler stopped at t = ") && strstr(err, "100 attempted steps"),
          "a step limit is reported with the method and the time: %s", err);
    return check_done();
}
