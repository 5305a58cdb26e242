#include "string/string_sweep.h"
#include "io/atomic.h"
#include "analysis/measure.h"
#include "method/set.h"
#include "base/util.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool string_sweep_wants(const char *filter, const char *name)
{
    return strcmp(filter, "all") == 0 || strcmp(filter, name) == 0;
}

void string_sweep_init(string_sweep *w)
{
    w->cap = 256;
    w->nrun = 0;
    w->runs = xcalloc(w->cap, sizeof *w->runs);
    w->sig = xcalloc((size_t)w->cfg.n, sizeof(double));
    w->notes[0] = '\0';
    w->nlen = 0;
    w->n20 = lround(0.02 * w->cfg.fs) + 1;
    w->coarse = xcalloc((size_t)w->n20, sizeof(double));
    w->fine = xcalloc((size_t)w->n20, sizeof(double));
    w->coarse_name[0] = w->fine_name[0] = '\0';
    w->fine_err = INFINITY;
}

void string_sweep_free(string_sweep *w)
{
    free(w->runs);
    free(w->sig);
    free(w->coarse);
    free(w->fine);
    w->runs = NULL;
    w->sig = w->coarse = w->fine = NULL;
}

void string_sweep_note(string_sweep *w, const char *fmt, ...)
{
    bool room = w->nlen < sizeof w->notes;
    va_list ap;
    va_start(ap, fmt);
    int k =
        vsnprintf(w->notes + (room ? w->nlen : 0), room ? sizeof w->notes - w->nlen : 0, fmt, ap);
    va_end(ap);
    w->nlen += (size_t)k;
}

static string_run *new_run(string_sweep *w, const char *space, long size, const char *method,
                           long sub)
{
    if (w->nrun == w->cap) {
        string_run *more = xcalloc(w->cap *= 2, sizeof *more);
        memcpy(more, w->runs, w->nrun * sizeof *more);
        free(w->runs);
        w->runs = more;
    }
    string_run_start(&w->runs[w->nrun], space, size, method, sub);
    return &w->runs[w->nrun++];
}

/* The figure's picks: the coarse grid's exact solution, the finest stepped solution so far. */
static void pick(string_sweep *w, const string_run *r)
{
    bool exact = strcmp(r->method, "exact") == 0;
    if (exact && strcmp(r->space, "fd3") == 0 && r->size == w->N_min) {
        memcpy(w->coarse, w->sig, (size_t)w->n20 * sizeof(double));
        snprintf(w->coarse_name, sizeof w->coarse_name, "3-point FD, N = %ld (exact in time)",
                 r->size);
    }
    if (!string_run_ok(r) || exact || !(r->E_wave < w->fine_err))
        return;
    w->fine_err = r->E_wave;
    memcpy(w->fine, w->sig, (size_t)w->n20 * sizeof(double));
    if (r->substeps > 0)
        snprintf(w->fine_name, sizeof w->fine_name, "%s %ld, %s, h = 1/(%ld fs)", r->space, r->size,
                 r->method, r->substeps);
    else
        snprintf(w->fine_name, sizeof w->fine_name, "%s %ld, %s", r->space, r->size, r->method);
}

/* The run's signal scored as the challenge does (its WAV in OUT/wav/), picked for the figure,
 * handed on. */
static void finish(string_sweep *w, string_run *r)
{
    bool made = strcmp(r->status, "not_run") != 0;    /* a run not made has no scores */
    r->E_wave = r->E_spec = made ? INFINITY : NAN;
    if (string_run_ok(r)) {
        char name[160], path[4096], err[600];
        snprintf(name, sizeof name, "wav/%s-%ld-%s-m%ld.wav", r->space, r->size, r->method,
                 r->substeps);
        path_join(path, sizeof path, w->out, name);
        if (score_submission(path, w->sig, (size_t)w->cfg.n, (int)w->cfg.fs, w->ch, w->ref,
                             &r->E_wave, &r->E_spec, err, sizeof err) != 0) {
            r->E_wave = r->E_spec = INFINITY;
            r->status = "failed";
            snprintf(r->message, sizeof r->message, "%s", err);
        }
    }
    pick(w, r);
    w->done(w, r, w->ctx);
}

