/* Lesson 6, "Damped harmonic oscillator" and "Decay and energy": the roots s+- of
 * s^2 + 2 sigma0 s + omega0^2 = 0 as sigma0/omega0 goes from 0 to 2 (they run down the circle
 * |s| = omega0, meet at sigma0 = omega0, then split on the real axis); the decay envelope and
 * T60 = 6 ln 10 / sigma0, measured from the peaks of a fine RK4 run; and the energy
 * H = u'^2/2 + omega0^2 u^2/2 of every method against the exact H(t), the energy of the closed-form
 * solution (checked against the balance dH/dt = -2 sigma0 u'^2).
 * Claims: forward Euler gains energy, backward Euler loses far more than the damper takes, the
 * trapezoid keeps the undamped oscillator's energy to round-off; leapfrog's stays within O(h^2)
 * of it without drifting.
 * One program, whose main lists the three claims in the lecture's order (locus, decay, energy):
 * they are one slide's story about one oscillator, its flags are shared, and the energy table
 * reads the T60 the decay claim defines. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "analysis/measure.h"
#include "method/method.h"
#include "method/set.h"
#include "oscillator/oscillator.h"
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
    progress *meter;        /* ticked a sample */
} energy_ctx;

static int energy_sink(long k, double t, const double *y, void *c)
{
    energy_ctx *e = c;
    double ex[2];
    oscillator_exact(e->osc, e->y0, t, ex);
    double H = oscillator_energy(t, y, (void *)e->osc);
    double He = oscillator_energy(t, ex, (void *)e->osc);
    e->H[k] = H;
    if (e->u)
        e->u[k] = y[0];
    e->max_dev = fmax(e->max_dev, fabs(H - He) / e->H0);
    budget_tick(e->meter, 1.0);
    return 0;
}

typedef struct {
    double *t, *u;
    progress *meter;        /* ticked a sample */
} ring_ctx;

