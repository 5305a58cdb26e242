#include "string/string.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int string_check(const string_params *s, char *why, size_t n)
{
    const struct { const char *name; double v; bool zero_ok;
    } pos[] = {
        {"L", s->L, false},
        {"c", s->c, false},
        {"sigma0", s->sigma0, true},
        {"kappa", s->kappa, true},
        {"pluck-height", s->height, false},
        {"w", s->w, false},
    };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (!isfinite(pos[i].v) || pos[i].v < 0 || (!pos[i].zero_ok && pos[i].v == 0)) {
            snprintf(why, n, "--%s %g is not accepted; accepted: a finite %s number", pos[i].name,
                     pos[i].v, pos[i].zero_ok ? "non-negative" : "positive");
            return -1;
        }
    if (!(s->xp > s->w && s->xp < s->L - s->w)) {
        snprintf(
            why, n,
            "--xp %g with --w %g and --L %g puts the load past an end; accepted: w < xp < L - w",
            s->xp, s->w, s->L);
        return -1;
    }
    if (!(s->xm > 0 && s->xm < s->L)) {
        snprintf(why, n, "--xm %g is not on the string; accepted: 0 < xm < L = %g", s->xm, s->L);
        return -1;
    }
    /* (pi/w)^2 = k_n^2 exactly when L/w = n: the closed form of A_n divides by zero there. */
    double r = s->L / s->w;
    if (fabs(r - nearbyint(r)) <= 1e-9 * r) {
        snprintf(why, n,
                 "--L %g over --w %g is the integer %.0f, where (pi/w)^2 = k_n^2; accepted: L/w "
                 "not an integer",
                 s->L, s->w, r);
        return -1;
    }
    if (s->height > 0.1 * s->L) {
        snprintf(why, n,
                 "--pluck-height %g is not small against --L %g; accepted: height <= L/10 (a "
                 "linear model)",
                 s->height, s->L);
        return -1;
    }
    return 0;
}

double string_load(const string_params *s)
{
    return s->height / (s->xp * (s->L - s->xp) / s->L - s->w * (0.25 - 1.0 / (M_PI * M_PI)));
}

double string_u0(const string_params *s, double x)
{
    double Q = string_load(s), L = s->L, xp = s->xp, w = s->w;
    double tau = x <= xp ? x * (L - xp) / L : xp * (L - x) / L;
    double y = x - xp, kap = 0.0;
    if (fabs(y) <= w)
        kap = (y > 0 ? y : 0.0) - (0.5 / w) * (0.5 * (y + w) * (y + w) -
                                               (w * w / (M_PI * M_PI)) * (1.0 + cos(M_PI * y / w)));
    return Q * (tau + kap);
}

/* A_n from Q = string_load(s), k = k_n and the sines sin(k xp), sin(k w) */
static double amplitude_of(const string_params *s, double Q, double k, double sin_xp, double sin_w)
{
    double p2 = (M_PI / s->w) * (M_PI / s->w);
    return 2.0 * Q / (s->L * s->w * k * k * k) * sin_xp * sin_w * p2 / (p2 - k * k);
}

double string_mode_amplitude(const string_params *s, int n)
{
    double k = n * M_PI / s->L;
    return amplitude_of(s, string_load(s), k, sin(k * s->xp), sin(k * s->w));
}

/* sinh(b t)/b, exact as b -> 0 */
static double sinhc(double b, double t)
{
    double x = b * t;
    return fabs(x) < 1e-4 ? t * (1.0 + x * x / 6.0) : sinh(x) / b;
}

void string_mode_eval(const string_mode *m, double t, double *a, double *adot)
{
    double A = m->amplitude, al = m->alpha, w2 = m->omega0sq, d = w2 - al * al;
    if (d > 0) {
        double om = sqrt(d), e = exp(-al * t), sn = sin(om * t), cs = cos(om * t);
        *a = A * e * (cs + al / om * sn);
        *adot = -A * w2 / om * e * sn;
        return;
    }
    /* over- or critically damped: e^{-al t} cosh(b t) and e^{-al t} sinh(b t)/b, with the slow
     * rate al - b = w2/(al + b) computed without cancellation */
    double b = sqrt(-d);
    double slow = w2 / (al + b), e1 = exp(-slow * t), e2 = exp(-(al + b) * t);
    double ch = 0.5 * (e1 + e2);
    double sh = b * t < 1e-4 ? exp(-al * t) * sinhc(b, t) : 0.5 * (e1 - e2) / b;
    *a = A * (ch + al * sh);
    *adot = -A * w2 * sh;
}

