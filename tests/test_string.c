/* test_string: the plucked string model. The closed forms (u0, A_n) against their definitions,
 * the reference signal against an independent long-double evaluation of the series with more
 * modes, every damping regime against the oscillator's exact solution, the checks of the
 * constraints, and the two semi-discrete systems against their exact modal solutions. */
#include "check.h"
#include "pages.h"
#include "io/h5.h"
#include "method/method.h"
#include "oscillator/oscillator.h"
#include "string/string.h"
#include "string/score.h"
#include "drive/solve.h"
#include "base/util.h"
#include <gsl/gsl_integration.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const string_params spec = {0.65, 143.0, 3.0, 0.004, 0.002, 0.1625, 0.006, 0.54};

typedef struct { const string_params *s; int n; } quad_ctx;
static double integrand(double x, void *c)
{
    const quad_ctx *q = c;
    return string_u0(q->s, x) * sin(q->n * M_PI * x / q->s->L);
}

/* The load g(x) of the spec, for u0'' = -g. */
static double load(const string_params *s, double x)
{
    double y = x - s->xp;
    return fabs(y) <= s->w ? string_load(s) / (2 * s->w) * (1 + cos(M_PI * y / s->w)) : 0.0;
}

/* The series in long double, written from the appendix independently of string.c: A_n, alpha_n,
 * omega_n, and every term evaluated directly with expl/sinl until e^{-alpha t} |term| < 1e-30. */
static void series_long(const string_params *s, int nmodes, double fs, long n, long double *out)
{
    const long double pi = 3.141592653589793238462643383279502884L;
    long double L = s->L, c = s->c, w = s->w, xp = s->xp, xm = s->xm, h = s->height;
    long double Q = h / (xp * (L - xp) / L - w * (0.25L - 1.0L / (pi * pi)));
    for (long k = 0; k < n; k++)
        out[k] = 0;
    for (int m = 1; m <= nmodes; m++) {
        long double k_n = m * pi / L, p2 = (pi / w) * (pi / w);
        long double A = 2 * Q / (L * w * k_n * k_n * k_n) * sinl(k_n * xp) * sinl(k_n * w) * p2 / (p2 - k_n * k_n);
        long double al = s->sigma0 + 0.5L * s->kappa * k_n * k_n, om = sqrtl(c * c * k_n * k_n - al * al);
        long double amp = -A * c * c * k_n * k_n / om * sinl(k_n * xm);
        for (long k = 1; k < n; k++) {
            long double t = k / (long double)fs, e = expl(-al * t);
            if (fabsl(amp) * e < 1e-30L)
                break;
            out[k] += amp * e * sinl(om * t);
        }
    }
}

/* The number of modes the series' stopping rule (string.h) asks for, each of its terms evaluated
 * in full: the first n past the load's resonance 2L/w with E_n min(n/3, r/(1 - r)) <= tol/2. */
static int modes_by_rule(const string_params *s, double t1, double tol)
{
    double Q = string_load(s), p2 = (M_PI / s->w) * (M_PI / s->w);
    for (int n = 1;; n++) {
        if (n <= 2.0 * s->L / s->w)
            continue;
        double k = n * M_PI / s->L;
        string_mode whole = string_exact_mode(s, n);
        whole.amplitude = 2.0 * Q / (s->L * s->w * k * k * k) * p2 / fabs(p2 - k * k);
        whole.pickup = 1.0;
        double E = string_mode_velocity_bound(&whole, t1);
        double r = exp(-0.5 * s->kappa * (2.0 * n + 1) * (M_PI / s->L) * (M_PI / s->L) * t1);
        bool under = whole.alpha * whole.alpha < whole.omega0sq;
        double factor = under ? fmin(n / 3.0, r < 1 ? r / (1.0 - r) : INFINITY) : n / 3.0;
        if (E * factor <= 0.5 * tol)
            return n;
    }
}