/* The exact solution of a system (its modes summed, no time stepping) as a run. */
static string_run *exact_run(string_sweep *w, const char *space, long size,
                             const string_mode *modes, int nm)
{
    string_run *r = new_run(w, space, size, "exact", 0);
    double ts = wall_seconds();
    string_pickup_signal(modes, nm, w->cfg.fs, w->cfg.n, w->cfg.tol_abs, w->sig, NULL);
    r->seconds = wall_seconds() - ts;
    finish(w, r);
    return r;
}

/* ---- the Galerkin system ---- */

/* One method's runs, its modal-METHOD.tsv and its stability note; whether any run was ok, and in
 * *m_min the substeps its stability needs (1: none). */
/* Writes modal-<method>.tsv; *drawn: some substep count ran. 0, or the status with e (the file). */
static int modal_method(string_sweep *w, const method *m, const string_mode *modes, int M,
                        double *m_min, bool *drawn, failure *e)
{
    int lim;
    double hmax = string_stable_h(m, modes, M, w->cfg.tol_abs, &lim), fs = w->cfg.fs;
    *m_min = lim ? string_substeps_for(fs, hmax) : 1.0;
    if (lim)
        string_sweep_note(
            w,
            "modal M = %d, %s: stable only for h <= %.4g s (m >= %.0f substeps), set by mode %d "
            "(omega = %.4g rad/s, alpha = %.4g 1/s): |R(h lambda)| > 1 beyond\n",
            M, m->name, hmax, *m_min, lim, sqrt(modes[lim - 1].omega0sq), modes[lim - 1].alpha);
    else
        string_sweep_note(w, "modal M = %d, %s: stable for every h up to 1 s\n", M, m->name);
    char fname[96];
    snprintf(fname, sizeof fname, "modal-%s.tsv", m->name);
    atomic_file am;
    FILE *fm = atomic_open_file(&am, w->program, w->out, fname, e);
    if (!fm)
        return e->status;
    fprintf(fm, "h_s\t%s\tE_spec\tnfev\n", m->label);
    bool any_ok = false;
    for (long sub = w->sub_min; sub <= w->sub_max; sub *= 2) {
        string_run *r = new_run(w, "modal", M, m->name, sub);
        string_run_modal(&w->cfg, modes, M, m, sub, w->sig, r);
        finish(w, r);
        if (string_run_ok(r)) {
            fprintf(fm, "%.6e\t%.6e\t%.6e\t%ld\n", 1.0 / (fs * sub), r->E_wave, r->E_spec, r->nfev);
            any_ok = true;
        } else {
            string_sweep_note(w, "modal M = %d, %s, m = %ld: %s\n", M, m->name, sub, r->message);
        }
    }
    if (atomic_commit_file(&am, w->program, e))
        return e->status;
    *drawn = any_ok;
    return 0;
}

