/* regime.h: what kind of oscillation a bowed string sustains. The input is the steady part
 * of a stroke: the relative velocity at the bow v (bow minus string, so v > 0 while the
 * string slips back against a bow moving forward) and the transverse bridge force F, both
 * sampled at fs, with the nominal period T0 = 1/f0 of the string and the bow speed v_b. The
 * output is one of seven regimes of van Walstijn et al. (Acta Acustica 2026, section 3.2,
 * Figures 10-11) and the numbers it was decided from, plus the four measures of their
 * Figure 12 (mean, RMS about the mean, fundamental frequency, power-weighted centroid).
 *
 * What is measured (all on the window given):
 *   period T      the lag of the largest normalised autocorrelation of F - mean(F) in
 *                 [0.7 T0, 1.5 T0], refined by a parabola; f0 = 1/T.
 *   regularity    that autocorrelation's value at T: 1 for a signal that repeats exactly from
 *                 period to period, near 0 for noise.
 *   slips         a slip starts when v rises above slip_on * v_b (default 1: the string moves
 *                 backwards) and ends when v falls below slip_off * v_b (hysteresis); it counts
 *                 if its peak v reaches slip_peak of the largest v of the window (a precursor
 *                 blip just over the threshold before the main slip is not a slip). Counted
 *                 per whole period T, the period boundaries placed in the largest gap between
 *                 the slips' phases: slips_per_period is the mean count, slip_spread the largest
 *                 minus the smallest (0 when every period slips alike).
 *   flybacks      the returns of the bridge-force sawtooth. In Helmholtz motion F rises
 *                 while the string sticks and returns while it slips, over beta T0. The
 *                 swings of F are taken between the extremes of a zig-zag that ignores
 *                 reversals smaller than small_jump of the peak-to-peak (so neither the
 *                 sticking ramp nor a neighbouring return changes a return's size); the
 *                 returns are the swings in the sawtooth's fast direction (that of the largest
 *                 swing that is over sooner; jumps_per_period counts them). A return is a
 *                 flyback when it is at least big_jump of the largest and flyback_abs of the
 *                 Helmholtz amplitude, provided the largest return is sharp: over within
 *                 sharp_time * T0 (a sinusoid takes T0 / 2: a rounded corner). Counted per whole
 *                 period as for slips; secondary_ratio is the median over the periods of the
 *                 second-largest return over the largest.
 *   amplitude     peak-to-peak of F, N, and its ratio to the ideal Helmholtz amplitude
 *                 helmholtz_pp (2 T v_b / (beta c) for tension T, wave speed c, beta = x_b/L;
 *                 see regime_helmholtz_pp) when the caller gives it.
 *
 * The regimes, in the order they are tested (each with its operational definition):
 *   unclassified     none of the below: no slip in the window (sticking throughout, or
 *                    slipping throughout), a tiny signal (amplitude below tiny * helmholtz_pp,
 *                    or below tiny_abs N when helmholtz_pp is not given), or a periodic signal
 *                    with no sharp flyback (strongly rounded corners), or an irregular
 *                    signal of small amplitude (continuous, irregular slipping). Small alone
 *                    is no reason: a regular small pattern is classified by its slips.
 *   raucous motion   slipping, large (amplitude at least raucous_amp * helmholtz_pp), and
 *                    aperiodic: regularity below min_regularity, or a period outside
 *                    T0 (1 +- period_tol). (A regular bridge force whose slip count changes
 *                    from period to period, e.g. a decaying transient, is unclassified.)
 *   The periodic regimes: regularity >= min_regularity, |T/T0 - 1| <= period_tol, the
 *   same number of slips k in every period (slip_spread <= 1 and slips_per_period within
 *   0.15 of the integer k >= 1); for k = 1 also a flyback (else unclassified, "rounded
 *   corners"):
 *   Helmholtz motion k = 1 and one flyback per period.
 *   S-motion         k = 1 but two or more flybacks per period: one slip at the bow while
 *                    further corners of comparable size reach the bridge.
 *   double slips     k = 2 and at most two flybacks per period.
 *   multiple slips   k >= 3 and at most one flyback per period: the extra slips leave only
 *                    small steps in the bridge force.
 *   multiple flyback k >= 3 with two or more flybacks per period, or k = 2 with three or
 *                    more: several of the slips return the bridge force by a large step.
 *
 * The article names the regimes and says its algorithm is that of its reference [49] after
 * Galluzzo, with the "unclassified" class for small signals that resemble none of the others,
 * but gives no numbers. The definitions follow the regimes' physical descriptions (Helmholtz;
 * Raman's higher types; Schelleng; Lawergren's S-motion); each threshold of regime_defaults()
 * and its source or reason is in the README's regime table. Every unclassified result names
 * its reason (regime_reason). */
#ifndef IVPLAB_REGIME_H
#define IVPLAB_REGIME_H
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    REGIME_HELMHOLTZ,
    REGIME_DOUBLE_SLIP,
    REGIME_RAUCOUS,
    REGIME_MULTIPLE_SLIP,
    REGIME_S_MOTION,
    REGIME_MULTIPLE_FLYBACK,
    REGIME_UNCLASSIFIED,
    REGIME_COUNT
} regime_kind;

