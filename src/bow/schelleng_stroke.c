/* schelleng_stroke.c: one cell of a Schelleng diagram (see schelleng_stroke.h). */
#include "bow/schelleng_stroke.h"
#include "io/atomic.h"
#include "base/util.h"
#include <errno.h>
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
    regime_input ri = {.v_rel = v, .bridge = F, .n = n, .fs = fs, .period_nominal = 1.0 / in->f0,
                       .v_bow = s->v_hold,
                       .helmholtz_pp = regime_helmholtz_pp(in->T, s->v_hold, beta,
                                                           2.0 * in->L * in->f0),
                       .beta = beta};
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

/* A kept window: this header, then v_rel[n] and bridge[n] as native doubles. */
typedef struct kept_head {
    char magic[8];              /* "IVPKEEP1" */
    bow_instrument in;          /* the instrument as given (in.dt the step asked for) */
    schelleng_stroke stroke;
    double beta, f_b;
    double fs;                  /* sample rate of the window (1 / the step that succeeded), Hz */
    double n;                   /* samples */
} kept_head;

static bool kept_matches(const kept_head *h, const bow_instrument *in, const schelleng_stroke *s, double beta,
                         double f_b)
{
    return memcmp(h->magic, "IVPKEEP1", 8) == 0 && memcmp(&h->in, in, sizeof *in) == 0 &&
           memcmp(&h->stroke, s, sizeof *s) == 0 && h->beta == beta && h->f_b == f_b && h->fs > 0 && h->n >= 0;
}

int schelleng_cell_kept(const char *keep, const bow_instrument *in, const schelleng_stroke *s, double beta,
                        double f_b, const regime_opts *ro, regime_result *res, double *dt_used, char *err,
                        size_t errlen)
{
    if (!keep)
        return schelleng_cell(in, s, beta, f_b, ro, res, NULL, dt_used, err, errlen);
    kept_head h;
    FILE *f = fopen(keep, "rb");
    if (f) {
        bool ok = fread(&h, sizeof h, 1, f) == 1 && kept_matches(&h, in, s, beta, f_b);
        if (ok) {
            size_t n = (size_t)h.n;
            double *v = xcalloc(n + 1, sizeof *v), *F = xcalloc(n + 1, sizeof *F);
            if (fread(v, sizeof *v, n, f) == n && fread(F, sizeof *F, n, f) == n) {
                fclose(f);
                bow_instrument used = *in;
                used.dt = 1.0 / h.fs;
                classify(&used, s, beta, v, F, n, h.fs, ro, res);
                if (dt_used)
                    *dt_used = used.dt;
                free(v);
                free(F);
                return 0;
            }
            free(v);
            free(F);
        }
        fclose(f);
    } else if (errno != ENOENT) {
        snprintf(err, errlen, "cannot read %s: %s", keep, strerror(errno));
        return -1;
    }
    schelleng_signal sig;
    double dt = in->dt;
    if (schelleng_cell(in, s, beta, f_b, ro, res, &sig, &dt, err, errlen) != 0)
        return -1;
    if (dt_used)
        *dt_used = dt;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "IVPKEEP1", 8);
    h.in = *in, h.stroke = *s, h.beta = beta, h.f_b = f_b, h.fs = sig.fs, h.n = (double)(sig.n - sig.k0);
    atomic_file af;
    FILE *o = atomic_open(&af, keep);
    int rc = 0;
    if (!o || fwrite(&h, sizeof h, 1, o) != 1 || fwrite(sig.v_rel + sig.k0, sizeof(double), sig.n - sig.k0, o) != sig.n - sig.k0 ||
        fwrite(sig.bridge + sig.k0, sizeof(double), sig.n - sig.k0, o) != sig.n - sig.k0 || atomic_commit(&af) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", keep, strerror(errno));
        if (o)
            atomic_abort(&af);
        rc = -1;
    }
    schelleng_signal_free(&sig);
    return rc;
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
