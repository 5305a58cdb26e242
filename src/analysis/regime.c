/* regime.c: the oscillation-regime classifier of regime.h. */
#include "analysis/regime.h"
#include "analysis/spectrum.h"
#include "base/util.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_halfcomplex.h>
#include <gsl/gsl_fft_real.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[REGIME_COUNT] = {
    "helmholtz", "double_slip", "raucous", "multiple_slip", "s_motion", "multiple_flyback", "unclassified",
};
static const char *const labels[REGIME_COUNT] = {
    "Helmholtz motion", "double slips", "raucous motion", "multiple slips",
    "S-motion", "multiple flyback", "unclassified",
};

static const char *const reason_names[REGIME_REASON_COUNT] = {
    "-", "sticking", "slipping", "tiny", "irregular", "other_period", "slips_vary", "rounded", "input",
};
static const char *const reason_labels[REGIME_REASON_COUNT] = {
    "classified", "no slip (sticking throughout)", "no slip onset (slipping throughout)", "tiny signal",
    "not periodic, small", "regular at another period", "slip count varies", "rounded corners (no flyback)",
    "cannot be analysed",
};

/* The index of name in table[0..n-1], or -1. */
static int name_index(const char *const *table, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(name, table[k]) == 0)
            return k;
    return -1;
}

const char *regime_name(regime_kind k) { return (unsigned)k < REGIME_COUNT ? names[k] : NULL; }
const char *regime_label(regime_kind k) { return (unsigned)k < REGIME_COUNT ? labels[k] : NULL; }
int regime_from_name(const char *name) { return name_index(names, REGIME_COUNT, name); }

const char *regime_reason_name(regime_reason r) { return (unsigned)r < REGIME_REASON_COUNT ? reason_names[r] : NULL; }
const char *regime_reason_label(regime_reason r) { return (unsigned)r < REGIME_REASON_COUNT ? reason_labels[r] : NULL; }
int regime_reason_from_name(const char *name) { return name_index(reason_names, REGIME_REASON_COUNT, name); }

double regime_helmholtz_pp(double tension, double v_bow, double beta, double wave_speed)
{
    return 2.0 * tension * v_bow / (beta * wave_speed);
}

regime_opts regime_defaults(void)
{
    regime_opts o = {
        .slip_on = 1.0,
        .slip_off = 0.2,
        .slip_peak = 0.15,
        .min_regularity = 0.9,
        .period_tol = 0.08,
        .big_jump = 0.5,
        .small_jump = 0.1,
        .sharp_time = 0.4,
        .flyback_abs = 0.2,
        .tiny = 0.01,
        .tiny_abs = 1e-3,
        .raucous_amp = 0.5,
    };
    return o;
}

/* Normalised autocorrelation r[L] = sum x_i x_{i+L} / sqrt(sum_{i<n-L} x_i^2 sum_{i>=L} x_i^2)
 * for L <= maxlag, through a zero-padded radix-2 FFT (GSL). x has its mean removed. Padded to
 * n + maxlag at least: the circular sum at a lag L <= maxlag wraps onto zeros only. */
static int autocorr(const double *x, size_t n, size_t maxlag, double *r)
{
    size_t m = 1;
    while (m < n + maxlag)
        m <<= 1;
    double *d = xcalloc(m, sizeof *d);
    memcpy(d, x, n * sizeof *d);
    if (gsl_fft_real_radix2_transform(d, 1, m) != GSL_SUCCESS) {
        free(d);
        return -1;
    }
    /* Half-complex radix-2 layout: d[0] = X_0, d[k] = Re X_k, d[m-k] = Im X_k, d[m/2] = X_{m/2}. */
    d[0] = d[0] * d[0];
    d[m / 2] = d[m / 2] * d[m / 2];
    for (size_t k = 1; k < m / 2; k++) {
        d[k] = d[k] * d[k] + d[m - k] * d[m - k];
        d[m - k] = 0.0;
    }
    if (gsl_fft_halfcomplex_radix2_inverse(d, 1, m) != GSL_SUCCESS) {
        free(d);
        return -1;
    }
    /* Energies of the head x[0..n-L-1] and of the tail x[L..n-1]. */
    double *cum = xcalloc(n + 1, sizeof *cum);
    for (size_t i = 0; i < n; i++)
        cum[i + 1] = cum[i] + x[i] * x[i];
    for (size_t L = 0; L <= maxlag && L < n; L++) {
        double head = cum[n - L], tail = cum[n] - cum[L];
        r[L] = head > 0 && tail > 0 ? d[L] / sqrt(head * tail) : 0.0;
    }
    free(cum);
    free(d);
    return 0;
}

