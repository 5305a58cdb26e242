/* test_regime.c: the regime classifier (src/analysis/regime.c) on synthetic signals whose answer is
 * known: an ideal Helmholtz sawtooth written out here (and its mean, RMS and centroid
 * against closed forms), two slips a period, an aperiodic signal, a tiny one, a sticking
 * one, a period off the nominal one, each synthetic regime of regime_synthetic, and bad
 * input; the slip count of a whole stroke and the Schelleng ripple count on signals built here. The simulated strokes are held by tests/claims/schelleng.sh. */
#include "check.h"
#include "analysis/regime.h"
#include "base/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define F0 98.0
#define VB 0.1
#define BETA 0.075

/* The ideal Helmholtz motion at beta: v = v_b / beta during the slip (a fraction beta of
 * the period), 0 while sticking; the bridge force a sawtooth of peak-to-peak pp rising over
 * the period and returning at the slip, about mean m. */
static void helmholtz(double *v, double *F, size_t n, double f0, double pp, double m)
{
    for (size_t i = 0; i < n; i++) {
        double ph = fmod((double)i * f0 / FS, 1.0);
        v[i] = ph < BETA ? VB / BETA : 0.0;
        F[i] = m + pp * (ph - 0.5);
    }
}

static regime_result classify(const double *v, const double *F, size_t n, double pp_nominal)
{
    regime_input in = {v, F, n, FS, 1.0 / F0, VB, pp_nominal, BETA};
    regime_opts o = regime_defaults();
    regime_result r;
    regime_classify(&in, &o, &r);
    return r;
}

/* The slips of a stroke from rest: the bow speed ramps up, the relative velocity carries
 * pulses at known samples; one pulse dips to half the bow speed mid-way (not re-armed: one
 * slip), one precursor stays below the bow speed (no slip). */
static void test_count_slips(void)
{
    size_t n = 10000;
    double *vb = xcalloc(n, sizeof *vb), *v = xcalloc(n, sizeof *v);
    for (size_t k = 0; k < n; k++)
        vb[k] = k < 2000 ? 0.1 * k / 2000.0 : 0.1;
    size_t at[] = {2500, 4000, 5500, 7000, 8500};
    for (size_t p = 0; p < 5; p++)
        for (size_t k = at[p]; k < at[p] + 100; k++)
            v[k] = 1.3 * vb[k];
    for (size_t k = 4030; k < 4040; k++)
        v[k] = 0.5 * vb[k];       /* a dip above slip_off: the same slip goes on */
    for (size_t k = 1000; k < 1100; k++)
        v[k] = 0.9 * vb[k];       /* a precursor below the bow speed */
    regime_opts o = regime_defaults();
    long first;
    long c = regime_count_slips(&o, v, vb, n, &first);
    check(c == 5 && first == 2500, "stroke with 5 slips (one dipping, one precursor): %ld slips, the first at %ld", c,
          first);
    for (size_t k = 4030; k < 4040; k++)
        v[k] = 0.1 * vb[k];       /* now below slip_off: re-armed, the rest of the pulse is a slip */
    c = regime_count_slips(&o, v, vb, n, &first);
    check(c == 6, "a dip below slip_off * v_b splits that slip in two: %ld", c);
    c = regime_count_slips(&o, v + 2600, vb + 2600, 1000, &first);
    check(c == 0 && first == -1, "a stretch without a slip: %ld, first %ld", c, first);
    free(vb);
    free(v);
}

/* A Helmholtz sawtooth (rise over the period, drop at its end) with Schelleng ripples of q a
 * period and, as the simulated strokes have them, sub-wiggles of 2q a period as strong: the
 * count is q (the ripples the eye counts on bow-zoom), not 2q. */