double string_mode_velocity_bound(const string_mode *m, double t)
{
    double A = fabs(m->amplitude * m->pickup), al = m->alpha, w2 = m->omega0sq, d = w2 - al * al;
    double gam, scale;      /* the envelope decays as e^{-gam t}; 1/scale: its factor */
    if (d > 0) {
        gam = al;
        scale = sqrt(d);                        /* |e^{-al t} sin(om t)/om| */
    } else {
        double b = sqrt(-d);
        gam = w2 / (al + b);
        scale = b > 0 ? 2.0 * b : 0.0;          /* e^{-gam t}/(2b), none at b = 0 */
    }
    double e = exp(-gam * t), env1 = scale > 0 ? e / scale : INFINITY;
    /* |sin(om t)/om| and sinh(b t)/b e^{-b t} are both <= t: sup over t' >= t of t' e^{-gam t'} */
    double env2 = gam <= 0 ? INFINITY : (t >= 1.0 / gam ? t * e : exp(-1.0) / gam);
    return A * w2 * fmin(env1, env2);
}

/* Mode n from Q = string_load(s) and its sines sin(k_n x), x = xp, w, xm */
static string_mode mode_of(const string_params *s, double Q, int n, const double sines[3])
{
    double k = n * M_PI / s->L;
    string_mode m = {amplitude_of(s, Q, k, sines[0], sines[1]),
                     s->sigma0 + 0.5 * s->kappa * k * k, s->c * s->c * k * k, sines[2]};
    return m;
}

string_mode string_exact_mode(const string_params *s, int n)
{
    double k = n * M_PI / s->L, sines[3] = {sin(k * s->xp), sin(k * s->w), sin(k * s->xm)};
    return mode_of(s, string_load(s), n, sines);
}

/* The sines of mode n = 1, 2, ... for the series, sin(k_n x) for x = xp, w, xm: each from the one
 * before by a rotation by k_1 x (cos(k_n x) carried along), restarted from sin and cos of k_n x
 * every ROT_RESTART modes, so that the rotations' rounding errors (a few eps a step) stay within
 * some 100 eps: 3 rotations a mode, not 3 sines. */
enum { ROT_RESTART = 32 };
typedef struct {
    double x[3], s[3], c[3], ds[3], dc[3];
} mode_sines;

static void mode_sines_next(const string_params *s, int n, mode_sines *r)
{
    double k = n * M_PI / s->L;
    for (int j = 0; j < 3; j++) {
        if (n == 1) {
            r->x[j] = j == 0 ? s->xp : j == 1 ? s->w : s->xm;
            r->ds[j] = sin(k * r->x[j]);
            r->dc[j] = cos(k * r->x[j]);
        }
        if ((n - 1) % ROT_RESTART == 0) {
            r->s[j] = sin(k * r->x[j]);
            r->c[j] = cos(k * r->x[j]);
        } else {
            double sn = r->s[j];
            r->s[j] = sn * r->dc[j] + r->c[j] * r->ds[j];
            r->c[j] = r->c[j] * r->dc[j] - sn * r->ds[j];
        }
    }
}

int string_reference_modes(const string_params *s, double t1, double tol, int max_modes,
                           string_mode **out)
{
    /* room for 4096 modes from the start (128 KB, pages taken as written): no copies as the
     * series grows (the default series has 3067 modes; from 1024, two reallocations and twice
     * the pages touched, ~0.05 ms of the reference's solve) */
    size_t cap = 4096;
    int n = 0;
    string_mode *m = xcalloc(cap, sizeof *m);
    /* Past the load's resonance (k_n > 2 pi / w, n > 2L/w) the bound 2Q/(L w k^3) p^2/|p^2 - k^2|
     * (p = pi/w) on |A_n|, times c k_n, falls at least like n^-4,
     * so with the damping factor e^{-alpha_n t1} (alpha rising like n^2) the tail after mode n is
     * at most E_n min(n/3, r/(1 - r)), r = exp(-(alpha_{n+1} - alpha_n) t1), E_n the bound of
     * mode n with the pickup weight taken as 1 (n/3 alone once the modes are overdamped). */
    double n_res = 2.0 * s->L / s->w, Q = string_load(s);
    mode_sines sines;
    for (;;) {
        if (n == max_modes) {
            free(m);
            *out = NULL;
            return -1;
        }
        m = xgrow(m, &cap, (size_t)n + 1, sizeof *m);
        mode_sines_next(s, n + 1, &sines);
        m[n] = mode_of(s, Q, n + 1, sines.s);
        n++;
        if (n <= n_res)
            continue;
        /* the bound of a mode with both sines of A_n and the pickup weight taken as 1 */
        double k = n * M_PI / s->L;
        string_mode whole = m[n - 1];
        whole.amplitude = fabs(amplitude_of(s, Q, k, 1.0, 1.0));
        whole.pickup = 1.0;
        double E = string_mode_velocity_bound(&whole, t1);
        double dk2 = (2.0 * n + 1) * (M_PI / s->L) * (M_PI / s->L), x = 0.5 * s->kappa * dk2 * t1;
        /* overdamped modes decay at the slow rate omega0^2/(alpha + beta), which tends to
         * c^2/kappa: no help from the damping there, only the power law */
        bool under = whole.alpha * whole.alpha < whole.omega0sq;
        /* r/(1 - r) = 1/(e^x - 1) >= 1/(x + x^2) for 0 < x <= 1: while E times both that and n/3
         * is above tol/2 by a margin far wider than the roundings, the series goes on without
         * computing r (the same decision as below, one exp a mode fewer) */
        if (under && x > 0 && x <= 1 && E * (n / 3.0) > 0.5 * tol &&
            E / (x + x * x) > 0.5 * tol * (1 + 1e-6))
            continue;
        double r = exp(-x);
        double factor = under ? fmin(n / 3.0, r < 1 ? r / (1.0 - r) : INFINITY) : n / 3.0;
        if (E * factor <= 0.5 * tol)
            break;
    }
    *out = m;
    return n;
}