/* The extremes of F that remain when every reversal smaller than h is ignored (a zig-zag
 * with hysteresis h): their values ext[] and sample indices at[] (at most cap), alternating
 * maximum and minimum; the last, unfinished extreme is not included. Returns how many. */
static size_t zigzag(const double *F, size_t n, double h, double *ext, size_t *at, size_t cap)
{
    size_t m = 0, ei = 0, li = 0, hi = 0;
    int dir = 0;
    double e = F[0], lo = F[0], up = F[0];
    for (size_t i = 1; i < n && m < cap; i++) {
        if (dir == 0) {
            if (F[i] < lo)
                lo = F[i], li = i;
            if (F[i] > up)
                up = F[i], hi = i;
            if (F[i] - lo >= h)
                ext[m] = lo, at[m++] = li, dir = +1, e = F[i], ei = i;
            else if (up - F[i] >= h)
                ext[m] = up, at[m++] = hi, dir = -1, e = F[i], ei = i;
        } else if ((dir > 0 && F[i] > e) || (dir < 0 && F[i] < e))
            e = F[i], ei = i;
        else if (fabs(F[i] - e) >= h) {
            ext[m] = e, at[m++] = ei;
            dir = -dir, e = F[i], ei = i;
        }
    }
    return m;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Where to start the periods for events at times t[0..m-1] (m >= 1): in the largest gap
 * between the events' phases modulo T (so that jitter does not move an event across a
 * boundary). Returns that start, in [0, T). */
static double phase_cut(const double *t, size_t m, double T)
{
    double *ph = xcalloc(m, sizeof *ph);
    for (size_t k = 0; k < m; k++)
        ph[k] = fmod(t[k], T) / T;
    qsort(ph, m, sizeof *ph, cmp_double);
    double gap = ph[0] + 1.0 - ph[m - 1], cut = fmod(ph[m - 1] + 0.5 * gap, 1.0);
    for (size_t k = 1; k < m; k++)
        if (ph[k] - ph[k - 1] > gap) {
            gap = ph[k] - ph[k - 1];
            cut = 0.5 * (ph[k] + ph[k - 1]);
        }
    free(ph);
    return cut * T;
}

/* Events at times t[0..m-1] (increasing) in a window of length window, put into whole
 * periods T starting at phase_cut: idx[k] gets event k's period (-1 outside the whole
 * periods). Returns the number of whole periods (0 when there is none or m is 0). */
static long periods(const double *t, size_t m, double T, double window, long *idx)
{
    if (m == 0)
        return 0;
    double t0 = phase_cut(t, m, T);
    long whole = (long)floor((window - t0) / T);
    for (size_t k = 0; k < m; k++) {
        double p = (t[k] - t0) / T;
        idx[k] = whole >= 1 && p >= 0 && p < whole ? (long)p : -1;
    }
    return whole >= 1 ? whole : 0;
}

/* Events at times t[0..m-1] counted per whole period (periods()): *mean gets the events per
 * period (m / (window / T) when the window holds no whole period); returns the largest minus
 * the smallest count. */
static long per_period(const double *t, size_t m, double T, double window, double *mean)
{
    *mean = (double)m * T / window;
    long *idx = xcalloc(m + 1, sizeof *idx), whole = periods(t, m, T, window, idx);
    if (whole == 0) {
        free(idx);
        return 0;
    }
    long *cnt = xcalloc((size_t)whole, sizeof *cnt);
    for (size_t k = 0; k < m; k++)
        if (idx[k] >= 0)
            cnt[idx[k]]++;
    long cmin = cnt[0], cmax = cnt[0], sum = 0;
    for (long p = 0; p < whole; p++) {
        cmin = cnt[p] < cmin ? cnt[p] : cmin;
        cmax = cnt[p] > cmax ? cnt[p] : cmax;
        sum += cnt[p];
    }
    free(cnt);
    free(idx);
    *mean = (double)sum / (double)whole;
    return cmax - cmin;
}

