/* test_bow.c: the bowed-string model keeps the article's promises: Appendix B's Newton solve
 * inverts (B.2); the friction law's partial derivatives (used by the fixed-step Newton) are
 * right; the energy balance (64) holds to CVODE's tolerance and to O(dt^2) for the fixed-step
 * scheme; tau >= 0 and |z| < mu_s / sigma0 (18) on every run; the two solvers agree; the
 * gesture does what it says; the vector-lane forms of the friction law and of the fixed step's
 * contact solve give the bits of their scalar forms. Short runs on a reduced mode set. */
#include "check.h"
#include "../src/bow/bow_fixed.c"       /* its static parts are tested too (test_residual_lanes) */
#include "bow/gesture.h"
#include "io/params.h"
#include "bow/bow.h"
#include "base/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bow_instrument cello(void)
{
    bow_instrument in;
    param_spec spec[BOW_NKEYS + 1];
    bow_param_table(&in, spec);
    char err[400];
    if (params_load(spec, params_path("cello-g.ini"), false, err, sizeof err) != 0) {
        printf("FAIL: cello-g.ini: %s\n", err);
        exit(1);
    }
    return in;
}

static void test_steady_state(const bow_instrument *in)
{
    /* Figure 4's values and the cello's */
    bow_friction f4 = bow_friction_of(in);
    f4.mu_s = 1.2, f4.mu_d = 0.3, f4.b_tau = 0.05, f4.c_tau = 1e-4, f4.y_a = 0.4, f4.xi = 3.0;
    bow_friction sets[4] = {f4, f4, f4, bow_friction_of(in)};
    sets[0].tau_g = 15, sets[1].tau_g = 25, sets[2].tau_g = 35;
    double F_b[4] = {100, 100, 100, 215};
    for (int c = 0; c < 4; c++) {
        double worst = 0, worst_res = 0;
        int maxit = 0;
        for (double tau = 0.5; tau <= 120; tau *= 1.3) {
            double v = bow_v_of_tau(&sets[c], tau, F_b[c]), back;       /* (B.2) */
            int it = bow_tau_of_v(&sets[c], v, F_b[c], &back);          /* Newton on (B.3) */
            maxit = it < 0 || it > maxit ? (it < 0 ? 999 : it) : maxit;
            worst = fmax(worst, fabs(back - tau) / tau);
            /* (B.1) itself at the solution */
            double res = (sets[c].b_tau * sqrt(v / F_b[c]) + sets[c].c_tau) * back - bow_mu_ss(&sets[c], back) * v;
            worst_res = fmax(worst_res, fabs(res) / (bow_mu_ss(&sets[c], back) * v));
        }
        check(worst < 1e-10 && maxit < 30,
              "Appendix B (tau_g %g, F_b %g N/m): Newton tau(v) inverts (B.2) to %.2e relative, <= %d iterations",
              sets[c].tau_g, F_b[c], worst, maxit);
        check(worst_res < 1e-12, "Appendix B (tau_g %g): (B.1) residual at the solution %.2e", sets[c].tau_g, worst_res);
    }
    /* mu_ss decreasing, mu_str above mu_ss, tau(v) increasing (section 2.2.7) */
    bow_friction fr = bow_friction_of(in);
    double prev_tau = -1, prev_mu = 10;
    int ok = 1;
    for (double v = 1e-4; v < 3; v *= 1.5) {
        double tau;
        bow_tau_of_v(&fr, v, 215, &tau);
        double mss = bow_mu_ss(&fr, tau), mstr = bow_mu_str(&fr, v, 215, NULL, NULL);
        ok &= tau > prev_tau && mss < prev_mu && mstr > mss;
        prev_tau = tau, prev_mu = mss;
    }
    check(ok, "steady state: tau(v) increases, mu_ss(v) decreases, mu_str(v) > mu_ss(v) for v in [1e-4, 3] m/s");
    /* d mu_ss / d tau against a central difference (the printed (B.4) lacks xi and a square) */
    double werr = 0;
    for (double tau = 1; tau < 90; tau += 7) {
        double h = 1e-5 * tau;
        double fd = (bow_mu_ss(&fr, tau + h) - bow_mu_ss(&fr, tau - h)) / (2 * h);
        werr = fmax(werr, fabs(bow_dmu_ss(&fr, tau) - fd) / fabs(fd));
    }
    check(werr < 1e-6, "d mu_ss/d tau against central differences: %.2e relative", werr);
    /* the Stribeck slope */
    double v = 0.3, dm, h = 1e-6;
    bow_mu_str(&fr, v, 215, &dm, NULL);
    double fd = (bow_mu_str(&fr, v + h, 215, NULL, NULL) - bow_mu_str(&fr, v - h, 215, NULL, NULL)) / (2 * h);
    check(fabs(dm - fd) < 1e-5 * fabs(fd), "d mu_str/dv at 0.3 m/s: %.6g against %.6g", dm, fd);
}