static int ring_sink(long k, double t, const double *y, void *c)
{
    ring_ctx *r = c;
    r->t[k] = t;
    r->u[k] = y[0];
    budget_tick(r->meter, 1.0);
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
    "  1. At which sigma0/omega0 do the two roots meet on the real axis (critical damping)?"
    " What are\n"
    "     they there?\n"
    "     check: bin/oscillator --ratio 1\n"
    "  2. Which sigma0 makes the ringing die 60 dB in 3 s? (T60 = 6 ln 10 / sigma0.)"
    " Check the T60\n"
    "     measured from the peaks.\n"
    "     check: bin/oscillator --sigma0 4.605\n";

/* The oscillator, its start, and the energy runs every method makes (n steps of h to T). */
typedef struct {
    oscillator osc;         /* the damped oscillator */
    oscillator undamped;    /* the same with sigma0 = 0 */
    double y0[2];           /* u(0), m, and u'(0), m/s */
    double h, T;            /* step and length of the energy runs, s */
    long n;                 /* steps to T (the last one short when T is not a multiple of h) */
    double H0;              /* energy at t = 0, J/kg */
    const char *out;        /* folder for the data files */
    const method *const *methods; /* every method of the program (NULL-terminated) */
    progress *meter;        /* the budget's progress line, ticked a step */
} run_setup;

/* What the root locus shows, s/omega0 = -r +- sqrt(r^2 - 1) for r = sigma0/omega0 in [0, 2]. */
typedef struct {
    int points;             /* ratios drawn */
    double circle_dev;      /* largest ||s|/omega0 - 1| before the roots meet */
    double meet;            /* the first ratio where both roots are real */
    double real_product_dev; /* largest |s+ s- / omega0^2 - 1| after they meet */
} locus_facts;

/* What the peaks of the fine RK4 run measure. */
typedef struct {
    size_t peaks;           /* peaks found */
    double sigma;           /* decay rate of the envelope, 1/s */
    double omega1;          /* angular frequency of the ringing, rad/s */
} ringing;

/* One method's energy runs, damped and undamped, and its T60. */
typedef struct {
    double *Hd, *Hu;        /* H of every step of the damped and the undamped run, J/kg */
    double dev_d, dev_u;    /* largest |H - H_exact| / H0 of each */
    double t60_R;           /* T60 one step's R(h lambda) gives, s (NAN: leapfrog's R has none) */
    double t60_peaks;       /* T60 from the peaks of its damped run, s (INFINITY: grows) */
    double blew_at;         /* the damped run's blow-up time, s, or NAN */
    size_t peaks;           /* peaks of its damped run */
} method_energy;

/* The work before it starts: the ringing run, every method twice and the balance over n steps;
 * energy.tsv keeps every stride-th step. 0, or the refusal's status with why. */
static int check_budget(budget *bg, const run_setup *s, long nring, long stride, failure *why)
{
    long n = s->n;
    int nmeth = 0;
    while (s->methods[nmeth] && nmeth < MAX_METHODS)
        nmeth++;
    bg->work = (double)nring + (2.0 * nmeth + 1.0) * (double)n;
    bg->bytes_out = (double)(n / stride + 2) * 13.0 * (2.0 + 2.0 * nmeth) + 4001.0 * 40.0
                    + 401.0 * 80.0;
    bg->bytes_mem = (3.0 * nmeth + 1.0) * (double)(n + 1) * 8.0 + 2.0 * (double)(nring + 1) * 8.0;
    return budget_check(bg, why);
}

/* The roots s+- (divided by omega0) at one ratio, a row of locus.tsv or ratio.tsv. */
static void roots_row(FILE *f, double r)
{
    double complex sp, sm;
    oscillator_roots(r, &sp, &sm);
    fprintf(f, "%.6g\t%.12g\t%.12g\t%.12g\t%.12g\n", r, creal(sp), cimag(sp), creal(sm), cimag(sm));
}

/* The root locus: as sigma0/omega0 goes from 0 to 2 the roots run down the circle |s| = omega0,
 * meet at sigma0 = omega0, then split on the real axis with s+ s- = omega0^2 (locus.tsv; and
 * ratio.tsv, the roots at --ratio, a header alone without it). 0, or the failure's status with
 * why. */
static int trace_root_locus(locus_facts *lf, double ratio, const char *out, failure *why)
{
    *lf = (locus_facts){.points = 401, .meet = NAN};
    atomic_file al, ap;
    FILE *fl = atomic_open_file(&al, "oscillator", out, "locus.tsv", why);
    if (!fl)
        return why->status;
    fprintf(fl, "ratio\tre_plus\tim_plus\tre_minus\tim_minus\n");
    for (int i = 0; i < lf->points; i++) {
        double r = 2.0 * i / (lf->points - 1);
        double complex sp, sm;
        oscillator_roots(r, &sp, &sm);
        if (r < 1.0)
            lf->circle_dev = fmax(lf->circle_dev, fmax(fabs(cabs(sp) - 1.0), fabs(cabs(sm) - 1.0)));
        else
            lf->real_product_dev = fmax(lf->real_product_dev, fabs(creal(sp * sm) - 1.0));
        if (isnan(lf->meet) && cimag(sp) == 0.0)
            lf->meet = r;           /* the first ratio where the pair is real: they have met */
        roots_row(fl, r);
    }
    if (atomic_commit_file(&al, "oscillator", why) != 0)
        return why->status;
    /* no earlier run's point is left behind for the figure to mark */
    FILE *fp = atomic_open_file(&ap, "oscillator", out, "ratio.tsv", why);
    if (!fp)
        return why->status;
    fprintf(fp, "ratio\tre_plus\tim_plus\tre_minus\tim_minus\n");
    if (ratio >= 0)
        roots_row(fp, ratio);
    return atomic_commit_file(&ap, "oscillator", why);
}

/* The fine run and its exact envelope C e^{-sigma0 t}, every nring/4000-th step (envelope.tsv).
 * 0, or the failure's status with why. */
static int write_envelope(const run_setup *s, const ring_ctx *rc, long nring, failure *why)
{
    const oscillator *osc = &s->osc;
    double sigma0 = osc->sigma0, u0 = s->y0[0], v0 = s->y0[1];
    double omega1 = sqrt(osc->omega0 * osc->omega0 - sigma0 * sigma0);
    double C = sqrt(u0 * u0 + pow((v0 + sigma0 * u0) / omega1, 2));   /* amplitude C1 */
    atomic_file ar;
    FILE *fr = atomic_open_file(&ar, "oscillator", s->out, "envelope.tsv", why);
    if (!fr)
        return why->status;
    fprintf(fr, "t_s\tu_m\tenvelope_m\n");
    long every = nring / 4000 > 0 ? nring / 4000 : 1;
    for (long k = 0; k <= nring; k += every)
        fprintf(fr, "%.8g\t%.10g\t%.10g\n", rc->t[k], rc->u[k], C * exp(-sigma0 * rc->t[k]));
    return atomic_commit_file(&ar, "oscillator", why);
}

/* The envelope e^{-sigma0 t} and the ringing omega1, measured from the peaks of a fine RK4 run
 * (nring steps of ring_h to ring_T); envelope.tsv holds the run and the exact envelope.
 * 0, or the status of a failed run or write with why. */
static int measure_envelope(ringing *rg, run_setup *s, double ring_h, double ring_T,
                            long nring, failure *why)
{
    ivp p = oscillator_ivp(&s->osc);
    double y[2] = {s->y0[0], s->y0[1]};
    ring_ctx rc = {xcalloc((size_t)nring + 1, sizeof(double)),
                   xcalloc((size_t)nring + 1, sizeof(double)), s->meter};
    solve_opts o = {.m = &method_rk4, .h = ring_h, .n = nring, .every = 1, .sink = ring_sink,
                    .ctx = &rc};
    solve_result r;
    int status;
    if (solve_fixed_to(&p, y, &o, ring_T, NULL, &r) != SOLVE_OK) {
        status = failure_set(why, 1, "oscillator: %s", r.message);
    } else {
        rg->peaks = measure_ringing(rc.t, rc.u, (size_t)nring + 1, &rg->sigma, &rg->omega1);
        status = write_envelope(s, &rc, nring, why);
    }
    free(rc.t);
    free(rc.u);
    return status;
}

/* The exact energy H(t) at every step: H of the closed-form solution (a sum of squares, so
 * positive however small). The balance H0 - int_0^t 2 sigma0 u'^2 (Simpson on the exact u')
 * checks it, to round-off of H0 (it cannot follow H(t) once H(t) is below ~1e-16 H0): the
 * largest difference over H0 is returned. */
static double exact_energy(const run_setup *s, double *Hex)
{
    const int sub = 64;
    const oscillator *osc = &s->osc;
    double acc = 0.0, balance_dev = 0.0, ex[2];
    Hex[0] = s->H0;
    for (long k = 0; k < s->n; k++) {
        double a = k * s->h, b = sample_time(k + 1, s->n, s->h, s->T), dt = (b - a) / sub;
        double part = 0.0;
        for (int j = 0; j <= sub; j++) {
            oscillator_exact(osc, s->y0, a + j * dt, ex);
            double w = (j == 0 || j == sub) ? 1.0 : (j % 2 ? 4.0 : 2.0);
            part += w * 2.0 * osc->sigma0 * ex[1] * ex[1];
        }
        acc += part * dt / 3.0;
        budget_tick(s->meter, 1.0);
        oscillator_exact(osc, s->y0, b, ex);
        Hex[k + 1] = oscillator_energy(0, ex, (void *)osc);
        balance_dev = fmax(balance_dev, fabs(Hex[k + 1] - (s->H0 - acc)) / s->H0);
    }
    return balance_dev;
}

/* One method's two energy runs: the damped oscillator (its displacement into um, its peaks
 * give a T60) and the undamped one, stepped as u'' = a(u) (leapfrog's own case); and the T60
 * one step's R(h lambda) gives. 0, or 1 with why when a run failed. */
static int energy_of_method(method_energy *me, const method *m, run_setup *s,
                            const double *tt, double *um, failure *why)
{
    me->Hd = xcalloc((size_t)s->n + 1, sizeof(double));
    me->Hu = xcalloc((size_t)s->n + 1, sizeof(double));
    for (int q = 0; q < 2; q++) {
        oscillator *osc = q ? &s->undamped : &s->osc;
        energy_ctx e = {.osc = osc, .y0 = s->y0, .H0 = s->H0, .H = q ? me->Hu : me->Hd,
                        .u = q ? NULL : um, .meter = s->meter};
        double y[2] = {s->y0[0], s->y0[1]};
        ivp p = oscillator_ivp(osc);
        p.second_order = q == 1;       /* undamped: a(u) alone, the leapfrog's own case */
        solve_opts o = {.m = m, .h = s->h, .n = s->n, .every = 1, .sink = energy_sink, .ctx = &e};
        solve_result r;
        solve_status st = solve_fixed_to(&p, y, &o, s->T, NULL, &r);
        if (q == 0)
            me->blew_at = st == SOLVE_BLOWUP ? r.t : NAN;
        if (st == SOLVE_FAILED)
            return failure_set(why, 1, "oscillator: %s", r.message);
        for (long i = r.steps + 1; i <= s->n; i++)
            e.H[i] = NAN;
        *(q ? &me->dev_u : &me->dev_d) = e.max_dev;
        if (q == 0) {
            double sg, om;
            me->peaks = measure_ringing(tt, um, (size_t)r.steps + 1, &sg, &om);
            me->t60_peaks = sg > 0 ? measure_t60(sg) : isnan(sg) ? NAN : INFINITY;
        }
    }
    /* leapfrog's R is its step on the undamped oscillator only: no R-based T60 */
    if (m->needs_uv)
        me->t60_R = NAN;
    else
        me->t60_R = measure_oscillator_fidelity(m, s->osc.omega0, s->osc.sigma0, s->h).t60;
    return 0;
}

/* Every method's energy runs (nm of them, into me; free_energies frees them). 0, or 1 with why
 * when a run failed. */
static int energy_of_methods(method_energy *me, int nm, run_setup *s, failure *why)
{
    double *tt = xcalloc((size_t)s->n + 1, sizeof(double));
    double *um = xcalloc((size_t)s->n + 1, sizeof(double));
    for (long i = 0; i <= s->n; i++)
        tt[i] = sample_time(i, s->n, s->h, s->T);
    int status = 0;
    for (int k = 0; k < nm && status == 0; k++)
        status = energy_of_method(&me[k], s->methods[k], s, tt, um, why);
    free(tt);
    free(um);
    return status;
}

/* What the energy runs hold: the exact H and every method's. */
static void free_energies(double *Hex, method_energy *me, int nm)
{
    for (int k = 0; k < nm; k++) {
        free(me[k].Hd);
        free(me[k].Hu);
    }
    free(Hex);
}

/* H(t) of the exact solution and of every method, damped, and the undamped runs' (H - H0)/H0,
 * every stride-th step and the last (energy.tsv). 0, or the failure's status with why. */
static int write_energy(const run_setup *s, const double *Hex, const method_energy *me,
                        int nm, long stride, failure *why)
{
    long n = s->n;
    atomic_file ae;
    FILE *fe = atomic_open_file(&ae, "oscillator", s->out, "energy.tsv", why);
    if (!fe)
        return why->status;
    fprintf(fe, "t_s\texact");
    for (int k = 0; k < nm; k++)
        fprintf(fe, "\t%s", s->methods[k]->label);
    for (int k = 0; k < nm; k++)
        fprintf(fe, "\t%s, undamped (H - H0)/H0", s->methods[k]->label);
    fputc('\n', fe);
    for (long i = 0; i <= n; i += (i + stride > n && i < n) ? n - i : stride) {
        fprintf(fe, "%.8g\t%.10g", sample_time(i, n, s->h, s->T), Hex[i]);
        for (int k = 0; k < nm; k++)
            fprintf(fe, "\t%.10g", me[k].Hd[i]);
        for (int k = 0; k < nm; k++)
            fprintf(fe, "\t%.6e", (me[k].Hu[i] - s->H0) / s->H0);  /* signed: gains and losses */
        fputc('\n', fe);
    }
    return atomic_commit_file(&ae, "oscillator", why);
}

/* What the root locus and the peaks show, against the lecture's formulas. */
static void show_locus_and_envelope(const run_setup *s, const locus_facts *lf, double ratio,
                                    const ringing *rg, double ring_h, double ring_T)
{
    double omega0 = s->osc.omega0, sigma0 = s->osc.sigma0;
    double omega1 = sqrt(omega0 * omega0 - sigma0 * sigma0);
    printf("damped oscillator u'' = -omega0^2 u - 2 sigma0 u': omega0 = %g rad/s, sigma0 = %g"
           " 1/s\n\n", omega0, sigma0);
    printf("root locus, sigma0/omega0 = 0 ... 2 (%d points):\n", lf->points);
    printf("  |s|/omega0 - 1 at most %.1e below the meeting point;\n", lf->circle_dev);
    printf("  the roots meet at sigma0/omega0 = %.4f; beyond, both real with s+ s- = omega0^2"
           " (to %.1e)\n", lf->meet, lf->real_product_dev);
    if (ratio >= 0) {
        double complex sp, sm;
        oscillator_roots(ratio, &sp, &sm);
        printf("  at sigma0/omega0 = %g: s+ = %.6g %+.6gj rad/s, s- = %.6g %+.6gj rad/s\n", ratio,
               omega0 * creal(sp), omega0 * cimag(sp), omega0 * creal(sm), omega0 * cimag(sm));
    }
    printf("\nenvelope e^{-sigma0 t}, from %zu peaks of RK4 at h = %g s over %g s:\n", rg->peaks,
           ring_h, ring_T);
    printf("  sigma measured %.6f 1/s (sigma0 %.6f),\n", rg->sigma, sigma0);
    printf("  omega1 measured %.6f rad/s (sqrt(omega0^2 - sigma0^2) = %.6f)\n", rg->omega1, omega1);
    printf("  T60 = 6 ln 10 / sigma0 = %.4f s; from the measured sigma %.4f s\n",
           measure_t60(sigma0), measure_t60(rg->sigma));
}

/* The exact energy at T and how well the balance dH/dt = -2 sigma0 u'^2 matches it; the short
 * last steps, if any. */
static void show_energy_balance(const run_setup *s, double H_end_exact, double balance_dev,
                                double h_last, double ring_last)
{
    printf("\nenergy H = u'^2/2 + omega0^2 u^2/2 at h = %g s over %g s (H0 = %.6g J/kg);\n",
           s->h, s->T, s->H0);
    printf("the exact H(T) = %.6g J/kg is H of the exact solution;\n", H_end_exact);
    printf("the balance H0 - int 2 sigma0 u'^2 dt matches it to %.1e H0\n", balance_dev);
    if (h_last > 0.0)
        printf("T is not a multiple of h: %ld steps of h, the last one short, %.6g s, "
               "to end at T\n", s->n - 1, h_last);
    if (ring_last > 0.0)
        printf("ring-T is not a multiple of ring-h: the RK4 run's last step is short, %.6g s\n",
               ring_last);
    printf("\n");
}

/* One method's row: its H(T) against the exact, whether it gains energy, its deviations and
 * its two T60s. */
static void energy_row(table *tab, const method *m, const method_energy *me, long n,
                       double H0, double H_end_exact)
{
    char b1[32], b2[32];
    table_cell(tab, "%s", m->name);
    /* a run whose state overflowed, or whose energy fell below the smallest double, has no ratio */
    if (!isnan(me->blew_at))
        table_cell(tab, "blew up at t=%.4g", me->blew_at);
    else if (me->Hd[n] == 0.0 || H_end_exact == 0.0)
        table_cell(tab, "%s", me->Hd[n] == 0.0 ? "H(T) underflows" : "H_exact underflows");
    else
        table_cell(tab, "%.6g", me->Hd[n] / H_end_exact);
    table_cell(tab, "%s", me->Hd[n] > H0 || !isnan(me->blew_at) ? "yes" : "no");
    table_cell(tab, "%.3e", me->dev_d);
    table_cell(tab, "%.3e", me->dev_u);
    table_cell(tab, "%.15g", me->Hu[n] / H0);
    table_cell(tab, "%s", t60_text(me->t60_R, b1, sizeof b1));
    table_cell(tab, "%s", t60_text(me->t60_peaks, b2, sizeof b2));
    table_cell(tab, "%zu", me->peaks);
}

/* The claim: forward Euler gains energy, backward Euler loses far more than the damper takes,
 * the trapezoid keeps the undamped energy, leapfrog's stays near it (the table, one row a
 * method; max_dev and peaks with --wide or --tsv, so that it fits 100 columns). */
static void show_energy_table(const run_setup *s, const method_energy *me, int nm,
                              double H_end_exact, bool tsv, bool wide)
{
    table tab;
    table_begin(&tab, stdout, table_mode(tsv, wide), "method", "H_end_over_exact", "gains_energy",
                "+max_dev_damped", "+max_dev_undamped", "undamped_H_end_over_H0", "t60_s",
                "t60_measured_s", "+peaks", NULL);
    for (int k = 0; k < nm; k++)
        energy_row(&tab, s->methods[k], &me[k], s->n, s->H0, H_end_exact);
    if (tsv)
        return;
    printf("\nH_end_over_exact: H at T over the exact H(T) (none when the run blew up, or H(T) is"
           " below the\nsmallest double); gains_energy: H(T) > H(0) despite the damper;\n"
           "max_dev (--wide): largest |H - H_exact| / H0 on the damped and the undamped"
           " (sigma0 = 0) oscillator;\n"
           "t60_s: the T60 one step of h gives, 6 ln 10 / (-ln|R(h lambda)| / h) (exact: %.4f s;"
           " leapfrog's R\nis for the undamped oscillator: n/a); t60_measured_s: from the peaks of"
           " the method's own damped run\n(peaks, --wide: how many); grows: the envelope does not"
           " decay.\n", measure_t60(s->osc.sigma0));
}

/* The facts that belong to no method, one key a row (summary.tsv). 0, or the failure's status
 * with why. */
static int write_summary(const run_setup *s, const locus_facts *lf, const ringing *rg,
                         double balance_dev, double H_end_exact, failure *why)
{
    const struct {
        const char *key, *format;
        double value;
    } rows[] = {
        {"t60_exact_s", "%.6f", measure_t60(s->osc.sigma0)},
        {"t60_measured_rk4_fine_s", "%.6f", measure_t60(rg->sigma)},
        {"ring_peaks", "%.0f", (double)rg->peaks},
        {"meet_ratio", "%.4f", lf->meet},
        {"circle_dev", "%.3g", lf->circle_dev},
        {"balance_dev", "%.3g", balance_dev},
        {"omega0", "%.10g", s->osc.omega0},
        {"sigma0", "%.10g", s->osc.sigma0},
        {"h", "%.10g", s->h},
        {"H_end_exact", "%.10g", H_end_exact},
    };
    atomic_file as;
    FILE *f = atomic_open_file(&as, "oscillator", s->out, "summary.tsv", why);
    if (!f)
        return why->status;
    fprintf(f, "key\tvalue\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fprintf(f, "%s\t", rows[i].key);
        fprintf(f, rows[i].format, rows[i].value);
        fputc('\n', f);
    }
    return atomic_commit_file(&as, "oscillator", why);
}

int main(int argc, char **argv)
{
    double omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0, h = 0.05, T = 10.0;
    double ratio = -1.0, ring_h = 1e-3, ring_T = 10.0;
    cli_common common = {false, "build/data/oscillator"};
    bool wide = false;      /* --wide: the max_dev and peaks columns in the human table too */
    budget bg;
    budget_init(&bg, "oscillator", "steps", 5e7, "--T / --h and --ring-T / --ring-h");
    plot_opts plot = {false, false, NULL};
    method_set methods;
    method_set_init(&methods);
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
        METHOD_ADD_OPT(methods),
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
        cli_fail("oscillator", "--sigma0 %g with --omega0 %g is not underdamped; accepted: "
                 "sigma0 < omega0 (the locus covers the rest)", sigma0, omega0);
    if (u0 == 0.0 && v0 == 0.0)
        cli_fail("oscillator", "--u0 0 with --v0 0 is the rest state; "
                 "accepted: a nonzero initial state");
    /* 1. The model: the damped oscillator, the same undamped, and where they start. */
    run_setup s = {.osc = {omega0, sigma0}, .undamped = {omega0, 0.0}, .y0 = {u0, v0},
                   .h = h, .T = T, .out = common.out, .methods = methods.all,
                   .meter = &bg.meter};
    s.H0 = oscillator_energy(0.0, s.y0, &s.osc);
    /* T not a multiple of h (or ring-T of ring-h): the last step is taken short, and the run
     * says so */
    double h_last, ring_last;
    s.n = solve_steps_to(T, h, &h_last);
    long nring = solve_steps_to(ring_T, ring_h, &ring_last), stride = budget_stride(s.n);
    failure why;    /* what ends the program early: its line and status */
    if (check_budget(&bg, &s, nring, stride, &why) != 0)
        return failure_print(&why);

    /* 2. The roots s+- of s^2 + 2 sigma0 s + omega0^2 as sigma0/omega0 goes from 0 to 2. */
    locus_facts lf;
    if (trace_root_locus(&lf, ratio, common.out, &why) != 0)
        return failure_print(&why);
    /* 3. The envelope and T60 = 6 ln 10 / sigma0, measured from a fine RK4 run's peaks. */
    ringing rg;
    if (measure_envelope(&rg, &s, ring_h, ring_T, nring, &why) != 0)
        return failure_print(&why);
    /* 4. The energy H of the exact solution, and of every method, damped and undamped. */
    double *Hex = xcalloc((size_t)s.n + 1, sizeof(double));
    double balance_dev = exact_energy(&s, Hex);
    int nm = 0;
    while (s.methods[nm] && nm < MAX_METHODS)
        nm++;
    method_energy me[MAX_METHODS] = {0};
    if (energy_of_methods(me, nm, &s, &why) != 0 ||
        write_energy(&s, Hex, me, nm, stride, &why) != 0) {
        free_energies(Hex, me, nm);
        return failure_print(&why);
    }

    /* 5. The claims: the locus, the envelope, the balance, and every method's energy. */
    if (!common.tsv) {
        show_locus_and_envelope(&s, &lf, ratio, &rg, ring_h, ring_T);
        show_energy_balance(&s, Hex[s.n], balance_dev, h_last, ring_last);
    }
    show_energy_table(&s, me, nm, Hex[s.n], common.tsv, wide);
    int status = write_summary(&s, &lf, &rg, balance_dev, Hex[s.n], &why);
    free_energies(Hex, me, nm);
    if (status != 0)
        return failure_print(&why);
    budget_finish(&bg.meter);
    return plot_render(&plot, "oscillator", common.out, common.tsv);
}