/* Returns of sizes size[] at times t[] (m of them): in each whole period (periods()) the
 * second-largest over the largest (0 when a period has one return); the median over the
 * periods. 0 when there is no whole period. */
static double secondary_ratio(const double *size, const double *t, size_t m, double T, double window)
{
    long *idx = xcalloc(m + 1, sizeof *idx), whole = periods(t, m, T, window, idx);
    if (whole == 0) {
        free(idx);
        return 0;
    }
    double *first = xcalloc((size_t)whole, sizeof *first), *second = xcalloc((size_t)whole, sizeof *second);
    for (size_t k = 0; k < m; k++) {
        long q = idx[k];
        if (q < 0)
            continue;
        if (size[k] > first[q])
            second[q] = first[q], first[q] = size[k];
        else if (size[k] > second[q])
            second[q] = size[k];
    }
    free(idx);
    for (long q = 0; q < whole; q++)
        first[q] = first[q] > 0 ? second[q] / first[q] : 0;
    qsort(first, (size_t)whole, sizeof *first, cmp_double);
    double med = whole % 2 ? first[whole / 2] : 0.5 * (first[whole / 2 - 1] + first[whole / 2]);
    free(first);
    free(second);
    return med;
}

/* Mean, RMS about the mean, peak-to-peak (and its ratio to the Helmholtz amplitude) of F
 * into r; x gets F - mean. Returns the sum of squares of x. */
static double signal_stats(const double *F, size_t n, double helmholtz_pp, double *x, regime_result *r)
{
    double mean = 0, lo = F[0], hi = F[0], var = 0;
    for (size_t i = 0; i < n; i++) {
        mean += F[i];
        lo = fmin(lo, F[i]);
        hi = fmax(hi, F[i]);
    }
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) {
        x[i] = F[i] - mean;
        var += x[i] * x[i];
    }
    r->mean_n = mean;
    r->rms_n = sqrt(var / (double)n);
    r->amplitude_n = hi - lo;
    if (helmholtz_pp > 0)
        r->amplitude_ratio = r->amplitude_n / helmholtz_pp;
    return var;
}

/* Power-weighted spectral centroid of x (Hann window), Hz; NAN when it cannot be had. */
static double centroid(const double *x, size_t n, double fs)
{
    spectrum sp;
    if (spectrum_hann(x, n, fs, &sp) != 0)
        return NAN;
    double num = 0, den = 0;
    for (size_t k = 1; k < sp.nbins; k++) {
        double p = sp.mag[k] * sp.mag[k];
        num += spectrum_freq(&sp, k) * p;
        den += p;
    }
    spectrum_free(&sp);
    return den > 0 ? num / den : NAN;
}

/* Period: the lag of the largest autocorrelation of x in [0.7 T0, 1.5 T0], refined by a
 * parabola; r gets it (and its regularity, f0, T/T0). Returns it, s (NAN when not found). */
static double find_period(const double *x, size_t n, double var, double T0, double fs, regime_result *r)
{
    size_t Llo = (size_t)floor(0.7 * T0 * fs), Lhi = (size_t)ceil(1.5 * T0 * fs);
    if (Lhi + 2 >= n)
        Lhi = n - 3;
    if (Llo < 1)
        Llo = 1;
    double *ac = xcalloc(Lhi + 2, sizeof *ac);
    double T = NAN;
    if (var > 0 && autocorr(x, n, Lhi + 1, ac) == 0) {
        size_t best = Llo;
        for (size_t L = Llo; L <= Lhi; L++)
            if (ac[L] > ac[best])
                best = L;
        double off = 0;
        if (best > 0) {
            double d = ac[best - 1] - 2 * ac[best] + ac[best + 1];
            if (d < 0)
                off = 0.5 * (ac[best - 1] - ac[best + 1]) / d;
        }
        T = ((double)best + off) / fs;
        r->regularity = ac[best];
    }
    free(ac);
    if (isfinite(T)) {
        r->period_s = T;
        r->f0_hz = 1.0 / T;
        r->period_ratio = T / T0;
    }
    return T;
}