static void test_contact_partials(const bow_instrument *in)
{
    bow_friction fr = bow_friction_of(in);
    double F_b = 215, zs = fr.mu_s / fr.sigma0;
    /* points in the three regions of the adhesion map, sliding both ways */
    double pts[][3] = {{0.45 * zs, 0.2, 10}, {0.6 * zs, 0.5, 30}, {0.9 * zs, 1.2, 40}, {-0.5 * zs, -0.3, 20},
                       {0.3 * zs, 0.05, 5}};
    double worst = 0;
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
        double z = pts[k][0], v = pts[k][1], tau = pts[k][2];
        bow_contact_rates c, p, q;
        bow_contact(&fr, z, v, tau, F_b, NULL, true, &c);
        double hz = 1e-6 * zs, hv = 1e-6 * fabs(v), ht = 1e-6 * tau;
        double an[6] = {c.s_z, c.s_v, c.s_tau, c.t_z, c.t_v, c.t_tau}, fd[6];
        bow_contact(&fr, z + hz, v, tau, F_b, NULL, false, &p);
        bow_contact(&fr, z - hz, v, tau, F_b, NULL, false, &q);
        fd[0] = (p.varsigma - q.varsigma) / (2 * hz), fd[3] = (p.dtau - q.dtau) / (2 * hz);
        bow_contact(&fr, z, v + hv, tau, F_b, NULL, false, &p);
        bow_contact(&fr, z, v - hv, tau, F_b, NULL, false, &q);
        fd[1] = (p.varsigma - q.varsigma) / (2 * hv), fd[4] = (p.dtau - q.dtau) / (2 * hv);
        bow_contact(&fr, z, v, tau + ht, F_b, NULL, false, &p);
        bow_contact(&fr, z, v, tau - ht, F_b, NULL, false, &q);
        fd[2] = (p.varsigma - q.varsigma) / (2 * ht), fd[5] = (p.dtau - q.dtau) / (2 * ht);
        for (int i = 0; i < 6; i++) {
            double scale = fmax(fabs(fd[i]), 1e-6 * (fabs(an[0]) + fabs(an[3]) + 1.0));
            worst = fmax(worst, fabs(an[i] - fd[i]) / scale);
        }
    }
    check(worst < 1e-4, "contact partials (varsigma, dtau/dt by z, v, tau) against central differences: %.2e", worst);
    bow_contact_rates c;
    bow_contact(&fr, 0.4 * zs, 0.0, 10, F_b, NULL, true, &c);
    check(c.varsigma == 0.0 && c.dtau < 0, "v = 0: varsigma = 0 (60) and the temperature only decays (%.3g K/s)", c.dtau);
    bow_contact(&fr, 0.1 * zs, 0.3, 0, F_b, NULL, false, &c);
    check(c.varsigma == 0.0, "|z| <= z_ba: alpha = 0, no sliding between bristles and string (12)");
}

typedef struct watch {
    const bow_model *m;
    double H0, residual, z_max, tau_min, bridge_max;
    long n;
    double *bridge;     /* bridge force at each sample (optional) */
    size_t cap;
} watch;

static int watch_sink(double t, const double *x, void *ctx)
{
    watch *w = ctx;
    bow_obs o;
    bow_observe(w->m, t, x, &o);
    if (w->n == 0)
        w->H0 = o.H, w->tau_min = INFINITY;
    w->residual = fmax(w->residual, fabs(o.H - w->H0 - (o.e_in - o.e_out)));
    w->z_max = fmax(w->z_max, o.z_absmax);
    w->tau_min = fmin(w->tau_min, o.tau_min);
    w->bridge_max = fmax(w->bridge_max, fabs(o.bridge_u));
    if (w->bridge && (size_t)w->n < w->cap)
        w->bridge[w->n] = o.bridge_u;
    w->n++;
    return 0;
}

