/* test_cvode.c: the CVODE driver matches the exact oscillator to its tolerance, reports its
 * statistics, finds events by root functions, and explains a failure. */
#include "check.h"
#include "../src/drive/cvode.c"     /* its static parts are tested too (inverse_weights) */
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

/* A sample sink that notes the steps it sees in the statistics so far. */
typedef struct { const cvode_stats *st; long steps_seen; } stats_probe;

static int probe_sink(long k, double t, const double *y, void *c)
{
    (void)k, (void)t, (void)y;
    stats_probe *p = c;
    p->steps_seen = p->st->steps;
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

/* Oscillators (x_i, v_i) on springs k_i to a shared mass (s, w): the modes meet only through s
 * and w, the border. Mode 0 also drives a lag r (r' = x_0 - r, fed back into v_0'), so one group
 * has three unknowns. A cubic term keeps the Jacobian changing. */
#define NOSC 6
static int bordered_rhs(double t, const double *y, double *dy, void *params)
{
    (void)t; (void)params;
    double s = y[2 * NOSC], w = y[2 * NOSC + 1], r = y[2 * NOSC + 2], pull = 0;
    for (int i = 0; i < NOSC; i++) {
        double x = y[2 * i], v = y[2 * i + 1], om = 20.0 * (i + 1), k = 50.0 * (i + 1);
        dy[2 * i] = v;
        dy[2 * i + 1] = -om * om * x - pow(10.0, i) * v - 1e3 * x * x * x + k * (s - x) -
                        (i ? 0 : 30 * r);
        pull += k * (s - x);
    }
    dy[2 * NOSC] = w;
    dy[2 * NOSC + 1] = -pull - 400.0 * s - 0.5 * w;
    dy[2 * NOSC + 2] = y[0] - r;
    return 0;
}

static int bordered_jac(double t, const double *y, double *J, void *params)
{
    (void)t; (void)params;
    const int n = 2 * NOSC + 3, s = 2 * NOSC, w = s + 1, r = s + 2;
    memset(J, 0, sizeof(double) * n * n);
    for (int i = 0; i < NOSC; i++) {
        double x = y[2 * i], om = 20.0 * (i + 1), k = 50.0 * (i + 1);
        J[2 * i * n + 2 * i + 1] = 1.0;
        J[(2 * i + 1) * n + 2 * i] = -om * om - 3e3 * x * x - k;
        J[(2 * i + 1) * n + 2 * i + 1] = -pow(10.0, i);
        J[(2 * i + 1) * n + s] = k;
        J[w * n + 2 * i] = k;
        J[w * n + s] -= k;
    }
    J[1 * n + r] = -30;
    J[s * n + w] = 1.0;
    J[w * n + s] -= 400.0;
    J[w * n + w] = -0.5;
    J[r * n + 0] = 1.0;
    J[r * n + r] = -1.0;
    return 0;
}

/* CVODE_BORDERED against CVODE's dense LU on that problem: the same solution and work. */
static void test_bordered_cvode(void)
{
    ivp p = {.dim = 2 * NOSC + 3, .rhs = bordered_rhs, .jac = bordered_jac};
    const long border[] = {2 * NOSC + 1, 2 * NOSC}, bad[] = {3, 3}, far[] = {2 * NOSC + 3};
    double yd[2 * NOSC + 3], yb[2 * NOSC + 3], ye[2 * NOSC + 3];
    cvode_stats sd, sb, se;
    char err[400];
    int rc[3];
    for (int k = 0; k < 3; k++) {
        double *y = k == 0 ? yd : k == 1 ? yb : ye;
        for (int i = 0; i < 2 * NOSC + 3; i++)
            y[i] = i < 2 * NOSC ? 0.02 * (i % 2 ? 0 : i + 1) : (i == 2 * NOSC ? 0.1 : 0.0);
        cvode_opts o = cvode_defaults();
        o.rtol = 1e-9;
        o.atol = 1e-12;
        o.solver = k == 0 ? CVODE_DENSE : CVODE_BORDERED;
        o.border = k == 1 ? border : NULL;      /* k = 2: no border, the whole set one group */
        o.nborder = k == 1 ? 2 : 0;
        rc[k] = cvode_solve(&p, 0.0, y, 1.0, &o, k == 0 ? &sd : k == 1 ? &sb : &se, err,
                            sizeof err);
    }
    double worst = 0, worst_e = 0, big = 0;
    for (int i = 0; i < 2 * NOSC + 3; i++) {
        big = fmax(big, fabs(yd[i]));
        worst = fmax(worst, fabs(yb[i] - yd[i]));
        worst_e = fmax(worst_e, fabs(ye[i] - yd[i]));
    }
    check(rc[0] == 0 && rc[1] == 0 && rc[2] == 0 && worst <= 1e-6 * big && worst_e <= 1e-6 * big,
          "CVODE with the bordered solver (2 border unknowns, groups of 2 and 3) against the dense "
          "LU: max diff %.2e (no border: %.2e) of max |y| %.2e", worst, worst_e, big);
    check(fabs((double)(sb.steps - sd.steps)) <= sd.steps / 20.0 &&
              fabs((double)(sb.nniters - sd.nniters)) <= sd.nniters / 20.0,
          "CVODE with the bordered solver: the work of the dense LU within 5%% (%ld / %ld steps, "
          "%ld / %ld Newton iterations, %ld / %ld setups)", sb.steps, sd.steps, sb.nniters,
          sd.nniters, sb.nsetups, sd.nsetups);
    const char *what[] = {"a repeat", "an unknown out of range", "no list"};
    for (int k = 0; k < 3; k++) {
        cvode_opts o = cvode_defaults();
        o.solver = CVODE_BORDERED;
        o.border = k == 0 ? bad : k == 1 ? far : NULL;
        o.nborder = k == 0 ? 2 : 1;
        int r = cvode_solve(&p, 0.0, yd, 0.01, &o, &sd, err, sizeof err);
        check(r != 0 && strstr(err, "border is not a set of distinct unknowns"),
              "a border with %s is refused: %s", what[k], err);
    }
}

/* The bordered solver on one matrix: 40 unknowns, 4 in the border (one with no entry in the
 * rest's rows, one with none in the rest's columns), the rest in groups of 1 to 4 scattered over
 * the numbering, some needing row exchanges. The residual of M x = b, and a singular group. */
static void test_bordered_matrix(void)
{
    enum { N = 40 };
    const long border[] = {5, 17, 30, 39};
    static double M[N * N];
    double b[N], x[N];
    int grp[N];
    unsigned long seed = 12345;
#define RND() ((double)((seed = seed * 6364136223846793005UL + 1442695040888963407UL) >> 11) / \
               9007199254740992.0 - 0.5)
    for (int i = 0; i < N; i++) {              /* group of unknown i: scattered, sizes 1 to 4 */
        bool inb = i == 5 || i == 17 || i == 30 || i == 39;
        grp[i] = inb ? -1 : (i * 7) % 11;
    }
    for (int i = 0; i < N; i++) {
        b[i] = RND();
        for (int j = 0; j < N; j++) {
            bool bi = grp[i] < 0, bj = grp[j] < 0, same = !bi && !bj && grp[i] == grp[j];
            double v = RND();
            if (i == 39 && !bj)          /* border row 39: nothing from the rest */
                v = 0;
            if (j == 5 && !bi)           /* border column 5: in no rest row */
                v = 0;
            M[i * N + j] = (bi || bj || same) ? v : 0.0;
        }
        M[i * N + i] += grp[i] % 3 == 0 ? 0.0 : 3.0;   /* some groups pivot */
    }
#undef RND
    int rc = cvode_bordered_solve(N, M, border, 4, b, x);
    double res = 0, scale = 0;
    for (int i = 0; i < N; i++) {
        double r = -b[i];
        for (int j = 0; j < N; j++)
            r += M[i * N + j] * x[j];
        res = fmax(res, fabs(r));
        scale = fmax(scale, fabs(b[i]));
    }
    check(rc == 0 && res < 1e-12 * scale * N,
          "bordered solver on a 40 x 40 matrix (4 border unknowns, 11 scattered groups): "
          "max |M x - b| = %.2e", res);
    for (int i = 0; i < N; i++)               /* group 0 (0, 11, 22, 33) without unknown 11 */
        if (grp[i] == 0)
            M[i * N + 11] = 0.0;
    rc = cvode_bordered_solve(N, M, border, 4, b, x);
    check(rc == 1, "bordered solver: a singular group is reported (%d)", rc);
}