/* Slips: onsets of v > slip_on v_b, ended by v < slip_off v_b, kept when their peak is at
 * least slip_peak of the largest v (a precursor blip just over the threshold ahead of the
 * main slip is not a slip of its own); counted per period Tm into r. Returns how many. */
static size_t find_slips(const regime_input *in, const regime_opts *o, double Tm, regime_result *r)
{
    size_t n = in->n;
    const double *v = in->v_rel;
    double von = o->slip_on * in->v_bow, voff = o->slip_off * in->v_bow;
    bool slipping = v[0] > von;
    size_t cap = (size_t)(n / 2 + 1), ns = 0, slip_samples = 0;
    double *onset = xcalloc(cap, sizeof *onset), *peak = xcalloc(cap, sizeof *peak), vmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (!slipping && v[i] > von) {
            slipping = true;
            onset[ns] = (double)i / in->fs;
            peak[ns++] = v[i];
        } else if (slipping && v[i] < voff)
            slipping = false;
        if (slipping) {
            slip_samples++;
            if (ns > 0 && v[i] > peak[ns - 1])
                peak[ns - 1] = v[i];
        }
        vmax = fmax(vmax, v[i]);
    }
    size_t kept = 0;
    for (size_t k = 0; k < ns; k++)
        if (peak[k] >= o->slip_peak * vmax)
            onset[kept++] = onset[k];
    free(peak);
    r->slips = (long)kept;
    r->slip_fraction = (double)slip_samples / (double)n;
    r->slip_spread = per_period(onset, kept, Tm, (double)n / in->fs, &r->slips_per_period);
    free(onset);
    return kept;
}

/* Flybacks: the returns of the sawtooth (regime.h). The swings of F between the extremes of
 * a zig-zag with hysteresis small_jump * pp; the fast direction is that of the largest swing
 * that takes the shorter time (falls for a sawtooth that rises while the string sticks). A
 * return is a swing in the fast direction; a flyback a return of at least big_jump of the
 * largest and flyback_abs of the Helmholtz amplitude, counted when the largest return is
 * sharp: over within sharp_time * T0 (a sinusoid takes T0 / 2). Per period Tm into r. */
static void find_flybacks(const regime_input *in, const regime_opts *o, double pp, double Tm, regime_result *r)
{
    size_t n = in->n, ecap = n / 2 + 2, *at = xcalloc(ecap, sizeof *at);
    double fs = in->fs, window = (double)n / fs, *ext = xcalloc(ecap, sizeof *ext);
    size_t ne = pp > 0 ? zigzag(in->bridge, n, o->small_jump * pp, ext, at, ecap) : 0;
    double big_sz[2] = {0, 0}, big_len[2] = {0, 0};     /* [0] falls, [1] rises */
    for (size_t k = 0; k + 1 < ne; k++) {
        int d = ext[k + 1] > ext[k];
        double size = fabs(ext[k + 1] - ext[k]);
        if (size > big_sz[d])
            big_sz[d] = size, big_len[d] = (double)(at[k + 1] - at[k]) / fs;
    }
    int d = big_sz[1] > 0 && (big_sz[0] == 0 || big_len[1] < big_len[0]) ? 1 : 0;
    double largest = big_sz[d];
    bool sharp = largest > 0 && big_len[d] <= o->sharp_time * in->period_nominal;
    double fly_floor = fmax(o->big_jump * largest, o->flyback_abs * (in->helmholtz_pp > 0 ? in->helmholtz_pp : pp));
    size_t nrun = 0, nfly = 0;
    double *run = xcalloc(ne + 1, sizeof *run), *trun = xcalloc(ne + 1, sizeof *trun);
    double *tfly = xcalloc(ne + 1, sizeof *tfly);
    for (size_t k = 0; k + 1 < ne; k++) {
        if ((ext[k + 1] > ext[k]) != d)
            continue;
        run[nrun] = fabs(ext[k + 1] - ext[k]);
        trun[nrun] = 0.5 * (double)(at[k] + at[k + 1]) / fs;
        if (sharp && run[nrun] >= fly_floor)
            tfly[nfly++] = trun[nrun];
        nrun++;
    }
    r->secondary_ratio = secondary_ratio(run, trun, nrun, Tm, window);
    per_period(tfly, nfly, Tm, window, &r->flybacks_per_period);
    per_period(trun, nrun, Tm, window, &r->jumps_per_period);
    free(tfly);
    free(run);
    free(trun);
    free(ext);
    free(at);
}