static void test_runs(const bow_instrument *in0)
{
    bow_instrument in = *in0;
    in.f_max = 1500;                            /* a reduced mode set: quick */
    gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in.L);   /* Figure 6's stroke */
    double T = 0.06, dt_out = 2e-5;             /* through the first slip (about 0.054 s) */
    bow_model m;
    char err[300];
    int rc0 = bow_model_init(&m, &in, &g, err, sizeof err);
    check(rc0 == 0, "model: %d + %d modes, N = %d", m.Mu, m.Mw, m.N);
    size_t cap = (size_t)lround(T / dt_out) + 2;
    double *x = xcalloc(m.at.dim, sizeof(double));
    watch cv = {&m, 0, 0, 0, 0, 0, 0, xcalloc(cap, sizeof(double)), cap};
    bow_run_opts o = {BOW_CVODE, 0, 1e-8, 1e-13, dt_out, T, watch_sink, &cv};
    bow_run_result r;
    int rc = bow_run(&m, &o, x, &r);
    check(rc == 0, "CVODE BDF to %g s: %ld steps, %.2f s %s", T, r.steps, r.seconds, r.message);
    double zb = in.mu_s / in.sigma0;
    bow_obs last;
    bow_observe(&m, T, x, &last);
    check(cv.residual / last.e_abs < 1e-6, "CVODE energy balance: max|H - H0 - int(P - Q)| / int|P| = %.2e (rtol 1e-8)",
          cv.residual / last.e_abs);
    check(cv.z_max < zb && cv.tau_min >= 0, "CVODE: |z| max %.4f of mu_s/sigma0 (18), tau min %.3g K >= 0",
          cv.z_max / zb, cv.tau_min);
    double res_h[2], err_h[2];
    for (int l = 0; l < 2; l++) {
        double h = l == 0 ? 1e-5 : 5e-6;
        watch fx = {&m, 0, 0, 0, 0, 0, 0, xcalloc(cap, sizeof(double)), cap};
        bow_run_opts of = {BOW_FIXED, h, 0, 0, dt_out, T, watch_sink, &fx};
        rc = bow_run(&m, &of, x, &r);
        bow_observe(&m, T, x, &last);
        res_h[l] = fx.residual / last.e_abs;
        double e = 0;
        for (long k = 0; k < fx.n && k < cv.n; k++)
            e = fmax(e, fabs(fx.bridge[k] - cv.bridge[k]));
        err_h[l] = e / cv.bridge_max;
        check(rc == 0 && fx.z_max < zb && fx.tau_min >= 0,
              "fixed dt = %g s: %.2f Newton iterations a step, |z| max %.4f of the bound, tau min %.3g K", h,
              (double)r.newton / r.steps, fx.z_max / zb, fx.tau_min);
        free(fx.bridge);
    }
    check(err_h[1] < 1e-3 && err_h[0] / err_h[1] > 2.5,
          "fixed step against CVODE through the first slip: max bridge-force error %.2e (10 us), %.2e (5 us): order %.2f",
          err_h[0], err_h[1], log2(err_h[0] / err_h[1]));
    check(res_h[1] < 1e-4 && res_h[0] / res_h[1] > 2.5,
          "fixed-step energy residual is O(dt^2): %.2e (10 us), %.2e (5 us)", res_h[0], res_h[1]);
    /* the stroke for sweeps */
    double *br = NULL, *vr = NULL;
    size_t n = 0;
    gesture gs = g;
    gs.duration = 0.01;
    rc = bow_stroke(&in, &gs, &br, &vr, &n, err, sizeof err);
    check(rc == 0 && n == 2001 && fabs(br[n - 1] - 0.0) > 0 && vr[0] == 0.0,
          "bow_stroke: %zu samples of bridge force and relative velocity over 10 ms", n);
    free(br);
    free(vr);
    free(cv.bridge);
    free(x);
    bow_model_free(&m);
    /* the bow off the string is refused */
    gesture off = gesture_stroke(0.5, 0.1, 0.1, 0, 2, 0.001);
    check(bow_model_init(&m, &in, &off, err, sizeof err) != 0, "bow off the string refused: %s", err);
}

