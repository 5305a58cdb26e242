/* schelleng_stroke.h: one cell of a Schelleng diagram. The article's stroke (van Walstijn
 * et al., Acta Acustica 2026, section 3.2): the bow starts from rest, accelerates at a
 * constant rate to v_hold, holds it, then decelerates back to rest; constant force f_b at
 * x_b = beta L. The steady-velocity part (from settle after the start of the hold to its
 * end) is classified by regime.h.
 *
 * The simulation stops at the end of the hold: the deceleration comes after the analysed
 * window and cannot change it (the scheme is causal), so simulating it would only cost time.
 * This is a thin adapter over bow.h's bow_stroke(). */
#ifndef IVPLAB_SCHELLENG_STROKE_H
#define IVPLAB_SCHELLENG_STROKE_H
#include "bow/bow.h"
#include "analysis/regime.h"
#include <stddef.h>

typedef struct schelleng_stroke {
    double accel;       /* bow acceleration from rest, m/s^2 */
    double v_hold;      /* bow velocity held, m/s */
    double t_hold;      /* length of the hold, s */
    double decel;       /* deceleration after the hold, m/s^2 (part of the gesture, not simulated) */
    double settle;      /* analysis starts this long after the hold begins, s */
} schelleng_stroke;

/* The signals of one stroke, at the simulation rate. */
typedef struct schelleng_signal {
    double *bridge;     /* transverse bridge force, N */
    double *v_rel;      /* mean relative velocity at the bow (bow minus string), m/s */
    size_t n;           /* samples from t = 0 */
    double fs;          /* sample rate, Hz */
    size_t k0;          /* first sample of the analysis window */
} schelleng_signal;
void schelleng_signal_free(schelleng_signal *s);   /* leaves it empty; safe twice */

/* The gesture of the stroke at (beta, f_b) for the instrument (x_b = beta L). */
gesture schelleng_gesture(const bow_instrument *in, const schelleng_stroke *s, double beta, double f_b);
/* Start and end of the analysis window, s. */
void schelleng_window(const schelleng_stroke *s, double *t0, double *t1);

/* Simulate the stroke (fixed-step scheme of bow.h at in->dt; if that fails, once more at
 * dt / 2) and classify its window. sig (may be NULL) receives the signals, *dt_used (may be
 * NULL) the step that succeeded. 0 on success; -1 with both solver messages in err (the
 * method, the time and the reason). */
int schelleng_cell(const bow_instrument *in, const schelleng_stroke *s, double beta, double f_b,
                   const regime_opts *ro, regime_result *res, schelleng_signal *sig, double *dt_used, char *err,
                   size_t errlen);

/* The same, with the analysis window kept in the file keep (may be NULL: then it is
 * schelleng_cell): when keep holds the window of this very stroke (the same instrument, stroke,
 * beta and f_b, compared bit for bit) it is classified from there without simulating;
 * otherwise the stroke is simulated and its window written to keep (atomically). A sweep run
 * again with the same --keep folder and another --results file is thus reclassified in
 * seconds. 0 or -1 as schelleng_cell (also -1 when keep cannot be read or written). */
int schelleng_cell_kept(const char *keep, const bow_instrument *in, const schelleng_stroke *s, double beta,
                        double f_b, const regime_opts *ro, regime_result *res, double *dt_used, char *err,
                        size_t errlen);

/* STAND-IN, NOT A SIMULATION: for testing the sweep machinery only. Picks a regime from
 * textbook-shaped limits (f_max ~ 1/beta, f_min ~ 1/beta^2, S-motion for 0.15 < beta < 0.2)
 * and classifies a synthetic signal of that regime (regime_synthetic), in microseconds. */
int schelleng_standin_cell(const bow_instrument *in, const schelleng_stroke *s, double beta, double f_b,
                           const regime_opts *ro, regime_result *res);

#endif