static void test_ripples(void)
{
    size_t n = 9600;
    double *y = xcalloc(n, sizeof *y);
    const double q[] = {7.0, 10.0, 13.3, 20.0};
    for (int i = 0; i < 4; i++) {
        for (size_t k = 0; k < n; k++) {
            double ph = fmod(k * F0 / FS + 0.3, 1.0);
            y[k] = ph + 0.04 * sin(2 * M_PI * q[i] * ph) + 0.04 * sin(2 * M_PI * 2 * q[i] * ph + 0.5);
        }
        double c = regime_ripples_per_period(y, n, FS, F0);
        check(fabs(c - q[i]) < 0.05 * q[i], "sawtooth with %g ripples and %g sub-wiggles a period: %g ripples",
              q[i], 2 * q[i], c);
    }
    check(regime_ripples_per_period(y, n, FS, 0.0) == 0.0, "no fundamental: no ripple count");
    check(regime_ripples_per_period(y, 8, FS, F0) == 0.0, "8 samples: no ripple count");
    free(y);
}

/* The regularity is the largest normalised autocorrelation of the bridge force (less its mean)
 * at lags 0.7-1.5 T0, as the direct sums give it: the FFT's zero padding is long enough that no
 * lag wraps onto the signal's start (n just below a power of two, 16300, and 9600 samples). */
static void test_regularity_direct(void)
{
    size_t sizes[] = {16300, 9600};
    for (int c = 0; c < 2; c++) {
        size_t n = sizes[c];
        double *v = xcalloc(n, sizeof *v), *F = xcalloc(n, sizeof *F), *x = xcalloc(n, sizeof *x);
        for (size_t i = 0; i < n; i++) {   /* a sawtooth 4% flat, swelling, with a second partial */
            double t = (double)i / FS, ph = fmod(t * 0.96 * F0, 1.0);
            v[i] = ph < BETA ? VB / BETA : 0.0;
            F[i] = (1.0 + 2.0 * t) * (ph - 0.5) + 0.3 * sin(2 * M_PI * 3.1 * F0 * t);
        }
        regime_result r = classify(v, F, n, 1.0);
        double mean = 0, best = -2;
        for (size_t i = 0; i < n; i++)
            mean += F[i];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            x[i] = F[i] - mean;
        for (size_t L = (size_t)floor(0.7 * FS / F0); L <= (size_t)ceil(1.5 * FS / F0); L++) {
            double s = 0, head = 0, tail = 0;
            for (size_t i = 0; i + L < n; i++)
                s += x[i] * x[i + L], head += x[i] * x[i], tail += x[i + L] * x[i + L];
            best = fmax(best, s / sqrt(head * tail));
        }
        check(fabs(r.regularity - best) < 1e-9, "%zu samples: regularity %.12f, the direct sums' "
              "largest autocorrelation at 0.7-1.5 T0 %.12f", n, r.regularity, best);
        free(v), free(F), free(x);
    }
}