/* The analytic Jacobian of (81)-(88) against central differences of the right-hand side. */
static void test_jacobian(const bow_instrument *in0)
{
    bow_instrument in = *in0;
    in.f_max = 1200;
    gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in.L);
    g.force.n = 2, g.force.time[1] = 0.1, g.force.value[1] = 3.0;     /* a load change too */
    bow_model m;
    char err[300];
    if (bow_model_init(&m, &in, &g, err, sizeof err) != 0) {
        check(0, "jacobian model: %s", err);
        return;
    }
    ivp p = bow_ivp(&m);
    size_t n = p.dim;
    double *x = xcalloc(n, sizeof(double)), *J = xcalloc(n * n, sizeof(double));
    double *f1 = xcalloc(n, sizeof(double)), *f2 = xcalloc(n, sizeof(double)), *xs = xcalloc(n, sizeof(double));
    /* a state in the middle of a slip: string and hair moving, z in the adhesion map's ramp */
    double zs = in.mu_s / in.sigma0;
    for (size_t i = 0; i < n; i++)
        x[i] = 1e-5 * sin(1.0 + 3.0 * i);
    for (int j = 0; j < m.N; j++) {
        x[m.at.v + j] = 0.4 + 0.05 * j;
        x[m.at.z + j] = (0.55 + 0.05 * j) * zs;
        x[m.at.tau + j] = 20 + 2 * j;
        x[m.at.ud + j] = 0.01 * j;
    }
    double t = 0.05;
    p.jac(t, x, J, p.params);
    double worst = 0;
    for (size_t c = 0; c < n; c++) {
        /* steps by the block's scale: modal displacement 1e-4 m, velocities 0.1 m/s, hair
         * 1e-6 m, z the bound, tau 1 K, energies 1e-3 J */
        const bow_layout *L = &m.at;
        double sc = c < L->q ? 1e-4 : c < L->ud ? 1e-6 : c < L->z ? 0.1 : c < L->tau ? zs : c < L->e_in ? 1.0 : 1e-3;
        double hstep = 1e-6 * fmax(fabs(x[c]), sc);
        memcpy(xs, x, n * sizeof(double));
        xs[c] = x[c] + hstep;
        p.rhs(t, xs, f1, p.params);
        xs[c] = x[c] - hstep;
        p.rhs(t, xs, f2, p.params);
        for (size_t r = 0; r < n; r++) {
            double fd = (f1[r] - f2[r]) / (2 * hstep), an = J[r * n + c];
            double scale = fmax(fabs(fd), 1e-6 * (fabs(J[r * n + r]) + 1.0));
            worst = fmax(worst, fabs(an - fd) / scale);
        }
    }
    check(worst < 1e-4, "analytic Jacobian of (81)-(88) (%zu states) against central differences: %.2e", n, worst);
    /* What CVODE's bordered solver relies on: outside bow_border's unknowns, a nonzero of J that
     * touches a mode only joins its displacement and its velocity. */
    long *border = xcalloc(n, sizeof(long)), k = bow_border(&m, border);
    char *in_b = xcalloc(n, 1);
    for (long a = 0; a < k; a++)
        in_b[border[a]] = 1;
    long stray = 0, pairs = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++) {
            if (r == c || in_b[r] || in_b[c] || J[r * n + c] == 0.0 ||
                (r >= m.at.q && r < m.at.ud && c >= m.at.q && c < m.at.ud) ||
                (r >= m.at.v && c >= m.at.v))   /* neither is a mode */
                continue;
            size_t lo = r < c ? r : c, hi = r < c ? c : r;
            bool pair = (lo < m.at.w && hi == m.at.ud + lo) ||
                        (lo >= m.at.w && lo < m.at.q && hi == m.at.wd + lo - m.at.w);
            pairs += pair, stray += !pair;
        }
    check(k == 3 * m.N + 1 && stray == 0 && pairs == 2 * (m.Mu + m.Mw),
          "bow_border: %ld unknowns (3 N + 1); outside them J couples a mode only to itself (its displacement "
          "and velocity: %ld such entries, %ld others)", k, pairs, stray);
    free(border), free(in_b);
    free(x), free(J), free(f1), free(f2), free(xs);
    bow_model_free(&m);
}

