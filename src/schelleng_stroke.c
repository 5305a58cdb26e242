/* schelleng_stroke.c: one cell of a Schelleng diagram (see schelleng_stroke.h). */
#include "schelleng_stroke.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void schelleng_signal_free(schelleng_signal *s)
{
    free(s->bridge);
    free(s->v_rel);
    memset(s, 0, sizeof *s);
}

gesture schelleng_gesture(const bow_instrument *in, const schelleng_stroke *s, double beta, double f_b)
{
    gesture g = gesture_stroke(s->accel, s->v_hold, s->t_hold, s->decel, f_b, beta * in->L);
    g.duration = s->v_hold / s->accel + s->t_hold;   /* stop at the end of the hold */
    return g;
}

void schelleng_window(const schelleng_stroke *s, double *t0, double *t1)
{
    double t_up = s->v_hold / s->accel;
    *t0 = t_up + s->settle;
    *t1 = t_up + s->t_hold;
}

static void classify(const bow_instrument *in, const schelleng_stroke *s, double beta, const double *v,
                     const double *F, size_t n, double fs, const regime_opts *ro, regime_result *res)
{
    regime_input ri = {v, F, n, fs, 1.0 / in->f0, s->v_hold,
                       regime_helmholtz_pp(in->T, s->v_hold, beta, 2.0 * in->L * in->f0), beta};
    regime_classify(&ri, ro, res);
}

int schelleng_cell(const bow_instrument *in, const schelleng_stroke *s, double beta, double f_b,
                   const regime_opts *ro, regime_result *res, schelleng_signal *sig, double *dt_used, char *err,
                   size_t errlen)
{
    gesture g = schelleng_gesture(in, s, beta, f_b);
    double *F = NULL, *v = NULL;
    size_t n = 0;
    bow_instrument fine = *in;
    if (bow_stroke(in, &g, &F, &v, &n, err, errlen) != 0) {
        /* Once more at half the step: the contact Newton solve converges from closer. */
        char first[400];
        snprintf(first, sizeof first, "%s", err);
        fine.dt = 0.5 * in->dt;
        if (bow_stroke(&fine, &g, &F, &v, &n, err, errlen) != 0) {
            char second[400];
            snprintf(second, sizeof second, "%s", err);
            snprintf(err, errlen, "at dt = %g s: %s; at dt = %g s: %s", in->dt, first, fine.dt, second);
            return -1;
        }
    }
    if (dt_used)
        *dt_used = fine.dt;
    double fs = 1.0 / fine.dt, t0, t1;
    schelleng_window(s, &t0, &t1);
    size_t k0 = (size_t)lround(t0 * fs);
    if (k0 >= n)
        k0 = n;
    classify(&fine, s, beta, v + k0, F + k0, n - k0, fs, ro, res);
    if (sig) {
        sig->bridge = F;
        sig->v_rel = v;
        sig->n = n;
        sig->fs = fs;
        sig->k0 = k0;
    } else {
        free(F);
        free(v);
    }
    return 0;
}

int schelleng_standin_cell(const bow_instrument *in, const schelleng_stroke *s, double beta, double f_b,
                           const regime_opts *ro, regime_result *res)
{
    /* Made-up limits of the shape Schelleng drew (not the model's): f_max = 0.35 / beta N,
     * f_min = 0.004 / beta^2 N. */
    double f_max = 0.35 / beta, f_min = 0.004 / (beta * beta);
    regime_kind k;
    if (f_b > f_max)
        k = REGIME_RAUCOUS;
    else if (beta > 0.15 && beta < 0.2 && f_b > 0.5 * f_max)
        k = REGIME_S_MOTION;
    else if (f_b >= f_min)
        k = REGIME_HELMHOLTZ;
    else if (f_b >= 0.5 * f_min)
        k = REGIME_DOUBLE_SLIP;
    else if (f_b >= 0.25 * f_min)
        k = REGIME_MULTIPLE_SLIP;
    else
        k = REGIME_UNCLASSIFIED;
    double fs = 48000.0, T0 = 1.0 / in->f0;
    size_t n = (size_t)lround(12 * T0 * fs);
    double pp = regime_helmholtz_pp(in->T, s->v_hold, beta, 2.0 * in->L * in->f0);
    double *F = xcalloc(n, sizeof *F), *v = xcalloc(n, sizeof *v);
    regime_synthetic(k, v, F, n, fs, T0, s->v_hold, beta, pp, (unsigned)lround(1e6 * beta * f_b));
    classify(in, s, beta, v, F, n, fs, ro, res);
    free(F);
    free(v);
    return 0;
}
