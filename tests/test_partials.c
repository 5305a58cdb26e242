/* test_partials.c: the matrix pencil finds the poles of a known sum of damped exponentials; a
 * partial's pitch and T60 from R agree with closed forms (the trapezoid's arctan warping,
 * backward Euler's 1/(1 - z)); the audio bandwidth's search ends on the trapezoid's 1-cent
 * frequency; the Galerkin modes are the exact series' modes up to the frequency. */
#include "check.h"
#include "string/partials.h"
#include "analysis/stability.h"
#include "method/method.h"
#include <complex.h>
#include <stdlib.h>
#include <string.h>

static const string_params spec = {0.65, 143.0, 3.0, 0.004, 0.002, 0.1625, 0.006, 0.54};

static void pencil_known_poles(void)
{
    /* three damped cosines, amplitudes 1, 1e-2, 1e-3, close in frequency, at "48 kHz" */
    const double f[3] = {110.0, 220.0, 330.0}, a[3] = {3.0, 40.0, 500.0}, amp[3] = {1.0, 1e-2, 1e-3}, fs = 48000;
    size_t n = 600;
    double *x = calloc(n, sizeof *x);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 3; j++)
            x[i] += amp[j] * exp(-a[j] * i / fs) * cos(2 * M_PI * f[j] * i / fs + 0.3 * j);
    double complex poles[6];
    char err[200];
    int rc = partials_pencil(x, n, n / 3, 6, poles, err, sizeof err);
    check(rc == 0, "pencil of order 6 on 600 samples: %s", rc == 0 ? "ok" : err);
    for (int j = 0; j < 3 && rc == 0; j++) {
        double complex want = cexp((-a[j] + I * 2 * M_PI * f[j]) / fs);
        double best = INFINITY;
        for (int q = 0; q < 6; q++)
            best = fmin(best, cabs(poles[q] - want));
        check(best < 1e-10, "pencil: pole of %g Hz, decay %g/s, amplitude %g found within %.2g", f[j], a[j], amp[j], best);
    }
    check(partials_pencil(x, n, 5, 6, poles, err, sizeof err) != 0, "pencil refuses an order above its columns: %s", err);
    free(x);
}

static void predicted_closed_forms(void)
{
    double h = 1.0 / 48000, worst_t = 0, worst_b = 0;
    for (int k = 1; k <= 180; k++) {
        string_mode md = string_exact_mode(&spec, k);
        double beta = k * M_PI / spec.L, alpha = spec.sigma0 + 0.5 * spec.kappa * beta * beta;
        double om = sqrt(spec.c * spec.c * beta * beta - alpha * alpha);
        worst_t = fmax(worst_t, fabs(md.alpha - alpha) / alpha);
        /* the trapezoid: s = (2/h) atanh(z/2), the inverse of the bilinear transform */
        double complex z = h * (-alpha + I * om), s = 2.0 / h * catanh(z / 2.0);
        stability_partial p = stability_partial_of(&method_trapezoid, h, alpha, om);
        worst_b = fmax(worst_b, fabs(p.cents - 1200 * log2(cimag(s) / om)) + fabs(p.t60_ratio / (alpha / -creal(s)) - 1));
        /* backward Euler: s = -ln(1 - z)/h: omega atan(omega h/(1 + alpha h))/h, decay ln|1 - z|/h */
        p = stability_partial_of(&method_backward_euler, h, alpha, om);
        double ob = atan(om * h / (1 + alpha * h)) / h, db = 0.5 * log(pow(1 + alpha * h, 2) + pow(om * h, 2)) / h;
        worst_b = fmax(worst_b, fabs(p.cents - 1200 * log2(ob / om)) + fabs(p.t60_ratio / (alpha / db) - 1));
    }
    check(worst_t < 1e-14, "string_exact_mode: alpha_k = sigma0 + kappa beta_k^2/2 (worst relative %.2g)", worst_t);
    check(worst_b < 1e-8, "trapezoid (atanh) and backward Euler (1/(1 - z)), 180 modes: worst difference %.2g", worst_b);
    /* undamped: the arctan warping itself, at 10 kHz */
    double om = 2 * M_PI * 10000;
    stability_partial p = stability_partial_of(&method_trapezoid, h, 0.0, om);
    check_close("trapezoid at 10 kHz: (2/h) arctan(omega h/2), Hz", p.omega / (2 * M_PI), atan(om * h / 2) * 2 / h / (2 * M_PI), 1e-6);
    check(isinf(p.t60_ratio), "trapezoid, undamped: |R| = 1, T60 ratio infinite (%g)", p.t60_ratio);
}

static void bandwidth_and_modes(void)
{
    const char *limit;
    double h = 1.0 / 48000, alpha = 6 * log(10.0);
    double bw = stability_bandwidth(&method_trapezoid, h, alpha, 24000, 1.0, 0.1, &limit);
    stability_partial at = stability_partial_of(&method_trapezoid, h, alpha, 2 * M_PI * bw),
                      past = stability_partial_of(&method_trapezoid, h, alpha, 2 * M_PI * bw * (1 + 1e-8));
    check(fabs(at.cents) <= 1.0 && fabs(past.cents) > 1.0 && strcmp(limit, "pitch") == 0,
          "trapezoid bandwidth %.4f Hz: %.9f cents there, %.9f just past (pitch)", bw, at.cents, past.cents);
    check(isnan(stability_bandwidth(&method_leapfrog, h, alpha, 24000, 1.0, 0.1, &limit)),
          "leapfrog: no bandwidth (its R is for the undamped oscillator)");
    string_mode *modes;
    int M = partials_modes(&spec, 8000, 1000, &modes);
    check(M == 72, "modes up to 8 kHz: %d (mode 72 at 7920 Hz, 73 past 8 kHz)", M);
    free(modes);
}

int main(void)
{
    pencil_known_poles();
    predicted_closed_forms();
    bandwidth_and_modes();
    return check_done();
}
