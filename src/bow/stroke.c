/* stroke.c: what one bow stroke shows (see stroke.h). */
#include "bow/stroke.h"
#include "analysis/measure.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *stroke_loop_direction(double area) { return area < 0 ? "clockwise" : "anticlockwise"; }

/* The regime of samples k0.. of the trace, at bow velocity v_win. */
static void window_regime(const stroke_trace *tr, size_t k0, const bow_instrument *in, const gesture *g,
                          double v_win, regime_result *rr)
{
    if (!(v_win > 0)) {
        memset(rr, 0, sizeof *rr);
        rr->kind = REGIME_UNCLASSIFIED;
        rr->reason = REGIME_REASON_INPUT;
        snprintf(rr->why, sizeof rr->why, "the bow does not move forward in the window (%g m/s)", v_win);
        return;
    }
    double beta = g->position / in->L;
    regime_input ri = {.v_rel = tr->v_rel + k0, .bridge = tr->bridge + k0, .n = tr->n - k0,
                       .fs = tr->fs, .period_nominal = 1.0 / in->f0, .v_bow = v_win,
                       .helmholtz_pp = regime_helmholtz_pp(in->T, v_win, beta,
                                                           2.0 * in->L * in->f0),
                       .beta = beta};
    regime_opts ro = regime_defaults();
    ro.skip_centroid = true;   /* the stroke's summary has no use for it */
    regime_classify(&ri, &ro, rr);
}

void stroke_summarise(const stroke_trace *tr, const bow_instrument *in, const gesture *g, stroke_summary *s)
{
    memset(s, 0, sizeof *s);
    double fs = tr->fs;
    gesture_steady_window(g, &s->w0, &s->w1);
    size_t k0 = (size_t)lround(s->w0 * fs), j0 = (size_t)lround(s->w0 * tr->sound_rate);
    k0 = k0 < tr->n ? k0 : tr->n;
    j0 = j0 < tr->n_sound ? j0 : tr->n_sound;
    const double *snd = tr->sound + j0;
    size_t nsnd = tr->n_sound - j0;
    s->f0 = measure_fundamental(snd, nsnd, tr->sound_rate, 40.0, 1000.0);
    regime_opts ro = regime_defaults();
    long first;
    regime_count_slips(&ro, tr->v_rel, tr->v_b, tr->n, &first);
    s->first_slip = first >= 0 ? tr->t[first] : -1;
    s->slips = regime_count_slips(&ro, tr->v_rel + k0, tr->v_b + k0, tr->n - k0, &first);
    s->slips_per_period = s->f0 > 0 ? s->slips / ((tr->n - k0) / fs * s->f0) : 0.0;
    s->ripples = regime_ripples_per_period(snd, nsnd, tr->sound_rate, s->f0);
    for (size_t k = 0; k < tr->n; k++)
        s->peak_tau = fmax(s->peak_tau, tr->tau_max[k]);
    s->v_window = gesture_value(&g->velocity, 0.5 * (s->w0 + g->duration));
    window_regime(tr, k0, in, g, s->v_window, &s->regime);
    size_t nz = s->f0 > 0 ? (size_t)lround(3.0 * fs / s->f0) : 0, kz = tr->n > nz + 1 ? tr->n - nz - 1 : 0;
    s->loop_f = measure_loop_area(tr->v_rel + kz, tr->friction + kz, tr->n - kz);
    s->loop_tau = measure_loop_area(tr->v_rel + kz, tr->tau_mean + kz, tr->n - kz);
}