/* Why a cell is unclassified (REGIME_REASON_NONE for the six regimes): the rule that decided,
 * as a TSV name (regime_reason_name) and a legend (regime_reason_label). */
typedef enum {
    REGIME_REASON_NONE,          /* classified */
    REGIME_REASON_STICKING,      /* no slip in the window: the string sticks to the bow throughout */
    REGIME_REASON_SLIPPING,      /* no slip onset in the window: it slips throughout */
    REGIME_REASON_TINY,          /* the bridge force is tiny against the Helmholtz amplitude */
    REGIME_REASON_IRREGULAR,     /* slipping, not periodic, and too small for raucous motion */
    REGIME_REASON_OTHER_PERIOD,  /* regular, but at a period other than the string's */
    REGIME_REASON_SLIPS_VARY,    /* regular bridge force, but the slip count changes from period to period */
    REGIME_REASON_ROUNDED,       /* one slip a period but no flyback: strongly rounded corners */
    REGIME_REASON_INPUT,         /* the input cannot be analysed */
    REGIME_REASON_COUNT
} regime_reason;

/* The steady part of one stroke. */
typedef struct regime_input {
    const double *v_rel;    /* relative velocity at the bow, bow minus string, m/s (n samples) */
    const double *bridge;   /* transverse bridge force, N (n samples) */
    size_t n;               /* samples */
    double fs;              /* sample rate, Hz */
    double period_nominal;  /* nominal period T0 of the string, s */
    double v_bow;           /* bow speed during the window, m/s (> 0) */
    double helmholtz_pp;    /* ideal Helmholtz peak-to-peak bridge force, N (0: unknown) */
    double beta;            /* bow-bridge distance over string length x_b/L (0: unknown, 0.1 used) */
} regime_input;

/* The thresholds of the definitions above (regime_defaults(); sources in the README). */
typedef struct regime_opts {
    double slip_on;         /* slip starts above slip_on * v_b, 1 */
    double slip_off;        /* slip ends below slip_off * v_b, 1 */
    double slip_peak;       /* a slip peaks at least at this * the window's largest v, 1 */
    double min_regularity;  /* periodic: autocorrelation at the period at least this, 1 */
    double period_tol;      /* periodic: |T/T0 - 1| at most this, 1 */
    double small_jump;      /* the hysteresis of the zig-zag: swings of F smaller than this * pp are ignored, 1 */
    double big_jump;        /* a flyback: a return of at least this * the largest return, 1 */
    double sharp_time;      /* flybacks need the largest return to be over within this * T0, 1 */
    double flyback_abs;     /* and by at least this * helmholtz_pp (pp when not given), 1 */
    double tiny;            /* unclassified below this * helmholtz_pp, 1 */
    double tiny_abs;        /* the same when helmholtz_pp is 0, N */
    double raucous_amp;     /* raucous needs at least this * helmholtz_pp (or 10 tiny_abs), 1 */
    bool skip_centroid;     /* leave centroid_hz NAN: its FFT of the window's length is a fifth
                             * of a bow stroke's CPU (bin/bow never shows it) */
} regime_opts;

typedef struct regime_result {
    regime_kind kind;
    double period_s;            /* measured period T, s (NAN when not found) */
    double f0_hz;               /* 1/T, Hz */
    double period_ratio;        /* T / T0 */
    double regularity;          /* normalised autocorrelation at T, 1 */
    double slips_per_period;    /* slip onsets per measured period (per T0 if T not found) */
    long slips;                 /* slip onsets in the window */
    long slip_spread;           /* max - min slips over the whole periods of the window */
    double flybacks_per_period; /* large sharp returns of F per period */
    double jumps_per_period;    /* returns of F (swings in the fast direction) per period */
    double slip_fraction;       /* fraction of the window spent slipping, 1 */
    double amplitude_n;         /* peak-to-peak bridge force, N */
    double amplitude_ratio;     /* amplitude over helmholtz_pp (NAN when that is 0) */
    double mean_n;              /* mean bridge force, N */
    double rms_n;               /* RMS of the bridge force about its mean, N */
    double centroid_hz;         /* power-weighted spectral centroid of F - mean, Hz
                                   (NAN: skip_centroid) */
    double secondary_ratio;     /* the second-largest return in a period over the largest (median over periods), 1 */
    regime_reason reason;       /* why it is unclassified (REGIME_REASON_NONE otherwise) */
    char why[160];              /* the rule that decided, in words */
} regime_result;

regime_opts regime_defaults(void);
/* Classify. 0 on success; -1 when the input cannot be analysed (fewer than two nominal
 * periods, fs or T0 or v_b not positive): then kind is REGIME_UNCLASSIFIED and why says so. */
int regime_classify(const regime_input *in, const regime_opts *o, regime_result *r);

