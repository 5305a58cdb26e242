/* explore.c: the WebAssembly entry points of the notebook pages' four "Try it" explorers
 * (issue 19). Every number a page shows comes from here, and everything here is a call into
 * the library the lessons link: the method table with R(z) (method/), the fixed-step driver
 * (solve.c), the oscillator and its roots (oscillator/oscillator.c), the stability helpers
 * (stability.c), the ball on the oscillator and its impact detector (ball/ball_model.c), a
 * pasted tableau (method/tableau_read.c). The page's JavaScript only moves sliders, draws and
 * plays.
 *
 * Built by `make wasm` with clang --target=wasm32-wasi into build/wasm/explore.wasm (no entry
 * point: a library). Results are left in buffers the page reads through the ex_*_ptr exports;
 * strings go in through ex_alloc. A run that fails or blows up says so in ex_error(). */
#include "io/params.h"
#include "method/method.h"
#include "method/tableau.h"
#include "ball/ball_model.h"
#include "oscillator/oscillator.h"
#include "drive/solve.h"
#include "analysis/stability.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT(name) __attribute__((export_name(#name)))
/* Most steps one explorer run takes (the page's sliders stay far below): a run above it is refused.
 */
#define EX_MAX_STEPS 5000000L

static char error_text[600];            /* why the last call failed, or "" */
static tableau_method own;              /* the pasted tableau's method and its storage */
static const method *own_method;        /* &own.m when a tableau was read, NULL if none */

EXPORT(ex_error) const char *ex_error(void) { return error_text; }
EXPORT(ex_alloc) void *ex_alloc(size_t n) { return malloc(n ? n : 1); }
EXPORT(ex_free) void ex_free(void *p) { free(p); }

/* ---- the methods: the built-in table, then the pasted tableau ---- */

static int builtin_count(void)
{
    int n = 0;
    while (method_builtin[n])
        n++;
    return n;
}

static const method *method_at(int i)
{
    int nb = builtin_count();
    if (i >= 0 && i < nb)
        return method_builtin[i];
    return i == nb ? own_method : NULL;
}

EXPORT(ex_method_count) int ex_method_count(void) { return builtin_count() + (own_method ? 1 : 0); }
EXPORT(ex_method_name) const char *ex_method_name(int i)
{
    return method_at(i) ? method_at(i)->name : "";
}
EXPORT(ex_method_label) const char *ex_method_label(int i)
{
    return method_at(i) ? method_at(i)->label : "";
}
EXPORT(ex_method_order) int ex_method_order(int i)
{
    return method_at(i) ? method_at(i)->order : 0;
}
/* 1: implicit (a Newton solve per step), 2: steps (u, v) halves only (leapfrog). */
EXPORT(ex_method_flags) int ex_method_flags(int i)
{
    const method *m = method_at(i);
    return m ? (m->implicit ? 1 : 0) | (m->needs_uv ? 2 : 0) : 0;
}

/* A tableau's text (the own-method file format, method/tableau.h) as the extra method; its index,
 * or -1 with "NAME:LINE: reason" in ex_error. A new text replaces the last one. */
EXPORT(ex_tableau) int ex_tableau(const char *name, const char *text)
{
    own_method = NULL;
    error_text[0] = '\0';
    if (tableau_read_text(&own, name, text, error_text, sizeof error_text) == 0)
        own_method = &own.m;
    return own_method ? builtin_count() : -1;
}

/* ---- buffers the page reads ---- */

typedef struct {
    double *v;              /* values */
    size_t n, cap;          /* held, room */
} buf;

static void buf_put(buf *b, size_t k, double x)
{
    if (k >= b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        while (cap <= k)
            cap *= 2;
        double *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            abort();
        b->v = v;
        b->cap = cap;
    }
    b->v[k] = x;
    if (k + 1 > b->n)
        b->n = k + 1;
}

static const char *status_word(solve_status s)
{
    return s == SOLVE_OK       ? "ok"
           : s == SOLVE_BLOWUP ? "blowup"
           : s == SOLVE_FAILED ? "failed"
                               : "stopped";
}

/* ---- explorer 1: the oscillator, one method at step h against the exact curve (as bin/ivp) ----
 */

static struct {
    buf t, u, v, exact;     /* each sample: time (s), u (m), u' (m/s), exact u (m) */
    buf curve;              /* the exact curve, finely sampled: u (m) at T k / (n - 1) */
    double max_err;         /* largest |u - exact u| over the samples, m */
    oscillator osc;
    double y0[2];           /* initial (u, u'), m and m/s */
} osc;