/* Whether an underdamped mode's velocity bound at t is its envelope A w2 e^{-alpha t}/sqrt(d):
 * past 1/alpha and 1/omega (with a margin of 1e-9). Elsewhere it is below the envelope. */
static bool on_envelope(const string_mode *m, double t)
{
    double al = m->alpha, d = m->omega0sq - al * al;
    return t * al >= 1.0 + 1e-9 && t * t * d >= 1.0 + 1e-9;
}

/* First sample k in [0, n] from which the mode's velocity bound stays below eps (n if never). */
static long mode_end(const string_mode *m, double fs, long n, double eps)
{
    long lo = 0, hi = n - 1;      /* bound(lo) >= eps unknown, bound(hi) < eps once checked */
    /* The bound never rises, and past t = 1/omega and 1/alpha it is A w2 e^{-alpha t}/sqrt(d)
     * for an underdamped mode, which falls to eps at t_e: in the common case the first sample at
     * or past t_e (or the one after it, when rounding puts the bound there at eps) is the answer,
     * found with one to three evaluations of the bound, and none at the last sample, where the
     * bound of a fast-decaying mode underflows, which is slow. Otherwise: halving. */
    double A = fabs(m->amplitude * m->pickup), d = m->omega0sq - m->alpha * m->alpha, te = 0.0;
    long k = hi;
    if (d > 0 && m->alpha > 0 && A > 0) {
        te = log(A * m->omega0sq / (eps * sqrt(d))) / m->alpha;
        k = te > 0 ? (long)ceil(te * fs) : 1;
        if (k < 1)
            k = 1;
    }
    /* Past t_e by a factor of the envelope far above the roundings (1e-9), the bound at k, never
     * above the envelope, is below eps without being evaluated (the default series: 1613
     * evaluations of the bound instead of 3867). */
    double tk = (double)k / fs;
    bool below = te > 0 && m->alpha * (tk - te) >= 1e-9;
    double bk = k >= hi ? INFINITY : below ? 0.0 : string_mode_velocity_bound(m, tk);
    bool above = false;     /* bound(k - 1) >= eps, known */
    if (bk >= eps && k + 1 < hi) {  /* the bound at eps by rounding: the next sample */
        bk = string_mode_velocity_bound(m, (double)++k / fs);
        above = true;
    }
    if (k < hi && bk < eps) {
        /* Sample k - 1 lies before t_e: where the bound is the envelope, and before t_e by a
         * factor of it far above the roundings (1e-9), the bound is above eps without being
         * evaluated. */
        double t = (double)(k - 1) / fs;
        above = above || (on_envelope(m, t) && m->alpha * (te - t) >= 1e-9);
        if (above || string_mode_velocity_bound(m, t) >= eps)
            return k;           /* the envelope's own crossing, no halving */
        hi = k;
    } else if (string_mode_velocity_bound(m, (double)(n - 1) / fs) >= eps) {
        return n;
    }
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (string_mode_velocity_bound(m, (double)mid / fs) < eps)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* out[k] += Im(p e^{(-alpha + i om) k/fs}) for k < len, p = (pr, pi) the phasor at sample 0 (a
 * term's coef e^{(-alpha + i om) t0}). The samples y_k of a damped
 * sine obey y_{k+C} = 2 Re(Z) y_k - |Z|^2 y_{k-C}, Z = z^C the phasor's factor over C samples
 * (z = e^{(-alpha + i om)/fs}): two multiplications and a subtraction a sample. The samples run
 * in CHAINS interleaved sequences (sample k in chain k % CHAINS), so that no operation waits on
 * the one before (bench row 1: one chain is bound by the latency of its multiply-adds); the chains
 * live in VECS vectors of 4 (GCC's vector extension) and stay in registers: 6 vectors, 12 ymm
 * registers of AVX2's 16, so that the 6-cycle latency of a step (a multiplication, then the
 * subtraction) is hidden behind the other vectors' steps (4 vectors left the adders idle: the sum
 * 5% slower). The first 2 CHAINS samples are the phasor's own, p times powers of z made by
 * squarings and products (depth 6, not 47 multiplications in a row). The error grows by a few
 * roundings per step of a chain, and a chain takes at most TILE / CHAINS steps before the caller
 * re-anchors it. Real arithmetic, no FMA contraction under -std=c17: every build of this loop
 * gives the same bits. (A clone for x86-64-v3 with the step as fma(c1, Y1, -(c2 Y0)) and C's
 * fma() in the other clone made the tiles after the first 5% faster, the whole sum 1% (0.429 to
 * 0.424 ms, warm, min of 2100), too little to change the reference's last bits for: not taken.) */
enum { LANES = 4, VECS = 6, CHAINS = LANES * VECS, TOP = 5, TILE = 4096 };
_Static_assert((1 << TOP) < 2 * CHAINS && (2 << TOP) >= 2 * CHAINS, "TOP: the tree's last power");
_Static_assert(sizeof(f64x4) == LANES * sizeof(double), "LANES: f64x4's");

/* A mode's per-sample factor z = e^{(-alpha + i om)/fs}, its powers z^(2^p), p <= TOP, and
 * Z = z^CHAINS, once per mode, as far as a term of len samples uses them (most terms are a few
 * samples long: no Z for them); for a mode sounding past the first tile, its factor over a tile,
 * e^{(-alpha + i om) TILE/fs} (exp and sin/cos of TILE/fs, not TILE multiplications). */
typedef struct {
    double zr[TOP + 1], zi[TOP + 1], Zr, Zi, tr, ti;
} damped_sine;

static damped_sine damped_sine_of(double alpha, double om, double fs, long len)
{
    bool tiles = len > TILE;
    double e1 = exp(-alpha / fs);
    damped_sine d = {.tr = 0.0};
    if (tiles) {
        double et = exp(-alpha * (TILE / fs));
        d.tr = et * cos(om * (TILE / fs));
        d.ti = et * sin(om * (TILE / fs));
    }
    d.zr[0] = e1 * cos(om / fs);
    d.zi[0] = e1 * sin(om / fs);
    for (int p = 1; p <= TOP && (1L << p) < len; p++) {    /* the powers a term of len uses */
        d.zr[p] = d.zr[p - 1] * d.zr[p - 1] - d.zi[p - 1] * d.zi[p - 1];
        d.zi[p] = 2.0 * d.zr[p - 1] * d.zi[p - 1];
    }
    d.Zr = 1.0;     /* Z = z^CHAINS, the product of the powers of its binary digits */
    d.Zi = 0.0;
    for (int p = 0; p <= TOP && len > 2 * CHAINS; p++)
        if (CHAINS >> p & 1) {
            double r = d.Zr;
            d.Zr = r * d.zr[p] - d.Zi * d.zi[p];
            d.Zi = r * d.zi[p] + d.Zi * d.zr[p];
        }
    return d;
}

AVX2_CLONES static void
add_damped_sine(double *out, long len, double pr, double pi, const damped_sine *d)
{
    double re[2 * CHAINS], im[2 * CHAINS];
    int first = len < 2 * CHAINS ? (int)len : 2 * CHAINS;     /* the samples from phasors */
    re[0] = pr;
    im[0] = pi;
    for (int p = 0, w = 1; w < first; p++, w *= 2) {    /* phasors w..w+m-1 from 0..m-1 */
        int m = w < first - w ? w : first - w, c = 0;
        const f64x4 zr = {d->zr[p], d->zr[p], d->zr[p], d->zr[p]};
        const f64x4 zi = {d->zi[p], d->zi[p], d->zi[p], d->zi[p]};
        for (; w >= LANES && c + LANES <= m; c += LANES) {     /* 4 at a time, the same bits */
            const f64x4 r = F64X4_AT(re + c), i = F64X4_AT(im + c);
            F64X4_AT(re + w + c) = r * zr - i * zi;
            F64X4_AT(im + w + c) = r * zi + i * zr;
        }
        for (; c < m; c++) {
            re[w + c] = re[c] * d->zr[p] - im[c] * d->zi[p];
            im[w + c] = re[c] * d->zi[p] + im[c] * d->zr[p];
        }
    }
    if (len <= 2 * CHAINS) {    /* a short mode: its own phasors, no recurrence */
        for (int k = 0; k < len; k++)
            out[k] += im[k];
        return;
    }
    double Zr = d->Zr, Zi = d->Zi;
    double two_re = 2.0 * Zr, abs2 = Zr * Zr + Zi * Zi;
    const f64x4 c1 = {two_re, two_re, two_re, two_re}, c2 = {abs2, abs2, abs2, abs2};
    f64x4 Y[2][VECS];     /* the samples k..k+CHAINS-1 and the CHAINS after them */
    memcpy(Y, im, sizeof Y);
    long k = 0;
    /* two steps a turn, each overwriting the older half: no copies between registers */
    for (; k + 2 * CHAINS <= len; k += 2 * CHAINS)
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++)
#pragma GCC unroll 6
            for (int v = 0; v < VECS; v++) {
                F64X4_AT(out + k + h * CHAINS + LANES * v) += Y[h][v];
                Y[h][v] = c1 * Y[1 - h][v] - c2 * Y[h][v];
            }
    memcpy(im, Y, sizeof Y);
    for (int c = 0; k < len; k++, c++)
        out[k] += im[c];
}

/* One mode of the sum: where it stops, and how it is evaluated (underdamped: add_damped_sine of
 * pickup * a'(t) = coef * Im(e^{(-alpha + i omega) t}), (pr, pi) its phasor at the tile's start,
 * carried from tile to tile by the factor over a tile; else string_mode_eval). */
typedef struct {
    const string_mode *m;
    long end;
    bool under;
    double pr, pi;
    damped_sine z;
} sum_term;

/* out[k] += the term's samples k0 <= k < k1 (k1 <= its end, k0 at a tile's start) */
static void add_term(const sum_term *a, double fs, double *out, long k0, long k1)
{
    if (a->under) {
        add_damped_sine(out + k0, k1 - k0, a->pr, a->pi, &a->z);
        return;
    }
    for (long k = k0; k < k1; k++) {
        double u, ud;
        string_mode_eval(a->m, k / fs, &u, &ud);
        out[k] += a->m->pickup * ud;
    }
}

/* The term's phasor moved on to the next tile's start. */
static void next_tile(sum_term *a)
{
    double pr = a->pr;
    a->pr = pr * a->z.tr - a->pi * a->z.ti;
    a->pi = pr * a->z.ti + a->pi * a->z.tr;
}

/* The term of mode j (its place in the list: its share of the tolerance), or false when the mode
 * adds nothing. */
static bool sum_term_of(const string_mode *m, int j, double fs, long n, double tol, sum_term *a)
{
    if (m->pickup == 0.0 || m->amplitude == 0.0)
        return false;
    double eps = tol * 3.0 / (M_PI * M_PI * (j + 1.0) * (j + 1.0));
    *a = (sum_term){.m = m, .end = mode_end(m, fs, n, eps)};
    double d = m->omega0sq - m->alpha * m->alpha;
    a->under = d > 0;
    if (a->under && a->end > 1) {   /* (a term to sample 1 is not summed: see below) */
        double om = sqrt(d), coef = -m->pickup * m->amplitude * m->omega0sq / om;
        a->pr = coef;
        a->pi = coef * 0.0;
        a->z = damped_sine_of(m->alpha, om, fs, a->end);
    }
    return true;
}

void string_pickup_signal(const string_mode *modes, int nmodes, double fs, long n, double tol,
                          double *out, string_sum_info *info)
{
    string_sum_info in = {nmodes, 0, 0};
    /* Tile by tile (a tile, 32 KB, stays in the first-level cache while every mode still sounding
     * adds to it; tiles of 1024 and 2048 samples, more calls and re-anchors, made the sum 9%
     * slower in a warm process; with the phasors carried, 2048 made the tiles after the first
     * 19% slower (0.174 to 0.214 ms, each call rebuilds its 48 phasors) and 8192 (64 KB) the
     * first tile 8% slower: the sum within 1%), the modes in their order within a tile: every
     * sample sums the same terms in the same order as mode by mode over the whole signal. A mode
     * re-anchors at each tile. The first tile goes mode by mode as the terms are made; only the
     * modes sounding past it (a few hundred of the thousands) are kept for the others. Each tile
     * is zeroed as its turn comes (in the cache, and no pass over the whole signal before the
     * sum). */
    const long tile = TILE;
    memset(out, 0, (size_t)(n < tile ? n : tile) * sizeof(double));
    sum_term *terms = NULL;
    size_t cap = 0;
    int nt = 0;
    for (int j = 0; j < nmodes; j++) {
        sum_term a;
        if (!sum_term_of(&modes[j], j, fs, n, tol, &a))
            continue;
        in.mode_samples += a.end;
        in.overdamped += !a.under;
        if (a.end <= 1)
            continue;       /* sample 0 only, which is 0 exactly (set below) */
        add_term(&a, fs, out, 0, a.end < tile ? a.end : tile);
        if (a.end > tile) {
            terms = xgrow(terms, &cap, (size_t)nt + 1, sizeof *terms);
            terms[nt] = a;
            next_tile(&terms[nt++]);
        }
    }
    for (long k0 = tile; k0 < n; k0 += tile) {
        memset(out + k0, 0, (size_t)(n - k0 < tile ? n - k0 : tile) * sizeof(double));
        int live = 0;
        for (int i = 0; i < nt; i++) {
            long k1 = k0 + tile < terms[i].end ? k0 + tile : terms[i].end;
            add_term(&terms[i], fs, out, k0, k1);
            if (terms[i].end > k1) {    /* still sounding after this tile, in order */
                terms[live] = terms[i];
                next_tile(&terms[live++]);
            }
        }
        nt = live;
    }
    free(terms);
    out[0] = 0.0;   /* s(0) = 0 exactly: every a_n'(0) = 0 */
    if (info)
        *info = in;
}

void string_field(const string_params *s, const string_mode *modes, int nmodes, const double *x,
                  size_t nx, const double *t, size_t nt, float *u)
{
    double *row = xcalloc(nx, sizeof(double)), *sn = xcalloc(nx * (size_t)nmodes, sizeof(double));
    for (int j = 0; j < nmodes; j++) {
        double k = (j + 1) * M_PI / s->L;
        for (size_t i = 0; i < nx; i++)
            sn[(size_t)j * nx + i] = sin(k * x[i]);
    }
    double floor_m = 1e-13 * s->height;
    for (size_t r = 0; r < nt; r++) {
        if (t[r] == 0.0) {
            for (size_t i = 0; i < nx; i++)
                row[i] = string_u0(s, x[i]);
        } else {
            memset(row, 0, nx * sizeof(double));
            for (int j = 0; j < nmodes; j++) {
                const string_mode *m = &modes[j];
                double d = m->omega0sq - m->alpha * m->alpha;
                /* |a(t)| <= |A| e^{-alpha t} omega0/omega when underdamped: skip modes below the
                 * floor */
                if (d > 0 && fabs(m->amplitude) * exp(-m->alpha * t[r]) * sqrt(m->omega0sq / d) <
                                 floor_m / nmodes)
                    continue;
                double a, ad;
                string_mode_eval(m, t[r], &a, &ad);
                const double *sj = sn + (size_t)j * nx;
                for (size_t i = 0; i < nx; i++)
                    row[i] += a * sj[i];
            }
        }
        for (size_t i = 0; i < nx; i++)
            u[r * nx + i] = (float)row[i];
    }
    free(row);
    free(sn);
}

int string_field_write(const char *path, const string_params *s, const string_mode *modes,
                       int nmodes, size_t nx, size_t nt, double t_stop, const h5_attr *attrs,
                       char *err, size_t errlen)
{
    double *x = xcalloc(nx, sizeof(double)), *t = xcalloc(nt, sizeof(double));
    for (size_t i = 0; i < nx; i++)
        x[i] = (double)i * s->L / (double)(nx - 1);
    for (size_t j = 0; j < nt; j++)
        t[j] = (double)j * t_stop / (double)(nt - 1);
    float *u = xcalloc(nx * nt, sizeof(float));
    string_field(s, modes, nmodes, x, nx, t, nt, u);
    int rc = h5_write_field(path, x, nx, t, nt, u, attrs, err, errlen) != 0 ? -1 : 0;
    free(x);
    free(t);
    free(u);
    return rc;
}

/* ---- one mode ---- */
static int mode_rhs(double t, const double *y, double *f, void *p)
{
    (void)t;
    const string_mode *m = &((const string_mode_problem *)p)->mode;
    f[0] = y[1];
    f[1] = -m->omega0sq * y[0] - 2.0 * m->alpha * y[1];
    return 0;
}

static int mode_jac(double t, const double *y, double *J, void *p)
{
    (void)t, (void)y;
    const string_mode *m = &((const string_mode_problem *)p)->mode;
    J[0] = 0.0, J[1] = 1.0, J[2] = -m->omega0sq, J[3] = -2.0 * m->alpha;
    return 0;
}

ivp string_mode_ivp(string_mode_problem *mp)
{
    ivp p = {.dim = 2, .rhs = mode_rhs, .jac = mode_jac, .params = mp, .linear = true};
    return p;
}

/* ---- the Galerkin system, interleaved ---- */
static int galerkin_rhs(double t, const double *y, double *f, void *p)
{
    (void)t;
    const string_galerkin *g = p;
    for (int j = 0; j < g->nmodes; j++) {
        const string_mode *m = &g->modes[j];
        f[2 * j] = y[2 * j + 1];
        f[2 * j + 1] = -m->omega0sq * y[2 * j] - 2.0 * m->alpha * y[2 * j + 1];
    }
    return 0;
}

ivp string_galerkin_ivp(string_galerkin *g)
{
    ivp p = {.dim = 2 * (size_t)g->nmodes, .rhs = galerkin_rhs, .params = g, .linear = true,
             .band = 1}; /* 2 x 2 blocks */
    return p;
}

void string_galerkin_initial(const string_galerkin *g, double *y)
{
    for (int j = 0; j < g->nmodes; j++) {
        y[2 * j] = g->modes[j].amplitude;
        y[2 * j + 1] = 0.0;
    }
}

double string_galerkin_pickup(const string_galerkin *g, const double *y)
{
    double s = 0.0;
    for (int j = 0; j < g->nmodes; j++)
        s += g->modes[j].pickup * y[2 * j + 1];
    return s;
}

/* ---- finite differences ---- */
size_t string_fd_dim(const string_fd *fd) { return 2 * (size_t)(fd->N - 1); }

long string_fd_bandwidth(const string_fd *fd) { return fd->stencil == STRING_FD3 ? 3 : 5; }

static inline size_t iu(const string_fd *fd, long i)
{
    return fd->interleaved ? 2 * (size_t)(i - 1) : (size_t)(i - 1);
}
static inline size_t iv(const string_fd *fd, long i)
{
    return fd->interleaved ? 2 * (size_t)(i - 1) + 1 : (size_t)(fd->N - 1) + (size_t)(i - 1);
}

int string_fd_init(string_fd *fd, const string_params *s, string_stencil st, long N,
                   bool interleaved, char *why, size_t whylen)
{
    memset(fd, 0, sizeof *fd);
    if (N < (st == STRING_FD3 ? 4 : 6)) {
        snprintf(why, whylen,
                 "N = %ld intervals is too few for the %d-point stencil; accepted: N >= %d", N,
                 (int)st, st == STRING_FD3 ? 4 : 6);
        return -1;
    }
    fd->s = *s;
    fd->stencil = st;
    fd->N = N;
    fd->dx = s->L / (double)N;
    fd->interleaved = interleaved;
    double q = s->xm / fd->dx;
    long iq = lround(q);
    if (fabs(q - (double)iq) <= 1e-9 * q) {
        fd->pick_first = iq;
        fd->pick_count = 1;
        fd->pick_weight[0] = 1.0;
    } else {
        /* cubic Lagrange through 4 grid points (the ends, where v = 0, may be among them) */
        long i0 = (long)floor(q) - 1;
        if (i0 < 0)
            i0 = 0;
        if (i0 + 3 > N)
            i0 = N - 3;
        fd->pick_first = i0;
        fd->pick_count = 4;
        for (int a = 0; a < 4; a++) {
            double wgt = 1.0;
            for (int b = 0; b < 4; b++)
                if (b != a)
                    wgt *= (q - (double)(i0 + b)) / (double)(a - b);
            fd->pick_weight[a] = wgt;
        }
    }
    return 0;
}

/* y component comp (0: u, 1: v) at grid index i in [-1, N + 1]: zero at the ends, odd beyond them
 */
static inline double at(const string_fd *fd, const double *y, long i, int comp)
{
    if (i == 0 || i == fd->N)
        return 0.0;
    if (i < 0)
        return -at(fd, y, -i, comp);
    if (i > fd->N)
        return -at(fd, y, 2 * fd->N - i, comp);
    return y[comp ? iv(fd, i) : iu(fd, i)];
}

static inline double d2(const string_fd *fd, const double *y, long i, int comp)
{
    double h2 = fd->dx * fd->dx;
    if (fd->stencil == STRING_FD3)
        return (at(fd, y, i - 1, comp) - 2.0 * at(fd, y, i, comp) + at(fd, y, i + 1, comp)) / h2;
    return (-at(fd, y, i - 2, comp) + 16.0 * at(fd, y, i - 1, comp) - 30.0 * at(fd, y, i, comp) +
            16.0 * at(fd, y, i + 1, comp) - at(fd, y, i + 2, comp)) / (12.0 * h2);
}

/* F at the interleaved points i0 <= i < i0 + 2 npairs, whose stencils lie inside the grid (x and
 * f at u_i0), two points a turn in the four lanes (u_i, v_i, u_i+1, v_i+1) of one vector: each
 * lane d2's operations in its order, so the same bits, and one vector division for two points
 * (F is most of a CVODE step on the string: its scalar loop was bench row 3's largest cost). */
AVX2_CLONES static void fd_rhs_inside(const string_fd *fd, const double *x, double *f,
                                      long npairs, double c2, double s2, double kap)
{
    double h2 = fd->dx * fd->dx, den = fd->stencil == STRING_FD3 ? h2 : 12.0 * h2;
    for (long k = 0; k < npairs; k++, x += 4, f += 4) {
        f64x4 m1 = F64X4_AT(x - 2), c = F64X4_AT(x), p1 = F64X4_AT(x + 2), d;
        if (fd->stencil == STRING_FD3)
            d = (m1 - 2.0 * c + p1) / den;
        else
            d = (-F64X4_AT(x - 4) + 16.0 * m1 - 30.0 * c + 16.0 * p1 - F64X4_AT(x + 4)) / den;
        f[0] = x[1], f[1] = c2 * d[0] - s2 * x[1] + kap * d[1];
        f[2] = x[3], f[3] = c2 * d[2] - s2 * x[3] + kap * d[3];
    }
}

/* F at grid point i, through at()'s edge rules */
static inline void fd_rhs_point(const string_fd *fd, const double *y, double *f, long i,
                                double c2, double s2, double kap)
{
    f[iu(fd, i)] = y[iv(fd, i)];
    f[iv(fd, i)] = c2 * d2(fd, y, i, 0) - s2 * y[iv(fd, i)] + kap * d2(fd, y, i, 1);
}

static int fd_rhs(double t, const double *y, double *f, void *p)
{
    (void)t;
    const string_fd *fd = p;
    double c2 = fd->s.c * fd->s.c, s2 = 2.0 * fd->s.sigma0, kap = fd->s.kappa;
    long half = fd->stencil == STRING_FD3 ? 1 : 2, a = fd->N, b = fd->N;
    if (fd->interleaved && fd->N - half > half + 2) {
        /* [a, b): pairs of points whose stencils lie inside the grid; the rest point by point */
        a = half + 1, b = a + (fd->N - half - a) / 2 * 2;
        fd_rhs_inside(fd, y + iu(fd, a), f + iu(fd, a), (b - a) / 2, c2, s2, kap);
    }
    for (long i = 1; i < a; i++)
        fd_rhs_point(fd, y, f, i, c2, s2, kap);
    for (long i = b; i < fd->N; i++)
        fd_rhs_point(fd, y, f, i, c2, s2, kap);
    return 0;
}

static int fd_jac(double t, const double *y, double *J, void *p)
{
    (void)t, (void)y;
    const string_fd *fd = p;
    size_t n = string_fd_dim(fd);
    memset(J, 0, n * n * sizeof(double));
    double c2 = fd->s.c * fd->s.c, kap = fd->s.kappa, h2 = fd->dx * fd->dx;
    static const double w3[] = {1.0, -2.0, 1.0},
                        w5[] = {-1.0 / 12, 16.0 / 12, -30.0 / 12, 16.0 / 12, -1.0 / 12};
    const double *wt = fd->stencil == STRING_FD3 ? w3 : w5;
    int half = fd->stencil == STRING_FD3 ? 1 : 2;
    for (long i = 1; i < fd->N; i++) {
        J[iu(fd, i) * n + iv(fd, i)] = 1.0;
        size_t row = iv(fd, i) * n;
        J[row + iv(fd, i)] -= 2.0 * fd->s.sigma0;
        for (int o = -half; o <= half; o++) {
            long jx = i + o;
            double sign = 1.0;
            if (jx == 0 || jx == fd->N)
                continue;
            if (jx < 0)
                jx = -jx, sign = -1.0;
            if (jx > fd->N)
                jx = 2 * fd->N - jx, sign = -1.0;
            double wgt = sign * wt[o + half] / h2;
            J[row + iu(fd, jx)] += c2 * wgt;
            J[row + iv(fd, jx)] += kap * wgt;
        }
    }
    return 0;
}

ivp string_fd_ivp(string_fd *fd)
{
    ivp p = {.dim = string_fd_dim(fd), .rhs = fd_rhs, .jac = fd_jac, .params = fd, .linear = true,
             .band = fd->interleaved ? (size_t)string_fd_bandwidth(fd) : 0};
    return p;
}

void string_fd_initial(const string_fd *fd, double *y)
{
    for (long i = 1; i < fd->N; i++) {
        y[iu(fd, i)] = string_u0(&fd->s, (double)i * fd->dx);
        y[iv(fd, i)] = 0.0;
    }
}

double string_fd_pickup(const string_fd *fd, const double *y)
{
    double s = 0.0;
    for (int a = 0; a < fd->pick_count; a++)
        s += fd->pick_weight[a] * at(fd, y, fd->pick_first + a, 1);
    return s;
}

void string_fd_state(const string_fd *fd, const string_mode *modes, int nm, double t, double *y)
{
    long N = fd->N;
    double *sn = xcalloc(2 * (size_t)N, sizeof(double));
    for (long q = 0; q < 2 * N; q++)
        sn[q] =
            (q % N == 0) ? 0.0 : sin(M_PI * (double)q / (double)N); /* sin(pi q / N), period 2N */
    for (long i = 1; i < N; i++)
        y[iu(fd, i)] = y[iv(fd, i)] = 0.0;
    for (long n = 1; n <= nm && n < N; n++) {
        double a, ad;
        string_mode_eval(&modes[n - 1], t, &a, &ad);
        for (long i = 1; i < N; i++) {
            y[iu(fd, i)] += a * sn[(n * i) % (2 * N)];
            y[iv(fd, i)] += ad * sn[(n * i) % (2 * N)];
        }
    }
    free(sn);
}

int string_fd_modes(const string_fd *fd, string_mode **out)
{
    long N = fd->N;
    int nm = (int)(N - 1);
    string_mode *m = xcalloc((size_t)nm, sizeof *m);
    double *u = xcalloc((size_t)N + 1, sizeof(double)),
           *sn = xcalloc(2 * (size_t)N, sizeof(double));
    for (long i = 1; i < N; i++)
        u[i] = string_u0(&fd->s, (double)i * fd->dx);
    for (long q = 0; q < 2 * N; q++)
        sn[q] =
            (q % N == 0) ? 0.0 : sin(M_PI * (double)q / (double)N); /* sin(pi q / N), period 2N */
    double h2 = fd->dx * fd->dx, c2 = fd->s.c * fd->s.c;
    for (long n = 1; n < N; n++) {
        double b = 0.0;
        for (long i = 1; i < N; i++)
            b += u[i] * sn[(n * i) % (2 * N)];
        double th = M_PI * (double)n / (double)N, K2;
        if (fd->stencil == STRING_FD3)
            K2 = 4.0 / h2 * sin(0.5 * th) * sin(0.5 * th);
        else
            K2 = (30.0 - 32.0 * cos(th) + 2.0 * cos(2.0 * th)) / (12.0 * h2);
        double p = 0.0;
        for (int a = 0; a < fd->pick_count; a++)
            p += fd->pick_weight[a] * sn[(n * (fd->pick_first + a)) % (2 * N)];
        string_mode mm = {2.0 / (double)N * b, fd->s.sigma0 + 0.5 * fd->s.kappa * K2, c2 * K2, p};
        m[n - 1] = mm;
    }
    free(u);
    free(sn);
    *out = m;
    return nm;
}