static void test_gesture(void)
{
    gesture g = gesture_stroke(0.5, 0.1, 0.3, 1.0, 2.15, 0.05);
    check(fabs(gesture_value(&g.velocity, 0.1) - 0.05) < 1e-15 && gesture_value(&g.velocity, 0.3) == 0.1 &&
              fabs(gesture_value(&g.velocity, 0.55) - 0.05) < 1e-12 && gesture_value(&g.velocity, 1) == 0.0,
          "stroke: ramp 0.5 m/s^2, hold 0.1 m/s, ramp down at 1 m/s^2, rest (duration %g s)", g.duration);
    check(gesture_slope(&g.velocity, 0.1) == 0.5 && gesture_slope(&g.velocity, 0.3) == 0.0 &&
              fabs(gesture_slope(&g.velocity, 0.55) + 1.0) < 1e-12, "stroke: acceleration 0.5, 0, -1 m/s^2");
    double br[8];
    int nb = gesture_breaks(&g, 0, 1, br, 8);
    check(nb == 3 && fabs(br[0] - 0.2) < 1e-15 && fabs(br[2] - 0.6) < 1e-12, "breakpoints: %d (0.2, 0.5, 0.6 s)", nb);
    double w0, w1;
    gesture_steady_window(&g, &w0, &w1);
    check(fabs(w0 - 0.3) < 1e-12 && fabs(w1 - 0.5) < 1e-12, "steady window of the stroke: %g-%g s (the hold 0.2-0.5 s "
          "less its first third)", w0, w1);
    gesture_track tr;
    char why[200];
    check(gesture_track_parse("0:0,0.3:0.3", &tr, why, sizeof why) == 0, "a ramp parses");
    gesture ramp = g;
    ramp.velocity = tr, ramp.duration = 0.3;
    gesture_steady_window(&ramp, &w0, &w1);
    check(fabs(w0 - 0.2) < 1e-12 && w1 == 0.3, "a ramp has no constant part: the last third %g-%g s", w0, w1);
    check(gesture_track_parse("0:0,0.1:0.2,0.2:0.2,0.3:0.1,0.6:0.1", &tr, why, sizeof why) == 0, "two holds parse");
    ramp.velocity = tr, ramp.duration = 0.5;
    gesture_steady_window(&ramp, &w0, &w1);
    check(fabs(w0 - 0.3 - 0.2 / 3) < 1e-12 && w1 == 0.5, "two holds: the longer, clipped to the duration (%g-%g s)",
          w0, w1);
    check(gesture_track_parse("0:0,0.1:0.05,0.5:0.05", &tr, why, sizeof why) == 0 && tr.n == 3, "track parses");
    check(gesture_track_parse("0:0,0.1", &tr, why, sizeof why) != 0, "track 0:0,0.1 refused: %s", why);
    check(gesture_track_parse("0.2:0,0.1:1", &tr, why, sizeof why) != 0, "decreasing times refused: %s", why);
}

/* The study of lesson 10 (bow-figures.ini's values: through the first slip): the error falls
 * about fourfold a halving of the step. */
static void test_convergence(const bow_instrument *in0)
{
    bow_instrument in = *in0;
    in.f_max = 1500;
    gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in.L);
    bow_model m;
    char err[600];
    bow_model_init(&m, &in, &g, err, sizeof err);
    double h[2] = {2e-5, 1e-5};
    bow_convergence c;
    int rc = bow_convergence_run(&m, 1e-9, 1e-13, 2e-5, 0.06, h, 2, &c, err, sizeof err);
    check(rc == 0 && c.n == 3001 && c.nfixed[1] == 3001, "convergence study to 60 ms: %zu reference samples", c.n);
    double p = rc == 0 ? log2(c.err[0] / c.err[1]) : NAN;
    check(fabs(p - 2) < 0.3 && c.err[1] < 1e-3, "convergence study: errors %.2e (20 us), %.2e (10 us): order %.2f (2)",
          rc == 0 ? c.err[0] : NAN, rc == 0 ? c.err[1] : NAN, p);
    double it = rc == 0 ? c.newton[0] : NAN;
    check(it >= 1 && c.seconds[0] >= 0, "convergence study: %.2f Newton iterations a step", it);
    bow_convergence_free(&c);
    bow_convergence_free(&c);
    rc = bow_convergence_run(&m, 1e-9, 1e-13, 2e-5, 0.01, h, 0, &c, err, sizeof err);
    check(rc == 0 && c.levels == 0, "convergence study with no fixed step: the reference alone");
    bow_convergence_free(&c);
    bow_model_free(&m);
}