/* The mode-samples of the sum (string_sum_info) with each mode's end found by plain halving: the
 * first sample from which its velocity bound stays below its share of tol (at least 1). */
static long mode_samples_by_halving(const string_mode *m, int nm, double fs, long n, double tol)
{
    long total = 0;
    for (int j = 0; j < nm; j++) {
        if (m[j].pickup == 0.0 || m[j].amplitude == 0.0)
            continue;
        double eps = tol * 3.0 / (M_PI * M_PI * (j + 1.0) * (j + 1.0));
        long lo = 0, hi = n - 1;
        if (string_mode_velocity_bound(&m[j], (double)hi / fs) >= eps) {
            total += n;
            continue;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            *(string_mode_velocity_bound(&m[j], (double)mid / fs) < eps ? &hi : &lo) = mid;
        }
        total += hi;
    }
    return total;
}

/* xmalloc_large, the reference's buffer in bin/pluck: 2 MB aligned, and written whole in a few
 * page faults where the kernel has transparent huge pages (188 faults with 4 KB pages). */
static void check_large_buffer(void)
{
    size_t n = 96000;
    struct rusage r0, r1;
    bool thp = thp_on(), asan = false;
#ifdef __SANITIZE_ADDRESS__
    asan = true;        /* its allocator places and maps the memory its own way */
#endif
    long fell0 = vmstat("thp_fault_fallback");
    double *b = xmalloc_large(n, sizeof *b);
    getrusage(RUSAGE_SELF, &r0);
    for (size_t k = 0; k < n; k++)
        b[k] = (double)k;
    getrusage(RUSAGE_SELF, &r1);
    long faults = r1.ru_minflt - r0.ru_minflt, fell = vmstat("thp_fault_fallback") - fell0;
    bool aligned = (uintptr_t)b % ((uintptr_t)2 << 20) == 0, kept = b[n - 1] == n - 1.0;
    free(b);
    check(aligned && kept && (faults <= 8 || asan || !thp || fell > 0),
          "xmalloc_large(96000 doubles): 2 MB aligned (%s), written whole in %ld page faults "
          "(%s)", aligned ? "yes" : "no", faults,
          asan ? "any number under AddressSanitizer" : !thp ? "any number: transparent huge pages "
          "off" : fell > 0 ? "any number: the kernel had no huge page" : "<= 8, where 4 KB pages "
          "take 188: transparent huge pages on");
    double *s = xmalloc_large(1000, sizeof *s);     /* small: plain calloc */
    check(s[0] == 0.0 && s[999] == 0.0, "xmalloc_large below 512 KB: zeroed, like xcalloc");
    free(s);
}