static int osc_sink(long k, double t, const double *y, void *ctx)
{
    (void)ctx;
    double ex[2];
    oscillator_exact(&osc.osc, osc.y0, t, ex);
    double err = fabs(y[0] - ex[0]);
    if (err > osc.max_err)
        osc.max_err = err;
    buf_put(&osc.t, (size_t)k, t);
    buf_put(&osc.u, (size_t)k, y[0]);
    buf_put(&osc.v, (size_t)k, y[1]);
    buf_put(&osc.exact, (size_t)k, ex[0]);
    return 0;
}

/* Run method mi on u'' = -omega0^2 u - 2 sigma0 u' from (u0, v0) to T by steps of h (the last one
 * short when T is not a multiple of h), blow-up at 1e6 times the initial size, as bin/ivp does.
 * Returns the samples held (read them with ex_osc_ptr); the status word is in ex_error when not ok.
 */
EXPORT(ex_osc)
long ex_osc(int mi, double h, double T, double omega0, double sigma0, double u0, double v0)
{
    const method *m = method_at(mi);
    error_text[0] = '\0';
    osc.t.n = osc.u.n = osc.v.n = osc.exact.n = 0;
    osc.max_err = 0.0;
    if (!m || !(h > 0) || !(T > 0) || !(omega0 > 0) || !(sigma0 >= 0)) {
        snprintf(error_text, sizeof error_text,
                 "refused: no such method, or h, T, omega0 not positive");
        return 0;
    }
    double h_last;
    long n = solve_steps_to(T, h, &h_last);
    if (n > EX_MAX_STEPS) {
        snprintf(error_text, sizeof error_text,
                 "refused: %ld steps, more than %ld: raise h or lower T", n, EX_MAX_STEPS);
        return 0;
    }
    osc.osc = (oscillator){omega0, sigma0};
    osc.y0[0] = u0;
    osc.y0[1] = v0;
    ivp p = oscillator_ivp(&osc.osc);
    double y[2] = {u0, v0};
    double scale = sqrt(u0 * u0 + (v0 / omega0) * (v0 / omega0)) * fmax(1.0, omega0);
    solve_opts so = {.m = m, .t0 = 0.0, .h = h, .n = n, .bound = 1e6 * scale, .every = 1,
                     .sink = osc_sink};
    solve_result res;
    if (solve_fixed_to(&p, y, &so, T, NULL, &res) != SOLVE_OK)
        snprintf(error_text, sizeof error_text, "%s: %s", status_word(res.status), res.message);
    return (long)osc.t.n;
}

EXPORT(ex_osc_max_err) double ex_osc_max_err(void) { return osc.max_err; }
/* 0: t (s), 1: u (m), 2: u' (m/s, the slope the page's ticks show), 3: exact u (m), 4: the curve.
 */
EXPORT(ex_osc_ptr) const double *ex_osc_ptr(int which)
{
    const buf *b[] = {&osc.t, &osc.u, &osc.v, &osc.exact, &osc.curve};
    return which >= 0 && which < 5 ? b[which]->v : NULL;
}

/* The exact u at npts times T k / (npts - 1) into the curve buffer (the gray curve). */
EXPORT(ex_osc_curve)
long ex_osc_curve(double T, long npts, double omega0, double sigma0, double u0, double v0)
{
    oscillator o = {omega0, sigma0};
    double y0[2] = {u0, v0}, ex[2];
    osc.curve.n = 0;
    for (long k = 0; k < npts && npts > 1 && npts <= 100000; k++) {
        oscillator_exact(&o, y0, T * (double)k / (double)(npts - 1), ex);
        buf_put(&osc.curve, (size_t)k, ex[0]);
    }
    return (long)osc.curve.n;
}

/* ---- explorer 2: the stability region of a method, |R(z)| at the cursor, the problem's h lambda
 * ---- */

static unsigned char *region;           /* stable (1) or not (0) on the last grid, row-major */
static size_t region_cap;

EXPORT(ex_abs_R) double ex_abs_R(int mi, double re, double im)
{
    const method *m = method_at(mi);
    return m ? cabs(method_R(m, re + I * im)) : NAN;
}

EXPORT(ex_stable) int ex_stable(int mi, double re, double im)
{
    const method *m = method_at(mi);
    return m && stability_stable(m, re + I * im);
}

/* Along dir = -1 (real) or j (imaginary): the bound of stability_bound, INFINITY for a half-axis.
 */
EXPORT(ex_bound) double ex_bound(int mi, int imaginary)
{
    const method *m = method_at(mi);
    return m ? stability_bound(m, imaginary ? I : -1.0) : NAN;
}

/* Whether |R| <= 1 on an nx x ny grid over [x0, x1] x [y0, y1]; row j (imaginary part y0 + ...)
 * holds nx points; read with ex_region_ptr. Returns the points, 0 when refused. */