/* The error weights in vector lanes (inverse_weights, ewt with atol > 0) against the scalar
 * 1 / (rtol |y| + atol), bit for bit, at every length 0..13 (the tail after the fours). */
static void inverse_weights_checks(void)
{
    long diff = 0, count = 0;
    unsigned long long r = 0x9E3779B97F4A7C15ull;
    double y[13], w[13];
    for (long n = 0; n <= 13; n++)
        for (int rep = 0; rep < 50; rep++) {
            for (long i = 0; i < n; i++) {
                r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                double u = (double)(r >> 11) / 9007199254740992.0 - 0.5;
                y[i] = i % 5 == 4 ? -0.0 : u * pow(10.0, (double)(r % 17) - 8.0);
            }
            double rtol = 1e-6 * (1 + rep), atol = 1e-12 * (1 + rep % 7);
            inverse_weights(y, w, n, rtol, atol);
            for (long i = 0; i < n; i++) {
                double e = 1.0 / (rtol * fabs(y[i]) + atol);
                diff += memcmp(&e, &w[i], sizeof e) != 0;
                count++;
            }
        }
    check(diff == 0, "CVODE's error weights in vector lanes equal 1 / (rtol |y| + atol) bit for "
          "bit: %ld of %ld differ (lengths 0-13)", diff, count);
}

int main(void)
{
    inverse_weights_checks();
    wrms_norm_checks();
    test_bordered_matrix();
    test_bordered_cvode();
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

    /* The statistics so far reach a sample sink (through its ctx) after every step, or, with
     * stats_at_end, once at the end: the sink then sees none; the final counts are the same. */
    long seen[2], steps[2];
    for (int at_end = 0; at_end < 2; at_end++) {
        double ys[2] = {1.0, 0.0}, tout[11];
        for (int i = 0; i <= 10; i++)
            tout[i] = 0.1 * i;
        cvode_stats ss = {0};
        stats_probe pr = {&ss, -1};
        cvode_opts so = cvode_defaults();
        so.tout = tout, so.nout = 11, so.sink = probe_sink, so.ctx = &pr;
        so.stats_at_end = at_end;
        cvode_solve(&p, 0.0, ys, 1.0, &so, &ss, err, sizeof err);
        seen[at_end] = pr.steps_seen, steps[at_end] = ss.steps;
    }
    check(seen[0] > 0 && seen[1] == 0 && steps[0] == steps[1] && steps[1] > 0,
          "statistics: a sample sink sees %ld steps at the last output, none with stats_at_end; "
          "the final counts %ld and %ld", seen[0], steps[0], steps[1]);

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
