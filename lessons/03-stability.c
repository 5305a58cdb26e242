/* Lesson 3, "When does a method blow up?" (the stability region explorer): every method's
 * region |R(z)| <= 1 drawn from the method table's own R(z), its stability interval on the
 * negative real axis and on the imaginary axis, |R| at any z (--z), and the scaled eigenvalues
 * h lambda of the oscillator or the stiff network laid over the regions (--problem, --h).
 * --add-method FILE.tab adds a Butcher tableau's method: its R(z) = 1 + z b^T (I - zA)^{-1} 1
 * comes from the tableau (method/tableau.c), and its region and bounds follow from that.
 * Claim: RK4 is stable on the imaginary axis out to 2.83 (omega h < 2.83), forward Euler on the
 * negative real axis out to 2 (h < 2/|lambda|); explicit regions are bounded.
 * And gradient descent as forward Euler: on the bowl f = 1/2 (mu x^2 + L y^2) the step
 * x_k+1 = x_k - h grad f is forward Euler on x' = -grad f (eigenvalues -mu, -L), so it converges
 * for h < 2/L, read off forward Euler's real bound; runs either side of it show it.
 * One program, whose main lists these claims in the lecture's order: each is read off the same
 * regions (the method table's own R), and its figures draw them together. */
#include "base/failure.h"
#include "base/cli.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "method/method.h"
#include "method/set.h"
#include "oscillator/oscillator.h"
#include "oscillator/quadratic.h"
#include "spring/spring2.h"
#include "drive/solve.h"
#include "analysis/stability.h"
#include "base/util.h"
#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEIG 4
#define GD_RUNS 6

typedef struct {
    quadratic *q;
    double *f;              /* f(x_k) of every iterate */
} gd_ctx;

static int gd_sink(long k, double t, const double *x, void *c)
{
    gd_ctx *g = c;
    g->f[k] = quadratic_value(t, x, g->q);
    return 0;
}

static int parse_z(const char *text, void *dest, char *why, size_t whylen)
{
    double *z = dest;
    if (cli_pair(text, &z[0], &z[1]) != 0) {
        snprintf(why, whylen, strchr(text, ',') ? "both parts must be finite numbers" : "no comma");
        return -1;
    }
    z[2] = 1.0;     /* given */
    return 0;
}

