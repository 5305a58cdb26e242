/* stroke.h: what one stroke of the bowed string (bow/bow.h) shows, read off its trace by
 * the measures that own each idea: the analysis window of the gesture (the steady part,
 * gesture_steady_window), the fundamental of the sound there (measure_fundamental, 40 to
 * 1000 Hz), the slips of the whole stroke and of the window (regime_count_slips) per period
 * 1/f0, the Schelleng ripples (regime_ripples_per_period), the peak contact temperature, the
 * regime of the window (regime_classify, with the string's nominal period and the Helmholtz
 * amplitude of the bow speed there), and the direction of the friction and temperature loops
 * against the relative velocity over the last three periods (measure_loop_area). */
#ifndef IVPLAB_STROKE_H
#define IVPLAB_STROKE_H
#include "analysis/regime.h"
#include "bow/bow.h"
#include "bow/gesture.h"
#include <stdbool.h>
#include <stddef.h>

/* One run, sampled at fs from t = 0 (n samples of each), and its sound. */
typedef struct stroke_trace {
    const double *t;        /* time of each sample, s */
    const double *v_b;      /* bow velocity, m/s */
    const double *v_rel;    /* mean relative velocity at the bow (bow minus string), m/s */
    const double *bridge;   /* transverse bridge force, N */
    const double *friction; /* friction force over bowing force f/f_b, 1 */
    const double *tau_mean; /* mean contact temperature rise, K */
    const double *tau_max;  /* largest contact temperature rise over the points, K */
    size_t n;               /* samples */
    double fs;              /* sample rate, Hz */
    const double *sound;    /* the bridge force band-limited to sound_rate (analysis/resample.h),
                               N */
    size_t n_sound;         /* its samples */
    double sound_rate;      /* its rate, Hz */
} stroke_trace;

typedef struct stroke_summary {
    double w0, w1;          /* the analysis window, s */
    double f0;              /* fundamental of the sound over the window, Hz (0: none found) */
    double first_slip;      /* the stroke's first slip, s (-1: none) */
    long slips;             /* slips in the window */
    double slips_per_period;/* slips over the window's length times f0, 1 (0 when f0 is) */
    double ripples;         /* Schelleng ripples per period of the sound over the window, 1 */
    double peak_tau;        /* largest contact temperature rise of the stroke, K */
    double v_window;        /* bow velocity at the middle of the window, m/s */
    regime_result regime;   /* the window's regime (unclassified with a reason when v_window <= 0) */
    double loop_f;          /* signed area of the f/f_b - v loop, last three periods (> 0: anticlockwise), m/s */
    double loop_tau;        /* the same for tau - v, K m/s */
} stroke_summary;

/* Summarise the stroke g of instrument in from its trace. */
void stroke_summarise(const stroke_trace *tr, const bow_instrument *in, const gesture *g, stroke_summary *s);
/* "clockwise" for a negative area, else "anticlockwise". */
const char *stroke_loop_direction(double area);

#endif