/* The rules, in the order of regime.h, from the measures in r: kind, reason and why. */
static void decide(const regime_input *in, const regime_opts *o, double T, size_t ns, regime_result *r)
{
    double pp = r->amplitude_n, T0 = in->period_nominal;
    double tiny = in->helmholtz_pp > 0 ? o->tiny * in->helmholtz_pp : o->tiny_abs;
    double big = in->helmholtz_pp > 0 ? o->raucous_amp * in->helmholtz_pp : 10 * o->tiny_abs;
    long k = lround(r->slips_per_period);
    bool integer = k >= 1 && fabs(r->slips_per_period - (double)k) <= 0.15;
    bool period_ok = isfinite(T) && fabs(T / T0 - 1.0) <= o->period_tol;
    bool regular = r->regularity >= o->min_regularity;
    bool periodic = regular && period_ok && integer && r->slip_spread <= 1;
    long fly = lround(r->flybacks_per_period);
    if (ns == 0) {
        r->reason = r->slip_fraction > 0.5 ? REGIME_REASON_SLIPPING : REGIME_REASON_STICKING;
        snprintf(r->why, sizeof r->why, "no slip in the window (%s throughout)",
                 r->slip_fraction > 0.5 ? "slipping" : "sticking");
    } else if (pp < tiny) {
        r->reason = REGIME_REASON_TINY;
        snprintf(r->why, sizeof r->why, "tiny: peak-to-peak %.3g N below %.3g N", pp, tiny);
    } else if (!periodic && pp >= big && !(regular && period_ok)) {
        r->kind = REGIME_RAUCOUS;
        snprintf(r->why, sizeof r->why,
                 "large (%.3g N) and not periodic: regularity %.3f, T/T0 %.3f, %.2f slips/period, spread %ld", pp,
                 r->regularity, r->period_ratio, r->slips_per_period, r->slip_spread);
    } else if (!periodic) {
        r->reason = !regular ? REGIME_REASON_IRREGULAR : !period_ok ? REGIME_REASON_OTHER_PERIOD : REGIME_REASON_SLIPS_VARY;
        snprintf(r->why, sizeof r->why, "%s: regularity %.3f, T/T0 %.3f, %.2f slips/period, spread %ld",
                 r->reason == REGIME_REASON_IRREGULAR      ? "small and not periodic"
                 : r->reason == REGIME_REASON_OTHER_PERIOD ? "small, regular at another period than the string's"
                                                           : "a regular bridge force but a slip count that changes",
                 r->regularity, r->period_ratio, r->slips_per_period, r->slip_spread);
    } else if (k == 1 && fly < 1) {
        r->reason = REGIME_REASON_ROUNDED;
        snprintf(r->why, sizeof r->why, "periodic, %ld slips/period, but no sharp flyback (rounded corners)", k);
    } else {
        if (k == 1)
            r->kind = fly == 1 ? REGIME_HELMHOLTZ : REGIME_S_MOTION;
        else if (k == 2)
            r->kind = fly <= 2 ? REGIME_DOUBLE_SLIP : REGIME_MULTIPLE_FLYBACK;
        else
            r->kind = fly <= 1 ? REGIME_MULTIPLE_SLIP : REGIME_MULTIPLE_FLYBACK;
        snprintf(r->why, sizeof r->why, "periodic (regularity %.3f, T/T0 %.3f): %ld slips and %ld flybacks per period",
                 r->regularity, r->period_ratio, k, fly);
    }
}