static const char *fmt_bound(double b, char *buf, size_t n)
{
    if (isinf(b))
        snprintf(buf, n, "inf");
    else
        snprintf(buf, n, "%.4f", b);
    return buf;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Find explicit midpoint's imaginary-axis bound. Hint: compare its R(z) with Heun's.\n"
    "     Write it as midpoint.tab (c = (0, 1/2), a21 = 1/2, b = (0, 1)); its row gives\n"
    "     imag_bound and |R(0.5j)|.\n"
    "     check: bin/stability --add-method midpoint.tab --z 0,0.5\n"
    "  2. At which step does RK4 stop being stable on the stiff network (fast mode 1950 Hz)?"
    " Predict h\n"
    "     = 2.83 / (2 pi 1950), then look.\n"
    "     check: bin/stability --problem stiff --h 0.00023 --plot   (and --h 0.00024)\n"
    "  3. Which z on the negative real axis is the first that RK4 cannot take?\n"
    "     check: bin/stability --z -2.79,0   (and -2.78,0)\n"
    "  4. Radau IIA and Gauss are both stable on the whole left half-plane. What does each do"
    " to a very\n"
    "     fast decay, z = -1e6 (L-stable: R -> 0)? Draw both regions.\n"
    "     check: bin/stability --z -1e6,0 --add-method lessons/methods/radau-iia3.tab"
    " --add-method\n"
    "            lessons/methods/gauss2.tab --plot\n";

/* The problem's eigenvalues lambda, 1/s: h lambda is laid over the regions. */
typedef struct {
    double complex lam[NEIG];
    int n;
    char what[200];         /* whose they are, in words */
} eigenvalues;

/* The oscillator's pair s+-, or the stiff spring network's two modes (+-j omega each).
 * 0, or 1 with why. */
static int problem_eigenvalues(eigenvalues *e, const char *problem, double omega0, double sigma0,
                               failure *why)
{
    e->n = 0;
    if (strcmp(problem, "oscillator") == 0) {
        oscillator osc = {omega0, sigma0};
        oscillator_eigenvalues(&osc, e->lam);
        e->n = 2;
        snprintf(e->what, sizeof e->what, "oscillator (omega0 = %g rad/s, sigma0 = %g 1/s)",
                 omega0, sigma0);
        return 0;
    }
    spring2 s;
    spring2_modes md;
    double pull, T;
    char err[400];
    if (spring2_load_params(&s, &pull, &T, NULL, err, sizeof err) != 0)
        return failure_set(why, 1, "stability: %s", err);
    if (spring2_modes_of(&s, &md) != 0)
        return failure_set(why, 1,
                           "stability: the spring network's M or K is not positive definite");
    for (int i = 0; i < 2; i++) {
        e->lam[e->n++] = I * md.omega[i];
        e->lam[e->n++] = -I * md.omega[i];
    }
    snprintf(e->what, sizeof e->what, "stiff network (modes %.4g Hz, %.4g Hz)",
             md.omega[0] / (2 * M_PI), md.omega[1] / (2 * M_PI));
    return 0;
}

/* Every method's region |R(z)| <= 1 on a grid, from its own R (region_NAME.tsv, committed by
 * the caller): how many methods, or -1 with why. */
static int write_regions(atomic_file *ag, const method_set *methods, const char *out,
                         failure *why)
{
    int nm = 0;
    for (; methods->all[nm]; nm++) {
        char name[64];
        snprintf(name, sizeof name, "region_%s.tsv", methods->all[nm]->name);
        FILE *f = atomic_open_file(&ag[nm], "stability", out, name, why);
        if (!f)
            return -1;
        if (stability_grid(methods->all[nm], f, -3.4, 3.4, 171, -3.4, 3.4, 171) != 0) {
            failure_set(why, 1, "stability: cannot write %s/%s: %s", out, name, strerror(errno));
            return -1;
        }
    }
    return nm;
}

/* The scaled eigenvalues h lambda the figure lays over the regions (eigen.tsv). */
static void write_eigenvalues(FILE *f, const eigenvalues *e, double h)
{
    fprintf(f, "re_hlambda\tim_hlambda\n");
    for (int i = 0; i < e->n; i++)
        fprintf(f, "%.9g\t%.9g\n", creal(h * e->lam[i]), cimag(h * e->lam[i]));
}

/* One method's row: its bounds on the two half-axes, whether its region is bounded, the worst
 * |R(h lambda)| over the problem's eigenvalues, and (--z) |R| and the phase error at z.
 * 0, or 1 with why when a bound's bisection gave up. */
static int bounds_row(table *tab, FILE *fb, const method *m, const eigenvalues *e, double h,
                      const double *z, failure *why)
{
    char b1[32], b2[32];
    double rb = stability_bound(m, -1.0), ib = stability_bound(m, I);
    if (isnan(rb) || isnan(ib))
        return failure_set(why, 1, "stability: %s: the bisection for the %s stability bound gave "
                           "up after %d halvings (|R| not a number there?)", m->name,
                           isnan(rb) ? "real" : "imaginary", STABILITY_BISECT_MAX);
    double worst = 0.0;
    bool ok = true;
    for (int i = 0; i < e->n; i++) {
        /* leapfrog's R is defined on the undamped oscillator: it is read at j h |lambda| */
        double complex zi = stability_z(m, h, e->lam[i]);
        worst = fmax(worst, cabs(method_R(m, zi)));
        ok = ok && stability_stable(m, zi);
    }
    table_cell(tab, "%s", m->name);
    table_cell(tab, "%s", fmt_bound(rb, b1, sizeof b1));
    table_cell(tab, "%s", fmt_bound(ib, b2, sizeof b2));
    table_cell(tab, "%s", stability_region_bounded(m, 50.0) ? "yes" : "no");
    table_cell(tab, "%.6g", worst);
    table_cell(tab, "%s", ok ? "yes" : "no");
    if (z[2] != 0.0) {
        double complex zz = z[0] + I * z[1];
        table_cell(tab, "%.6g", cabs(method_R(m, zz)));
        table_cell(tab, "%s", stability_stable(m, zz) ? "yes" : "no");
        table_cell(tab, "%.6g", stability_phase_error(m, zz));    /* one step's phase error, rad */
    }
    fprintf(fb, "%s\t%s\t%s\n", m->name, b1, b2);
    return 0;
}

/* The claim: every method's stability interval on the negative real and the imaginary axis,
 * and whether the problem's h lambda lies in its region (the table; bounds.tsv).
 * 0, or 1 with why when a bound could not be found. */
static int show_stability_bounds(FILE *fb, const method_set *methods, const eigenvalues *e,
                                 double h, const double *z, bool tsv, failure *why)
{
    if (!tsv)
        printf("stability on y' = lambda y: y_k+1 = R(z) y_k, z = h lambda; stable where"
               " |R(z)| <= 1\n"
               "(bounds: largest x with [0, x] stable along -1 and along j;\n"
               " 'inf': the whole half-axis, 0: none of it)\n\n");
    fprintf(fb, "method\treal_bound\timag_bound\n");
    table tab;
    if (z[2] != 0.0)
        table_begin(&tab, stdout, tsv, "method", "real_bound", "imag_bound", "region_bounded",
                    "max_abs_R_hlambda", "problem_stable", "abs_R_z", "z_stable",
                    "arg_R_minus_im_z", NULL);
    else
        table_begin(&tab, stdout, tsv, "method", "real_bound", "imag_bound", "region_bounded",
                    "max_abs_R_hlambda", "problem_stable", NULL);
    for (int k = 0; methods->all[k]; k++)
        if (bounds_row(&tab, fb, methods->all[k], e, h, z, why) != 0)
            return 1;
    return 0;
}

/* What the table's columns mean, with the problem's h lambda and (--z) the point z. */
static void explain_bounds(const eigenvalues *e, double h, const double *z)
{
    printf("\nmax_abs_R_hlambda, problem_stable: over the %d eigenvalues h lambda\n"
           "of the %s at h = %g s:\n", e->n, e->what, h);
    for (int i = 0; i < e->n; i++)
        printf("  h lambda = %+.6g %+.6gj\n", creal(h * e->lam[i]), cimag(h * e->lam[i]));
    printf("region_bounded: every point of |z| = 50 unstable"
           " (explicit methods: R is a polynomial)\n");
    if (z[2] != 0.0)
        printf("abs_R_z, z_stable, arg_R_minus_im_z: at z = %g %+gj; the last is the phase error of"
               " one step on\nan oscillator, arg R(z) - Im z taken in (-pi, pi], rad\n"
               "(the trapezoid: |R| = 1 on the axis, yet a pitch error)\n", z[0], z[1]);
    printf("\nleapfrog's R is the larger eigenvalue of its step on the undamped oscillator"
           " (a 2x2 matrix),\nso its region is the imaginary segment |Im z| <= %.4f alone;"
           " for a problem's eigenvalues\nit is read at z = j h |lambda|"
           " (the undamped frequency).\n",
           stability_bound(&method_leapfrog, I));
}

/* The audio bandwidth of every method at fs (sub steps a sample): the frequency up to which a
 * partial that rings for t60 s keeps its pitch within 1 cent and its T60 within 10%, from
 * R(h lambda) (stability_bandwidth); bandwidth.tsv, and the lines unless tsv. 0, or the
 * failure's status with why. */
static int show_audio_bandwidth(const method_set *methods, double fs, long sub, double t60,
                                const char *out, bool tsv, failure *why)
{
    /* the lecture's T60 = 6 ln 10 / sigma */
    double h = 1.0 / (fs * (double)sub), alpha = 6.0 * log(10.0) / t60;
    atomic_file a;
    FILE *f = atomic_open_file(&a, "stability", out, "bandwidth.tsv", why);
    if (!f)
        return why->status;
    fprintf(f, "method\tfs_hz\tsubsteps\tt60_s\tbandwidth_hz\tlimit\n");
    if (!tsv)
        printf("\naudio bandwidth at fs = %g Hz, %ld step(s) a sample: the frequency up to which"
               " a partial\nof T60 = %g s keeps its pitch error under 1 cent and its T60 ratio"
               " within 10%%\n(from R(h lambda), lambda = -%.4g + j 2 pi f; a scan in 1%% steps,"
               " then bisection\nto 1e-9 relative, at most 100 halvings):\n", fs, sub, t60, alpha);
    for (int k = 0; methods->all[k]; k++) {
        const method *m = methods->all[k];
        const char *limit;
        double bw = stability_bandwidth(m, h, alpha, fs / 2.0, 1.0, 0.1, &limit);
        fprintf(f, "%s\t%g\t%ld\t%g\t%.6g\t%s\n", m->name, fs, sub, t60, bw,
                isnan(bw) ? "n/a" : limit);
        if (tsv)
            continue;
        if (isnan(bw))
            printf("  %-16s n/a (its R is for the undamped oscillator: no T60 to read)\n",
                   m->name);
        else
            printf("  %-16s %9.1f Hz  (%s)\n", m->name, bw,
                   strcmp(limit, "none") == 0    ? "the Nyquist frequency"
                   : strcmp(limit, "pitch") == 0 ? "then the pitch error passes 1 cent"
                                                 : "then the T60 ratio leaves 0.9-1.1");
    }
    return atomic_commit_file(&a, "stability", why);
}

/* Gradient descent on the bowl f = (mu x^2 + L y^2)/2: its runs either side of the bound. */
typedef struct {
    quadratic bowl;
    double bound;           /* 2/L: forward Euler's real bound over the largest curvature */
    long steps;             /* iterations a run */
    bool tsv;
} gd_study;

/* One run of gradient descent at step h (ratio r of the bound): its f(x_k) into f, and its row
 * of gd.tsv: f_end/f_0, whether it converges, and its contraction per step at the end against
 * forward Euler's max_i |R(-h a_i)|. 0, or 1 with why when the run failed. */
static int gd_run(gd_study *g, double r, double *f, FILE *fgd, failure *why)
{
    double h = r * g->bound, x[2] = {1.0, 1.0};
    ivp flow = quadratic_flow(&g->bowl);
    gd_ctx c = {&g->bowl, f};
    solve_opts o = {.m = &method_euler, .h = h, .n = g->steps, .every = 1, .sink = gd_sink,
                    .ctx = &c};
    solve_result res;
    solve_status st = solve_fixed(&flow, x, &o, NULL, &res);
    if (st == SOLVE_FAILED)
        return failure_set(why, 1, "stability: gradient descent: %s", res.message);
    double f0 = f[0], fe = f[res.steps], rate = sqrt(f[res.steps] / f[res.steps - 1]);
    const double *a = g->bowl.a;
    const method *euler = &method_euler;
    double Rr = fmax(cabs(method_R(euler, -h * a[0])), cabs(method_R(euler, -h * a[1])));
    bool conv = st == SOLVE_OK && fe < f0;
    fprintf(fgd, "%.9g\t%.4g\t%.6e\t%s\t%.9f\t%.9f\n", h, r, fe / f0, conv ? "yes" : "no", rate,
            Rr);
    if (!g->tsv)
        printf("  h = %.4g (%.2f of 2/L): f_end/f_0 = %.3e, %s;\n"
               "    rate %.6f, max |1 - h a_i| = %.6f\n",
               h, r, fe / f0, conv ? "converges" : "diverges", rate, Rr);
    return 0;
}

/* Gradient descent is forward Euler on x' = -grad f: it converges for h < 2/L, forward Euler's
 * real bound; runs at h = r 2/L either side of it show it (gd.tsv, gd_f.tsv: f(x_k) of each).
 * 0, or the failure's status with why. */
static int show_gradient_descent(double mu, double L, long steps, const char *out, bool tsv,
                                 failure *why)
{
    const double gd_r[GD_RUNS] = {0.5, 0.9, 0.99, 1.01, 1.1, 1.5};
    double real_bound = stability_bound(&method_euler, -1.0);
    gd_study g = {.bowl = {2, {mu, L}}, .bound = real_bound / L, .steps = steps, .tsv = tsv};
    atomic_file agd, agf;
    FILE *fgd = atomic_open_file(&agd, "stability", out, "gd.tsv", why);
    FILE *fgf = fgd ? atomic_open_file(&agf, "stability", out, "gd_f.tsv", why) : NULL;
    if (!fgf)
        return why->status;
    fprintf(fgd, "h\th_over_bound\tf_end_over_f0\tconverges\tmeasured_rate\tR_rate\n");
    fprintf(fgf, "k");
    for (int r = 0; r < GD_RUNS; r++)
        fprintf(fgf, "\th = %.3g 2/L", gd_r[r]);
    fputc('\n', fgf);
    if (!tsv)
        printf("\ngradient descent on f = (mu x^2 + L y^2)/2, mu = %g, L = %g, from (1, 1), %ld"
               " steps:\nx_k+1 = x_k - h grad f is forward Euler on x' = -grad f (eigenvalues"
               " -mu, -L):\nstable for h L <= %.4f (forward Euler's real bound), h <= %.6g.\n"
               "rate: sqrt(f_k/f_k-1) at the end, against max |R(-h a_i)| = max |1 - h a_i|\n",
               mu, L, steps, real_bound, g.bound);
    double *gd_f[GD_RUNS] = {NULL};
    int status = 0;
    for (int r = 0; r < GD_RUNS && status == 0; r++) {
        gd_f[r] = xcalloc((size_t)steps + 1, sizeof(double));
        status = gd_run(&g, gd_r[r], gd_f[r], fgd, why);
    }
    for (long k = 0; k <= steps && status == 0; k++) {
        fprintf(fgf, "%ld", k);
        for (int r = 0; r < GD_RUNS; r++)
            fprintf(fgf, "\t%.6e", gd_f[r][k]);
        fputc('\n', fgf);
    }
    for (int r = 0; r < GD_RUNS; r++)
        free(gd_f[r]);
    if (status == 0)
        status = atomic_commit_file(&agd, "stability", why);
    if (status == 0)
        status = atomic_commit_file(&agf, "stability", why);
    return status;
}

int main(int argc, char **argv)
{
    const char *problem = "oscillator";
    double h = 0.1, omega0 = 2.0 * M_PI, sigma0 = 0.2;
    double z[3] = {0.0, 0.0, 0.0};     /* re, im, given */
    double gd_L = 10.0, gd_mu = 1.0;
    long gd_steps = 100;
    double bw_fs = 48000.0, bw_t60 = 1.0;
    long bw_sub = 1;
    cli_common common = {false, "build/data/stability"};
    plot_opts plot = {false, false, NULL};
    method_set methods;
    method_set_init(&methods);
    const cli_opt opts[] = {
        FLAG_CUSTOM("z", z, "", parse_z,
            "RE,IM (two finite numbers, e.g. 0,2.5)",
            "print |R(z)| at z = RE,IM for every method, and whether it is stable"),
        FLAG_CHOICE("problem", problem, "oscillator|stiff",
            "whose scaled eigenvalues h lambda to lay over the regions"),
        FLAG_REAL("h", h, "s", 0, 10, CLI_OPEN_MIN, "time step that scales the eigenvalues"),
        FLAG_REAL("omega0", omega0, "rad/s", 0, 1e6, CLI_OPEN_MIN,
            "oscillator: lossless angular frequency"),
        FLAG_REAL("sigma0", sigma0, "1/s", 0, 1e6, CLI_CLOSED, "oscillator: decay rate"),
        FLAG_REAL("gd-L", gd_L, "", 0, 1e6, CLI_OPEN_MIN,
            "gradient descent: largest curvature L of the bowl f = (mu x^2 + L y^2)/2"),
        FLAG_REAL("gd-mu", gd_mu, "", 0, 1e6, CLI_OPEN_MIN,
            "gradient descent: smallest curvature mu (at most L)"),
        FLAG_WHOLE("gd-steps", gd_steps, 1, 100000, "gradient descent: iterations a run"),
        FLAG_REAL("fs", bw_fs, "Hz", 1000, 384000, CLI_CLOSED, "audio bandwidth: the sample rate"),
        FLAG_WHOLE("substeps", bw_sub, 1, 1 << 20,
            "audio bandwidth: steps a sample, h = 1/(fs m)"),
        FLAG_REAL("bandwidth-t60", bw_t60, "s", 1e-3, 1e3, CLI_CLOSED,
            "audio bandwidth: the T60 of the partial"),
        METHOD_ADD_OPT(methods),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "stability",
        .summary = "Stability regions |R(z)| <= 1 of every method, their bounds on the axes, and "
            "a problem's h lambda over them.",
        .opts = opts,
        .epilogue = exercises,
    };
    cli_parse(&spec, argc, argv);
    if (gd_mu > gd_L)
        cli_fail("stability", "--gd-mu %g exceeds --gd-L %g; accepted: mu <= L", gd_mu, gd_L);

    /* 1. The model's eigenvalues lambda: y' = lambda y is what every mode does. */
    eigenvalues e;
    failure why;    /* what ends the program early: its line and status */
    if (problem_eigenvalues(&e, problem, omega0, sigma0, &why) != 0)
        return failure_print(&why);
    /* 2. Every method's region |R(z)| <= 1, drawn from the R(z) that steps it; h lambda on it. */
    atomic_file ab, ae, ag[METHOD_MAX];
    int nm = write_regions(ag, &methods, common.out, &why);
    if (nm < 0)
        return failure_print(&why);
    FILE *fb = atomic_open_file(&ab, "stability", common.out, "bounds.tsv", &why);
    FILE *fe = fb ? atomic_open_file(&ae, "stability", common.out, "eigen.tsv", &why) : NULL;
    if (!fe)
        return failure_print(&why);
    write_eigenvalues(fe, &e, h);
    /* 3. The claim: RK4 is stable on the imaginary axis out to 2.83, forward Euler on the
     * negative real axis out to 2; explicit regions are bounded; is the problem's h lambda in? */
    if (show_stability_bounds(fb, &methods, &e, h, z, common.tsv, &why) != 0)
        return failure_print(&why);
    if (!common.tsv)
        explain_bounds(&e, h, z);
    /* 4. What the regions mean for sound: each method's audio bandwidth at fs. */
    if (show_audio_bandwidth(&methods, bw_fs, bw_sub, bw_t60, common.out, common.tsv, &why) != 0)
        return failure_print(&why);
    /* 5. Gradient descent is forward Euler: it converges for h < 2/L and diverges above. */
    if (show_gradient_descent(gd_mu, gd_L, gd_steps, common.out, common.tsv, &why) != 0)
        return failure_print(&why);
    int status = 0;
    for (int k = 0; k < nm && status == 0; k++)
        status = atomic_commit_file(&ag[k], "stability", &why);
    if (status != 0 || atomic_commit_file(&ab, "stability", &why) != 0 ||
        atomic_commit_file(&ae, "stability", &why) != 0)
        return failure_print(&why);
    return plot_render(&plot, "stability", common.out, common.tsv);
}