/* Figure 8d's exact answer: before the release reaches the bridge (x_p / c) the force is the
 * static T u0 / x_p of the held triangle; long after, the losses have taken most of it. */
static void test_pluck(const bow_instrument *in)
{
    gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in->L);
    bow_model m;
    char err[300];
    bow_model_init(&m, in, &g, err, sizeof err);
    double xp = 0.104 * in->L, u0 = 1e-3, c = 2 * in->L * in->f0, F = in->T * u0 / xp;
    check_close("pluck: bridge force at release over T u0 / x_p", bow_pluck_bridge(&m, xp, u0, 0.0) / F, 1.0, 0.03);
    double mean = 0;    /* the modal sum rings about the static value (Gibbs): its mean */
    for (int k = 0; k < 100; k++)
        mean += bow_pluck_bridge(&m, xp, u0, 0.4 * xp / c * k / 100) / 100;
    check_close("pluck: mean over the first 0.4 x_p / c over T u0 / x_p", mean / F, 1.0, 0.02);
    check(fabs(bow_pluck_bridge(&m, xp, u0, 1.2 * xp / c)) < 0.6 * F, "pluck: dropped at 1.2 x_p / c (%.3f N of %.3f)",
          bow_pluck_bridge(&m, xp, u0, 1.2 * xp / c), F);
    double late = 0;
    for (int k = 0; k < 2000; k++)
        late = fmax(late, fabs(bow_pluck_bridge(&m, xp, u0, 2.0 + k * 5e-6)));
    check(late < 0.05 * F, "pluck: after 2 s below 5%% of the static force (%.3g N)", late);
    bow_model_free(&m);
}

/* The fixed-step scheme's pass over the modes sums what an observation of the state it made
 * needs (bow_observe reads them): the same bits as bow_observe's own pass over a copy of that
 * state, at every step, the state itself left as that pass reads it (modes in fours and the
 * rest: 128 + 33 at N = 4), and at N = 3 (the general pass). */
typedef struct same_sums {
    const bow_model *m;
    double *copy;
    long steps, differ;
} same_sums;

static int same_sums_sink(double t, const double *x, void *ctx)
{
    same_sums *s = ctx;
    bow_obs a, b;
    bow_observe(s->m, t, x, &a);
    memcpy(s->copy, x, s->m->at.dim * sizeof(double));
    bow_observe(s->m, t, s->copy, &b);
    s->steps++;
    s->differ += a.bridge_u != b.bridge_u || a.bridge_w != b.bridge_w || a.H != b.H ||
                 a.P != b.P || a.Q != b.Q;
    return 0;
}

static void test_pass_sums(const bow_instrument *in0)
{
    for (int N = 4; N >= 3; N--) {
        bow_instrument in = *in0;
        in.N = N;
        gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in.L);
        bow_model m;
        char err[300];
        if (bow_model_init(&m, &in, &g, err, sizeof err) != 0) {
            check(0, "pass sums model: %s", err);
            return;
        }
        double *x = xcalloc(m.at.dim, sizeof(double));
        same_sums s = {&m, xcalloc(m.at.dim, sizeof(double)), 0, 0};
        bow_run_opts o = {BOW_FIXED, 5e-6, 0, 0, 5e-6, 0.06, same_sums_sink, &s};
        bow_run_result r;
        int rc = bow_run(&m, &o, x, &r);
        check(rc == 0 && s.steps == 12001 && s.differ == 0,
              "fixed step, %d + %d modes, N = %d, through the first slip: the pass's sums "
              "(bridge, H, P, Q) differ from a fresh pass's at %ld of %ld states", m.Mu, m.Mw, N,
              s.differ, s.steps);
        free(s.copy);
        free(x);
        bow_model_free(&m);
    }
}

static double unit_draw(unsigned long long *r)   /* xorshift64: a uniform draw in [0, 1) */
{
    *r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
    return (double)(*r >> 11) / 9007199254740992.0;
}