int string_sweep_modal(string_sweep *w, const string_mode *modes, int M, failure *e)
{
    if (string_sweep_wants(w->method, "exact"))
        exact_run(w, "modal", M, modes, M);
    atomic_file ah, an;
    FILE *fh = atomic_open_file(&ah, w->program, w->out, "modal-methods.txt", e);
    if (!fh)
        return e->status;
    char figure_note[512] = "";
    size_t flen = 0;
    for (int i = 0; w->methods->all[i]; i++) {
        const method *m = w->methods->all[i];
        double m_min;
        bool drawn = false;
        if (!string_sweep_wants(w->method, m->name))
            continue;
        if (modal_method(w, m, modes, M, &m_min, &drawn, e))
            return e->status;
        if (drawn)
            fprintf(fh, "%s ", m->name); /* the figure draws it; the others are named in its note */
        else
            flen += (size_t)snprintf(figure_note + flen,
                                     flen < sizeof figure_note ? sizeof figure_note - flen : 0,
                                     "%s%s needs m >= %.0f (blew up at every m <= %ld)",
                                     flen ? "; " : "not drawn: ", m->label, m_min, w->sub_max);
    }
    fputc('\n', fh);
    if (atomic_commit_file(&ah, w->program, e))
        return e->status;
    FILE *fnote = atomic_open_file(&an, w->program, w->out, "modal-note.txt", e);
    if (!fnote)
        return e->status;
    fprintf(fnote, "M = %d modes; %s\n", M, figure_note);
    if (atomic_commit_file(&an, w->program, e))
        return e->status;
    if (string_sweep_wants(w->method, "cvode") &&
        (w->cvode_modal || strcmp(w->method, "cvode") == 0)) {
        string_galerkin g = {modes, M};
        string_run *r = new_run(w, "modal", M, "cvode", 0);
        string_run_cvode(&w->cfg, NULL, &g, w->sig, r);
        finish(w, r);
        string_sweep_note(w, "modal M = %d, %s: %s\n", M, r->method, r->message);
    }
    return 0;
}

/* ---- the grids ---- */

/* The exact semi-discrete solution of the grid (the floor of every time stepping), its row of
 * fd-N.tsv with the share of the error past a radian of phase and the order since the last N. */
static void fd_exact(string_sweep *w, const char *space, long N, const string_mode *fm, int fnm,
                     const string_mode *modes, int nm, double *prevN, double *prevE)
{
    string_run *r = exact_run(w, space, N, fm, fnm);
    double share = string_phase_saturated_share(modes, nm, fm, fnm, w->duration);
    double slope = NAN;     /* the measured order between this N and the last: -d log E / d log N */
    if (*prevN > 0) {
        double xs[2] = {*prevN, (double)N}, ys[2] = {*prevE, r->E_wave};
        measure_pairwise_slopes(xs, ys, 2, &slope);
        slope = -slope;
    }
    *prevN = (double)N, *prevE = r->E_wave;
    fprintf(w->fn, "%s\t%ld\t%.6e\t%.6e\t%.6e\t%.6e\t%.4f\n", space, N, r->E_wave, r->E_spec, share,
            sqrt(2.0 * share), slope);
}

/* Each fixed-step method on the grid (fd interleaved, fd_halves for a method stepping u' = v
 * apart); one found unstable is marked so that finer grids skip it (its stable step only shrinks).
 */
static void fd_fixed(string_sweep *w, const char *space, long N, string_fd *fd,
                     string_fd *fd_halves, const string_mode *fm, int fnm, bool *unstable)
{
    double omega_max = sqrt(fm[string_modes_fastest(fm, fnm)].omega0sq), fs = w->cfg.fs;
    for (int i = 0; w->methods->all[i] && i < 64 && N <= w->fd_fixed_N_max; i++) {
        const method *m = w->methods->all[i];
        /* a tableau file runs on the modal system */
        if (!string_sweep_wants(w->method, m->name) || m->file || unstable[i])
            continue;
        int lim;
        double hmax = string_stable_h(m, fm, fnm, 0.0, &lim);
        long sub = w->fd_sub;
        string_run *r = new_run(w, space, N, m->name, sub);
        if (lim && 1.0 / (fs * sub) > hmax) {
            r->status = "not_run";
            snprintf(r->message, sizeof r->message,
                     "not run: h = %.4g s > %.4g s, the largest stable step (set by the fastest "
                     "mode, omega = %.4g rad/s; "
                     "needs m >= %.0f)",
                     1.0 / (fs * sub), hmax, sqrt(fm[lim - 1].omega0sq),
                     string_substeps_for(fs, hmax));
        } else {
            string_run_fd(&w->cfg, m->needs_uv ? fd_halves : fd, omega_max, m, sub, w->sig, r);
        }
        finish(w, r);
        if (!string_run_ok(r)) {
            string_sweep_note(w, "%s N = %ld, %s, m = %ld: %s\n", space, N, m->name, sub,
                              r->message);
            unstable[i] = strcmp(r->status, "blowup") == 0 || strcmp(r->status, "not_run") == 0;
        } else
            fprintf(w->ffx, "%s\t%ld\t%.6e\t%.6e\t%s\t%ld\t%.4f\n", space, N, r->E_wave, r->E_spec,
                    m->name, sub, r->seconds);
    }
}

