/* test_ball.c: the ball on a damped oscillator. K and R give the tuned pitch and T60; the contact
 * switches as specified; the analytic Jacobian matches differences; the energy only decreases
 * along the flow; the adaptive run finds the first impact at the free-fall time with an
 * impulse that the trapezoid rule confirms; impacts from samples, the rhythm verdicts, and the
 * Hann spectrum's peak. */
#include "check.h"
#include "io/params.h"
#include "analysis/measure.h"
#include "method/method.h"
#include "ball/ball.h"
#include "analysis/spectrum.h"
#include "base/util.h"
#include <complex.h>
#include <stdlib.h>
#include <string.h>

static ball_settings lecture_settings(void)
{
    ball_settings s;
    memset(&s, 0, sizeof s);
    s.m1 = 0.1;
    s.m2 = 0.01;
    s.h0 = 0.15;
    s.f0 = 400;
    s.t60 = 1.5;
    s.kc = 1e8;
    s.lambda = 0.1;
    s.g = 9.81;
    s.T = 0.3;
    s.rtol = 1e-8;
    s.atol = 1e-12;
    s.max_step = 1e-3;
    return s;
}

typedef struct {
    const ball *b;
    double t_prev, f_prev, J, n;    /* trapezoid sum of f_c over the outputs */
} trap_ctx;

static int trap_sink(long k, double t, const double *y, void *c)
{
    trap_ctx *x = c;
    double f = ball_contact_force(x->b, y);
    if (k > 0)
        x->J += 0.5 * (f + x->f_prev) * (t - x->t_prev);
    x->t_prev = t;
    x->f_prev = f;
    x->n++;
    return 0;
}

/* The sampled-run helpers of bin/audiorate: two runs parting, the rhythm in words, a fixed-step
 * run's impacts against the adaptive reference and its check. */
static void sampled_runs(void)
{
    ball_impact va[3] = {{0.1, 0.11, 0, 0, -1, 1}, {0.2, 0.21, 0, 0, -1, 1}, {0.3, 0.31, 0, 0, -1, 1}};
    ball_impact vb[2] = {{0.1, 0.11, 0, 0, -1, 1}, {0.2004, 0.21, 0, 0, -1, 1}};
    ball_impacts a = {3, 3, va}, bb = {2, 2, vb};
    check(fabs(ball_impacts_max_diff(&a, &bb, 0) - 4e-4) < 1e-15 && ball_impacts_max_diff(&a, &bb, 2) == 0.0,
          "two runs part by 0.4 ms at the second impact; past the impacts both have, by nothing");
    char w[200];
    ball_rhythm_words(w, sizeof w, &a, &bb, 0, 2, 1e-3, 0.1);
    check(strstr(w, "hears no change") != NULL, "none heard: '%s'", w);
    ball_rhythm_words(w, sizeof w, &a, &bb, 3, 2, 1e-3, 0.1);
    check(strstr(w, "impact 3 never comes (the run has 2)") != NULL, "a missing impact: '%s'", w);
    ball_rhythm_words(w, sizeof w, &a, &bb, 2, 2, 1e-4, 0.001);
    check(strstr(w, "from impact 2 on (0.4 ms off there, 0.1 ms heard)") != NULL, "a shifted impact: '%s'", w);

    ball_settings s = lecture_settings();
    s.check_tol = 0.01;
    ball b = ball_from_settings(&s);
    double y0[4];
    ball_initial(&s, y0);
    ball_reference R;
    char err[800];
    int rc = ball_reference_run(&b, &s, y0, 8000.0, 1e-4, NULL, &R, err, sizeof err);
    check(rc == 0 && R.n == 2401 && R.horizon >= 1 && R.run.impacts.n >= R.horizon && R.contact > 0 && R.e > 0 &&
              R.e < 1,
          "the reference: %zu samples at 8 kHz over 0.3 s, %zu impacts, sure of %zu, first contact %.3g ms, e = %.3f",
          R.n, R.run.impacts.n, R.horizon, 1e3 * R.contact, R.e);
    const method *ms[2] = {&method_rk4, &method_leapfrog};
    for (int i = 0; i < 2; i++) {
        ball_fixed_run fr;
        ball_solve_fixed(&b, y0, ms[i], 1.0 / 192000, 57600, 10.0, NULL, &fr);
        double d = fr.impacts.n && R.run.impacts.n ? fabs(fr.impacts.v[0].start - R.run.impacts.v[0].start) : INFINITY;
        check(fr.status == SOLVE_OK && !fr.refused && fr.n == 57601 && d < 1e-5,
              "%s at 192 kHz: %zu samples, first impact within %.3g ms of the reference's", ms[i]->name, fr.n, 1e3 * d);
        ball_fixed_run_free(&fr);
    }
    ball_fixed_run fr;
    ball_solve_fixed(&b, y0, &method_euler, 1.0 / 8000, 2400, 10.0, NULL, &fr);
    check(fr.status == SOLVE_BLOWUP && fr.n < 2401, "forward Euler at 8 kHz blows up (%zu samples): %s", fr.n,
          fr.res.message);
    ball_fixed_run_free(&fr);
    ball_reference_free(&R);
}