int main(void)
{
    char why[300];
    /* ---- u0 and A_n ---- */
    check_close("u0(xp) = pluck height (m)", string_u0(&spec, spec.xp), spec.height, 1e-15);
    check(string_u0(&spec, 0.0) == 0.0 && fabs(string_u0(&spec, spec.L)) < 1e-18, "u0(0) = u0(L) = 0 (%.3g, %.3g)",
          string_u0(&spec, 0.0), string_u0(&spec, spec.L));
    double worst = 0.0, dx = 1e-5;
    for (int i = 1; i < 40; i++) {
        double x = spec.xp - 1.5 * spec.w + i * 3.0 * spec.w / 40.0;
        double d2 = (string_u0(&spec, x - dx) - 2 * string_u0(&spec, x) + string_u0(&spec, x + dx)) / (dx * dx);
        worst = fmax(worst, fabs(d2 + load(&spec, x)) / (string_load(&spec) / spec.w));
    }
    check(worst < 1e-4, "u0'' = -g across the load (largest misfit %.2e of Q/w)", worst);
    gsl_integration_workspace *iw = gsl_integration_workspace_alloc(2000);
    double worst_a = 0.0;
    int ns[] = {1, 2, 3, 5, 13, 50, 107, 109, 300};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        quad_ctx q = {&spec, ns[i]};
        gsl_function f = {integrand, &q};
        double val, err;
        double pts[] = {0.0, spec.xp - spec.w, spec.xp, spec.xp + spec.w, spec.L};
        gsl_integration_qagp(&f, pts, 5, 1e-16, 1e-12, 2000, iw, &val, &err);
        double quad = 2.0 / spec.L * val, cf = string_mode_amplitude(&spec, ns[i]);
        worst_a = fmax(worst_a, fabs(quad - cf) / fabs(string_mode_amplitude(&spec, 1)));
    }
    gsl_integration_workspace_free(iw);
    check(worst_a < 1e-11, "A_n closed form = (2/L) int u0 sin(k_n x) dx by quadrature, n = 1..300 (misfit %.2e of A_1)",
          worst_a);

    /* ---- the reference against an independent long-double series with 3x the modes ---- */
    double fs = 48000.0, tol = 2.5e-10;
    long n = 96000;
    string_mode *modes;
    double t0 = wall_seconds();
    int nm = string_reference_modes(&spec, 1.0 / fs, tol, 1000000, &modes);
    double *sig = xcalloc((size_t)n, sizeof(double));
    string_sum_info info;
    string_pickup_signal(modes, nm, fs, n, tol, sig, &info);
    double secs = wall_seconds() - t0;
    check(nm > 2000 && nm < 5000 && info.overdamped == 0, "the tolerance 2.5e-10 m/s picks %d modes, none overdamped", nm);
    {   /* the series' length: string_reference_modes skips the exp of r/(1 - r) while a bound
         * shows the series goes on; the count is the rule's, evaluated in full */
        const double tols[] = {2.5e-4, 2.5e-7, 2.5e-10, 2.5e-13}, rates[] = {8000.0, 48000.0, 96000.0};
        int same = 0, cases = 0, n_rule = 0, n_ref = 0;
        for (size_t i = 0; i < 4; i++)
            for (size_t j = 0; j < 3; j++) {
                string_mode *mr;
                n_ref = string_reference_modes(&spec, 1.0 / rates[j], tols[i], 1000000, &mr);
                n_rule = modes_by_rule(&spec, 1.0 / rates[j], tols[i]);
                same += n_ref == n_rule, cases++;
                free(mr);
            }
        check(same == cases, "the series' length = its stopping rule evaluated in full, tol 2.5e-4 "
              "to 2.5e-13 m/s at 8, 48 and 96 kHz: %d of %d cases (the last: %d and %d modes)",
              same, cases, n_ref, n_rule);
    }
    {   /* the series' modes (their sines by rotations) against the closed form in long double:
         * A_n in units of its bound with both sines 1, the pickup weight absolutely; both in units
         * of eps pi n, as the double argument k_n x (< pi n) of a sine is itself off by that */
        const long double pi = 3.141592653589793238462643383279502884L;
        long double L = spec.L, w = spec.w, Q = string_load(&spec), p2 = (pi / w) * (pi / w);
        double worst_m = 0.0, worst_x = 0.0;
        for (int j = 0; j < nm; j++) {
            long double k = (j + 1) * pi / L, bound = 2 * Q / (L * w * k * k * k) * p2 / fabsl(p2 - k * k);
            long double A = bound * sinl(k * spec.xp) * sinl(k * w) * (p2 - k * k >= 0 ? 1 : -1);
            string_mode ex = string_exact_mode(&spec, j + 1);
            double unit = DBL_EPSILON * M_PI * (j + 1);
            double e_a = (double)(fabsl(modes[j].amplitude - A) / bound) / unit;
            double e_p = (double)fabsl(modes[j].pickup - sinl(k * spec.xm)) / unit;
            worst_m = fmax(worst_m, fmax(e_a, e_p));
            worst_x = fmax(worst_x, fmax((double)(fabsl(ex.amplitude - A) / bound),
                                         (double)fabsl(ex.pickup - sinl(k * spec.xm))) / unit);
        }
        check(worst_m < 1.0, "the series' %d modes (sines by rotation, restarted every 32 modes) = "
              "the closed form in long double: largest error %.2f eps pi n of A_n's bound or of the "
              "pickup weight (< 1; libm's sines: %.2f)", nm, worst_m, worst_x);
    }
    check(secs < 0.5, "the reference takes %.3f s (< 0.5 s)", secs);
    long by_halving = mode_samples_by_halving(modes, nm, fs, n, tol);
    check(info.mode_samples == by_halving, "the sum's mode-samples %ld = %ld, each mode's end found "
          "by plain halving of its velocity bound", info.mode_samples, by_halving);
    long double *ind = xcalloc((size_t)n, sizeof(long double));
    series_long(&spec, 3 * nm, fs, n, ind);
    double *indd = xcalloc((size_t)n, sizeof(double)), *asfloat = xcalloc((size_t)n, sizeof(double));
    for (long k = 0; k < n; k++) {
        indd[k] = (double)ind[k];
        asfloat[k] = (float)(sig[k] / 2.5);
        indd[k] /= 2.5;
    }
    double e_double = 0, e_ref = 0;
    for (long k = 0; k < n; k++) {
        e_double += (sig[k] / 2.5 - indd[k]) * (sig[k] / 2.5 - indd[k]);
        e_ref += indd[k] * indd[k];
    }
    e_double = sqrt(e_double / e_ref);
    check(e_double < 1e-10, "reference (double) vs long-double series with %d modes: E_wave %.2e < 1e-10", 3 * nm, e_double);
    double e_float = score_wave(asfloat, indd, (size_t)n);
    check(e_float < 1e-6, "reference as float32 samples vs long-double series: E_wave %.2e < 1e-6", e_float);
    double pk = max_abs(indd, (size_t)n);
    check(pk > 0.45 && pk < 0.5, "peak sample |s|/s_ref = %.4f (the issue: about 0.47)", pk);
    check(sig[0] == 0.0, "s(0) = 0 exactly");
    free(ind);
    free(indd);
    free(asfloat);
    check_large_buffer();

    /* ---- the sum's promise, |s - series| <= tol at every sample, where its tiles and chains
     * fall otherwise than at the default: a signal shorter than a tile and than two chains' first
     * samples, one ending inside a tile, and other sampling rates ---- */
    {
        const struct { double fs; long n; } cases[] = {{48000.0, 20}, {48000.0, 700},
                                                       {96000.0, 3000}, {22050.0, 5000}};
        double worst_t = 0.0;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            double fc = cases[i].fs;
            long nc = cases[i].n;
            string_mode *mc;
            int nmc = string_reference_modes(&spec, 1.0 / fc, tol, 1000000, &mc);
            double *sc = xcalloc((size_t)nc, sizeof(double));
            long double *lc = xcalloc((size_t)nc, sizeof(long double));
            string_pickup_signal(mc, nmc, fc, nc, tol, sc, NULL);
            series_long(&spec, 3 * nmc, fc, nc, lc);
            for (long k = 0; k < nc; k++)
                worst_t = fmax(worst_t, (double)fabsl(sc[k] - lc[k]) / tol);
            free(mc), free(sc), free(lc);
        }
        check(worst_t <= 1.0, "the sum within its tolerance of the long-double series at every "
              "sample: 20, 700 samples at 48 kHz, 3000 at 96 kHz, 5000 at 22.05 kHz (largest "
              "error %.2g of tol)", worst_t);
    }

    /* ---- one mode through the sum's recurrence (y_{k+24} = 2 Re(Z) y_k - |Z|^2 y_{k-24}) against
     * its closed form in long double, sample by sample, where the recurrence is least stable:
     * Z = z^24 real (24 omega/fs a multiple of pi: its two roots one), omega/fs tiny, near
     * Nyquist. Double precision cannot do better than the rounding of the phase omega t itself,
     * about eps omega t, or than a rounding a sample carried over the nr samples: the error is
     * measured in the larger of eps omega t_max and eps nr. ---- */
    {
        double worst_r = 0.0, fr = 48000.0;
        long nr = 12000;     /* 3 tiles of 4096 samples: the phasor carried twice */
        double oms[] = {1e-4, 0.3, M_PI / 24, M_PI / 12, M_PI / 16, M_PI / 2, M_PI * 23 / 24, 1.0,
                        M_PI * (1 - 1e-9)};
        double *rs = xcalloc((size_t)nr, sizeof(double));
        for (size_t i = 0; i < sizeof oms / sizeof oms[0]; i++) {
            double al = 2.0, om0 = oms[i] * fr;
            string_mode md = {1e-3, al, om0 * om0 + al * al, 0.7};
            string_pickup_signal(&md, 1, fr, nr, 1e-30, rs, NULL);
            double om = sqrt(md.omega0sq - al * al);   /* as the sum takes it from the mode */
            double peak = fabs(md.pickup * md.amplitude * md.omega0sq / om);
            double unit = DBL_EPSILON * fmax((double)nr, om * nr / fr);
            for (long k = 1; k < nr; k++) {     /* pickup a' = -peak e^{-al t} sin(om t) */
                long double t = (long double)k / fr;
                long double ad = -expl(-al * t) * sinl((long double)om * t) * peak;
                worst_r = fmax(worst_r, (double)fabsl(rs[k] - ad) / peak / unit);
            }
        }
        free(rs);
        check(worst_r < 1.0, "one mode summed by the recurrence = its closed form (long double) at "
              "every sample, omega/fs = 1e-4 to pi, 24 omega/fs on multiples of pi included: largest "
              "error %.2f of the amplitude in units of eps max(omega t_max, nr) (< 1)", worst_r);
    }

    /* ---- every damping regime against the oscillator's exact solution ---- */
    double worst_m = 0.0;
    double regimes[][2] = {{3.0, 1e6}, {1e3, 1e6}, {1e3 * (1 + 1e-9), 1e6}, {1e3, 1e6 * (1 - 1e-12)}, {5e3, 1e6}, {4e4, 1e6}};
    for (size_t i = 0; i < sizeof regimes / sizeof regimes[0]; i++) {
        string_mode md = {1.5e-3, regimes[i][0], regimes[i][1], 1.0};
        oscillator o = {sqrt(md.omega0sq), md.alpha};
        double y0[2] = {md.amplitude, 0.0};
        for (double t = 0.0; t < 0.01; t += 3.7e-4) {
            double a, ad, y[2];
            string_mode_eval(&md, t, &a, &ad);
            oscillator_exact(&o, y0, t, y);
            worst_m = fmax(worst_m, fmax(fabs(a - y[0]) / md.amplitude, fabs(ad - y[1]) / (md.amplitude * o.omega0)));
            double b = string_mode_velocity_bound(&md, t);
            for (double s2 = t; s2 < t + 0.01; s2 += 1.3e-4) {
                string_mode_eval(&md, s2, &a, &ad);
                if (fabs(ad) > b * (1 + 1e-12) + 1e-300)
                    worst_m = 1.0;   /* the bound must hold at every later time */
            }
        }
    }
    check(worst_m < 1e-9, "a_n, a_n' in under-, critically and over-damped modes = oscillator_exact, bounds hold (%.2e)", worst_m);
    /* an overdamped reference: kappa large makes modes above n = 4 overdamped */
    string_params od = spec;
    od.kappa = 2.0;
    string_mode *om;
    int onm = string_reference_modes(&od, 1.0 / fs, tol, 1000000, &om);
    double *os = xcalloc((size_t)n, sizeof(double));
    const long n_od = 192;
    string_pickup_signal(om, onm, fs, n_od, tol, os, &info);
    double *osc_sum = xcalloc((size_t)n_od, sizeof(double));
    long od_nonfinite = 0;
    for (int j = 0; j < onm; j++) {
        oscillator o = {sqrt(om[j].omega0sq), om[j].alpha};
        double y0[2] = {om[j].amplitude, 0.0}, y[2];
        for (long k = 1; k < n_od; k++) {
            oscillator_exact(&o, y0, k / fs, y);
            if (!isfinite(y[1]))
                od_nonfinite++;
            osc_sum[k] += om[j].pickup * y[1];
        }
    }
    check(od_nonfinite == 0, "oscillator_exact stays finite on all %d strongly overdamped terms (%ld not finite)", onm, od_nonfinite);
    double e_od = score_wave(os, osc_sum, (size_t)n_od);
    check(info.overdamped > 0 && e_od < 1e-9, "kappa = 2 m^2/s: %d of %d modes overdamped; the first 4 ms agree with a sum "
          "of oscillator_exact terms to E_wave %.2e", info.overdamped, onm, e_od);
    free(osc_sum);
    free(om);
    free(os);

    /* ---- constraints ---- */
    string_params bad = spec;
    bad.w = 0.65 / 100.0;
    check(string_check(&bad, why, sizeof why) != 0 && strstr(why, "integer"), "L/w = 100 refused: %s", why);
    bad = spec;
    bad.xp = 0.003;
    check(string_check(&bad, why, sizeof why) != 0 && strstr(why, "w < xp < L - w"), "xp < w refused: %s", why);
    bad = spec;
    bad.xm = 0.65;
    check(string_check(&bad, why, sizeof why) != 0, "xm = L refused: %s", why);
    check(string_check(&spec, why, sizeof why) == 0, "the spec's parameters pass");

    /* ---- the semi-discrete systems: sine modes are exact eigenvectors; stepping meets the modal solution ---- */
    for (int sten = 3; sten <= 5; sten += 2) {
        string_fd fd;
        string_fd_init(&fd, &spec, (string_stencil)sten, 26, false, why, sizeof why);
        ivp p = string_fd_ivp(&fd);
        string_mode *fm;
        int fnm = string_fd_modes(&fd, &fm);
        /* mode 7 as the state u = sin(k x_i), v = 0: v' = -omega0sq u exactly */
        double *y = xcalloc(p.dim, sizeof(double)), *f = xcalloc(p.dim, sizeof(double));
        for (long i = 1; i < 26; i++)
            y[i - 1] = sin(7 * M_PI * i / 26.0);
        p.rhs(0.0, y, f, p.params);
        double mis = 0.0;
        for (long i = 1; i < 26; i++)
            mis = fmax(mis, fabs(f[25 + i - 1] + fm[6].omega0sq * y[i - 1]) / fm[6].omega0sq);
        check(mis < 1e-12, "FD%d N = 26: sin(k_7 x_i) is an eigenvector with the stencil's eigenvalue (%.1e)", sten, mis);
        /* RK4 at a small step against the exact semi-discrete modal solution over 20 ms */
        string_fd_initial(&fd, y);
        long ns2 = 961;
        double *exact = xcalloc((size_t)ns2, sizeof(double)), worst_fd = 0.0, scale = 0.0;
        string_pickup_signal(fm, fnm, fs, ns2, 1e-14, exact, NULL);
        solve_opts so = {&method_rk4, 0.0, 1.0 / (fs * 8), 8, 0, 0, NULL, NULL};
        solve_result res;
        for (long k = 1; k < ns2; k++) {
            solve_fixed(&p, y, &so, NULL, &res);
            double v = string_fd_pickup(&fd, y);
            worst_fd = fmax(worst_fd, fabs(v - exact[k]));
            scale = fmax(scale, fabs(exact[k]));
        }
        check(worst_fd < 1e-7 * scale, "FD%d N = 26: RK4 (h = 1/(8 fs)) meets the exact semi-discrete solution over 20 ms "
              "(%.2e of the peak)", sten, worst_fd / scale);
        /* the analytic Jacobian is the matrix of F */
        double *J = xcalloc(p.dim * p.dim, sizeof(double)), jm = 0.0;
        p.jac(0.0, y, J, p.params);
        for (size_t r = 0; r < p.dim; r++) {
            double s = 0.0;
            for (size_t c2 = 0; c2 < p.dim; c2++)
                s += J[r * p.dim + c2] * y[c2];
            jm = fmax(jm, fabs(s - 0.0));
        }
        p.rhs(0.0, y, f, p.params);
        double jm2 = 0.0;
        for (size_t r = 0; r < p.dim; r++) {
            double s = 0.0;
            for (size_t c2 = 0; c2 < p.dim; c2++)
                s += J[r * p.dim + c2] * y[c2];
            jm2 = fmax(jm2, fabs(s - f[r]) / (1.0 + fabs(f[r])));
        }
        (void)jm;
        check(jm2 < 1e-9, "FD%d: J y = F(y) (the system is linear and the Jacobian is its matrix; %.1e)", sten, jm2);
        free(J);
        free(y);
        free(f);
        free(exact);
        free(fm);
    }
    /* the interleaved layout is the same system: same pickup after the same steps */
    {
        string_fd a, b;
        string_fd_init(&a, &spec, STRING_FD5, 30, false, why, sizeof why);
        string_fd_init(&b, &spec, STRING_FD5, 31, true, why, sizeof why);
        check(b.pick_count == 4, "N = 31: the pickup is interpolated (cubic Lagrange), weights sum to %.15f",
              b.pick_weight[0] + b.pick_weight[1] + b.pick_weight[2] + b.pick_weight[3]);
        string_fd_init(&b, &spec, STRING_FD5, 30, true, why, sizeof why);
        ivp pa = string_fd_ivp(&a), pb = string_fd_ivp(&b);
        double *ya = xcalloc(pa.dim, sizeof(double)), *yb = xcalloc(pb.dim, sizeof(double));
        string_fd_initial(&a, ya);
        string_fd_initial(&b, yb);
        solve_opts so = {&method_rk4, 0.0, 1e-6, 500, 0, 0, NULL, NULL};
        solve_result res;
        solve_fixed(&pa, ya, &so, NULL, &res);
        solve_fixed(&pb, yb, &so, NULL, &res);
        double va = string_fd_pickup(&a, ya), vb = string_fd_pickup(&b, yb);
        check(fabs(va - vb) <= 1e-13 * fabs(va), "halves and interleaved layouts agree after 500 steps (%.6g vs %.6g m/s)", va, vb);
        free(ya);
        free(yb);
    }
    /* F of the interleaved layout, whose inside goes two points at a time in vector lanes, is
     * bit for bit F of the halves layout, every point by the scalar stencil (both FDs, inside
     * counts odd and even, random states) */
    {
        long diff = 0, points = 0;
        const string_stencil sts[] = {STRING_FD3, STRING_FD5};
        const long Ns[] = {6, 7, 8, 30, 31, 390};
        unsigned long long r = 88172645463325252ull;
        for (int si = 0; si < 2; si++)
            for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++) {
                string_fd a, b;
                if (string_fd_init(&a, &spec, sts[si], Ns[ni], false, why, sizeof why) != 0 ||
                    string_fd_init(&b, &spec, sts[si], Ns[ni], true, why, sizeof why) != 0) {
                    diff++;     /* every N here is accepted */
                    continue;
                }
                ivp pa = string_fd_ivp(&a), pb = string_fd_ivp(&b);
                size_t n = pa.dim, m = n / 2;
                double *ya = xcalloc(n, sizeof(double)), *yb = xcalloc(n, sizeof(double));
                double *fa = xcalloc(n, sizeof(double)), *fb = xcalloc(n, sizeof(double));
                for (size_t i = 0; i < m; i++)
                    for (int c = 0; c < 2; c++) {
                        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                        double v = ((double)(r >> 11) / 9007199254740992.0 - 0.5) * (c ? 1e2 : 1e-3);
                        ya[c * m + i] = yb[2 * i + c] = v;
                    }
                pa.rhs(0.0, ya, fa, pa.params);
                pb.rhs(0.0, yb, fb, pb.params);
                for (size_t i = 0; i < m; i++)
                    for (int c = 0; c < 2; c++) {
                        double x = fa[c * m + i], y = fb[2 * i + c];
                        diff += memcmp(&x, &y, sizeof x) != 0;
                        points++;
                    }
                free(ya), free(yb), free(fa), free(fb);
            }
        check(diff == 0, "F of the interleaved layout (inside in vector lanes) equals the halves "
              "layout's bit for bit: %ld of %ld values differ (FD3, FD5; N = 6, 7, 8, 30, 31, 390)",
              diff, points);
    }
    /* ---- the field: HDF5 round trip on the spec's grid, t = 0 is u0, rows match the series ---- */
    {
        size_t nx = 201, nt = 4001;
        double *x = xcalloc(nx, sizeof(double)), *t = xcalloc(nt, sizeof(double));
        for (size_t i = 0; i < nx; i++)
            x[i] = i * spec.L / 200.0;
        for (size_t j = 0; j < nt; j++)
            t[j] = j / 2000.0;
        float *u = xcalloc(nx * nt, sizeof(float)), *back = xcalloc(nx * nt, sizeof(float));
        string_field(&spec, modes, nm, x, nx, t, nt, u);
        char path[] = "/tmp/test_string_field_XXXXXX";
        int fdn = mkstemp(path);
        if (fdn >= 0)
            close(fdn);
        h5_attr at[] = {{"challenge_id", "string-pluck-v1"}, {"units", "m"}, {NULL, NULL}};
        char err[300], val[64] = "";
        size_t rx = 0, rtn = 0;
        double *xb = xcalloc(nx, sizeof(double)), *tb = xcalloc(nt, sizeof(double));
        int ok = h5_write_field(path, x, nx, t, nt, u, at, err, sizeof err) == 0 &&
                 h5_read_field(path, &rx, &rtn, xb, tb, back, "challenge_id", val, sizeof val, err, sizeof err) == 0;
        check(ok && rx == 201 && rtn == 4001 && strcmp(val, "string-pluck-v1") == 0 && memcmp(u, back, nx * nt * sizeof(float)) == 0 &&
                  xb[200] == spec.L && tb[4000] == 2.0,
              "HDF5 field: x (%zu), t (%zu), u float32 read back bit for bit, challenge_id '%s'", rx, rtn, val);
        double worst_f = 0.0;
        for (size_t i = 0; i < nx; i++)
            worst_f = fmax(worst_f, fabs(u[i] - string_u0(&spec, x[i])));
        check(worst_f <= 2e-10, "field row t = 0 is u0 (largest difference %.1e m)", worst_f);
        /* row t = 0.1 s from a direct sum of a_n(t) sin(k_n x) */
        double worst_r = 0.0;
        for (size_t i = 0; i < nx; i += 10) {
            double sum = 0.0;
            for (int jm = 0; jm < nm; jm++) {
                double a, ad;
                string_mode_eval(&modes[jm], 0.1, &a, &ad);
                sum += a * sin((jm + 1) * M_PI * x[i] / spec.L);
            }
            worst_r = fmax(worst_r, fabs(u[200 * nx + i] - sum));
        }
        check(worst_r < 1e-9, "field row t = 0.1 s is the series (largest difference %.1e m)", worst_r);
        unlink(path);
        free(x), free(t), free(u), free(back), free(xb), free(tb);
    }
    free(modes);
    free(sig);
    return check_done();
}