/* One stencil over the N sweep: a block of each of the three tables. */
static int sweep_stencil(string_sweep *w, const string_params *s, int sten,
                         const string_mode *modes, int nm, char *err, size_t errlen)
{
    const char *space = sten == 3 ? "fd3" : "fd5";
    double prevN = 0, prevE = 0;
    bool unstable[64] = {false};
    for (long N = w->N_min; N <= w->N_max; N *= 2) {
        /* interleaved (u_1, v_1, u_2, v_2, ...): a band of half-width 3 or 5, which CVODE's band
         * solver and the implicit methods' band LU (newton.c) use; the same grid as (u, v) halves
         * for a method that steps u' = v apart (leapfrog) */
        string_fd fd, fd_halves;
        if (string_fd_init(&fd, s, (string_stencil)sten, N, true, err, errlen) != 0)
            return -1;
        fd_halves = fd;
        fd_halves.interleaved = false;
        string_mode *fm;
        int fnm = string_fd_modes(&fd, &fm);
        if (string_sweep_wants(w->method, "exact"))
            fd_exact(w, space, N, fm, fnm, modes, nm, &prevN, &prevE);
        fd_fixed(w, space, N, &fd, &fd_halves, fm, fnm, unstable);
        if (string_sweep_wants(w->method, "cvode") && N <= w->cvode_N_max) {
            string_run *r = new_run(w, space, N, "cvode", 0);
            string_run_cvode(&w->cfg, &fd, NULL, w->sig, r);
            finish(w, r);
            if (string_run_ok(r))
                fprintf(w->fcv, "%s\t%ld\t%.6e\t%.6e\t%s\n", space, N, r->E_wave, r->E_spec,
                        r->method);
            string_sweep_note(w, "%s N = %ld, %s: %s\n", space, N, r->method, r->message);
        }
        free(fm);
    }
    fprintf(w->fn, "\n\n");
    fprintf(w->fcv, "\n\n");
    fprintf(w->ffx, "\n\n");
    return 0;
}

int string_sweep_grids(string_sweep *w, const string_params *s, const string_mode *modes, int nm,
                       char *err, size_t errlen, failure *e)
{
    atomic_file an, acv, afx;
    w->fn = atomic_open_file(&an, w->program, w->out, "fd-N.tsv", e);
    if (!w->fn)
        return e->status;
    fprintf(w->fn, "space\tN\tE_wave\tE_spec\tshare_past_1rad\tE_saturated\tslope\n");
    w->fcv = atomic_open_file(&acv, w->program, w->out, "fd-N-cvode.tsv", e);
    if (!w->fcv)
        return e->status;
    fprintf(w->fcv, "space\tN\tE_wave\tE_spec\tmethod\n");
    w->ffx = atomic_open_file(&afx, w->program, w->out, "fd-N-fixed.tsv", e);
    if (!w->ffx)
        return e->status;
    fprintf(w->ffx, "space\tN\tE_wave\tE_spec\tmethod\tsubsteps\tseconds\n");
    for (int sten = 3; sten <= 5; sten += 2)
        if (string_sweep_wants(w->space, sten == 3 ? "fd3" : "fd5") &&
            sweep_stencil(w, s, sten, modes, nm, err, errlen) != 0) {
            atomic_abort(&an);
            atomic_abort(&acv);
            atomic_abort(&afx);
            return -1;
        }
    if (atomic_commit_file(&an, w->program, e))
        return e->status;
    if (atomic_commit_file(&acv, w->program, e))
        return e->status;
    if (atomic_commit_file(&afx, w->program, e))
        return e->status;
    w->fn = w->fcv = w->ffx = NULL;
    return 0;
}