int regime_classify(const regime_input *in, const regime_opts *o, regime_result *r)
{
    memset(r, 0, sizeof *r);
    r->kind = REGIME_UNCLASSIFIED;
    r->period_s = r->f0_hz = r->period_ratio = r->amplitude_ratio = NAN;
    double T0 = in->period_nominal, fs = in->fs;
    if (!(fs > 0) || !(T0 > 0) || !(in->v_bow > 0) || !in->bridge || !in->v_rel ||
        (double)in->n < 2.0 * T0 * fs) {
        r->reason = REGIME_REASON_INPUT;
        snprintf(r->why, sizeof r->why, "cannot analyse: needs fs, T0, v_b > 0 and at least two nominal periods");
        return -1;
    }
    double *x = xcalloc(in->n, sizeof *x);
    double var = signal_stats(in->bridge, in->n, in->helmholtz_pp, x, r);
    r->centroid_hz = o->skip_centroid ? NAN : centroid(x, in->n, fs);
    double T = find_period(x, in->n, var, T0, fs, r);
    free(x);
    double Tm = isfinite(T) ? T : T0;
    size_t ns = find_slips(in, o, Tm, r);
    find_flybacks(in, o, r->amplitude_n, Tm, r);
    decide(in, o, T, ns, r);
    return 0;
}

long regime_count_slips(const regime_opts *o, const double *v_rel, const double *v_bow, size_t n, long *first)
{
    long count = 0;
    bool armed = true;
    *first = -1;
    for (size_t k = 0; k < n; k++) {
        double vb = v_bow[k];
        if (armed && vb > 0 && v_rel[k] > o->slip_on * vb) {
            count++;
            armed = false;
            if (*first < 0)
                *first = (long)k;
        } else if (!armed && v_rel[k] < o->slip_off * vb)
            armed = true;
    }
    return count;
}

/* The steepest fall of y in [a, b): the sample before it. */
static size_t steepest_fall(const double *y, size_t a, size_t b)
{
    size_t at = a;
    for (size_t k = a; k + 1 < b; k++)
        if (y[k + 1] - y[k] < y[at + 1] - y[at])
            at = k;
    return at;
}

/* The stick part of one period, y[a..b), less its least-squares line: into r; its length. */
static size_t detrend(const double *y, size_t a, size_t b, double *r)
{
    size_t m = b > a ? b - a : 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t k = 0; k < m; k++)
        sx += k, sy += y[a + k], sxx += (double)k * k, sxy += k * y[a + k];
    double den = m * sxx - sx * sx, slope = den > 0 ? (m * sxy - sx * sy) / den : 0.0,
           icpt = m ? (sy - slope * sx) / m : 0.0;
    for (size_t k = 0; k < m; k++)
        r[k] = y[a + k] - icpt - slope * k;
    return m;
}

double regime_ripples_per_period(const double *y, size_t n, double fs, double f0)
{
    double P = f0 > 0 ? fs / f0 : 0.0;       /* samples a period */
    if (n < 16 || !(P >= 40) || (double)n < 2.5 * P)
        return 0.0;
    size_t lmin = (size_t)(P / 80), lmax = (size_t)(P / 2.5);
    double *R = xcalloc(lmax + 2, sizeof *R), *cnt = xcalloc(lmax + 2, sizeof *cnt), *r = xcalloc(n, sizeof *r);
    size_t d0 = steepest_fall(y, 0, (size_t)P + 1);
    while ((double)d0 + 1.5 * P < (double)n) {
        size_t d1 = steepest_fall(y, d0 + (size_t)(0.5 * P), d0 + (size_t)(1.5 * P));
        size_t m = detrend(y, d0 + (size_t)(0.05 * P), d1 - (size_t)(0.02 * P), r);
        for (size_t l = lmin; l <= lmax && l < m; l++) {
            double s = R[l];            /* in a register: r may not alias it */
            for (size_t k = 0; k + l < m; k++)
                s += r[k] * r[k + l];
            R[l] = s, cnt[l] += (double)(m - l);
        }
        d0 = d1;
    }
    double best = 0;
    for (size_t l = lmin; l <= lmax; l++)
        if ((R[l] = cnt[l] > 0 ? R[l] / cnt[l] : 0.0) > best)
            best = R[l];
    double count = 0.0;     /* the first autocorrelation peak within 0.8 of the highest */
    for (size_t l = lmin + 1; l < lmax && best > 0 && count == 0.0; l++)
        if (R[l] >= 0.8 * best && R[l] >= R[l - 1] && R[l] >= R[l + 1]) {
            double den = R[l - 1] - 2 * R[l] + R[l + 1];
            count = P / (l + (den < 0 ? 0.5 * (R[l - 1] - R[l + 1]) / den : 0.0));
        }
    free(R), free(cnt), free(r);
    return count;
}