/* "helmholtz", "double_slip", ...: the TSV names (no spaces). NULL for an invalid kind. */
const char *regime_name(regime_kind k);
/* "Helmholtz motion", "double slips", ...: legends. */
const char *regime_label(regime_kind k);
/* The kind named name (a regime_name), or -1. */
int regime_from_name(const char *name);

/* "-", "sticking", "irregular", ...: the TSV names of the reasons; NULL for an invalid one. */
const char *regime_reason_name(regime_reason r);
/* "no slip (sticking)", ...: legends. */
const char *regime_reason_label(regime_reason r);
/* The reason named name (a regime_reason_name), or -1. */
int regime_reason_from_name(const char *name);

/* The slips of a whole stroke, where the bow speed v_bow[k] changes (a ramp from rest): a
 * slip starts when v_rel rises above slip_on * v_bow (with v_bow > 0) and the count is re-armed
 * when v_rel falls below slip_off * v_bow (o's thresholds; no slip_peak filter, so this counts
 * every onset, the first included). Armed at k = 0. Returns the onsets in k < n; *first gets
 * the index of the first (-1 when none). */
long regime_count_slips(const regime_opts *o, const double *v_rel, const double *v_bow, size_t n, long *first);

/* Schelleng ripples per period of a Helmholtz bridge force y (n samples at fs, fundamental
 * f0), counted as the eye counts them on bow-zoom: the stick part of each period (from just after
 * one steepest fall to just before the next) less its straight line, autocorrelated; the ripple
 * period is the first autocorrelation peak (lags P/80 to P/2.5, P = fs/f0) within 0.8 of the
 * highest, so sub-wiggles at half the ripple period do not double the count. The count is P over
 * that lag (parabolic peak), about L/x_b. 0 when none (f0 <= 0, P < 40 samples, fewer than 2.5
 * periods, or no peak). */
double regime_ripples_per_period(const double *y, size_t n, double fs, double f0);

/* The ideal Helmholtz peak-to-peak bridge force 2 T v_b / (beta c), N: the bridge slope of
 * the Helmholtz corner swings by twice the corner's slope jump v_b / (beta c). */
double regime_helmholtz_pp(double tension, double v_bow, double beta, double wave_speed);

/* The boundaries of a Schelleng diagram that the article draws (Figure 10: the Helmholtz
 * region's maximum and minimum bowing force, and the double/multiple-slip boundary), read
 * off a grid of classified cells column by column, and a straight line fitted to them in
 * log-log coordinates, log10 f = intercept + slope log10(x_b/L). Schelleng's theory gives
 * slope -1 for the maximum and -2 for the minimum force. In column i the edge is the
 * geometric mean of the two cells it lies between:
 *   HELMHOLTZ_MAX    above the highest Helmholtz cell (none when that is the top row);
 *   HELMHOLTZ_MIN    below the lowest Helmholtz cell (none when that is the bottom row);
 *   DOUBLE_MULTIPLE  above the highest cell of three or more slips (multiple slips or
 *                    multiple flyback) that lies below a double-slip cell, both below the
 *                    lowest Helmholtz cell. */
typedef enum { REGIME_EDGE_HELMHOLTZ_MAX, REGIME_EDGE_HELMHOLTZ_MIN, REGIME_EDGE_DOUBLE_MULTIPLE, REGIME_EDGE_COUNT } regime_edge;

/* A boundary is fitted only from this many columns with an edge: two degrees of freedom left
 * for its error (three points on a coarse grid can lie on a line and print an error of 0). */
enum { REGIME_FIT_MIN_COLUMNS = 4 };

typedef struct regime_fit {
    size_t points;      /* columns with an edge */
    double slope;       /* d log f / d log x (NAN with fewer than REGIME_FIT_MIN_COLUMNS points) */
    double slope_se;    /* its standard error: the fit's residuals and the grid's resolution (an
                         * edge lies anywhere in its cell, log10 step^2 / 12 a point), NAN as slope */
    double intercept;   /* log10 f at x_b/L = 1 (NAN as slope) */
} regime_fit;

/* kind[j * nx + i] is the regime (a regime_kind, or -1 for a failed cell) at x[i], f[j]
 * (both increasing). edge_f[i] (nx of them) gets column i's edge force, N (NAN when none). */
void regime_edges(const int *kind, const double *x, size_t nx, const double *f, size_t nf, regime_edge e,
                  double *edge_f, regime_fit *fit);
/* "helmholtz_max", "helmholtz_min", "double_multiple" */
const char *regime_edge_name(regime_edge e);

/* Synthetic, idealised signals of each regime (for tests and for Figure 11 where no simulated
 * example exists): n samples at fs of a string with period T0, bowed at v_b with bow-bridge
 * ratio beta and Helmholtz amplitude pp (N). Kinematic sketches, not simulations: straight
 * sawtooth segments, rectangular slips. seed varies the raucous and unclassified ones. */
void regime_synthetic(regime_kind k, double *v_rel, double *bridge, size_t n, double fs, double period,
                      double v_bow, double beta, double pp, unsigned seed);

#endif