int string_sweep_first20ms(const string_sweep *w, const double *ref, failure *e)
{
    atomic_file a;
    FILE *f = atomic_open_file(&a, w->program, w->out, "first20ms.tsv", e);
    if (!f)
        return e->status;
    double scale = w->ch->signal_scale;
    fprintf(f, "t_ms\treference (modal series)\t%s\t%s\n",
            w->coarse_name[0] ? w->coarse_name : "(no coarse run)",
            w->fine_name[0] ? w->fine_name : "(no fine run)");
    for (long k = 0; k < w->n20 && k < w->cfg.n; k++)
        fprintf(f, "%.5f\t%.8e\t%.8e\t%.8e\n", 1e3 * k / w->cfg.fs, ref[k], w->coarse[k] / scale,
                w->fine[k] / scale);
    if (atomic_commit_file(&a, w->program, e))
        return e->status;
    return 0;
}

/* ---- the order study ---- */

int string_sweep_order_study(const string_sweep *w, const string_params *s, long N,
                             const string_mode *modes, int M, double T, long steps,
                             string_study_row rows[2][8], int nrows[2], double *w_top,
                             double *a_top, char *err, size_t errlen, failure *e)
{
    string_fd fd;
    if (string_fd_init(&fd, s, STRING_FD5, N, true, err, errlen) != 0)
        return -1;
    string_galerkin g = {modes, M};
    string_mode *fm;
    int fnm = string_fd_modes(&fd, &fm), top = string_modes_fastest(fm, fnm);
    *w_top = sqrt(fm[top].omega0sq), *a_top = fm[top].alpha;
    free(fm);
    nrows[0] = nrows[1] = 0;
    atomic_file a;
    FILE *f = atomic_open_file(&a, w->program, w->out, "cvode-order.tsv", e);
    if (!f)
        return e->status;
    fprintf(f, "system\tsize\tmax_order\tstab_lim\tt_s\tsteps\tnfev\tnetf\tseconds\tsteps_per_"
               "s\twall_per_s\n");
    /* blocks for the figure: fd5 without and with detection, then the Galerkin system likewise */
    for (int sys = 0; sys < 2; sys++)
        for (int sl = 0; sl <= 1; sl++) {
            for (int q = sl ? 3 : 1; q <= 5; q++) {
                string_study_row *r = &rows[sys][nrows[sys]++];
                memset(r, 0, sizeof *r);
                r->max_order = q;
                r->stab_lim = sl;
                string_study_run(&w->cfg, sys == 0 ? &fd : NULL, sys == 0 ? NULL : &g, T, steps, r);
                fprintf(f, "%s\t%ld\t%d\t%d\t%.6g\t%ld\t%ld\t%ld\t%.6g\t%.6g\t%.6g\n",
                        sys == 0 ? "fd5" : "modal", sys == 0 ? N : (long)M, q, sl, r->t, r->steps,
                        r->nfev, r->netf, r->seconds, r->t > 0 ? (double)r->steps / r->t : NAN,
                        r->t > 0 ? r->seconds / r->t : NAN);
            }
            fprintf(f, "\n\n");
        }
    return atomic_commit_file(&a, w->program, e);
}