/* bow_contacts (and bow_contacts4), four points in vector lanes, against bow_contact point by
 * point: the same bits
 * in every rate and every solved tau(|v|), at n = 1..9 points (lanes left over at n % 4), with
 * and without the partials, for roll-off exponents 2 (the cello's), 3, 1 and 2.5 (libm's exp and
 * log per lane), on points that stick, slide in the sine's band and slide fully, from guesses anywhere (the
 * solve's bisection steps too). */
static void test_contacts_lanes(const bow_instrument *in)
{
    bow_friction fr[4];
    const double xi[4] = {2.0, 3.0, 1.0, 2.5};
    unsigned long long r = 88172645463325252ULL;
#define UNIT() unit_draw(&r)
    long points = 0, differ = 0, solves = 0;
    for (int c = 0; c < 4; c++) {
        fr[c] = bow_friction_of(in);
        fr[c].xi = xi[c];
        double zs = fr[c].mu_s / fr[c].sigma0;
        for (int trial = 0; trial < 2400; trial++) {
            int n = 1 + trial % 9;
            bool derivs = trial % 2;
            double z[9], v[9], tau[9], F_b = 50 + 400 * UNIT(), tss[9], tss1[9];
            for (int j = 0; j < n; j++) {
                z[j] = (2.2 * UNIT() - 1.1) * zs;
                double sign = UNIT() < 0.5 ? -1 : 1;
                v[j] = sign * exp(log(1e-6) + UNIT() * log(2e6));
                v[j] = UNIT() < 0.05 ? 0.0 : v[j];
                tau[j] = UNIT() < 0.1 ? 0.0 : 100 * UNIT() - 5;
                /* guesses: none, anywhere, near either end of the solve's bracket [0, hi] */
                double hi = fr[c].mu_s * fabs(v[j]) /
                            (fr[c].b_tau * sqrt(fabs(v[j]) / F_b) + fr[c].c_tau), u = UNIT();
                double g[4] = {-1.0, 150 * u, hi * pow(u, 6), hi * (1 - 0.01 * pow(u, 4))};
                tss[j] = tss1[j] = g[trial / 2 % 4];
            }
            bow_contact_rates one[9], lanes[9];
            for (int j = 0; j < n; j++) {
                bow_contact(&fr[c], z[j], v[j], tau[j], F_b, &tss1[j], derivs, &one[j]);
                solves += tss1[j] != tss[j];
            }
            double tss4[4];
            memcpy(tss4, tss, sizeof tss4);
            bow_contacts(&fr[c], n, z, v, tau, F_b, tss, derivs, lanes);
            for (int j = 0; j < n; j++, points++)
                differ += memcmp(&one[j], &lanes[j], sizeof one[j]) != 0 ||
                          memcmp(&tss1[j], &tss[j], sizeof tss[j]) != 0;
            if (n == 4) {       /* and bow_contacts4, field by field */
                bow_contact_rates4 r4;
                bow_contacts4(&fr[c], z, v, tau, F_b, tss4, derivs, &r4);
                for (int j = 0; j < 4; j++, points++) {
                    bow_contact_rates q = {.varsigma = r4.varsigma[j], .dtau = r4.dtau[j],
                                           .s_z = r4.s_z[j], .s_v = r4.s_v[j],
                                           .s_tau = r4.s_tau[j], .t_z = r4.t_z[j],
                                           .t_v = r4.t_v[j], .t_tau = r4.t_tau[j]};
                    differ += memcmp(&one[j], &q, sizeof q) != 0 ||
                              memcmp(&tss1[j], &tss4[j], sizeof tss4[j]) != 0;
                }
            }
        }
    }
#undef UNIT
    check(differ == 0 && solves > points / 4,
          "bow_contacts (and bow_contacts4 at n = 4) in lanes: %ld of %ld points differ in a bit from bow_contact's (%ld of them "
          "solved tau(|v|)), n = 1..9, xi = 2, 3, 1, 2.5", differ, points, solves);
}

/* What one evaluation leaves: v, the residual, the rates, the Jacobian's blocks, the guesses. */
typedef struct evaluation {
    double norm, v[4], R[8], zd1[4], taud1[4], jzt[4], jtt[4], jtz[16], J[16], tss[4];
    double dX[8], LU[16];   /* the Newton update from there, and J's factors */
} evaluation;