int main(void)
{
    ball_settings s = lecture_settings();
    ball b = ball_from_settings(&s);
    ivp p = ball_ivp(&b);

    /* The parameter file holds every key the table declares. */
    ball_settings fs;
    ball_params keys;
    char err[600];
    ball_params_bind(&fs, &keys);
    param_spec spec[CLI_MAX_ROWS];
    int nkeys = (int)cli_flatten(keys.all, false, spec, CLI_MAX_ROWS);
    check(nkeys == BALL_NPARAMS, "the key table has %d keys (BALL_NPARAMS = %d)", nkeys, BALL_NPARAMS);
    int rc = params_load(spec, "lessons/params/ball.ini", false, err, sizeof err);
    check(rc == 0 && fs.m1 == 0.1 && fs.kc == 1e8 && fs.h0 == 0.15, "ball.ini loads (m1 = %g kg, kc = %g, h0 = %g m) %s",
          fs.m1, fs.kc, fs.h0, rc ? err : "");

    /* m1 alone: the 2x2 block of the Jacobian out of contact has eigenvalues -sigma0 +- j omega1. */
    double J[16], y[4] = {0.0, 0.0, 0.1, 0.0};
    p.jac(0.0, y, J, p.params);
    double tr = J[0 * 4 + 0] + J[1 * 4 + 1], det = J[0] * J[5] - J[1] * J[4];
    double sigma = -tr / 2.0, w1 = sqrt(det - sigma * sigma);
    check_close("oscillator alone: pitch from K, m1 (Hz)", sqrt(det) / (2 * M_PI), 400.0, 1e-9);
    check_close("oscillator alone: T60 from R, m1 (s)", measure_t60(sigma), 1.5, 1e-12);
    check_close("omega1 = sqrt(omega0^2 - sigma0^2) (rad/s)", ball_omega1(&b), w1, 1e-9);

    /* The contact: off for delta <= 0 and for 1 + lambda delta' <= 0, Hertz with loss otherwise. */
    double apart[4] = {0.0, 0.0, 1e-6, -1.0}, touch[4] = {1e-4, 0.2, 0.0, -1.0}, parting[4] = {1e-4, 0.0, 0.0, 20.0};
    double expect = 1e8 * pow(1e-4, 1.5) * (1.0 + 0.1 * 1.2);
    check(ball_contact_force(&b, apart) == 0.0, "no force while the ball is above m1");
    check(fabs(ball_contact_force(&b, touch) - expect) < 1e-12 * expect, "f_c = kc delta^1.5 (1 + lambda delta') = %.6g N",
          ball_contact_force(&b, touch));
    check(ball_contact_force(&b, parting) == 0.0, "no (pulling) force when 1 + lambda delta' <= 0 (delta' = -20 m/s)");

    /* Analytic Jacobian against central differences, in contact and out of it. */
    double *states[2] = {touch, apart};
    for (int k = 0; k < 2; k++) {
        double Ja[16], fp[4], fm[4], worst = 0.0, scale = 0.0;
        p.jac(0.0, states[k], Ja, p.params);
        for (int j = 0; j < 4; j++) {
            double x[4];
            memcpy(x, states[k], sizeof x);
            double d = 1e-7 * fmax(fabs(x[j]), 1e-3);
            if (j == 0 || j == 2)
                d = 1e-10;          /* displacements are of order 1e-4 m */
            x[j] += d;
            p.rhs(0.0, x, fp, p.params);
            x[j] -= 2 * d;
            p.rhs(0.0, x, fm, p.params);
            for (int i = 0; i < 4; i++) {
                double fd = (fp[i] - fm[i]) / (2 * d);
                worst = fmax(worst, fabs(fd - Ja[i * 4 + j]));
                scale = fmax(scale, fabs(Ja[i * 4 + j]));
            }
        }
        check(worst < 1e-6 * scale, "%s: analytic Jacobian matches central differences (max diff %.2e of %.2e)",
              k ? "out of contact" : "in contact", worst, scale);
    }

    /* Energy along the flow: dE/dt = -R u1'^2 - lambda kc delta^1.5 delta'^2 <= 0 (in contact). */
    {
        double f[4], e0, e1, x[4], eps = 1e-9;
        p.rhs(0.0, touch, f, p.params);
        for (int i = 0; i < 4; i++)
            x[i] = touch[i] + eps * f[i];
        e1 = ball_energy(0.0, x, &b);
        for (int i = 0; i < 4; i++)
            x[i] = touch[i] - eps * f[i];
        e0 = ball_energy(0.0, x, &b);
        double rate = (e1 - e0) / (2 * eps), dd = touch[1] - touch[3];
        double want = -b.R * touch[1] * touch[1] - b.lambda * b.kc * pow(touch[0] - touch[2], 1.5) * dd * dd;
        check(fabs(rate - want) < 1e-4 * fabs(want) && rate < 0, "dE/dt along F in contact = %.6g W (expected %.6g W)",
              rate, want);
    }

    /* The adaptive run over the first impact only. */
    double y0[4];
    ball_initial(&s, y0);
    size_t nout = 20001;
    double *tout = xcalloc(nout, sizeof(double));
    for (size_t k = 0; k < nout; k++)
        tout[k] = 0.17 + 1e-6 * (double)k;     /* 1 MHz over [0.17, 0.19] s */
    trap_ctx tc = {&b, 0, 0, 0, 0};
    ball_adaptive_opts ao = {s.T, s.rtol, s.atol, s.max_step, tout, nout, trap_sink, NULL, &tc, NULL, 0, 0};
    ball_adaptive_result r;
    rc = ball_solve_adaptive(&b, y0, &ao, &r, err, sizeof err);
    check(rc == 0, "adaptive run to %g s %s", s.T, rc ? err : "ran");
    double t_fall = sqrt(2 * s.h0 / s.g);
    check(r.impacts.n == 1, "one impact in %g s (found %zu)", s.T, r.impacts.n);
    if (r.impacts.n >= 1) {
        ball_impact *e = &r.impacts.v[0];
        check(fabs(e->start - t_fall) < 1e-8, "first contact at %.10f s = free fall sqrt(2 h0 / g) = %.10f s", e->start,
              t_fall);
        check(e->end - e->start > 0.2e-3 && e->end - e->start < 0.4e-3, "first contact lasts %.4f ms",
              1e3 * (e->end - e->start));
        check(fabs(e->impulse - tc.J) < 1e-5 * e->impulse,
              "impulse from the ball's momentum %.8e N s = trapezoid of f_c over 1 MHz samples %.8e N s", e->impulse, tc.J);
        check(e->centre > e->start && e->centre < e->end, "impulse centre %.7f s lies inside the contact", e->centre);
        check(fabs(e->v_in + sqrt(2 * s.g * s.h0)) < 1e-6 && ball_restitution(e) > 0 && ball_restitution(e) < 1,
              "arrives at %.7f m/s = -sqrt(2 g h0), leaves with restitution %.4f", e->v_in, ball_restitution(e));
        check(fabs(e->impulse - s.m2 * (e->v_out - e->v_in) - s.m2 * s.g * (e->end - e->start)) < 1e-15,
              "impulse = m2 (v_out - v_in) + m2 g (contact time)");
        double v_in = sqrt(2 * s.g * s.h0);
        check(e->impulse > s.m2 * v_in && e->impulse < 2 * s.m2 * v_in,
              "impulse %.5f N s between m2 v_in (stop) and 2 m2 v_in (elastic)", e->impulse);
    }
    check(r.energy_rise < 1e-9 * r.energy0, "energy never rises: largest rise %.2e J of %.4e J", r.energy_rise, r.energy0);
    check(r.energy_final < r.energy0, "energy after the impact %.6e J < %.6e J", r.energy_final, r.energy0);
    check(r.h_median[BALL_CONTACT] < r.h_median[BALL_RING] && r.h_median[BALL_RING] < r.h_median[BALL_FALL],
          "median steps: contact %.2e s < ringing %.2e s < free fall %.2e s", r.h_median[BALL_CONTACT],
          r.h_median[BALL_RING], r.h_median[BALL_FALL]);
    ball_impacts_free(&r.impacts);
    free(tout);

    /* Impacts from samples: a gap falling linearly through 0 and back up. */
    ball_impacts im = {0, 0, NULL};
    ball_detector d;
    ball_detector_init(&d, &b, &im);
    for (int k = 0; k <= 100; k++) {
        double t = 1e-5 * k, gap = 2e-5 - fabs(1.0 * (t - 5.03e-4));  /* delta > 0 for |t - 0.503 ms| < 20 us */
        double ys[4] = {0.0, 0.0, -gap, t < 5.03e-4 ? -1.0 : 1.0};
        ball_detector_sample(&d, t, ys);
    }
    check(im.n == 1 && fabs(im.v[0].start - 4.83e-4) < 1e-12 && fabs(im.v[0].end - 5.23e-4) < 1e-12,
          "from samples: contact from %.6g s to %.6g s (exact 4.83e-4 to 5.23e-4 s)", im.n ? im.v[0].start : NAN,
          im.n ? im.v[0].end : NAN);
    check(im.n == 1 && im.v[0].v_in == -1.0 && im.v[0].v_out == 1.0 && ball_restitution(&im.v[0]) == 1.0,
          "from samples: velocities in and out -1 and 1 m/s, restitution %g", im.n ? ball_restitution(&im.v[0]) : NAN);

    /* The positions-first layout leapfrog steps: F_uv(P y) = P F(y), and u' = v in its first half. */
    {
        ivp pl = ball_ivp(&b), pu = ball_ivp_uv(&b);
        const double ys[4] = {1e-6, 0.02, 5e-7, -1.5};     /* in contact: delta = 5e-7 m */
        double xs[4], f[4], fu[4], fx[4], back[4];
        ball_to_uv(ys, xs);
        ball_from_uv(xs, back);
        pl.rhs(0.0, ys, f, pl.params);
        pu.rhs(0.0, xs, fu, pu.params);
        ball_to_uv(f, fx);
        int same = memcmp(back, ys, sizeof ys) == 0;
        for (int i = 0; i < 4; i++)
            same = same && fu[i] == fx[i];
        check(same && fu[0] == xs[2] && fu[1] == xs[3] && ball_contact_force(&b, ys) > 0,
              "positions first: F_uv(P y) = P F(y) in contact, and F_uv's first half is the velocities");
    }

    /* Rhythm verdicts. */
    ball_impact rv[3] = {{0.1, 0.1003, NAN, NAN, NAN, NAN}, {0.3, 0.3003, NAN, NAN, NAN, NAN}, {0.45, 0.4503, NAN, NAN, NAN, NAN}};
    ball_impact xv[3] = {{0.1, 0.1003, NAN, NAN, NAN, NAN}, {0.30005, 0.3003, NAN, NAN, NAN, NAN}, {0.47, 0.47, NAN, NAN, NAN, NAN}};
    ball_impacts ref = {3, 3, rv}, run = {3, 3, xv}, one = {1, 1, xv};
    ball_rhythm rh = ball_rhythm_compare(&ref, &run, 2);
    check(rh.compared == 2 && fabs(rh.max_error - 5e-5) < 1e-12 && !strcmp(ball_rhythm_verdict(&rh, 1e-4, 1e-2), "keeps"),
          "two impacts within 0.05 ms: keeps (%s)", ball_rhythm_verdict(&rh, 1e-4, 1e-2));
    rh = ball_rhythm_compare(&ref, &run, 3);
    check(!strcmp(ball_rhythm_verdict(&rh, 1e-4, 1e-2), "loses") && !strcmp(ball_rhythm_verdict(&rh, 1e-4, 3e-2), "drifts"),
          "an impact 20 ms late: loses at a 10 ms bound, drifts at 30 ms");
    rh = ball_rhythm_compare(&ref, &one, 2);
    check(!rh.complete && !strcmp(ball_rhythm_verdict(&rh, 1e-4, 1e-2), "loses"), "a missing impact loses the rhythm");
    check(ball_impacts_agree(&ref, &run, 1e-4) == 2, "two leading impacts agree within 0.1 ms");
    /* What a listener hears: 6 ms, or 2.5 % of the interval before (0.15 s: 3.75 ms; 0.2 s: 5 ms) */
    check(ball_audible_shift(&ref, 0, 6e-3, 0.025) == 6e-3 && fabs(ball_audible_shift(&ref, 2, 2e-3, 0.025) - 3.75e-3) < 1e-15,
          "heard shift: 6 ms at the first impact, 2.5 %% of the 150 ms interval at the third (abs 2 ms)");
    check(ball_rhythm_heard(&ref, &run, 3, 6e-3, 0.025) == 3 && ball_rhythm_heard(&ref, &run, 2, 6e-3, 0.025) == 0,
          "20 ms late at impact 3 is heard there; 0.05 ms at impact 2 is not");
    check(ball_rhythm_heard(&ref, &one, 2, 6e-3, 0.025) == 2, "a missing second impact is heard at impact 2");
    ball_impacts none = {0, 0, NULL};
    rh = ball_rhythm_compare(&none, &none, 2);
    check(rh.compared == 0 && rh.complete && rh.max_error == 0.0, "no impacts in the reference: nothing missed");
    ball_impacts_free(&im);

    /* Spectrum: a decaying 400.3 Hz sine, 1 s at 44.1 kHz. */
    size_t n = 44100;
    double *x = xcalloc(n, sizeof(double));
    for (size_t k = 0; k < n; k++)
        x[k] = exp(-3.0 * k / 44100.0) * sin(2 * M_PI * 400.3 * k / 44100.0);
    spectrum sp;
    double fpk = NAN;
    rc = spectrum_hann(x, n, 44100.0, &sp);
    size_t bin = rc == 0 ? spectrum_peak(&sp, 50, 5000, &fpk, NULL) : 0;
    check(rc == 0 && sp.nbins == n / 2 + 1 && fabs(sp.df - 1.0) < 1e-12 && bin == 400,
          "Hann spectrum: %zu bins of %.3g Hz, largest bin %zu", sp.nbins, sp.df, bin);
    check(fabs(fpk - 400.3) < 0.05, "interpolated peak %.4f Hz (sine at 400.3 Hz)", fpk);
    check(spectrum_db(&sp, 2000, sp.mag[bin]) < -60, "far from the peak (2 kHz) the level is %.1f dB",
          spectrum_db(&sp, 2000, sp.mag[bin]));
    spectrum_free(&sp);
    spectrum_free(&sp);
    /* Zero-padded to a 2-3-5-smooth length: the same peak on a finer grid. 88201 = 193 x 457
     * (the ball drop's samples) pads to 90000 = 2^4 3^2 5^4. */
    check(spectrum_fast_length(88201) == 90000 && spectrum_fast_length(1) == 1 && spectrum_fast_length(7) == 8 &&
              spectrum_fast_length(4096) == 4096,
          "next 2-3-5-smooth lengths: 88201 -> %zu, 7 -> %zu", spectrum_fast_length(88201), spectrum_fast_length(7));
    size_t nfft = spectrum_fast_length(n + 1);
    rc = spectrum_hann_padded(x, n, nfft, 44100.0, &sp);
    bin = rc == 0 ? spectrum_peak(&sp, 50, 5000, &fpk, NULL) : 0;
    check(rc == 0 && sp.n == n && sp.nfft == nfft && fabs(sp.df - 44100.0 / (double)nfft) < 1e-12 &&
              fabs(fpk - 400.3) < 0.05,
          "padded to %zu: peak %.4f Hz (sine at 400.3 Hz), bin spacing %.4g Hz", nfft, fpk, sp.df);
    spectrum_free(&sp);
    check(spectrum_hann_padded(x, n, n - 1, 44100.0, &sp) == -1 && sp.mag == NULL,
          "padding to fewer samples than the signal is refused");
    free(x);
    sampled_runs();
    return check_done();
}