EXPORT(ex_region) long ex_region(int mi, double x0, double x1, int nx, double y0, double y1, int ny)
{
    const method *m = method_at(mi);
    if (!m || nx < 2 || ny < 2 || (size_t)nx * (size_t)ny > 4000000)
        return 0;
    size_t need = (size_t)nx * (size_t)ny;
    if (need > region_cap) {
        unsigned char *r = realloc(region, need);
        if (!r)
            return 0;
        region = r;
        region_cap = need;
    }
    for (int j = 0; j < ny; j++) {
        double y = y0 + (y1 - y0) * j / (ny - 1);
        for (int i = 0; i < nx; i++)
            region[(size_t)j * (size_t)nx + (size_t)i] =
                stability_stable(m, x0 + (x1 - x0) * i / (nx - 1) + I * y) ? 1 : 0;
    }
    return (long)need;
}

EXPORT(ex_region_ptr) const unsigned char *ex_region_ptr(void) { return region; }

static double
    overlay_buf[2 * 16 + 2]; /* (re, im) of each h lambda, then max |R| and all stable (1/0) */

/* Each h lambda of lam where m reads its R (stability_z), as bin/stability lays them over the
 * regions, then max |R| over them and whether all are stable. */
static const double *overlay(const method *m, double h, const double complex *lam, int n)
{
    overlay_buf[2 * n] = 0.0;
    overlay_buf[2 * n + 1] = 1.0;
    for (int i = 0; i < n && m; i++) {
        double complex z = stability_z(m, h, lam[i]);
        overlay_buf[2 * i] = creal(z);
        overlay_buf[2 * i + 1] = cimag(z);
        overlay_buf[2 * n] = fmax(overlay_buf[2 * n], cabs(method_R(m, z)));
        if (!stability_stable(m, z))
            overlay_buf[2 * n + 1] = 0.0;
    }
    return overlay_buf;
}

/* The oscillator's two eigenvalues (oscillator_eigenvalues) at step h: see overlay. */
EXPORT(ex_hlambda) const double *ex_hlambda(int mi, double h, double omega0, double sigma0)
{
    oscillator o = {omega0, sigma0};
    double complex lam[2];
    oscillator_eigenvalues(&o, lam);
    return overlay(method_at(mi), h, lam, 2);
}

/* Another problem's eigenvalues, 1/s (the page reads them from bin/stability's eigen.tsv at h = 1
 * s: the spring network's come from GSL's eigensolver, which the module leaves out). */
static double complex user_lam[16];
static int user_n;
EXPORT(ex_eigen_clear) void ex_eigen_clear(void) { user_n = 0; }
EXPORT(ex_eigen_add) int ex_eigen_add(double re, double im)
{
    if (user_n == 16 || !isfinite(re) || !isfinite(im))
        return -1;
    user_lam[user_n++] = re + I * im;
    return 0;
}
EXPORT(ex_eigen_count) int ex_eigen_count(void) { return user_n; }
EXPORT(ex_hlambda_eigen) const double *ex_hlambda_eigen(int mi, double h)
{
    return overlay(method_at(mi), h, user_lam, user_n);
}

/* ---- explorer 3: the roots of the damped oscillator at sigma0/omega0 (as bin/oscillator --ratio)
 * ---- */

static double pair[5];                  /* the roots: see ex_roots */

/* s+ and s- in units of omega0: (re, im) of each, then |s+ - s-| (0 where they meet). */
EXPORT(ex_roots) const double *ex_roots(double ratio)
{
    double complex sp, sm;
    oscillator_roots(ratio, &sp, &sm);
    pair[0] = creal(sp);
    pair[1] = cimag(sp);
    pair[2] = creal(sm);
    pair[3] = cimag(sm);
    pair[4] = cabs(sp - sm);
    return pair;
}

/* ---- explorer 4: the ball dropped on the oscillator at h = 1/fs (as bin/audiorate --method M --fs
 * FS) ---- */

static struct {
    ball_settings s;                    /* the page's copy of lessons/params/ball.ini */
    ball_params keys;                   /* ball.ini's keys bound to s */
    bool spec_ready;
    float *sound; /* u1 scaled to peak at 0.5 of full scale, one value a sample */
    double *u1;                         /* u1, m */
    size_t n, cap;                      /* samples held, room */
    ball_impacts impacts;               /* found from the samples, as bin/audiorate does */
    ball_detector det;
    bool uv;                            /* the run's state is positions first (leapfrog) */
    double peak;                        /* max |u1|, m */
} drop;