void string_sweep_print_study(const string_sweep *w, double T, double steps, long N,
                              string_study_row rows[2][8], const int nrows[2], int M, double w_top,
                              double a_top)
{
    double angle = atan2(sqrt(fmax(w_top * w_top - a_top * a_top, 0.0)), a_top) * 180.0 / M_PI;
    printf("\nCVODE BDF against its order cap q (rtol %g, atol %g): cost per second of sound over "
           "the first %g s, while\n"
           "the fast modes ring (or %g steps)\n",
           w->cfg.rtol, w->cfg.atol, T, steps);
    printf("  %-10s %2s %5s %12s %12s %12s\n", "system", "q", "stab", "steps/s", "F evals/s",
           "wall s/s");
    for (int sys = 0; sys < 2; sys++)
        for (int i = 0; i < nrows[sys]; i++) {
            const string_study_row *r = &rows[sys][i];
            char name[32];
            snprintf(name, sizeof name, "%s %ld", sys == 0 ? "fd5" : "modal",
                     sys == 0 ? N : (long)M);
            printf("  %-10s %2d %5s %12.4g %12.4g %12.4g\n", name, r->max_order,
                   r->stab_lim ? "on" : "off", (double)r->steps / r->t, (double)r->nfev / r->t,
                   r->seconds / r->t);
        }
    /* what it says: the cap with the fewest steps per second on the grid, against q = 2 */
    const string_study_row *q2, *best = string_study_fewest(rows[0], nrows[0], &q2);
    printf("Dahlquist's second barrier: no A-stable linear multistep method has order above 2. "
           "BDF1-2 are A-stable;\n"
           "BDF3-5 are stable only in sectors of 86, 73 and 52 degrees about the negative real "
           "axis, and the string's\n"
           "lightly damped modes lie outside them (fd5 N = %ld: the fastest, omega = %.4g rad/s "
           "with alpha = %.4g 1/s,\n"
           "at %.1f degrees). Measured here: the fewest steps per second at q = %d%s (%.3g); q = 2 "
           "takes %.2f times as many:\n"
           "%s\n",
           N, w_top, a_top, angle, best->max_order,
           best->stab_lim ? " with stability-limit detection" : "", best->steps / best->t,
           (q2->steps / q2->t) / (best->steps / best->t),
           best->max_order > 2 ? "the cap does not pay here: the low orders' A-stability does not "
                                 "make up for their larger\n"
                                 "error per step, and the default cap stays at the fastest order."
                               : "capping the order at 2 buys A-stability, and the step is then "
                                 "held by accuracy alone.");
}

/* ---- the tolerance study ---- */

static const char *rtol_setup(const string_rtol_row *r)
{
    return !r->adams       ? "BDF + band Newton"
           : r->fixedpoint ? "Adams + fixed point"
                           : "Adams + band Newton";
}

