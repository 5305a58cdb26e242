/* Lesson 6, "Damped harmonic oscillator" and "Decay and energy": the roots s+- of
 * s^2 + 2 sigma0 s + omega0^2 = 0 as sigma0/omega0 goes from 0 to 2 (they run down the circle
 * |s| = omega0, meet at sigma0 = omega0, then split on the real axis); the decay envelope and
 * T60 = 6 ln 10 / sigma0, measured from the peaks of a fine RK4 run; and the energy
 * H = u'^2/2 + omega0^2 u^2/2 of every method against the exact H(t), the energy of the closed-form
 * solution (checked against the balance dH/dt = -2 sigma0 u'^2).
 * Claims: forward Euler gains energy, backward Euler loses far more than the damper takes, the
 * trapezoid keeps the undamped oscillator's energy to round-off; leapfrog's stays within O(h^2)
 * of it without drifting. */
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "measure/measure.h"
#include "method/method.h"
#include "method/tableau.h"
#include "models/oscillator.h"
#include "drive/solve.h"
#include "base/util.h"
#include <complex.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_METHODS METHOD_MAX

typedef struct {
    const oscillator *osc;
    const double *y0;
    double H0;              /* energy at t = 0, J/kg */
    double *H;              /* energy of every sample, J/kg */
    double *u;              /* displacement of every sample, m (NULL: not kept) */
    double max_dev;         /* largest |H - H_exact| / H0 */
} energy_ctx;

static int energy_sink(long k, double t, const double *y, void *c)
{
    energy_ctx *e = c;
    double ex[2];
    oscillator_exact(e->osc, e->y0, t, ex);
    double H = oscillator_energy(t, y, (void *)e->osc), He = oscillator_energy(t, ex, (void *)e->osc);
    e->H[k] = H;
    if (e->u)
        e->u[k] = y[0];
    e->max_dev = fmax(e->max_dev, fabs(H - He) / e->H0);
    budget_tick(1.0);
    return 0;
}

typedef struct {
    double *t, *u;
} ring_ctx;

static int ring_sink(long k, double t, const double *y, void *c)
{
    ring_ctx *r = c;
    r->t[k] = t;
    r->u[k] = y[0];
    budget_tick(1.0);
    return 0;
}

/* The time of sample i of n steps of h to T (the last step short when T is not a multiple of h). */
static double sample_time(long i, long n, double h, double T)
{
    return i < n ? (double)i * h : T;
}