int main(void)
{
    test_regularity_direct();
    test_count_slips();
    test_ripples();
    size_t n = (size_t)(0.2 * FS);  /* 0.2 s: about 20 periods */
    double *v = xcalloc(n, sizeof *v), *F = xcalloc(n, sizeof *F);
    double pp = regime_helmholtz_pp(149.74, VB, BETA, 2 * 0.7 * F0);
    check_close("Helmholtz peak-to-peak 2 T v_b / (beta c) at beta 0.075, N", pp, 2 * 149.74 * 0.1 / (0.075 * 137.2),
                1e-9);

    /* 1. The ideal sawtooth. */
    helmholtz(v, F, n, F0, pp, 1.2);
    regime_result r = classify(v, F, n, pp);
    check(r.kind == REGIME_HELMHOLTZ, "ideal sawtooth: %s (%s)", regime_name(r.kind), r.why);
    check_close("ideal sawtooth: f0, Hz", r.f0_hz, F0, 0.05);
    check_close("ideal sawtooth: slips per period", r.slips_per_period, 1.0, 0.06);
    check_close("ideal sawtooth: flybacks per period", r.flybacks_per_period, 1.0, 0.06);
    check(r.regularity > 0.99, "ideal sawtooth: regularity %.4f > 0.99", r.regularity);
    check_close("ideal sawtooth: slip fraction = beta", r.slip_fraction, BETA, 0.005);
    check_close("ideal sawtooth: amplitude ratio", r.amplitude_ratio, 1.0, 0.01);
    /* A sawtooth over a whole number of periods has its mean at m and RMS pp / sqrt(12). */
    check_close("ideal sawtooth: mean, N", r.mean_n, 1.2, 0.02 * pp);
    check_close("ideal sawtooth: RMS about the mean, N", r.rms_n, pp / sqrt(12.0), 0.01 * pp);
    /* Harmonic k has power ~1/k^2; sampling folds harmonic k to |k f0 - FS round(k f0 / FS)|,
     * so the power-weighted centroid is sum(f_k / k^2) / sum(1 / k^2) over the folded ones. */
    double num = 0, den = 0;
    for (long k = 1; k < 2000000; k++) {
        double f = fabs(k * F0 - FS * round(k * F0 / FS));
        num += f / ((double)k * k), den += 1.0 / ((double)k * k);
    }
    check_close("ideal sawtooth: power-weighted centroid, Hz", r.centroid_hz, num / den, 0.03 * num / den);
    /* skip_centroid (bin/bow's stroke summary): no centroid, every other measure the same. */
    regime_input in = {v, F, n, FS, 1.0 / F0, VB, pp, BETA};
    regime_opts skip = regime_defaults();
    skip.skip_centroid = true;
    regime_result rs;
    regime_classify(&in, &skip, &rs);
    check(isnan(rs.centroid_hz) && rs.kind == r.kind && rs.f0_hz == r.f0_hz && rs.slips == r.slips &&
              rs.flybacks_per_period == r.flybacks_per_period && rs.rms_n == r.rms_n,
          "skip_centroid: centroid %g (NAN), %s at %.4f Hz as without it", rs.centroid_hz, regime_name(rs.kind),
          rs.f0_hz);

    /* 1b. A precursor blip (1.3 v_b, a tenth of the slip speed) ahead of every slip is not a
     * slip of its own: the simulated Helmholtz motion has them. */
    helmholtz(v, F, n, F0, pp, 1.2);
    for (size_t i = 0; i < n; i++) {
        double ph = fmod((double)i * F0 / FS, 1.0);
        if (ph > 0.9 && ph < 0.91)
            v[i] = 1.3 * VB;
    }
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_HELMHOLTZ && fabs(r.slips_per_period - 1) < 0.06,
          "sawtooth with precursor blips: %s, %.3f slips per period", regime_name(r.kind), r.slips_per_period);

    /* 1c. A second slip that dies out during the window: the bridge force stays regular but
     * the slip count changes from period to period (a transient), so no regime is claimed. */
    helmholtz(v, F, n, F0, pp, 1.2);
    for (size_t i = 0; i < n / 2; i++) {
        double ph = fmod((double)i * F0 / FS, 1.0);
        if (ph > 0.5 && ph < 0.5 + BETA / 2)
            v[i] = 0.4 * VB / BETA;
    }
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_UNCLASSIFIED && r.slip_spread >= 1 && r.reason == REGIME_REASON_SLIPS_VARY,
          "decaying second slip: %s, spread %ld, reason %s (%s)", regime_name(r.kind), r.slip_spread,
          regime_reason_name(r.reason), r.why);

    /* 2. Pitch flattening within the tolerance is still Helmholtz; a period 20% off is not. */
    helmholtz(v, F, n, 0.97 * F0, pp, 1.2);
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_HELMHOLTZ && fabs(r.period_ratio - 1 / 0.97) < 0.002,
          "sawtooth 3%% flat: %s, T/T0 = %.4f (expected %.4f)", regime_name(r.kind), r.period_ratio, 1 / 0.97);
    helmholtz(v, F, n, 0.8 * F0, pp, 1.2);
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_RAUCOUS, "large sawtooth at 0.8 f0 (not the string's period): %s (%s)",
          regime_name(r.kind), r.why);

    /* 3. Two slips a period: a second, smaller slip at mid-period and a small step. */
    for (size_t i = 0; i < n; i++) {
        double ph = fmod((double)i * F0 / FS, 1.0);
        v[i] = ph < BETA ? VB / BETA : (ph >= 0.5 && ph < 0.5 + BETA / 2 ? 0.3 * VB / BETA : 0.0);
        F[i] = 1.2 + 1.1 * pp * (ph - 0.5) - (ph >= 0.5 ? 0.1 * pp : 0.0) + 0.05 * pp;
    }
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_DOUBLE_SLIP, "two slips a period: %s (%s)", regime_name(r.kind), r.why);
    check_close("two slips a period: slips per period", r.slips_per_period, 2.0, 0.1);

    /* 4. An aperiodic signal: random slip times and drops (large: raucous; small: unclassified). */
    srand(7);
    double level = 0;
    size_t next = 0, end = 0;
    for (size_t i = 0; i < n; i++) {
        if (i >= next) {
            level -= pp * (0.5 + rand() / (double)RAND_MAX);
            end = i + (size_t)(BETA * FS / F0);
            next = i + (size_t)((0.3 + 0.9 * rand() / (double)RAND_MAX) * FS / F0);
        }
        level = fmin(level + 1.5 * pp * F0 / FS, pp);
        F[i] = level;
        v[i] = i < end ? VB / BETA : 0.0;
    }
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_RAUCOUS, "aperiodic, large: %s (%s)", regime_name(r.kind), r.why);
    check(r.regularity < 0.9, "aperiodic: regularity %.3f < 0.9", r.regularity);
    double lo = F[0], hi = F[0];
    for (size_t i = 0; i < n; i++)
        lo = fmin(lo, F[i]), hi = fmax(hi, F[i]);
    for (size_t i = 0; i < n; i++)
        F[i] = 1.0 + 0.2 * pp * (F[i] - lo) / (hi - lo);
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_UNCLASSIFIED && r.reason == REGIME_REASON_IRREGULAR, "aperiodic, small (0.2 of Helmholtz): %s, %s (%s)",
          regime_name(r.kind), regime_reason_name(r.reason), r.why);

    /* 5. A tiny Helmholtz-shaped signal (1% of the Helmholtz amplitude). */
    helmholtz(v, F, n, F0, 0.01 * pp, 0.01);
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_UNCLASSIFIED && strstr(r.why, "tiny") && r.reason == REGIME_REASON_TINY, "tiny sawtooth: %s (%s)", regime_name(r.kind),
          r.why);

    /* 6. Sticking throughout: no slip. */
    for (size_t i = 0; i < n; i++)
        v[i] = 0.01 * VB * sin(2 * M_PI * F0 * (double)i / FS), F[i] = 0.5 + 0.3 * sin(2 * M_PI * F0 * (double)i / FS);
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_UNCLASSIFIED && r.slips == 0 && r.reason == REGIME_REASON_STICKING, "sticking: %s, %ld slips (%s)", regime_name(r.kind), r.slips,
          r.why);

    /* 7. A periodic signal with one slip a period but a rounded (sinusoidal) bridge force. */
    for (size_t i = 0; i < n; i++) {
        double ph = fmod((double)i * F0 / FS, 1.0);
        v[i] = ph < 0.3 ? VB * 2 : 0.0;
        F[i] = 1 + 0.5 * pp * sin(2 * M_PI * ph);
    }
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_UNCLASSIFIED && strstr(r.why, "rounded") && r.reason == REGIME_REASON_ROUNDED, "rounded corners: %s (%s)",
          regime_name(r.kind), r.why);

    /* 8. Every synthetic regime comes back as itself. */
    for (int k = 0; k < REGIME_COUNT; k++) {
        regime_synthetic((regime_kind)k, v, F, n, FS, 1.0 / F0, VB, BETA, pp, 3);
        r = classify(v, F, n, pp);
        check(r.kind == (regime_kind)k, "synthetic %s: classified %s (%s)", regime_name((regime_kind)k),
              regime_name(r.kind), r.why);
    }

    /* 9. Without the Helmholtz amplitude the absolute floor decides "tiny". */
    helmholtz(v, F, n, F0, 1e-4, 0.0);
    r = classify(v, F, n, 0.0);
    check(r.kind == REGIME_UNCLASSIFIED && isnan(r.amplitude_ratio), "tiny, no nominal amplitude: %s (%s)",
          regime_name(r.kind), r.why);

    /* 10. Input too short to analyse, and the names. */
    regime_input bad = {v, F, 100, FS, 1.0 / F0, VB, pp, BETA};
    regime_opts o = regime_defaults();
    check(regime_classify(&bad, &o, &r) == -1 && r.kind == REGIME_UNCLASSIFIED && r.reason == REGIME_REASON_INPUT, "100 samples: refused (%s)", r.why);
    int ok = 1;
    for (int k = 0; k < REGIME_COUNT; k++)
        ok &= regime_from_name(regime_name((regime_kind)k)) == k && regime_label((regime_kind)k) != NULL;
    check(ok && regime_from_name("nope") == -1 && regime_name(REGIME_COUNT) == NULL,
          "regime names round-trip; unknown names are refused");
    ok = 1;
    for (int k = 0; k < REGIME_REASON_COUNT; k++)
        ok &= regime_reason_from_name(regime_reason_name((regime_reason)k)) == k && regime_reason_label((regime_reason)k);
    check(ok && regime_reason_from_name("nope") == -1 && regime_reason_name(REGIME_REASON_COUNT) == NULL,
          "reason names round-trip; unknown names are refused");
    for (int k = 0; k < REGIME_COUNT; k++) {
        regime_synthetic((regime_kind)k, v, F, n, FS, 1.0 / F0, VB, BETA, pp, 3);
        r = classify(v, F, n, pp);
        if ((r.kind == REGIME_UNCLASSIFIED) != (r.reason != REGIME_REASON_NONE))
            ok = 0;
    }
    check(ok, "a reason exactly when unclassified (the synthetic regimes)");

    /* 11. A regular sawtooth at 0.8 f0 but small: not raucous (too small), regular at another period. */
    helmholtz(v, F, n, 0.8 * F0, 0.3 * pp, 1.2);
    r = classify(v, F, n, pp);
    check(r.kind == REGIME_UNCLASSIFIED && r.reason == REGIME_REASON_OTHER_PERIOD,
          "small sawtooth at 0.8 f0: %s, %s (%s)", regime_name(r.kind), regime_reason_name(r.reason), r.why);

    /* 12. Secondary-return ratio: a sawtooth whose period holds a second drop of 0.3 of the first. */
    for (size_t i = 0; i < n; i++) {
        double ph = fmod((double)i * F0 / FS, 1.0);
        v[i] = ph < BETA ? VB / BETA : 0.0;
        F[i] = 1.2 + 1.3 * pp * ph - (ph >= 0.5 ? 0.3 * pp : 0.0);
    }
    r = classify(v, F, n, pp);
    check_close("a second drop of 0.3 of the main one: secondary ratio", r.secondary_ratio, 0.3, 0.03);

    /* 13. Boundaries of a Schelleng plane drawn from Schelleng-shaped limits on a 40 x 40 log
     * grid: f_max = 0.35 / beta, f_min = 0.004 / beta^2, multiple slips below f_min / 2; the
     * fitted slopes come back as -1 and -2 within the grid's resolution. */
    enum { NX = 40, NF = 40 };
    double xs[NX], fs_[NF], edge[NX];
    int kind[NX * NF];
    for (int i = 0; i < NX; i++)
        xs[i] = 0.025 * pow(10.0, i / (NX - 1.0));
    for (int j = 0; j < NF; j++)
        fs_[j] = 0.1 * pow(80.0, j / (NF - 1.0));
    for (int j = 0; j < NF; j++)
        for (int i = 0; i < NX; i++) {
            double b = xs[i], fb = fs_[j], fmin = 0.004 / (b * b);
            kind[j * NX + i] = fb > 0.35 / b ? REGIME_RAUCOUS
                               : fb >= fmin  ? REGIME_HELMHOLTZ
                               : fb >= 0.5 * fmin ? REGIME_DOUBLE_SLIP
                                                  : REGIME_MULTIPLE_SLIP;
        }
    regime_fit fit;
    regime_edges(kind, xs, NX, fs_, NF, REGIME_EDGE_HELMHOLTZ_MAX, edge, &fit);
    check(fabs(fit.slope + 1) < 0.05 && fit.points >= 30, "f_max = 0.35/beta: fitted slope %.3f (-1), %zu columns",
          fit.slope, fit.points);
    check_close("f_max line at beta = 1, N", pow(10, fit.intercept), 0.35, 0.05);
    regime_edges(kind, xs, NX, fs_, NF, REGIME_EDGE_HELMHOLTZ_MIN, edge, &fit);
    check(fabs(fit.slope + 2) < 0.05 && fit.points >= 15, "f_min = 0.004/beta^2: fitted slope %.3f (-2), %zu columns",
          fit.slope, fit.points);
    regime_edges(kind, xs, NX, fs_, NF, REGIME_EDGE_DOUBLE_MULTIPLE, edge, &fit);
    check(fabs(fit.slope + 2) < 0.05 && fit.points >= 15, "double/multiple at 0.002/beta^2: fitted slope %.3f, %zu columns",
          fit.slope, fit.points);
    check(isnan(edge[NX - 1]) || edge[NX - 1] > 0, "edges are forces or NAN");
    /* A column without Helmholtz cells has no Helmholtz edge. */
    for (int j = 0; j < NF; j++)
        kind[j * NX] = REGIME_RAUCOUS;
    regime_edges(kind, xs, NX, fs_, NF, REGIME_EDGE_HELMHOLTZ_MAX, edge, &fit);
    check(isnan(edge[0]), "a column of raucous cells: no Helmholtz edge");
    /* A fit needs REGIME_FIT_MIN_COLUMNS columns to estimate its error: on a 3-column plane whose
     * edges lie on one line of the grid, no fit (was slope -1.903 +- 0.000); on 4, an error that
     * includes the grid's resolution (above 0 although the points are collinear). */
    for (int nc = 3; nc <= 4; nc++) {
        int k3[4 * 5];
        double x3[4] = {0.025, 0.05, 0.1, 0.2}, f3[5] = {0.1, 0.2, 0.4, 0.8, 1.6}, e3[4];
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < nc; i++)
                k3[j * nc + i] = j >= 4 - i ? REGIME_HELMHOLTZ : REGIME_MULTIPLE_SLIP;
        regime_edges(k3, x3, (size_t)nc, f3, 5, REGIME_EDGE_HELMHOLTZ_MIN, e3, &fit);
        if (nc == 3)
            check(fit.points == 3 && isnan(fit.slope) && isnan(fit.slope_se),
                  "3 columns with an edge: no fit (slope %g +- %g)", fit.slope, fit.slope_se);
        else
            check(fit.points == 4 && isfinite(fit.slope) && fit.slope_se > 0.05,
                  "4 columns with an edge: slope %.3f +- %.3f (the grid's resolution counted)", fit.slope,
                  fit.slope_se);
    }

    free(v);
    free(F);
    return check_done();
}
