/* test_stroke.c: the summary of a bow stroke (src/bow/stroke.c) on a synthetic trace
 * whose answers are known. Figure 6's stroke (0.5 m/s^2 to 0.1 m/s, held to 0.5 s): the
 * string sticks until 0.1 s, then moves in ideal Helmholtz motion at 98 Hz (slips of a
 * fraction beta of the period at v_b / beta, a sawtooth bridge force with a ripple at
 * harmonic 13). While it slips f/f_b falls from 0.3 to 0.2 and tau rises from 5 to 15 K;
 * while it sticks f/f_b is 0.5 and tau cools back to 5 K. So the f - v loop of a period
 * runs clockwise with area -0.1 v_b / (2 beta), the tau - v loop anticlockwise with
 * area 10 v_b / beta. */
#include "check.h"
#include "base/util.h"
#include "io/params.h"
#include "bow/stroke.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define F0 98.0
#define BETA 0.075

int main(void)
{
    bow_instrument in;
    memset(&in, 0, sizeof in);
    in.L = 0.7, in.f0 = F0, in.T = 149.74;
    gesture g = gesture_stroke(0.5, 0.1, 0.3, 0.0, 2.15, BETA * in.L);
    size_t n = (size_t)(g.duration * FS) + 1;
    double *c[7];
    for (int k = 0; k < 7; k++)
        c[k] = xcalloc(n, sizeof(double));
    double *t = c[0], *vb = c[1], *v = c[2], *F = c[3], *fr = c[4], *tm = c[5], *tx = c[6];
    double pp = regime_helmholtz_pp(in.T, 0.1, BETA, 2 * in.L * in.f0);
    for (size_t k = 0; k < n; k++) {
        t[k] = k / FS, vb[k] = gesture_value(&g.velocity, t[k]);
        double ph = t[k] < 0.1 ? -1 : fmod((t[k] - 0.1) * F0, 1.0);
        bool slip = ph >= 0 && ph < BETA;
        v[k] = slip ? vb[k] / BETA : 0.0;
        F[k] = t[k] < 0.1 ? 0.0 : pp * (ph - 0.5) + 0.05 * pp * sin(2 * M_PI * 13 * F0 * t[k]);
        fr[k] = slip ? 0.3 - 0.1 * ph / BETA : 0.5;
        tm[k] = tx[k] = t[k] < 0.1 ? 5.0 : slip ? 5.0 + 10.0 * ph / BETA : 15.0 - 10.0 * (ph - BETA) / (1 - BETA);
    }
    stroke_trace tr = {t, vb, v, F, fr, tm, tx, n, FS, F, n, FS};
    stroke_summary s;
    stroke_summarise(&tr, &in, &g, &s);
    check(fabs(s.w0 - 0.3) < 1e-12 && fabs(s.w1 - 0.5) < 1e-12, "window: %g-%g s (the hold less its first third)", s.w0,
          s.w1);
    check_close("fundamental, Hz", s.f0, F0, 0.1);
    check_close("first slip, s", s.first_slip, 0.1, 0.5 / FS);
    check_close("slips per period", s.slips_per_period, 1.0, 0.05);
    check(labs(s.slips - lround(0.2 * F0)) <= 1, "slips in the 0.2 s window: %ld (about %g)", s.slips, 0.2 * F0);
    check(fabs(s.ripples - 13) < 0.5, "Schelleng ripples per period: %g (13)", s.ripples);
    check_close("peak temperature rise, K", s.peak_tau, 15.0, 0.01);
    check_close("bow velocity in the window, m/s", s.v_window, 0.1, 1e-12);
    check(s.regime.kind == REGIME_HELMHOLTZ, "regime: %s (%s)", regime_name(s.regime.kind), s.regime.why);
    check(isnan(s.regime.centroid_hz), "no spectral centroid (its FFT was a fifth of bin/bow --quick's CPU): %g",
          s.regime.centroid_hz);
    double V = 0.1 / BETA;
    check_close("f/f_b - v loop, last three periods, m/s", s.loop_f, 3 * -0.05 * V, 0.05 * 0.15 * V);
    check(strcmp(stroke_loop_direction(s.loop_f), "clockwise") == 0, "f/f_b - v loop: %s",
          stroke_loop_direction(s.loop_f));
    check_close("tau - v loop, last three periods, K m/s", s.loop_tau, 3 * 10 * V, 0.05 * 30 * V);
    check(strcmp(stroke_loop_direction(s.loop_tau), "anticlockwise") == 0, "tau - v loop: %s",
          stroke_loop_direction(s.loop_tau));
    /* the bow at rest in the window: no regime, and said why */
    gesture rest = g;
    rest.velocity.n = 1, rest.velocity.value[0] = 0.0;
    stroke_summarise(&tr, &in, &rest, &s);
    check(s.regime.kind == REGIME_UNCLASSIFIED && s.regime.reason == REGIME_REASON_INPUT,
          "bow at rest: %s (%s)", regime_name(s.regime.kind), s.regime.why);
    for (int k = 0; k < 7; k++)
        free(c[k]);
    return check_done();
}