/* ---- the boundaries of a Schelleng diagram ----------------------------------------------- */

const char *regime_edge_name(regime_edge e)
{
    static const char *const n[REGIME_EDGE_COUNT] = {"helmholtz_max", "helmholtz_min", "double_multiple"};
    return (unsigned)e < REGIME_EDGE_COUNT ? n[e] : NULL;
}

void regime_edges(const int *kind, const double *x, size_t nx, const double *f, size_t nf, regime_edge e,
                  double *edge_f, regime_fit *fit)
{
    double *lx = xcalloc(nx + 1, sizeof *lx), *lf = xcalloc(nx + 1, sizeof *lf), var_q = 0;
    size_t m = 0;
    for (size_t i = 0; i < nx; i++) {
        long lo = -1, hi = -1;  /* lowest and highest Helmholtz cell of the column */
        for (size_t j = 0; j < nf; j++)
            if (kind[j * nx + i] == REGIME_HELMHOLTZ) {
                hi = (long)j;
                if (lo < 0)
                    lo = (long)j;
            }
        long below = -1;        /* the edge lies between rows below and below + 1 */
        if (e == REGIME_EDGE_HELMHOLTZ_MAX && hi >= 0 && hi + 1 < (long)nf)
            below = hi;
        else if (e == REGIME_EDGE_HELMHOLTZ_MIN && lo > 0)
            below = lo - 1;
        else if (e == REGIME_EDGE_DOUBLE_MULTIPLE) {
            long top = lo >= 0 ? lo : (long)nf;
            bool double_above = false;
            for (long j = top - 1; j >= 0 && below < 0; j--) {
                int k = kind[(size_t)j * nx + i];
                if ((k == REGIME_MULTIPLE_SLIP || k == REGIME_MULTIPLE_FLYBACK) && double_above)
                    below = j;
                double_above |= k == REGIME_DOUBLE_SLIP;
            }
        }
        edge_f[i] = below >= 0 ? sqrt(f[below] * f[below + 1]) : NAN;
        if (below >= 0) {
            double step = log10(f[below + 1] / f[below]);
            var_q += step * step / 12.0;   /* the edge is anywhere in its cell */
            lx[m] = log10(x[i]);
            lf[m++] = log10(edge_f[i]);
        }
    }
    fit->points = m;
    fit->slope = fit->slope_se = fit->intercept = NAN;
    double c0, c1, c00, c01, c11, sumsq, sxx = 0, mx = 0;
    if (m >= REGIME_FIT_MIN_COLUMNS &&
        gsl_fit_linear(lx, 1, lf, 1, m, &c0, &c1, &c00, &c01, &c11, &sumsq) == GSL_SUCCESS) {
        for (size_t k = 0; k < m; k++)
            mx += lx[k] / (double)m;
        for (size_t k = 0; k < m; k++)
            sxx += (lx[k] - mx) * (lx[k] - mx);
        fit->slope = c1;
        fit->intercept = c0;
        fit->slope_se = sqrt(c11 + var_q / (double)m / sxx);
    }
    free(lx);
    free(lf);
}

/* ---- synthetic signals -------------------------------------------------------------------- */

/* A sawtooth that rises over each period and drops by drop[j] at phase at[j] (j < m, at[0] = 0),
 * normalised so that the drops sum to the rise: F(phase) = rise * phase - sum of drops passed. */