static evaluation evaluate(fixed *s, bool four, double F_b1, double k1, const step_vecs *w,
                           const double *guesses, bool jac)
{
    evaluation e;
    memset(&e, 0, sizeof e);
    memcpy(s->m->tss, guesses, 4 * sizeof(double));
    e.norm = (four ? contact_residual4 : contact_residual_rows)(s, F_b1, k1, w, w->z, w->tau, jac);
    memcpy(e.v, w->v, sizeof e.v);
    memcpy(e.R, s->R->data, sizeof e.R);
    memcpy(e.zd1, s->zd1, sizeof e.zd1), memcpy(e.taud1, s->taud1, sizeof e.taud1);
    if (jac) {
        memcpy(e.jzt, s->jzt, sizeof e.jzt), memcpy(e.jtt, s->jtt, sizeof e.jtt);
        memcpy(e.jtz, s->jtz, sizeof e.jtz), memcpy(e.J, s->J.a, sizeof e.J);
        if ((four ? newton_direction4(s) : newton_direction_rows(s, 4)) == 0)
            memcpy(e.dX, s->dX->data, sizeof e.dX);
        memcpy(e.LU, s->J.a, sizeof e.LU);
    }
    memcpy(e.tss, s->m->tss, sizeof e.tss);
    return e;
}

/* contact_residual4 and newton_direction4 (bow_fixed.c's static parts, included above), the
 * contact residual with its Jacobian and the Newton update at N = 4 in vector lanes, against
 * contact_residual_rows and newton_direction_rows, the forms for any N, bit for bit. */
static void test_residual_lanes(const bow_instrument *in)
{
    char err[300];
    gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in->L);
    bow_model m;
    if (bow_model_init(&m, in, &g, err, sizeof err) != 0 || m.N != 4) {
        check(0, "residual lanes model: %s", err);
        return;
    }
    fixed s;
    fixed_init(&s, &m, in->dt);
    step_vecs w = step_carve(s.vec, 4);     /* the step's vectors the residual reads */
    unsigned long long r = 0x9E3779B97F4A7C15ULL;
    double zs = m.fr.mu_s / m.fr.sigma0;
    long differ = 0, trials = 4000, slid = 0;
    for (long t = 0; t < trials; t++) {
        double F_b1 = (0.2 + 4 * unit_draw(&r)) / in->W_b, k1 = m.dx * m.fr.sigma0 * F_b1;
        double guess[4];
        for (int j = 0; j < 4; j++) {
            w.v0[j] = 0.6 * unit_draw(&r) - 0.3, w.z[j] = (2.2 * unit_draw(&r) - 1.1) * zs;
            w.tau[j] = 60 * unit_draw(&r), w.zn[j] = w.z[j] * (1 - 0.01 * unit_draw(&r));
            w.taun[j] = w.tau[j] * (1 - 0.01 * unit_draw(&r)), w.zdn[j] = unit_draw(&r) - 0.5;
            guess[j] = unit_draw(&r) < 0.3 ? -1.0 : 80 * unit_draw(&r);
            w.taudn[j] = 1e4 * (unit_draw(&r) - 0.5);
        }
        bool jac = t % 3 != 0;
        evaluation a = evaluate(&s, false, F_b1, k1, &w, guess, jac);
        evaluation b = evaluate(&s, true, F_b1, k1, &w, guess, jac);
        differ += memcmp(&a, &b, sizeof a) != 0;
        for (int j = 0; j < 4; j++)
            slid += a.tss[j] != guess[j];
    }
    check(differ == 0 && slid > trials,
          "contact residual and Newton update at N = 4 in lanes against the rows: %ld of %ld "
          "evaluations differ in a bit (v, residual, rates, Jacobian blocks, guesses, update; "
          "%ld points slid)", differ, trials, slid);
    fixed_free(&s);
    bow_model_free(&m);
}

int main(void)
{
    bow_instrument in = cello();
    test_gesture();
    test_steady_state(&in);
    test_contact_partials(&in);
    test_contacts_lanes(&in);
    test_residual_lanes(&in);
    test_jacobian(&in);
    test_runs(&in);
    test_pass_sums(&in);
    test_convergence(&in);
    test_pluck(&in);
    return check_done();
}