/* One "key = value" of ball.ini (params_set): 0, or -1 with the reason in ex_error. */
EXPORT(ex_drop_set) int ex_drop_set(const char *assignment)
{
    if (!drop.spec_ready) {
        ball_params_bind(&drop.s, &drop.keys);
        drop.spec_ready = true;
    }
    error_text[0] = '\0';
    return params_set(drop.keys.all, assignment, error_text, sizeof error_text);
}

EXPORT(ex_drop_get) double ex_drop_get(const char *key)
{
    if (!drop.spec_ready)
        return NAN;
    param_spec rows[CLI_MAX_ROWS];
    cli_flatten(drop.keys.all, false, rows, CLI_MAX_ROWS);
    for (const param_spec *p = rows; p->name; p++)
        if (strcmp(p->name, key) == 0)
            return *(double *)p->dest;
    return NAN;
}

static int drop_sink(long k, double t, const double *x, void *ctx)
{
    (void)ctx;
    double yy[4];
    const double *y = x;
    if (drop.uv) {
        ball_from_uv(x, yy);
        y = yy;
    }
    ball_detector_sample(&drop.det, t, y);
    if ((size_t)k < drop.cap)
        drop.u1[k] = y[0];
    drop.n = (size_t)k + 1;
    return 0;
}

/* The drop with method mi at fs samples a second over the settings' T. Returns the samples; the
 * impacts with ex_drop_impacts / ex_drop_impact_ptr, the sound with ex_drop_sound_ptr. */
EXPORT(ex_drop) long ex_drop(int mi, double fs)
{
    const method *m = method_at(mi);
    error_text[0] = '\0';
    drop.n = 0;
    ball_impacts_free(&drop.impacts);
    if (!m || !drop.spec_ready || !(fs >= 1000 && fs <= 384000)) {
        snprintf(error_text, sizeof error_text,
                 "refused: no such method, no settings, or fs outside [1000, 384000] Hz");
        return 0;
    }
    long n = lround(drop.s.T * fs);
    if (n > EX_MAX_STEPS) {
        snprintf(error_text, sizeof error_text, "refused: %ld steps, more than %ld: lower T or fs",
                 n, EX_MAX_STEPS);
        return 0;
    }
    if ((size_t)n + 1 > drop.cap) {
        free(drop.u1);
        free(drop.sound);
        drop.cap = (size_t)n + 1;
        drop.u1 = malloc(drop.cap * sizeof *drop.u1);
        drop.sound = malloc(drop.cap * sizeof *drop.sound);
        if (!drop.u1 || !drop.sound)
            abort();
    }
    ball b = ball_from_settings(&drop.s);
    ivp p = ball_ivp(&b), p_uv = ball_ivp_uv(&b);
    double y0[4], y[4];
    ball_initial(&drop.s, y0);
    drop.uv = m->needs_uv;
    if (drop.uv)
        ball_to_uv(y0, y);
    else
        memcpy(y, y0, sizeof y);
    ball_detector_init(&drop.det, &b, &drop.impacts);
    solve_opts so = {.m = m, .t0 = 0.0, .h = 1.0 / fs, .n = n, .bound = drop.s.blowup, .every = 1,
                     .sink = drop_sink};
    solve_result res;
    if (solve_fixed(drop.uv ? &p_uv : &p, y, &so, NULL, &res) != SOLVE_OK)
        snprintf(error_text, sizeof error_text, "%s: %s", status_word(res.status), res.message);
    drop.peak = 0.0;
    for (size_t k = 0; k < drop.n; k++)
        drop.peak = fmax(drop.peak, fabs(drop.u1[k]));
    double gain = drop.peak > 0 ? drop.s.wav_peak / drop.peak : 1.0;
    for (size_t k = 0; k < drop.n; k++)
        drop.sound[k] = (float)fmax(-1.0, fmin(1.0, gain * drop.u1[k]));
    return (long)drop.n;
}

EXPORT(ex_drop_impacts) long ex_drop_impacts(void) { return (long)drop.impacts.n; }
/* Impact i: 0 start (s), 1 end (s), 2 ball velocity in (m/s), 3 out (m/s); NAN past the end. */
EXPORT(ex_drop_impact) double ex_drop_impact(long i, int field)
{
    if (i < 0 || (size_t)i >= drop.impacts.n)
        return NAN;
    const ball_impact *e = &drop.impacts.v[i];
    return field == 0   ? e->start
           : field == 1 ? e->end
           : field == 2 ? e->v_in
           : field == 3 ? e->v_out
                        : NAN;
}
EXPORT(ex_drop_peak) double ex_drop_peak(void) { return drop.peak; }
EXPORT(ex_drop_u1_ptr) const double *ex_drop_u1_ptr(void) { return drop.u1; }
EXPORT(ex_drop_sound_ptr) const float *ex_drop_sound_ptr(void) { return drop.sound; }