/* A T60 cell: the number, "grows" (the envelope does not decay) or "n/a" (not defined). */
static const char *t60_text(double t60, char *buf, size_t n)
{
    if (isnan(t60))
        return "n/a";
    if (isinf(t60))
        return "grows";
    snprintf(buf, n, "%.4f", t60);
    return buf;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. At which sigma0/omega0 do the two roots meet on the real axis (critical damping)? What are\n"
    "     they there?\n"
    "     check: bin/oscillator --ratio 1\n"
    "  2. Which sigma0 makes the ringing die 60 dB in 3 s? (T60 = 6 ln 10 / sigma0.) Check the T60\n"
    "     measured from the peaks.\n"
    "     check: bin/oscillator --sigma0 4.605\n";

int main(int argc, char **argv)
{
    double omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0, h = 0.05, T = 10.0;
    double ratio = -1.0, ring_h = 1e-3, ring_T = 10.0;
    cli_common common = {false, "build/data/oscillator"};
    bool wide = false;      /* --wide: the max_dev and peaks columns in the human table too */
    budget bg;
    budget_init(&bg, "oscillator", "steps", 5e7, "--T / --h and --ring-T / --ring-h");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        FLAG_REAL("omega0", omega0, "rad/s", 0, 1e4, CLI_OPEN_MIN, "lossless angular frequency"),
        FLAG_REAL("sigma0", sigma0, "1/s", 0, 1e4, CLI_OPEN_MIN,
            "decay rate of the envelope (energy runs; underdamped)"),
        FLAG_REAL("u0", u0, "m", -1e3, 1e3, CLI_CLOSED, "initial displacement"),
        FLAG_REAL("v0", v0, "m/s", -1e3, 1e3, CLI_CLOSED, "initial velocity"),
        FLAG_REAL("h", h, "s", 1e-5, 1, CLI_CLOSED, "step of the energy runs"),
        FLAG_REAL("T", T, "s", 0, 1e3, CLI_OPEN_MIN, "length of the energy runs"),
        FLAG_REAL("ratio", ratio, "", 0, 2, CLI_CLOSED,
            "Try it: print the roots at this sigma0/omega0 (the locus always spans 0 ... 2)"),
        FLAG_REAL("ring-h", ring_h, "s", 1e-6, 0.1, CLI_CLOSED,
            "step of the RK4 run the envelope and T60 are measured on"),
        FLAG_REAL("ring-T", ring_T, "s", 0, 1e3, CLI_OPEN_MIN, "length of that run"),
        BUDGET_OPT(bg),
        METHOD_ADD_OPT,
        CLI_COMMON_OPTS(common),
        CLI_WIDE_OPT(wide),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "oscillator",
        .summary = "Damped oscillator: root locus, decay envelope and T60, and every method's "
            "energy against dH/dt = -2 sigma0 u'^2.",
        .opts = opts,
        .epilogue = exercises,
    };
    cli_parse(&spec, argc, argv);
    if (sigma0 >= omega0)
        cli_fail("oscillator", "--sigma0 %g with --omega0 %g is not underdamped; accepted: sigma0 < omega0 "
                               "(the locus covers the rest)", sigma0, omega0);
    if (u0 == 0.0 && v0 == 0.0)
        cli_fail("oscillator", "--u0 0 with --v0 0 is the rest state; accepted: a nonzero initial state");
    /* T not a multiple of h (or ring-T of ring-h): the last step is taken short, and the run says so */
    double h_last, ring_last;
    long n = solve_steps_to(T, h, &h_last), nring = solve_steps_to(ring_T, ring_h, &ring_last);
    /* every method twice over n steps (each step's energy kept), the ringing run, the balance;
     * energy.tsv keeps every stride-th step */
    int nmeth = 0;
    while (method_all[nmeth] && nmeth < MAX_METHODS)
        nmeth++;
    long stride = budget_stride(n);
    bg.work = (double)nring + (2.0 * nmeth + 1.0) * (double)n;
    bg.bytes_out = (double)(n / stride + 2) * 13.0 * (2.0 + 2.0 * nmeth) + 4001.0 * 40.0 + 401.0 * 80.0;
    bg.bytes_mem = (3.0 * nmeth + 1.0) * (double)(n + 1) * 8.0 + 2.0 * (double)(nring + 1) * 8.0;
    budget_check(&bg);

    /* 1. Root locus: s/omega0 = -r +- sqrt(r^2 - 1), r = sigma0/omega0 in [0, 2]. */
    atomic_file al;
    FILE *fl = atomic_open_or_exit(&al, "oscillator", common.out, "locus.tsv");
    fprintf(fl, "ratio\tre_plus\tim_plus\tre_minus\tim_minus\n");
    const int nloc = 400;
    double circle_dev = 0.0, meet = NAN, real_product_dev = 0.0;
    for (int i = 0; i <= nloc; i++) {
        double r = 2.0 * i / nloc;
        double complex sp, sm;
        oscillator_roots(r, &sp, &sm);
        if (r < 1.0)
            circle_dev = fmax(circle_dev, fmax(fabs(cabs(sp) - 1.0), fabs(cabs(sm) - 1.0)));
        else
            real_product_dev = fmax(real_product_dev, fabs(creal(sp * sm) - 1.0));
        if (isnan(meet) && cimag(sp) == 0.0)
            meet = r;           /* the first ratio where the pair is real: they have met */
        fprintf(fl, "%.6g\t%.12g\t%.12g\t%.12g\t%.12g\n", r, creal(sp), cimag(sp), creal(sm), cimag(sm));
    }
    atomic_commit_or_exit(&al, "oscillator");
    /* --ratio: the roots at that sigma0/omega0, for the locus figure to mark (a header alone
     * without --ratio, so that no earlier run's point is left behind) */
    atomic_file ap;
    FILE *fp = atomic_open_or_exit(&ap, "oscillator", common.out, "ratio.tsv");
    fprintf(fp, "ratio\tre_plus\tim_plus\tre_minus\tim_minus\n");
    if (ratio >= 0) {
        double complex sp, sm;
        oscillator_roots(ratio, &sp, &sm);
        fprintf(fp, "%.6g\t%.12g\t%.12g\t%.12g\t%.12g\n", ratio, creal(sp), cimag(sp), creal(sm), cimag(sm));
    }
    atomic_commit_or_exit(&ap, "oscillator");

    /* 2. Envelope and T60, measured from the peaks of a fine RK4 run. */
    oscillator osc = {omega0, sigma0};
    ivp p = oscillator_ivp(&osc);
    double y0[2] = {u0, v0};
    ring_ctx rc = {xcalloc((size_t)nring + 1, sizeof(double)), xcalloc((size_t)nring + 1, sizeof(double))};
    {
        double y[2] = {u0, v0};
        solve_opts o = {&method_rk4, 0.0, ring_h, nring, 0, 1, ring_sink, &rc};
        solve_result r;
        if (solve_fixed_to(&p, y, &o, ring_T, NULL, &r) != SOLVE_OK) {
            fprintf(stderr, "oscillator: %s\n", r.message);
            return 1;
        }
    }
    double sig_meas, om_meas;
    size_t npk = measure_ringing(rc.t, rc.u, (size_t)nring + 1, &sig_meas, &om_meas);
    double omega1 = sqrt(omega0 * omega0 - sigma0 * sigma0);
    atomic_file ar;
    FILE *fr = atomic_open_or_exit(&ar, "oscillator", common.out, "envelope.tsv");
    fprintf(fr, "t_s\tu_m\tenvelope_m\n");
    double C = sqrt(u0 * u0 + pow((v0 + sigma0 * u0) / omega1, 2));   /* amplitude C1 of the envelope */
    long every = nring / 4000 > 0 ? nring / 4000 : 1;
    for (long k = 0; k <= nring; k += every)
        fprintf(fr, "%.8g\t%.10g\t%.10g\n", rc.t[k], rc.u[k], C * exp(-sigma0 * rc.t[k]));
    atomic_commit_or_exit(&ar, "oscillator");
    free(rc.t);
    free(rc.u);

    /* 3. Energy of every method, damped and undamped, against the exact balance. */
    oscillator undamped = {omega0, 0.0};
    ivp pu = oscillator_ivp(&undamped);
    double H0 = oscillator_energy(0.0, y0, &osc);
    /* the exact energy H(t): H of the closed-form exact solution (a sum of squares, so positive
     * however small); the balance H0 - int_0^t 2 sigma0 u'^2 (Simpson on the exact u') checks it,
     * to round-off of H0 (it cannot follow H(t) once H(t) is below ~1e-16 H0) */
    double *Hex = xcalloc((size_t)n + 1, sizeof(double)), balance_dev = 0.0;
    {
        const int sub = 64;
        double acc = 0.0;
        Hex[0] = H0;
        for (long k = 0; k < n; k++) {
            double a = k * h, dt = (sample_time(k + 1, n, h, T) - a) / sub, part = 0.0;
            for (int j = 0; j <= sub; j++) {
                double ex[2];
                oscillator_exact(&osc, y0, a + j * dt, ex);
                double w = (j == 0 || j == sub) ? 1.0 : (j % 2 ? 4.0 : 2.0);
                part += w * 2.0 * sigma0 * ex[1] * ex[1];
            }
            acc += part * dt / 3.0;
            budget_tick(1.0);
            double ex[2];
            oscillator_exact(&osc, y0, sample_time(k + 1, n, h, T), ex);
            Hex[k + 1] = oscillator_energy(0, ex, &osc);
            balance_dev = fmax(balance_dev, fabs(Hex[k + 1] - (H0 - acc)) / H0);
        }
    }
    int nm = 0;
    while (method_all[nm] && nm < MAX_METHODS)
        nm++;
    double *Hd[MAX_METHODS], *Hu[MAX_METHODS];
    double dev_d[MAX_METHODS], dev_u[MAX_METHODS];
    /* each method's own T60: from one step's R(h lambda), and from the peaks of its damped run */
    double t60_R[MAX_METHODS], t60_peaks[MAX_METHODS];
    double blew_at[MAX_METHODS];   /* the damped run's blow-up time (its state no longer finite), or NAN */
    size_t npk_m[MAX_METHODS];
    double *tt = xcalloc((size_t)n + 1, sizeof(double)), *um = xcalloc((size_t)n + 1, sizeof(double));
    for (long i = 0; i <= n; i++)
        tt[i] = sample_time(i, n, h, T);
    for (int k = 0; k < nm; k++) {
        Hd[k] = xcalloc((size_t)n + 1, sizeof(double));
        Hu[k] = xcalloc((size_t)n + 1, sizeof(double));
        for (int q = 0; q < 2; q++) {
            energy_ctx e = {q ? &undamped : &osc, y0, H0, q ? Hu[k] : Hd[k], q ? NULL : um, 0.0};
            double y[2] = {u0, v0};
            ivp pq = q ? pu : p;
            pq.second_order = q == 1;       /* undamped: a(u) alone, the leapfrog's own case */
            solve_opts o = {method_all[k], 0.0, h, n, 0, 1, energy_sink, &e};
            solve_result r;
            solve_status st = solve_fixed_to(&pq, y, &o, T, NULL, &r);
            if (q == 0)
                blew_at[k] = st == SOLVE_BLOWUP ? r.t : NAN;
            if (st == SOLVE_FAILED) {
                fprintf(stderr, "oscillator: %s\n", r.message);
                return 1;
            }
            for (long i = r.steps + 1; i <= n; i++)
                e.H[i] = NAN;
            (q ? dev_u : dev_d)[k] = e.max_dev;
            if (q == 0) {
                double sg, om;
                npk_m[k] = measure_ringing(tt, um, (size_t)r.steps + 1, &sg, &om);
                t60_peaks[k] = sg > 0 ? measure_t60(sg) : isnan(sg) ? NAN : INFINITY;
            }
        }
        /* leapfrog's R is its step on the undamped oscillator only: no R-based T60 */
        t60_R[k] = method_all[k]->needs_uv ? NAN : measure_oscillator_fidelity(method_all[k], omega0, sigma0, h).t60;
    }
    free(tt);
    free(um);
    atomic_file ae;
    FILE *fe = atomic_open_or_exit(&ae, "oscillator", common.out, "energy.tsv");
    fprintf(fe, "t_s\texact");
    for (int k = 0; k < nm; k++)
        fprintf(fe, "\t%s", method_all[k]->label);
    for (int k = 0; k < nm; k++)
        fprintf(fe, "\t%s, undamped (H - H0)/H0", method_all[k]->label);
    fputc('\n', fe);
    for (long i = 0; i <= n; i += (i + stride > n && i < n) ? n - i : stride) {
        fprintf(fe, "%.8g\t%.10g", sample_time(i, n, h, T), Hex[i]);
        for (int k = 0; k < nm; k++)
            fprintf(fe, "\t%.10g", Hd[k][i]);
        for (int k = 0; k < nm; k++)
            fprintf(fe, "\t%.6e", (Hu[k][i] - H0) / H0);     /* signed: the figure draws gains and losses */
        fputc('\n', fe);
    }
    atomic_commit_or_exit(&ae, "oscillator");

    /* The tables. */
    double t60 = measure_t60(sigma0), t60_meas = measure_t60(sig_meas);
    if (!common.tsv) {
        printf("damped oscillator u'' = -omega0^2 u - 2 sigma0 u': omega0 = %g rad/s, sigma0 = %g 1/s\n\n", omega0, sigma0);
        printf("root locus, sigma0/omega0 = 0 ... 2 (%d points):\n"
               "  |s|/omega0 - 1 at most %.1e below the meeting point;\n"
               "  the roots meet at sigma0/omega0 = %.4f; beyond, both real with s+ s- = omega0^2 (to %.1e)\n",
               nloc + 1, circle_dev, meet, real_product_dev);
        if (ratio >= 0) {
            double complex sp, sm;
            oscillator_roots(ratio, &sp, &sm);
            printf("  at sigma0/omega0 = %g: s+ = %.6g %+.6gj rad/s, s- = %.6g %+.6gj rad/s\n", ratio,
                   omega0 * creal(sp), omega0 * cimag(sp), omega0 * creal(sm), omega0 * cimag(sm));
        }
        printf("\nenvelope e^{-sigma0 t}, from %zu peaks of RK4 at h = %g s over %g s:\n"
               "  sigma measured %.6f 1/s (sigma0 %.6f),\n"
               "  omega1 measured %.6f rad/s (sqrt(omega0^2 - sigma0^2) = %.6f)\n"
               "  T60 = 6 ln 10 / sigma0 = %.4f s; from the measured sigma %.4f s\n",
               npk, ring_h, ring_T, sig_meas, sigma0, om_meas, omega1, t60, t60_meas);
        printf("\nenergy H = u'^2/2 + omega0^2 u^2/2 at h = %g s over %g s (H0 = %.6g J/kg);\nthe exact H(T) = %.6g J/kg is H of the exact solution;\n"
               "the balance H0 - int 2 sigma0 u'^2 dt matches it to %.1e H0\n", h, T, H0,
               Hex[n], balance_dev);
        if (h_last > 0.0)
            printf("T is not a multiple of h: %ld steps of h, the last one short, %.6g s, to end at T\n", n - 1, h_last);
        if (ring_last > 0.0)
            printf("ring-T is not a multiple of ring-h: the RK4 run's last step is short, %.6g s\n", ring_last);
        printf("\n");
    }
    table tab;
    /* the human table fits 100 columns: max_dev and peaks with --wide or --tsv */
    table_begin(&tab, stdout, table_mode(common.tsv, wide), "method", "H_end_over_exact", "gains_energy",
                "+max_dev_damped", "+max_dev_undamped", "undamped_H_end_over_H0", "t60_s", "t60_measured_s", "+peaks",
                NULL);
    double H_end_exact = Hex[n];
    for (int k = 0; k < nm; k++) {
        table_cell(&tab, "%s", method_all[k]->name);
        /* a run whose state overflowed, or whose energy fell below the smallest double, has no ratio */
        if (!isnan(blew_at[k]))
            table_cell(&tab, "blew up at t=%.4g", blew_at[k]);
        else if (Hd[k][n] == 0.0 || H_end_exact == 0.0)
            table_cell(&tab, "%s", Hd[k][n] == 0.0 ? "H(T) underflows" : "H_exact underflows");
        else
            table_cell(&tab, "%.6g", Hd[k][n] / H_end_exact);
        table_cell(&tab, "%s", Hd[k][n] > H0 || !isnan(blew_at[k]) ? "yes" : "no");
        table_cell(&tab, "%.3e", dev_d[k]);
        table_cell(&tab, "%.3e", dev_u[k]);
        table_cell(&tab, "%.15g", Hu[k][n] / H0);
        char b1[32], b2[32];
        table_cell(&tab, "%s", t60_text(t60_R[k], b1, sizeof b1));
        table_cell(&tab, "%s", t60_text(t60_peaks[k], b2, sizeof b2));
        table_cell(&tab, "%zu", npk_m[k]);
    }
    if (!common.tsv)
        printf("\nH_end_over_exact: H at T over the exact H(T) (none when the run blew up, or H(T) is below the\n"
               "smallest double); gains_energy: H(T) > H(0) despite the damper;\n"
               "max_dev (--wide): largest |H - H_exact| / H0 on the damped and the undamped (sigma0 = 0) oscillator;\n"
               "t60_s: the T60 one step of h gives, 6 ln 10 / (-ln|R(h lambda)| / h) (exact: %.4f s; leapfrog's R\n"
               "is for the undamped oscillator: n/a); t60_measured_s: from the peaks of the method's own damped run\n"
               "(peaks, --wide: how many); grows: the envelope does not decay.\n", t60);
    /* the facts that belong to no method */
    atomic_file as;
    FILE *fs = atomic_open_or_exit(&as, "oscillator", common.out, "summary.tsv");
    fprintf(fs, "key\tvalue\nt60_exact_s\t%.6f\nt60_measured_rk4_fine_s\t%.6f\nring_peaks\t%zu\nmeet_ratio\t%.4f\n"
                "circle_dev\t%.3g\nbalance_dev\t%.3g\nomega0\t%.10g\nsigma0\t%.10g\nh\t%.10g\nH_end_exact\t%.10g\n",
            t60, t60_meas, npk, meet, circle_dev, balance_dev, omega0, sigma0, h, Hex[n]);
    atomic_commit_or_exit(&as, "oscillator");
    for (int k = 0; k < nm; k++) {
        free(Hd[k]);
        free(Hu[k]);
    }
    free(Hex);
    budget_finish();
    return plot_render(&plot, "oscillator", common.out, common.tsv);
}