int string_sweep_rtol_study(const string_sweep *w, const string_params *s, long N, double t0,
                            double T, string_rtol_row rows[STRING_RTOL_ROWS], double *lam_re,
                            double *lam_im, char *err, size_t errlen, failure *e)
{
    string_fd fd;
    if (string_fd_init(&fd, s, STRING_FD5, N, true, err, errlen) != 0)
        return -1;
    string_mode *fm;
    int nm = string_fd_modes(&fd, &fm), top = string_modes_fastest(fm, nm);
    *lam_re = -fm[top].alpha,
    *lam_im = sqrt(fmax(fm[top].omega0sq - fm[top].alpha * fm[top].alpha, 0.0));
    long n1 = lround((t0 + T) * w->cfg.fs) + 1;
    double *exact = xcalloc((size_t)n1, sizeof(double)), lam = hypot(*lam_re, *lam_im);
    string_pickup_signal(fm, nm, w->cfg.fs, n1, w->cfg.tol_abs, exact, NULL);
    atomic_file a;
    FILE *f = atomic_open_file(&a, w->program, w->out, "cvode-rtol.tsv", e);
    if (!f) {
        free(exact);
        free(fm);
        return e->status;
    }
    fprintf(f, "setup\trtol\tN\tmax_order\tt0\ttm\tt1\tsteps_per_s\tnfev_per_s\tcpu_per_s\terr\th_"
               "lambda\tok\t"
               "q_most\tstab_steps_per_s\n");
    for (int i = 0; i < STRING_RTOL_ROWS; i++) {
        string_rtol_row *r = &rows[i];
        memset(r, 0, sizeof *r);
        r->adams = i >= 6, r->fixedpoint = i >= 12, r->rtol = pow(10.0, -3 - i % 6), r->t0 = t0,
        r->t1 = t0 + T;
        string_rtol_run(&w->cfg, &fd, fm, nm, exact, r);
        double span = r->t1 - r->tm;
        /* the stability line: Adams-Moulton at the order CVODE took most steps at (BDF: none drawn)
         */
        double lim = string_adams_limit(r->q_most, *lam_re, *lam_im),
               stab = r->adams && isfinite(lim) ? lam / lim : NAN;
        fprintf(
            f, "%s\t%g\t%ld\t%d\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.4e\t%.4g\t%d\t%d\t%.6g\n",
            rtol_setup(r), r->rtol, N, r->max_order, r->t0, r->tm, r->t1, r->steps / span,
            r->nfev / span, r->cpu / span, r->err, lam * span / r->steps, r->ok, r->q_most, stab);
        if (i % 6 == 5)
            fprintf(f, "\n\n");
    }
    free(exact);
    free(fm);
    return atomic_commit_file(&a, w->program, e);
}

/* Adams + band Newton (rows 6..11) iterates the Adams-Moulton corrector to convergence, so its
 * stability region bounds the step: at the order CVODE took most steps at, string_adams_limit on
 * the fastest grid mode gives the fewest steps per second stability allows (the dashed line of
 * pluck_cvode_steps). Fixed-point iteration adds its own convergence limit: no line for it. */
static void print_rtol_stability(const string_rtol_row *rows, double lam_re, double lam_im)
{
    int qlo = 99, qhi = 0;
    double lim_lo = INFINITY, lim_hi = 0, s_lo = INFINITY, s_hi = 0, m_lo = INFINITY, m_hi = 0,
           lam = hypot(lam_re, lam_im);
    for (int i = 6; i < 12; i++) {
        const string_rtol_row *r = &rows[i];
        double lim = string_adams_limit(r->q_most, lam_re, lam_im),
               sps = r->steps / (r->t1 - r->tm);
        qlo = r->q_most < qlo ? r->q_most : qlo, qhi = r->q_most > qhi ? r->q_most : qhi;
        lim_lo = fmin(lim_lo, lim), lim_hi = fmax(lim_hi, lim), s_lo = fmin(s_lo, lam / lim),
        s_hi = fmax(s_hi, lam / lim);
        m_lo = fmin(m_lo, sps), m_hi = fmax(m_hi, sps);
    }
    if (isinf(lim_hi)) {
        printf("Stability: Adams + band Newton ran at order %d..%d, A-stable (1 and 2): no "
               "stability line.\n",
               qlo, qhi);
        return;
    }
    char q[16], h[32], n[32];   /* one value, or the range over rtol */
    snprintf(q, sizeof q, qlo == qhi ? "%d" : "%d..%d", qlo, qhi);
    snprintf(h, sizeof h, lim_lo == lim_hi ? "%.4g" : "%.4g..%.4g", lim_lo, lim_hi);
    snprintf(n, sizeof n, s_lo == s_hi ? "%.4g" : "%.4g..%.4g", s_lo, s_hi);
    printf("Stability: Adams + band Newton iterates Adams-Moulton to convergence; at order %s (the "
           "order CVODE took most\n"
           "steps at) that is stable on the fastest mode up to h|lambda| = %s: at least %s steps "
           "per second\n"
           "(the dashed line); it took %.4g..%.4g.\n",
           q, h, n, m_lo, m_hi);
}