static double saw(double ph, const double *at, const double *drop, int m)
{
    double rise = 0, F = 0;
    for (int j = 0; j < m; j++)
        rise += drop[j];
    F = rise * ph;
    for (int j = 1; j < m; j++)
        if (ph >= at[j])
            F -= drop[j];
    return F;
}

void regime_synthetic(regime_kind k, double *v_rel, double *bridge, size_t n, double fs, double period,
                      double v_bow, double beta, double pp, unsigned seed)
{
    const double mean = 0.5 * pp;   /* a positive mean, as the friction force gives */
    double at[4] = {0}, drop[4] = {0}, slipv[4] = {0}, slipw[4] = {0};
    int m = 1;
    at[0] = 0, drop[0] = pp, slipv[0] = v_bow / beta, slipw[0] = beta;
    switch (k) {
    case REGIME_HELMHOLTZ:
        break;
    case REGIME_DOUBLE_SLIP:  /* a second, smaller slip mid-period: a small step in F */
        m = 2;
        at[1] = 0.5, drop[1] = 0.12 * pp, slipv[1] = 0.4 * v_bow / beta, slipw[1] = 0.5 * beta;
        break;
    case REGIME_MULTIPLE_SLIP:  /* four slips a period, three small */
        m = 4;
        for (int j = 1; j < 4; j++)
            at[j] = 0.25 * j, drop[j] = 0.1 * pp, slipv[j] = 0.3 * v_bow / beta, slipw[j] = 0.4 * beta;
        drop[0] = 0.6 * pp;
        break;
    case REGIME_S_MOTION:  /* one slip, but a second large return of the bridge force */
        m = 2;
        at[1] = 0.5, drop[1] = 0.7 * pp;
        break;
    case REGIME_MULTIPLE_FLYBACK:  /* three slips, each a large return */
        m = 3;
        at[1] = 1.0 / 3, at[2] = 2.0 / 3;
        drop[0] = pp, drop[1] = 0.8 * pp, drop[2] = 0.6 * pp;
        for (int j = 0; j < 3; j++)
            slipv[j] = 0.6 * v_bow / beta, slipw[j] = beta;
        break;
    default:
        break;
    }
    if (k == REGIME_RAUCOUS || k == REGIME_UNCLASSIFIED) {
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(rng, seed + 1);
        if (k == REGIME_RAUCOUS) {
            /* Slips at irregular intervals (0.3 .. 1.2 T0), each dropping F by a random amount. */
            double next = 0, F = mean, level = 0;
            size_t slip_end = 0;
            for (size_t i = 0; i < n; i++) {
                double t = (double)i / fs;
                if (t >= next) {
                    double d = pp * (0.5 + gsl_rng_uniform(rng));
                    level -= d;
                    slip_end = i + (size_t)(beta * period * fs);
                    next = t + period * (0.3 + 0.9 * gsl_rng_uniform(rng));
                }
                level += 1.5 * pp / (period * fs);
                if (level > pp)
                    level = pp;
                F = mean + level;
                bridge[i] = F;
                v_rel[i] = i < slip_end ? 1.5 * v_bow / beta : 0.0;
            }
        } else {
            /* Continuous, irregular slipping at a small, rounded amplitude. */
            for (size_t i = 0; i < n; i++) {
                double ph = 2 * M_PI * (double)i / (period * fs);
                bridge[i] = mean + 0.15 * pp * sin(ph) + 0.02 * pp * (gsl_rng_uniform(rng) - 0.5);
                v_rel[i] = v_bow * (0.8 + 0.3 * sin(ph) + 0.2 * (gsl_rng_uniform(rng) - 0.5));
            }
        }
        gsl_rng_free(rng);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        double ph = fmod((double)i / (period * fs), 1.0);
        bridge[i] = mean + saw(ph, at, drop, m) - 0.5 * pp;
        v_rel[i] = 0.0;
        for (int j = 0; j < m; j++)
            if (ph >= at[j] && ph < at[j] + slipw[j])
                v_rel[i] = slipv[j];
    }
}