void string_sweep_print_rtol(const string_sweep *w, long N, const string_rtol_row *rows,
                             double lam_re, double lam_im)
{
    const string_rtol_row *r0 = &rows[0];
    printf("\nCVODE against its tolerance (atol %g) on the 5-point grid, N = %ld: per second of "
           "sound over %.3g .. %.3g s\n"
           "(started at %.3g s from the exact semi-discrete state; error: RMS against it over the "
           "window, relative)\n",
           w->cfg.atol, N, r0->t0 + 0.5 * (r0->t1 - r0->t0), r0->t1, r0->t0);
    printf("  %-20s %6s %12s %12s %10s %11s %8s\n", "setup", "rtol", "steps/s", "F evals/s",
           "CPU s/s", "error", "h|lam|");
    double lam = hypot(lam_re, lam_im), worst = 0, cpu[3] = {0, 0, 0};
    int bad = 0, worst_su = 0, best = 0;
    for (int su = 0; su < 3; su++) {
        double lo = INFINITY, hi = 0;
        for (int i = 6 * su; i < 6 * su + 6; i++) {
            const string_rtol_row *r = &rows[i];
            double span = r->t1 - r->tm, sps = r->steps / span;
            bad += !r->ok;
            lo = fmin(lo, sps), hi = fmax(hi, sps), cpu[su] += r->cpu / span / 6;
            printf("  %-20s %6.0e %12.4g %12.4g %10.3g %11.3e %8.3g\n", rtol_setup(r), r->rtol, sps,
                   r->nfev / span, r->cpu / span, r->err, lam * span / r->steps);
        }
        if (hi / lo - 1 > worst)
            worst = hi / lo - 1, worst_su = su;
        best = cpu[su] < cpu[best] ? su : best;
    }
    int q = rows[0].max_order > rows[6].max_order ? rows[0].max_order
                                                  : rows[6].max_order; /* the weaker growth */
    printf("The grid's fastest mode: lambda = %.4g %+.4g i 1/s (|lambda| = %.4g); h|lambda| is the "
           "mean step times it.\n",
           lam_re, lam_im, lam);
    print_rtol_stability(rows, lam_re, lam_im);
    if (bad)
        printf("%d of the runs failed (cvode-rtol.tsv): no verdict on the spread.\n", bad);
    else
        printf("Steps per second vary by at most %.0f%% over rtol 1e-3 .. 1e-8 (%s), where a step "
               "held by accuracy at\n"
               "order %d would grow %.2g times: %s\n",
               100 * worst, rtol_setup(&rows[6 * worst_su]), q, pow(10.0, 5.0 / (q + 1)),
               worst <= STRING_RTOL_FLAT
                   ? "flat, the step is held by stability on the highest grid mode, not by the "
                     "tolerance."
                   : "not flat (above the 50% taken as flat), the tolerance moves the step here.");
    printf("Cheapest, processor time per second of sound (mean over rtol): %s, %.3g s; %s %.3g s, "
           "%s %.3g s.\n",
           rtol_setup(&rows[6 * best]), cpu[best], rtol_setup(&rows[6 * ((best + 1) % 3)]),
           cpu[(best + 1) % 3], rtol_setup(&rows[6 * ((best + 2) % 3)]), cpu[(best + 2) % 3]);
}

void string_sweep_print_best(const string_sweep *w)
{
    const string_run *runs = w->runs;
    size_t nrun = w->nrun;
    printf("\nbest E_wave per method:\n");
    for (size_t i = 0; i < nrun; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen = seen || strcmp(runs[j].method, runs[i].method) == 0;
        if (seen)
            continue;
        const string_run *b = string_run_best(runs, nrun, runs[i].method);
        if (b)
            printf("  %-16s E_wave %.3e  (%s %ld, m = %ld, %ld F evaluations, %.3f s)\n", b->method,
                   b->E_wave, b->space, b->size, b->substeps, b->nfev, b->seconds);
        else
            printf("  %-16s no run succeeded\n", runs[i].method);
    }
}
